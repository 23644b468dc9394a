"""Every game's result rows of a run as Parquet (--keep-games): one file per group in process, one dataset
of parts per group on Dask workers (analyzer.distributed). pyarrow is imported only when rows are written."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.comparisons import arm_groups
from analyzer.configs import Scenario
from analyzer.textfiles import unique_slugs


class ParquetRows:
    """Every game's result rows of a run, one Parquet file per group (--keep-games)."""

    def __init__(self, sc: Scenario, folder):
        import pyarrow.parquet as pq

        game = sc.game
        Path(folder).mkdir(parents=True, exist_ok=True)
        groups = arm_groups(sc)
        names = parquet_names(sc)
        self.paths, self.writers = [], []
        for arms, name in zip(groups, names):
            path = Path(folder) / f"{name}.parquet"
            self.writers.append(pq.ParquetWriter(str(path), parquet_schema(game, len(arms[0].seats))))
            self.paths.append(str(path))
        self.groups = groups

    def write(self, outs, first, active=None):
        """The rows of a chunk of games first..; active: the groups played (None: all)."""
        for gi, (writer, arms, g_outs) in enumerate(zip(self.writers, self.groups, outs)):
            if active is not None and not active[gi]:
                continue
            for arm, out in zip(arms, g_outs):
                writer.write_table(parquet_table(out, first, arm.rotation, writer.schema))

    def close(self):
        for w in self.writers:
            w.close()


def parquet_names(sc):
    """games, or games-<variant> per group (distinct even where labels slug alike)."""
    return ["games"] if len(sc.groups) == 1 else [f"games-{x}" for x in unique_slugs(sc.groups)]


def parquet_schema(game, players):
    import pyarrow as pa

    cols = [pa.field("game", pa.int64()), pa.field("rotation", pa.int64())]
    return pa.schema(cols + [pa.field(c, pa.int64()) for c in game.columns(players)])


def parquet_table(out, first, rotation, schema):
    import pyarrow as pa

    n = out.shape[0]
    arrays = [pa.array(np.arange(first, first + n, dtype=np.int64)), pa.array(np.full(n, rotation, dtype=np.int64))]
    arrays += [pa.array(out[:, c]) for c in range(out.shape[1])]
    return pa.Table.from_arrays(arrays, schema=schema)
