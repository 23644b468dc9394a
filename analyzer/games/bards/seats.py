"""Battle of the Bards' seat parameters, declared once (the policies of __init__.py take them), and how a seat is
written into the policy arrays the kernels read (pint, pflt: state.py). Below the kernels, so that the lookahead
builds its playouts' seats (greedy at its defaults) from the same declarations as a scenario's seats."""
import numpy as np

from analyzer.games.base import AVOID, Param, avoid_param
from analyzer.games.bards import state as S
from analyzer.games.bards.rules import CARD_KINDS
from analyzer.games.search.tree import ROLLOUTS

PLAY_CHOICES = ("random", "greedy")
CHOOSE_CHOICES = ("random", "face_up_at_least", "expected")
SETUP_CHOICES = ("random", "greedy")


def params(play, choose, setup):
    """The parameters every policy has (defaults differ: the random policy is random throughout)."""
    return (
        Param("play", "choice", play,
              "how it plays the cards it gets: 'random' (uniform legal moves) or 'greedy' (order, placements "
              "and conclusions that most raise the value of its tales)", choices=PLAY_CHOICES),
        Param("choose", "choice", choose,
              "how it picks a group when the opponent splits: 'random', 'face_up_at_least' (the face-up group "
              "when its value is at least face_up_threshold) or 'expected' (face-up value against the "
              "expected value of a hidden group of that size from the unseen cards)", choices=CHOOSE_CHOICES),
        Param("setup", "choice", setup,
              "seat 1's setup: 'random', or 'greedy' (keep the two cards most valuable as one-card tales, "
              "minus spite x what the other two are worth to seat 0)", choices=SETUP_CHOICES),
        Param("conclude_at", "float", 10.0,
              "a tale that would score this many points or more is concluded at once", 1.0, 60.0),
        Param("hope", "float", 0.7,
              "value of each further card (up to 3) a tale can still take while holding the audience; an empty "
              "tale slot is worth one hope", 0.0, 5.0),
        Param("meme_keep", "float", 0.5,
              "share of an open tale's meme points counted in its value (the meme may change before it is "
              "concluded)", 0.0, 1.0),
        Param("face_up_threshold", "float", 3.0,
              "choose=face_up_at_least takes the face-up group when worth at least this; the bait split "
              "calls a face-up group tempting from this value", 0.0, 30.0),
        Param("spite", "float", 1.0,
              "weight of the opponent's gain against its own in split, choose and setup decisions "
              "(0: only its own gain; 1: the margin)", 0.0, 1.0),
        # restricted play (`analyzer profile`): it places no card of this kind in its tales while it can do
        # otherwise (its plays, its choice of group, its setup: docs/bards.md, "Profile")
        avoid_param(CARD_KINDS),
    )


GREEDY_DEFAULTS = params("greedy", "expected", "greedy")


def encode_seat(code, p, pint_row, pflt_row):
    """A seat of split policy `code` (S.SP_...) with parameters p (name: value) into its rows of pint and pflt."""
    pint_row[S.I_SPLIT] = code
    pint_row[S.I_PLAY] = PLAY_CHOICES.index(p["play"])
    pint_row[S.I_CHOOSE] = CHOOSE_CHOICES.index(p["choose"])
    pint_row[S.I_SETUP] = SETUP_CHOICES.index(p["setup"])
    pint_row[S.I_SAMPLES] = p.get("samples", 0)
    pint_row[S.I_HORIZON] = p.get("horizon", 0)
    pint_row[S.I_BUDGET] = p.get("budget", 0)
    pint_row[S.I_ROLLOUT] = ROLLOUTS.index(p.get("rollout", "greedy"))
    avoid = p.get(AVOID, "none")
    pint_row[S.I_AVOID] = S.NO_AVOID if avoid == "none" else CARD_KINDS.index(avoid)
    pflt_row[S.P_CONCLUDE_AT] = float(p["conclude_at"])
    pflt_row[S.P_HOPE] = float(p["hope"])
    pflt_row[S.P_MEME_KEEP] = float(p["meme_keep"])
    pflt_row[S.P_THRESHOLD] = float(p["face_up_threshold"])
    pflt_row[S.P_SPITE] = float(p["spite"])
    pflt_row[S.P_C] = float(p.get("c", 0.0))


def greedy_at_defaults():
    """(pint, pflt) with both seats greedy at its default parameters (the lookahead's playouts)."""
    pint = np.zeros((2, S.N_INT), dtype=np.int64)
    pflt = np.zeros((2, S.N_FLT), dtype=np.float64)
    defaults = {param.name: param.default for param in GREEDY_DEFAULTS}
    for seat in range(2):
        encode_seat(S.SP_GREEDY, defaults, pint[seat], pflt[seat])
    return pint, pflt
