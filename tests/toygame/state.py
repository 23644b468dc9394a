"""High Card's arrays, declared once (analyzer/games/layout.py): the state a game is played on (the search's
position too), its result row; and emit, which writes a trace event."""
from numba import njit

from analyzer.games import drama
from analyzer.games.layout import SEATS, Layout, Row

from .events import TRACE_FIXED

MAXP, MAXH, MAXD = 4, 10, 60  # players, cards in a hand, cards in the deck

STATE = Layout("High Card's state", [
    # the configuration, written once per run by encode
    ("C_PLAYERS", 1, "players"),
    ("C_HAND", 1, "cards dealt to each seat (= tricks played)"),
    ("C_DECK", 1, "cards in the deck, numbered 1..C_DECK"),
    ("O_POL", MAXP, "each seat's policy code (rules.P_...)"),
    ("O_SAMPLES", MAXP, "each seat's lookahead samples"),
    ("O_HORIZON", MAXP, "each seat's lookahead horizon (tricks)"),
    # the game, cleared by rules.begin
    ("O_GAME", 0, "where the game starts"),
    ("O_DECK", MAXD, "the shuffled deck: card i is dealt to seat i mod players; the rest is never seen"),
    ("O_HAND", MAXP * MAXH, "seat s's hand at O_HAND + s * MAXH"),
    ("O_HN", MAXP, "hand sizes"),
    ("O_TRICKS", MAXP, "tricks won"),
    ("S_TO_MOVE", 1, "the seat to play"),
    ("S_TRICK", 1, "tricks finished (the game is over at C_HAND)"),
    ("S_PLAYED", 1, "cards played to the trick in progress"),
    ("S_BEST", 1, "the highest card of the trick in progress (0: no card yet)"),
    ("S_BEST_SEAT", 1, "who played it"),
    ("S_NE", 1, "trace events written"),
    ("S_OVF", 1, "1: the trace buffer was too small"),
    ("O_DRAMA", drama.D_SIZE, "the drama block (analyzer.games.drama): standings = tricks won"),
], size_name="ST_SIZE")
STATE.define(globals())

ROW = Row("High Card's result row", [
    ("R_WIN", "win_", SEATS, "1: the seat has the most tricks (a tie shares the win)"),
    ("R_NWIN", "n_winners", 1, ""),
    ("R_LEN", "length", 1, "tricks"),
    ("R_END", "end", 1, "events.END_ONE or END_TIE"),
    ("R_TRICKS", "tricks_", SEATS, "tricks won"),
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
])
ROW.define(globals())

TRACE_WIDTH = TRACE_FIXED + MAXD  # a row: the code, two fields, a list of up to MAXD numbers


@njit(cache=True)
def emit(st, tr, on, code, f1=0, f2=0):
    """Append an event (its fields in the order events.py declares them); its row, or -1 (tracing off, or
    the buffer full)."""
    k = st[S_NE]
    if not on or k >= tr.shape[0]:
        st[S_OVF] |= on
        return -1
    tr[k, 0], tr[k, 1], tr[k, 2] = code, f1, f2
    st[S_NE] = k + 1
    return k
