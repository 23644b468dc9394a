"""How many deals a chunk holds at most (runner.most_deals): the flag's value when given; without it, 100,000 when
the rows are kept, else as many as CHUNK_BYTES of the tally's per-deal columns hold. A run reports the cap it used."""
from analyzer import runner
from analyzer.runner import CHUNK_BYTES, DEFAULT_CHUNK, most_deals
from analyzer.scenario import from_dict, load
from analyzer.summary import new_tally

NOIZE = {"game": "noize", "players": 4, "games": 300, "seed": 3, "all_seats": {"policy": "threshold"}}


def test_the_cap_is_the_flag_or_the_memory_the_chunk_keeps():
    one = new_tally(from_dict(NOIZE))
    assert most_deals(one, keep_rows=False, chunk_size=777) == 777
    assert most_deals(one, keep_rows=True) == DEFAULT_CHUNK
    assert most_deals(one, keep_rows=False) == CHUNK_BYTES // 8  # one group: its `end` column
    sweep = new_tally(load("scenarios/noize-threshold-sweep.toml"))  # 19 groups, each with its target metric
    assert sweep.metric_terms
    assert most_deals(sweep, keep_rows=False) == CHUNK_BYTES // (8 * 19 * 2)


def test_a_run_reports_the_cap_it_used(tmp_path):
    sc = from_dict(NOIZE)
    assert runner.run(sc, progress=False).chunk_size == CHUNK_BYTES // 8
    assert runner.run(sc, progress=False, keep_games_dir=tmp_path).chunk_size == DEFAULT_CHUNK
    assert runner.run(sc, progress=False, chunk_size=50).chunk_size == 50
