"""Build Fight Song games by hand: a small deck file, stacked stacks and scripted moves."""
import numpy as np

from analyzer.games.fightsong import GAME
from analyzer.games.fightsong import policies as P
from analyzer.games.fightsong import rules as R
from analyzer.games.fightsong.trace import Encoded, play_traced

KIND = {R.kind_name(k): k for k in range(R.N_KINDS)}  # "Band/Brass" -> 1


def write_deck(path, activity, fight_song, copies=8):
    """A deck file: every Game Play kind `copies` times (or a dict name -> copies); activity and
    fight_song: lists of (four "Division/Sub-division" corners, bonus division)."""
    lines = ["[game_play]"]
    for k in range(R.N_KINDS):
        c = copies if isinstance(copies, int) else copies.get(R.kind_name(k), 0)
        lines.append(f'"{R.kind_name(k)}" = {c}')
    for section, cards in (("activity", activity), ("fight_song", fight_song)):
        for i, (corners, bonus) in enumerate(cards):
            lines += [f"[[{section}]]", f'id = "{section[0].upper()}{i + 1}"',
                      "corners = [" + ", ".join(f'"{c}"' for c in corners) + "]", f'bonus = "{bonus}"']
    path.write_text("\n".join(lines) + "\n")
    return path


class Table:
    """A game set up by hand: deck file, players and rules; play() runs it with stacked stacks and scripts."""

    def __init__(self, tmp_path, players, activity, fight_song, copies=8, **rules):
        self.deck_path = write_deck(tmp_path / "deck.toml", activity, fight_song, copies)
        self.n = players
        self.rules = GAME.validate_rules({"deck_file": str(self.deck_path), **rules}, players, "test")
        self.deck = R.deck_of(self.rules)

    def encoded(self, policies=None, scripts=None):
        seats = [GAME.validate_seat({"policy": (policies or ["greedy"] * self.n)[s]}, "test", f"seat{s}")
                 for s in range(self.n)]
        enc = GAME.encode(self.rules, seats)
        if scripts is not None:
            width = max(len(m) for m in scripts if m is not None) + 1
            par = np.full((self.n, max(width, P.N_PAR)), -1.0)
            pol = enc.tables.pol.copy()
            for s, moves in enumerate(scripts):
                if moves is None:
                    par[s, :P.N_PAR] = enc.tables.par[s]
                    continue
                pol[s] = P.P_SCRIPT
                for i, m in enumerate(moves):
                    par[s, i] = move(m)
            enc = Encoded(enc._replace(tables=enc.tables._replace(pol=pol, par=par)), self.deck)
        return enc

    def gp_order(self, top_kinds):
        """Card ids: the first unused copy of each named kind, in order, then every other card by id."""
        used, order = set(), []
        for name in top_kinds:
            k = KIND[name]
            card = next(i for i in range(self.deck.n_gp) if self.deck.gp_kind[i] == k and i not in used)
            used.add(card)
            order.append(card)
        return order + [i for i in range(self.deck.n_gp) if i not in used]

    def play(self, deal, scripts=None, policies=None, act=None, fs=None, seed=1, game=0):
        """deal: the kinds on top of the Game Play stack, in the order they are dealt. Returns (events, result)."""
        enc = self.encoded(policies, scripts)
        order = (self.gp_order(deal), act if act is not None else list(range(self.deck.n_act)),
                 fs if fs is not None else list(range(self.deck.n_fs)))
        events, out = play_traced(enc, seed, game, stacked=order)
        return events, dict(zip(GAME.columns(self.n), (int(x) for x in out)))


def move(m):
    """("Band/Brass", corner) -> the script code kind * 4 + corner; an int (a battle choice) as it is."""
    if isinstance(m, int):
        return m
    name, corner = m
    return KIND[name] * 4 + corner


def interleave(hands):
    """The stack order that deals hands[s] to seat s (one card at a time round the table from seat 0)."""
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    return [hands[s][i] for i in range(size) for s in range(len(hands))]


def of_type(events, t):
    return [e for e in events if e["type"] == t]
