"""Fight Song's trace events, declared once (analyzer/games/events.py): the kernel emits them in this field
order, trace.py decodes them, docs/fightsong.md's table and the conformance test read them.

Cards: a Game Play card is "G07 Band/Brass" (its id, 1-based in deck-file order, and its colors); an Activity or
Fight Song card is its id from the deck file, with its corners and Bonus Corner color given where it is turned
up. Per-team values are objects keyed by the team: "0+2" and "1+3" with 4 players, the seat number otherwise."""
from analyzer.games.events import Bool, Derived, Enum, Event, Events, Int, Kind, ListOf, Seat
from analyzer.games.fightsong import rules as R

STK_GP, STK_ACT, STK_FS = 0, 1, 2  # the three stacks
STACKS = ("game_play", "activity", "fight_song")
DEAL_START, DEAL_REFILL, DEAL_FS, DEAL_FS_EXTRA = 0, 1, 2, 3  # why cards are dealt
RET_HAND, RET_FS_HAND, RET_FS_UNPLAYED = 0, 1, 2  # why cards go back under a stack
FSK_OPPORTUNITY, FSK_TIEBREAK = 0, 1  # Fight Song round kinds
FSO_TIE, FSO_WON, FSO_LOST, FSO_NO_POINT = 0, 1, 2, 3  # Fight Song hand and round outcomes
END_ALONE, END_HIGHEST, END_TIEBREAK, END_SHARED, END_STALL = range(5)  # the `end` column


def gp_name(deck, card):
    return f"G{card + 1:02d} {R.kind_name(int(deck.gp_kind[card]))}"


def board_id(deck, board):
    """An Activity card's (boards 0..A-1) or Fight Song card's (A..) id in the deck file."""
    return deck.act_ids[board] if board < deck.n_act else deck.fs_ids[board - deck.n_act]


def board_corners(deck, board):
    return [R.corner_name(int(o), int(i)) for o, i in deck.corners[board]]


def team_labels(n):
    return ["0+2", "1+3"] if n == 4 else [str(s) for s in range(n)]


class GameCard(Kind):
    label = "Game Play card"

    def value(self, c, ctx):
        return gp_name(ctx.deck, c)

    def valid(self, v, ctx):
        return "" if v in ctx.gp_names else f"{v!r} is not a Game Play card of the deck"


class Board(Kind):
    """An Activity or Fight Song card (the board number in the slot)."""

    label = "card id"

    def value(self, b, ctx):
        return board_id(ctx.deck, b)

    def valid(self, v, ctx):
        return "" if v in ctx.board_ids else f"{v!r} is not an Activity or Fight Song card of the deck"


class StackCards(ListOf):
    """Cards of the stack named by the event's `stack` field (its Game Play cards, or the stack's own card
    numbers: Activity 0.., Fight Song 0..)."""

    def __init__(self):
        super().__init__(GameCard())
        self.label = "[card] of the stack"

    def decode(self, slots, items, ctx, ev, raw):
        stack = ev["stack"]
        if stack == "game_play":
            return [gp_name(ctx.deck, int(c)) for c in items]
        off = 0 if stack == "activity" else ctx.deck.n_act
        return [board_id(ctx.deck, off + int(c)) for c in items]

    def valid(self, v, ctx):
        ok = isinstance(v, list) and all(x in ctx.gp_names or x in ctx.board_ids for x in v)
        return "" if ok else f"{v!r} is not a list of cards"


class PerTeam(Kind):
    """One value per team from the list area, as {team label: value} (none: -1 is null)."""

    slots = 0

    def __init__(self, none=False):
        self.none = none
        self.label = "{team: int" + (" or null" if none else "") + "}"

    def items(self, slots, ctx):
        return len(ctx.teams)

    def decode(self, slots, items, ctx, ev, raw):
        return {lab: (None if self.none and v < 0 else int(v)) for lab, v in zip(ctx.teams, items)}

    def valid(self, v, ctx):
        ok = (isinstance(v, dict) and list(v) == ctx.teams
              and all((x is None and self.none) or (isinstance(x, int) and x >= 0) for x in v.values()))
        return "" if ok else f"{v!r} is not one value per team"


class Team(Kind):
    """A team's label (none: -1 is null)."""

    def __init__(self, none=False):
        self.none = none
        self.label = "team or null" if none else "team"

    def value(self, t, ctx):
        return None if self.none and t < 0 else ctx.teams[t]

    def valid(self, v, ctx):
        return "" if v in ctx.teams or (self.none and v is None) else f"{v!r} is not a team"


