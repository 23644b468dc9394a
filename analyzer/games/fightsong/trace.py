"""Fight Song trace: engine event rows -> JSON-ready dicts (decoded as events.py declares them) -> lines a person
reads. The event fields are documented in docs/fightsong.md ("Trace events")."""
from types import SimpleNamespace

import numpy as np

from analyzer.games.base import plural, record_events
from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong import kernels as K
from analyzer.games.fightsong import rules as R
from analyzer.games.fightsong import state as S
from analyzer.games.fightsong.events import EVENTS, board_id, gp_name, team_labels

STACK_NAMES = {"game_play": "Game Play", "activity": "Activity", "fight_song": "Fight Song"}
END_CONDITIONS = (
    "one team reached the target alone",
    "several teams reached the target; the highest total won",
    "an exact tie at the target, settled by a Fight Song round",
    "an exact tie at the target, still tied after 3 Fight Song hands (shared win)",
    "stall: the hand cap (max_hands) was reached, no winner",
)


class Encoded(E.Config):
    """The kernel's configuration (an engine.Config; Game.run_batch passes its fields to the batch) and the Deck,
    for names."""

    def __new__(cls, cfg, deck):
        enc = super().__new__(cls, *cfg)
        enc.deck = deck
        return enc


def context(encoded):
    """What decoding and checking an event needs besides its row: the players, teams and deck."""
    deck = encoded.deck
    n = int(encoded.rules[E.R_PLAYERS])
    return SimpleNamespace(players=n, teams=team_labels(n), deck=deck,
                           gp_names={gp_name(deck, c) for c in range(deck.n_gp)},
                           board_ids=set(deck.act_ids) | set(deck.fs_ids))


def play_traced(encoded, seed, game_index, stacked=None, types=None):
    """Play one game with the batch kernel's own code and return (events, result row).

    stacked (tests): (order_gp, order_act, order_fs) to play the stacks in these orders, unshuffled; types: only
    the events of these types (the report's standings read a few: analyzer/report/trajectory.py)."""
    cfg = E.Config(*encoded)
    deck = encoded.deck
    rules = cfg.rules.copy()
    if stacked is not None:
        rules[E.R_STACKED] = 1
        order_gp, order_act, order_fs = (np.asarray(o, dtype=np.int64) for o in stacked)
        cfg = cfg._replace(order_gp=order_gp, order_act=order_act, order_fs=order_fs)
    cfg = cfg._replace(rules=rules)
    ctx = context(encoded)
    out = np.zeros(len(E.columns(ctx.players)), dtype=np.int64)
    width = S.TRACE_FIXED + max(deck.n_gp, deck.n_act, deck.n_fs, 16)
    rows = record_events(lambda buf: K.play_game(np.uint64(seed), game_index, cfg, out, buf), 512, width)
    return EVENTS.decode_rows(rows, ctx, types), out


def who(label):
    return f"team {label}" if "+" in label else f"seat {label}"


def teams_text(d):
    return ", ".join(f"{who(k)} {v}" for k, v in d.items())


def format_event(ev):
    t = ev["type"]
    if t == "deck":
        return f"{STACK_NAMES[ev['stack']]} stack, top first ({len(ev['cards'])} cards): " + ", ".join(ev["cards"])
    if t == "deal":
        what = {"start": "is dealt", "refill": "is dealt (refill)", "fight_song": "is dealt for the Fight Song round",
                "fight_song_extra": "is dealt one more card"}[ev["reason"]]
        return f"  seat {ev['seat']} {what}: {', '.join(ev['cards'])} (holds {ev['hand_size']})"
    if t == "hand":
        corners = "; ".join(f"{R.CORNER_NAMES[c]} {x}" for c, x in enumerate(ev["corners"]))
        return (f"\n== Hand {ev['hand']} (seat {ev['dealer']} deals): seat {ev['starter']} starts. Activity card "
                f"{ev['activity']}: {corners} "
                f"(Bonus Corner {ev['bonus']})")
    if t == "play":
        return (f"  {'  ' if ev['fight_song'] else ''}seat {ev['seat']} plays {ev['card']} on the "
                f"{R.CORNER_NAMES[ev['corner']]} corner ({ev['corner_colors']}): {ev['match']}, {ev['score']} "
                f"point{'s' if ev['score'] != 1 else ''}")
    if t == "record":
        return (f"  Hand {ev['hand']} recorded: {teams_text(ev['hand_points'])}. Round points {teams_text(ev['round_points'])}; "
                f"extra points {teams_text(ev['extra_points'])}; Fight Song opportunities waiting "
                f"{teams_text(ev['opportunities'])}")
    if t == "fight_song_round":
        init = " and ".join(who(x) for x in ev["initiators"])
        kind = "to settle the tie" if ev["kind"] == "tiebreak" else "initiated by " + init
        return (f"  -- Fight Song round {kind}: hands set aside; playing: "
                f"{', '.join('seat ' + str(s) for s in ev['players'])}; seat {ev['starter']} starts")
    if t == "battle":
        return f"  seat {ev['seat']} alone can start a Fight Song round and battles seat {ev['opponent']} ({ev['rule']})"
    if t == "fight_song_hand":
        corners = "; ".join(f"{R.CORNER_NAMES[c]} {x}" for c, x in enumerate(ev["corners"]))
        return f"    Fight Song hand {ev['number']}: card {ev['card']}: {corners} (Bonus Corner {ev['bonus']})"
    if t == "fight_song_score":
        scores = ", ".join(f"{who(k)} {v}" for k, v in ev["scores"].items() if v is not None)
        if ev["outcome"] == "won":
            verdict = f"{who(ev['top'])} scores the most and gains 1 extra point"
        elif ev["outcome"] == "lost":
            verdict = f"{who(ev['top'])} scores the most but did not initiate: no point"
        elif ev["outcome"] == "tie":
            verdict = "a tie for the most: replay"
        else:
            verdict = "a tie again after 3 Fight Song hands: no extra point"
        return f"    Fight Song hand {ev['number']}: {scores}: {verdict}"
    if t == "fight_song_end":
        return (f"  -- Fight Song round over ({ev['hands']} hand{'s' if ev['hands'] > 1 else ''}); set-aside hands picked "
                f"up. Extra points {teams_text(ev['extra_points'])}")
    if t == "return":
        why = {"hand": "after the hand", "fight_song_hand": "after the Fight Song hand",
               "fight_song_unplayed": "unplayed Fight Song cards"}[ev["reason"]]
        return f"  {'  ' if ev['reason'] != 'hand' else ''}to the bottom of the {STACK_NAMES[ev['stack']]} stack ({why}): " \
               + (", ".join(ev["cards"]) or "none")
    if t == "end":
        totals = teams_text(ev["totals"])
        if ev["condition"] == "stall":
            return f"\nGame over after {plural(ev['hands'], 'hand')}: the hand cap was reached with no winner. Totals: {totals}"
        w = " and ".join(who(x) for x in ev["winning_teams"])
        why = {"alone": "reached the target", "highest": "reached the target with the highest total",
               "tiebreak": "won the Fight Song round that settled the tie",
               "shared": "are still tied after 3 Fight Song hands: a shared win"}[ev["condition"]]
        return f"\nGame over after {plural(ev['hands'], 'hand')}: {w} {why}. Totals (round + extra): {totals}"
    raise ValueError(t)
