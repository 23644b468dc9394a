"""High Card's result row, declared once (analyzer/games/layout.py): the Game's columns, and the constants
rules.end_game writes it with."""
from analyzer.games import drama
from analyzer.games.base import CHOICE_COUNTS
from analyzer.games.layout import SEATS, Row

ROW = Row("High Card's result row", [
    ("R_WIN", "win_", SEATS, "1: the seat has the most tricks (a tie shares the win)"),
    ("R_NWIN", "n_winners", 1, ""),
    ("R_LEN", "length", 1, "tricks"),
    ("R_END", "end", 1, "events.END_ONE or END_TIE"),
    ("R_TRICKS", "tricks_", SEATS, "tricks won"),
    ("R_DRAMA", drama.COLUMNS, 1, "analyzer.games.drama"),
    ("R_CHOICES", [f"ch_play_{k}" for k in CHOICE_COUNTS], 1, "plays counted (base.Choices), with count_choices"),
])
ROW.define(globals())