class TeamMask(Kind):
    """Teams as bits (bit t: team t), listed by label."""

    label = "[team]"

    def value(self, mask, ctx):
        return [lab for t, lab in enumerate(ctx.teams) if (mask >> t) & 1]

    def valid(self, v, ctx):
        ok = isinstance(v, list) and v == [lab for lab in ctx.teams if lab in v]
        return "" if ok else f"{v!r} is not a list of teams"


class SeatMask(Kind):
    """Seats as bits (bit s: seat s), listed."""

    label = "[seat]"

    def value(self, mask, ctx):
        return [s for s in range(ctx.players) if (mask >> s) & 1]

    def valid(self, v, ctx):
        ok = isinstance(v, list) and v == [s for s in range(ctx.players) if s in v]
        return "" if ok else f"{v!r} is not a list of seats"


def _winners(ev, raw, ctx):
    """The seats of the winning teams."""
    n = ctx.players
    return [s for s in range(n) if (raw["winning_teams"] >> R.team_of(s, n)) & 1]


class Colors(Kind):
    """A corner's colors, "Band/Brass" (every=True: the four corners' colors, upper-left first)."""

    slots = 0

    def __init__(self, every):
        self.every = every
        self.label = "[colors]" if every else "colors"

    def valid(self, v, ctx):
        names = {R.corner_name(o, i) for o in range(len(R.DIVISIONS)) for i in range(len(R.SUBDIVISIONS))}
        ok = (isinstance(v, list) and len(v) == R.N_CORNERS and set(v) <= names) if self.every else v in names
        return "" if ok else f"{v!r} is not {'four corners' if self.every else 'a corner'}'s colors"


def corners_of(field):
    """The corners' colors of the card in `field`."""
    return Derived(lambda ev, raw, ctx: board_corners(ctx.deck, raw[field]), Colors(every=True))


def bonus_of(field):
    """The Bonus Corner's division of the card in `field`."""
    return Derived(lambda ev, raw, ctx: R.DIVISIONS[int(ctx.deck.bonus[raw[field]])], Enum(R.DIVISIONS))


HAND_NUMBER = Int(1, R.FS_MAX_HANDS)
STACK = Enum(STACKS)
KIND = Enum({FSK_OPPORTUNITY: "opportunity", FSK_TIEBREAK: "tiebreak"})
OUTCOME = Enum({FSO_TIE: "tie", FSO_WON: "won", FSO_LOST: "lost", FSO_NO_POINT: "no point"})
CARD_COUNT = Int(0, lambda ctx: len(ctx.gp_names))

