"""Fight Song trace: engine event rows -> JSON-ready dicts -> lines a person reads.

Cards: a Game Play card is "G07 Band/Brass" (its id, 1-based in deck-file order, and its colors); an
Activity or Fight Song card is its id from the deck file, with its corners and Bonus Corner color
given where it is turned up. Per-team values are objects keyed by the team: "0+2" and "1+3" with 4
players, the seat number otherwise. The event fields are documented in docs/fightsong.md ("Trace
events")."""
import numpy as np

from analyzer.games.base import plural, record_events
from analyzer.games.fightsong import engine as E
from analyzer.games.fightsong import lookahead as LA
from analyzer.games.fightsong import rules as R
from analyzer.games.fightsong import state as S

STACKS = ("game_play", "activity", "fight_song")
STACK_NAMES = {"game_play": "Game Play", "activity": "Activity", "fight_song": "Fight Song"}
DEAL_WHY = {S.DEAL_START: "start", S.DEAL_REFILL: "refill", S.DEAL_FS: "fight_song", S.DEAL_FS_EXTRA: "fight_song_extra"}
RET_WHY = {S.RET_HAND: "hand", S.RET_FS_HAND: "fight_song_hand", S.RET_FS_UNPLAYED: "fight_song_unplayed"}
KINDS = {S.FSK_OPPORTUNITY: "opportunity", S.FSK_TIEBREAK: "tiebreak"}
OUTCOMES = {S.FSO_TIE: "tie", S.FSO_WON: "won", S.FSO_LOST: "lost", S.FSO_NO_POINT: "no point"}
ENDS = ("alone", "highest", "tiebreak", "shared", "stall")
END_CONDITIONS = (
    "one team reached the target alone",
    "several teams reached the target; the highest total won",
    "an exact tie at the target, settled by a Fight Song round",
    "an exact tie at the target, still tied after 3 Fight Song hands (shared win)",
    "stall: the hand cap (max_hands) was reached, no winner",
)


class Encoded(tuple):
    """The kernel's arrays (a tuple, passed to the batch as *encoded) plus the Deck, for names."""

    deck = None


def gp_name(deck, card):
    return f"G{card + 1:02d} {R.kind_name(int(deck.gp_kind[card]))}"


def board_id(deck, board):
    return deck.act_ids[board] if board < deck.n_act else deck.fs_ids[board - deck.n_act]


def board_corners(deck, board):
    return [R.corner_name(int(o), int(i)) for o, i in deck.corners[board]]


def team_labels(n):
    return ["0+2", "1+3"] if n == 4 else [str(s) for s in range(n)]


def per_team(row, n, at):
    labels = team_labels(n)
    return {lab: int(row[S.TRACE_FIXED + at + t]) for t, lab in enumerate(labels)}


def mask_teams(mask, n):
    return [lab for t, lab in enumerate(team_labels(n)) if (mask >> t) & 1]


def play_traced(encoded, seed, game_index, stacked=None):
    """Play one game with the batch kernel's own code and return (events, result row).

    stacked (tests): (order_gp, order_act, order_fs) to play the stacks in these orders, unshuffled."""
    arrays = list(encoded)
    deck = encoded.deck
    rules = arrays[0].copy()
    if stacked is not None:
        rules[E.R_STACKED] = 1
        arrays[1:4] = [np.asarray(o, dtype=np.int64) for o in stacked]
    arrays[0] = rules
    n = int(rules[E.R_PLAYERS])
    out = np.zeros(len(E.columns(n)), dtype=np.int64)
    width = S.TRACE_FIXED + max(deck.n_gp, deck.n_act, deck.n_fs, 16)
    play = LA.play_game_look if LA.uses_lookahead(arrays[12]) else E.play_game
    rows = record_events(lambda buf: play(np.uint64(seed), game_index, *arrays, out, buf), 512, width)
    return [decode(row, n, deck) for row in rows], out


