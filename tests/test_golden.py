"""Golden playthroughs (as in OpenSpiel): seeded games whose every event and every result is on file.

A change that alters how any game plays fails here. If the change is meant (a rules fix, a policy
change), regenerate with `GOLDEN_UPDATE=1 pytest tests/test_golden.py` and review the diff of
tests/golden/ like any other change."""
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.base import added_columns
from analyzer.scenario import from_dict

HERE = Path(__file__).parent / "golden"
CASES = {
    "noize-4p-threshold": {"game": "noize", "players": 4, "all_seats": {"policy": "threshold"},
                           "seats": {"3": {"policy": "random"}}},
    "noize-3p-shuffle": {"game": "noize", "players": 3, "rules": {"shuffle_each_round": True},
                         "all_seats": {"policy": "threshold", "bluff": 0.3}},
    "bards-greedy-basic": {"game": "bards", "players": 2, "all_seats": {"policy": "greedy"}},
    "distance-4p-greedy": {"game": "distance", "players": 4, "all_seats": {"policy": "greedy"}},
    "distance-3p-options": {"game": "distance", "players": 3,
                            "rules": {"interval": "random", "misplay_rate": 0.1, "forget_call_rate": 0.3},
                            "all_seats": {"policy": "conserve"}, "seats": {"1": {"policy": "random"}}},
    "bards-extended-double-mixed": {"game": "bards", "players": 2,
                                    "rules": {"deck": "extended", "copies": "double"},
                                    "all_seats": {"policy": "bait"},
                                    "seats": {"1": {"policy": "balanced", "choose": "face_up_at_least"}}},
    "fightsong-4p-mixed": {"game": "fightsong", "players": 4, "all_seats": {"policy": "greedy"},
                           "seats": {"1": {"policy": "team"}, "3": {"policy": "blocker"}}},
    "fightsong-3p-battles": {"game": "fightsong", "players": 3, "rules": {"fs_step": 4},
                             "all_seats": {"policy": "random"},
                             "seats": {"0": {"policy": "greedy", "battle": "weakest"}}},
    "fightsong-2p-rotating": {"game": "fightsong", "players": 2, "rules": {"dealer": "rotating", "hand_size": 7},
                              "all_seats": {"policy": "team"}, "seats": {"1": {"policy": "random"}}},
}
SEED = 424242
GAMES = 2000


def _actual(raw):
    sc = from_dict({**raw, "games": GAMES, "seed": SEED})
    game = sc.game
    enc = sc.arms[0].encoded(game)
    out = np.zeros((GAMES, len(game.columns(sc.players))), dtype=np.int64)
    game.run_batch(enc, SEED, 0, out)
    events = [json.dumps(e, sort_keys=True) for i in (0, 1) for e in game.trace(enc, SEED, i)]
    # the drama and card-power columns (issue 12) come last and are hashed apart: the digest of the columns
    # before them is the one on file from before they existed, so it proves the games themselves unchanged
    added = len(added_columns(game, sc.players))
    cols = len(game.columns(sc.players))
    old = np.ascontiguousarray(out[:, :cols - added])
    new = np.ascontiguousarray(out[:, cols - added:cols - sum(len(m.columns(0)) for m in game.metrics if type(m).__name__ == "Choices")])  # (0 off the profile)
    return hashlib.sha256(old.tobytes()).hexdigest(), hashlib.sha256(new.tobytes()).hexdigest() if added else None, events


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    digest, added_digest, events = _actual(CASES[name])
    path = HERE / f"{name}.jsonl"
    if os.environ.get("GOLDEN_UPDATE"):
        head = {"results_sha256": digest, "games": GAMES, "seed": SEED}
        if added_digest is not None:
            head["drama_power_sha256"] = added_digest
        path.write_text("\n".join([json.dumps(head)] + events) + "\n")
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["results_sha256"] == digest, "the results of 2,000 seeded games changed"
    assert head.get("drama_power_sha256") == added_digest, "the drama or card-power columns of 2,000 seeded games changed"
    assert lines[1:] == events, "the traced games changed"