EVENTS = Events("Fight Song", 9, [
    Event("EV_DECK", "deck", "a stack after the opening shuffle (one event per stack)",
          ("stack", STACK, ""),
          ("cards", StackCards(), "the shuffled stack, top first (a deal takes its first card; a card returned goes to "
           "its end)")),
    Event("EV_DEAL", "deal", "cards are dealt, one at a time round the table from the dealer's left; one event per "
          "seat, in that order",
          ("seat", Seat(), ""),
          ("hand", Enum(("regular", "fight_song")), "`fight_song`: the cards of a Fight Song round"),
          ("reason", Enum({DEAL_START: "start", DEAL_REFILL: "refill", DEAL_FS: "fight_song",
                           DEAL_FS_EXTRA: "fight_song_extra"}),
           "`fight_song`: the 3 cards of a round; `fight_song_extra`: the 1 more card before a replay"),
          ("cards", ListOf(GameCard()), ""),
          ("hand_size", CARD_COUNT, "after the deal"),
          ("game_play_left", CARD_COUNT, "cards left in the Game Play stack")),
    Event("EV_HAND", "hand", "a regular hand starts: its Activity card is turned up",
          ("hand", Int(1), "1, 2, ..."),
          ("dealer", Seat(), ""),
          ("starter", Seat(), ""),
          ("activity", Board(), "the Activity card"),
          ("corners", corners_of("activity"), "its corners' colors (upper-left, upper-right, lower-left, "
           "lower-right)"),
          ("bonus", bonus_of("activity"), "its Bonus Corner's division"),
          ("activity_left", Int(0), "cards left in the Activity stack")),
    Event("EV_PLAY", "play", "a card is played on a corner",
          ("seat", Seat(), ""),
          ("card", GameCard(), ""),
          ("corner", Int(0, R.N_CORNERS - 1), "0 upper-left, 1 upper-right, 2 lower-left, 3 lower-right"),
          ("corner_colors", Derived(lambda ev, raw, ctx: board_corners(ctx.deck, raw["on"])[raw["corner"]],
                                    Colors(every=False)), ""),
          ("match", Enum(R.HOW_NAMES), ""),
          ("score", Int(0, 3), "points"),
          ("on", Board(), "the Activity or Fight Song card played on"),
          ("fight_song", Bool(), "true in a Fight Song hand"),
          ("play", Int(1), "1, 2, ... within the hand"),
          ("cards_left", CARD_COUNT, "in that hand after the play")),
    Event("EV_RECORD", "record", "a regular hand's points are recorded",
          ("hand", Int(1), ""),
          ("hand_points", PerTeam(), "this hand"),
          ("round_points", PerTeam(), "totals so far"),
          ("extra_points", PerTeam(), "totals so far"),
          ("opportunities", PerTeam(), "Fight Song opportunities waiting")),
    Event("EV_FS_ROUND", "fight_song_round", "a Fight Song round starts",
          ("kind", KIND, "`tiebreak`: at the end, to settle an exact tie at the target"),
          ("initiators", TeamMask(), ""),
          ("players", SeatMask(), "the seats playing"),
          ("starter", Seat(), "")),
    Event("EV_BATTLE", "battle", "3 players, one eligible player: she initiates a Fight Song round and picks whom "
          "she battles",
          ("seat", Seat(), ""),
          ("opponent", Seat(), ""),
          ("rule", Enum({-1: "script", 0: "leader", 1: "weakest", 2: "random"}),
           "her `battle` parameter (`script` in tests)")),
    Event("EV_FS_HAND", "fight_song_hand", "a Fight Song hand starts: a Fight Song card is turned up",
          ("number", HAND_NUMBER, "a tie is replayed, up to 3 hands"),
          ("card", Board(), "the Fight Song card"),
          ("corners", corners_of("card"), ""),
          ("bonus", bonus_of("card"), ""),
          ("starter", Seat(), ""),
          ("fight_song_left", Int(0), "cards left in the Fight Song stack")),
    Event("EV_FS_SCORE", "fight_song_score", "a Fight Song hand is scored",
          ("number", HAND_NUMBER, ""),
          ("scores", PerTeam(none=True), "each team's points (null: it did not play)"),
          ("top", Team(none=True), "the team that scored strictly the most (null: a tie)"),
          ("outcome", OUTCOME, "`won`: an initiator scored most and gains 1; `lost`: a team that did not initiate "
           "scored most, no point; `tie`: replayed; `no point`: tied after 3 hands")),
    Event("EV_FS_END", "fight_song_end", "a Fight Song round ends; the set-aside hands are picked up",
          ("kind", KIND, ""),
          ("outcome", OUTCOME, ""),
          ("point_to", Team(none=True), "the team that gained the extra point"),
          ("hands", HAND_NUMBER, "Fight Song hands played"),
          ("extra_points", PerTeam(), "after it"),
          ("round_points", PerTeam(), "after it")),
    Event("EV_RETURN", "return", "cards go to the bottom of their stack",
          ("stack", STACK, ""),
          ("reason", Enum({RET_HAND: "hand", RET_FS_HAND: "fight_song_hand",
                           RET_FS_UNPLAYED: "fight_song_unplayed"}),
           "`hand`: a hand's cards after its Fight Song rounds; `fight_song_hand`: a Fight Song hand's cards; "
           "`fight_song_unplayed`: the cards left in the Fight Song hands at the end of a round"),
          ("cards", StackCards(), "in the order they go to the bottom")),
    Event("EV_END", "end", "the game ends",
          ("condition", Enum(("alone", "highest", "tiebreak", "shared", "stall")), ""),
          ("winning_teams", TeamMask(), ""),
          ("winners", Derived(_winners, SeatMask()), "their seats"),
          ("hands", Int(0), "regular hands played"),
          ("round_points", PerTeam(), ""),
          ("extra_points", PerTeam(), ""),
          ("totals", Derived(lambda ev, raw, ctx: {k: v + ev["extra_points"][k] for k, v in ev["round_points"].items()},
                             PerTeam()), "round + extra points")),
])
EVENTS.define(globals())