def decode(row, n, deck):
    code = int(row[0])
    f = [int(x) for x in row[1:S.TRACE_FIXED]]
    lst = row[S.TRACE_FIXED:]
    nt = 2 if n == 4 else n
    if code == S.EV_DECK:
        stack = STACKS[f[0]]
        if stack == "game_play":
            cards = [gp_name(deck, int(c)) for c in lst[:f[1]]]
        else:
            off = 0 if stack == "activity" else deck.n_act
            cards = [board_id(deck, off + int(c)) for c in lst[:f[1]]]
        return {"type": "deck", "stack": stack, "cards": cards}
    if code == S.EV_DEAL:
        return {"type": "deal", "seat": f[0], "hand": "regular" if f[1] == 0 else "fight_song",
                "reason": DEAL_WHY[f[2]], "cards": [gp_name(deck, int(c)) for c in lst[:f[3]]], "hand_size": f[4],
                "game_play_left": f[5]}
    if code == S.EV_HAND:
        return {"type": "hand", "hand": f[0], "dealer": f[4], "starter": f[1], "activity": board_id(deck, f[2]),
                "corners": board_corners(deck, f[2]), "bonus": R.DIVISIONS[int(deck.bonus[f[2]])],
                "activity_left": f[3]}
    if code == S.EV_PLAY:
        seat, card, kind, corner, how, pts, board, layer, j, left = f[:10]
        return {"type": "play", "seat": seat, "card": gp_name(deck, card), "corner": corner,
                "corner_colors": board_corners(deck, board)[corner], "match": R.HOW_NAMES[how], "score": pts,
                "on": board_id(deck, board), "fight_song": layer == 1, "play": j + 1, "cards_left": left}
    if code == S.EV_RECORD:
        return {"type": "record", "hand": f[0], "hand_points": per_team(row, n, 0),
                "round_points": per_team(row, n, nt), "extra_points": per_team(row, n, 2 * nt),
                "opportunities": per_team(row, n, 3 * nt)}
    if code == S.EV_FS_ROUND:
        return {"type": "fight_song_round", "kind": KINDS[f[0]], "initiators": mask_teams(f[1], n),
                "players": [s for s in range(n) if (f[2] >> s) & 1], "starter": f[3]}
    if code == S.EV_BATTLE:
        rule = "script" if f[2] < 0 or f[2] > 2 else ("leader", "weakest", "random")[f[2]]
        return {"type": "battle", "seat": f[0], "opponent": f[1], "rule": rule}
    if code == S.EV_FS_HAND:
        return {"type": "fight_song_hand", "number": f[0], "card": board_id(deck, f[1]),
                "corners": board_corners(deck, f[1]), "bonus": R.DIVISIONS[int(deck.bonus[f[1]])], "starter": f[2],
                "fight_song_left": f[3]}
    if code == S.EV_FS_SCORE:
        scores = {lab: (v if v >= 0 else None) for lab, v in per_team(row, n, 0).items()}
        top = team_labels(n)[f[2]] if f[2] >= 0 else None
        return {"type": "fight_song_score", "number": f[0], "scores": scores, "top": top, "outcome": OUTCOMES[f[1]]}
    if code == S.EV_FS_END:
        return {"type": "fight_song_end", "kind": KINDS[f[0]], "outcome": OUTCOMES[f[1]],
                "point_to": team_labels(n)[f[2]] if f[2] >= 0 else None, "hands": f[3],
                "extra_points": per_team(row, n, 0), "round_points": per_team(row, n, nt)}
    if code == S.EV_RETURN:
        stack = STACKS[f[0]]
        if stack == "game_play":
            cards = [gp_name(deck, int(c)) for c in lst[:f[2]]]
        else:
            off = 0 if stack == "activity" else deck.n_act
            cards = [board_id(deck, off + int(c)) for c in lst[:f[2]]]
        return {"type": "return", "stack": stack, "reason": RET_WHY[f[1]], "cards": cards}
    if code == S.EV_END:
        rp = per_team(row, n, 0)
        xp = per_team(row, n, nt)
        return {"type": "end", "condition": ENDS[f[0]], "winning_teams": mask_teams(f[1], n),
                "winners": [s for s in range(n) if (f[1] >> (s % 2 if n == 4 else s)) & 1], "hands": f[2],
                "round_points": rp, "extra_points": xp, "totals": {k: rp[k] + xp[k] for k in rp}}
    raise ValueError(f"unknown Fight Song event code {code}")


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
