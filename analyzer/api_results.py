"""What the Python API (analyzer/api.py) gives back: a run's Result, a tune's TuneOutcome, a profile's ProfileOutcome.

Each holds the figures as DataFrames (the tables behind the report's CSV files), the answer the report opens with
(`answer`: its words; in Jupyter the answer and its key table, `_repr_html_`), and `report(path)` to write the usual
folder. The figures come from the same functions the report's files do, so they are the CLI's to the last digit.
"""
from __future__ import annotations

import shutil
import tempfile
import weakref
from functools import cached_property
from pathlib import Path

from analyzer.errors import ScenarioError

KEY_ROWS = 12  # rows of the key table shown in a notebook (every row is in the DataFrame)


class _Outcome:
    """The parts every outcome shares: the answer section's words and HTML, and the report folder."""

    def _answer_blocks(self, folder):  # (the report's opening section, its picture drawn into folder)
        raise NotImplementedError

    def _write(self, folder):
        raise NotImplementedError

    def _default_dir(self):
        raise NotImplementedError

    def key_table(self):
        """The table a notebook shows under the answer (a DataFrame)."""
        raise NotImplementedError

    @cached_property
    def _answer(self):
        folder = tempfile.mkdtemp(prefix="analyzer-answer-")
        weakref.finalize(self, shutil.rmtree, folder, True)
        return self._answer_blocks(Path(folder))

    @property
    def answer(self) -> str:
        """The answer the report opens with, in words (one paragraph a line)."""
        from analyzer.report.blocks import Text, plain

        return "\n".join(plain(b.text) for b in _flat(self._answer) if isinstance(b, Text))

    def _repr_html_(self):
        from analyzer.report.blocks import _html_blocks

        table = self.key_table()
        table = table.drop(columns=[c for c in ("level",) if c in table and not table[c].astype(bool).any()])
        more = f"<p>({len(table) - KEY_ROWS:,} more rows in the DataFrame)</p>" if len(table) > KEY_ROWS else ""
        return "\n".join(_html_blocks(self._answer)) + table.head(KEY_ROWS).to_html(index=False) + more

    def report(self, path=None) -> Path:
        """Write the report folder (HTML, Markdown, PNG, CSV, manifest.json) to path (default
        reports/<scenario>-<time>), replacing a report folder there as the CLI does; its path."""
        from analyzer import report

        out = Path(path) if path is not None else self._default_dir()
        try:
            tmp = report.prepare_out(out)
        except report.OutError as e:
            raise ScenarioError("report", None, None, str(e)) from None
        try:
            self._write(tmp)
            return report.commit_out(tmp, out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _flat(blocks):
    """The blocks with every Section's and Details' own blocks in place of it."""
    for b in blocks:
        inner = getattr(b, "blocks", None)
        if inner is not None:
            yield from _flat(inner)
        else:
            yield b


class Result(_Outcome):
    """A played scenario (analyzer.run, ladder, strength).

    summary: summary.csv's table; verdicts: every judged difference; games: each game's result row (keep_games);
    manifest: manifest.json's record; partial: stopped early (Ctrl-C), with every finished game in."""

    def __init__(self, run, games_dir=None):
        self.run = run  # analyzer.results.RunResult
        self._games_dir = games_dir
        if games_dir is not None:
            weakref.finalize(self, shutil.rmtree, games_dir, True)

    @property
    def scenario(self):
        return self.run.scenario

    @property
    def partial(self) -> bool:
        return self.run.partial

    def __repr__(self):
        state = ", partial" if self.partial else ""
        return (f"<analyzer.Result {self.scenario.name!r}: {self.run.games:,} deals x {len(self.run.groups)} "
                f"group(s) of {self.scenario.game.name}{state}>")

    @cached_property
    def summary(self):
        """Every metric of every group with its 95% interval and its difference from the baseline (summary.csv)."""
        import pandas as pd

        from analyzer.report import SUMMARY_COLUMNS, summary_table
        from analyzer.report.sections import summary_rows

        return pd.DataFrame(summary_table(self.run, summary_rows(self.run)), columns=SUMMARY_COLUMNS)

    @cached_property
    def manifest(self) -> dict:
        from analyzer import report

        return report.manifest(self.run)

    @cached_property
    def verdicts(self):
        """The report's judgements as data: each group's first player (or team) against an even share, then each
        group's paired difference from its baseline in every metric the groups share, with the practical margin
        and the verdict ("matters", "below the margin", "not shown") and its words."""
        import pandas as pd

        from analyzer import margins
        from analyzer import metrics as M
        from analyzer.report import comparison as C

        run, sc = self.run, self.scenario
        rows = []
        for g in run.groups:
            m = M.metric_for(sc.game, g.players, g.rotations, "first_player_edge")
            if m is not None and M.has(g.summary, m):
                v, lo, hi = M.value_ci(m, g.summary, g.rotations)
                margin = margins.margin_of(sc.margins, m)
                rows.append(_verdict_row(g, m.key, m.label, "an even share", v, lo, hi, margin,
                                         margins.verdict(v, lo, hi, margin)))
        for g in run.groups:
            if g.reference is not None:
                for c in C.classified_differences(run, g, g.reference):
                    rows.append(_verdict_row(g, c.metric.key, c.label, g.reference.label, c.d, c.lo, c.hi, c.margin,
                                             c.verdict))
        return pd.DataFrame(rows, columns=["group", "level", "metric", "label", "versus", "difference", "low", "high",
                                           "margin", "verdict", "words"])

    @cached_property
    def games(self):
        """Every game's result row, one DataFrame with the group's label first (None unless keep_games=True)."""
        import pandas as pd

        if self._games_dir is None:
            return None
        parts = []
        for g, path in zip(self.run.groups, self.run.parquet):
            part = pd.read_parquet(path)
            part.insert(0, "group", g.label)
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    @cached_property
    def strength(self):
        """A strength curve's table (strength.csv: each rung's rating and interval), or None for other runs."""
        import pandas as pd

        from analyzer.report.strength import CSV_COLUMNS, csv_rows, curve

        if self.scenario.comparison.get("kind") != "strength" or self.run.games == 0:
            return None
        return pd.DataFrame(csv_rows(curve(self.run)), columns=CSV_COLUMNS)

    def key_table(self):
        key = self.scenario.key_metric or "first_player_edge"
        table = self.verdicts[self.verdicts.metric == key]
        return table if len(table) else self.verdicts

    def _answer_blocks(self, folder):
        from analyzer import report
        from analyzer.report.answer import ANSWER_ID

        _, blocks, _, _ = report.pages(self.run, folder, dict(self.manifest))
        return [b for b in blocks if getattr(b, "id", None) == ANSWER_ID][:1] or blocks[:1]

    def _write(self, folder):
        from analyzer import report

        for path in self.run.parquet:  # (kept games: files, or dataset folders from Dask workers)
            copy = shutil.copytree if Path(path).is_dir() else shutil.copy2
            copy(path, folder / Path(path).name)
        report.write_report(self.run, folder)

    def _default_dir(self):
        from analyzer import report

        return report.default_dir(self.scenario)


def _verdict_row(g, key, label, versus, d, lo, hi, margin, verdict):
    return [g.label, g.level, key, label, versus, d, lo, hi, margin, verdict.word, verdict.text]


class _CommandOutcome(_Outcome):
    """The outcome of a command with a report of its own (tune, profile): its result, and its report module's
    answer(result, folder) and write(result, folder)."""

    report_module = ""  # e.g. "analyzer.tuning.report"
    folder_suffix = ""  # the default report folder: reports/<scenario file's stem>-<suffix>-<time>

    def __init__(self, result):
        self.result = result

    @property
    def partial(self) -> bool:
        return self.result.partial

    def _report(self):
        from importlib import import_module

        return import_module(self.report_module)

    def _answer_blocks(self, folder):
        return self._report().answer(self.result, folder)

    def _write(self, folder):
        self._report().write(self.result, folder)

    def _default_dir(self):
        from analyzer import report

        sc = self.result.scenario
        return report.default_dir(sc, name=f"{Path(sc.source).stem}-{self.folder_suffix}")


class TuneOutcome(_CommandOutcome):
    """A tune (analyzer.tuning.TuneResult in .result): trials (tune.csv: every trial's settings, state and figures),
    race (the confirmation race's summary.csv table, or None)."""

    report_module, folder_suffix = "analyzer.tuning.report", "tune"

    def __repr__(self):
        return f"<analyzer.TuneOutcome {self.result.scenario.name!r}: {len(self.result.run.trials):,} trials>"

    @cached_property
    def trials(self):
        import pandas as pd

        from analyzer.tuning.report import trial_rows

        header, rows = trial_rows(self.result)
        return pd.DataFrame(rows, columns=header)

    @cached_property
    def race(self):
        import pandas as pd

        from analyzer.report import SUMMARY_COLUMNS, summary_table
        from analyzer.report.sections import summary_rows

        race = self.result.race
        if race is None or not race.games:
            return None
        return pd.DataFrame(summary_table(race, summary_rows(race)), columns=SUMMARY_COLUMNS)

    def key_table(self):
        return self.trials


class ProfileOutcome(_CommandOutcome):
    """A profile (analyzer.profiling.ProfileResult in .result): table (profile.csv: metric, level, value, low, high,
    games), checks (each warning flag: its figure, threshold, whether it is flagged, in words)."""

    report_module, folder_suffix = "analyzer.profiling.report", "profile"

    def __repr__(self):
        levels = " and ".join(lv.label for lv in self.result.levels)
        return f"<analyzer.ProfileOutcome {self.result.scenario.name!r} at {levels}>"

    @cached_property
    def table(self):
        import pandas as pd

        from analyzer.profiling.report import CSV_COLUMNS, csv_rows

        return pd.DataFrame(csv_rows(self.result), columns=CSV_COLUMNS)

    @cached_property
    def checks(self):
        """One row per warning flag: key, title, value, low, high (None: not measured), threshold, flagged (True,
        False, or None: not measured) and the words the report says."""
        import pandas as pd

        rows = [[c.key, c.title, *(c.figure or (None, None, None)), c.threshold, c.flagged, c.words]
                for c in self.result.checks()]
        return pd.DataFrame(rows, columns=["key", "title", "value", "low", "high", "threshold", "flagged", "words"])

    def key_table(self):
        return self.checks
