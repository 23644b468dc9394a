"""The search contract: the functions a game provides so that the search driver (driver.py) can play it.

A game provides them, under exactly these names, as numba functions in a module of its own
(analyzer/games/<game>/search_ops.py); `analyzer.games.search.specialise` binds the driver to them. The
stubs below are only what the driver's source refers to before it is bound (and where the contract is
written down); calling one raises.

Two kinds of value pass through the driver without being looked into:
- a position: the game at a decision point, as the game keeps it (one state array, or a tuple of arrays).
  The driver holds three of the same type: the root (the real game, never changed by the search), a sample
  (a redeal of the root) and a working copy (played on). The decision point (whose decision it is, the
  turn or round, how the game ended) is part of the position: the engine's game loop may keep it in local
  variables, the search keeps it in the position.
- look: the game's own search scratch (a tuple of arrays allocated once per chunk of games: the unseen
  cards, the playouts' random state, a result row and trace nobody reads, ...).

A decision is a row of int64 numbers in `cand` (its width is the game's); two equal rows are the same
decision. Scores are int64: a playout's outcome for a seat, higher is better.

Randomness: the search draws only from the searching seat's own stream (1 + seat, analyzer/rng.py) of
the game's random state, and the playouts from the private random state in look, keyed from one draw of
that stream per redeal: a game then depends only on (seed, game index), whatever the threads.

The lookahead (flat Monte Carlo, driver.lookahead) uses all of them; the tree search (issue 28) will also
call decisions and apply below the root, for any seat, so a game's `apply` must leave the position at the
next decision of whichever seat (or at the end), as `to_move` then reports.

Every game's apply makes the decision and stops at the next one (Fight Song's engine resumes and pauses within a
board for it: engine.run's resume array). A game whose engine could not resume a position within one of its steps
could have apply script the decision for the playout to make when it replays the step from its start (Fight Song
did, before): enough for the flat search, not for the tree search.
"""


def _stub(*args):
    raise NotImplementedError("a search contract function: bind the driver to a game (search.specialise)")


def to_move(pos):
    """The seat whose decision it is at pos; -1 once the game (or the playout, at its stop) is over."""
    return _stub(pos)


def decisions(pos, seat, rng, cand, look):
    """The decisions the search considers for `seat` at pos, written as rows of cand; returns how many (>= 1:
    a seat with nothing to decide has one decision, e.g. to draw or pass). Row 0 is the game's default
    policy's (ties keep it). rng: the random state whose stream 1 + seat the seat's choices draw from."""
    return _stub(pos, seat, rng, cand, look)


def begin_search(root, seat, sample, work, look):
    """Once per decision, before the first redeal: what every redeal and playout of this decision shares
    (the cards seat cannot see, gathered into look; the playouts' seats and rules in sample and work)."""
    return _stub(root, seat, sample, work, look)


def redeal(root, seat, rng, sample, look):
    """sample = root with the cards `seat` cannot see dealt again at random (on stream 1 + seat of rng),
    consistently with everything seat has seen: its own cards and every card shown stay where they are."""
    return _stub(root, seat, rng, sample, look)


def copy_position(src, dst, look):
    """dst = src (everything a playout can change)."""
    return _stub(src, dst, look)


def key_playouts(key, look):
    """The playouts' random state (in look), keyed from `key`: the same for every decision tried on one
    redeal (common random numbers: the decisions are compared on the same draws)."""
    return _stub(key, look)


def apply(pos, cand, i, look):
    """to_move(pos) makes decision cand[i]; pos moves on to the next decision of any seat, or the end (or, a
    deferred apply, the decision is scripted for the playout: above)."""
    return _stub(pos, cand, i, look)


def stop_after(root, horizon):
    """Where the playouts from root stop, `horizon` steps of the game's own kind (turns, rounds, hands)
    counting the one being decided; horizon 0: the end of the game."""
    return _stub(root, horizon)


def playout(pos, stop, look):
    """Every seat plays the game's default policy from pos until the end of the game or `stop`."""
    return _stub(pos, stop, look)


def score(pos, seat, look):
    """The outcome for `seat` of the playout that ended at pos (int64, higher is better)."""
    return _stub(pos, seat, look)


def reached(pos, stop):
    """Optional (OPTIONAL below gives the default): whether pos is at or past `stop` (stop_after's). The tree
    search's random rollouts (tree.py) stop there; a game without it plays random rollouts to the end."""
    return _stub(pos, stop)


def sort_unseen(root, seat, look):
    """Optional (the default leaves them as begin_search gathered them): after begin_search, put the cards
    `seat` cannot see (in look) in an order that depends only on what seat has seen, e.g. sorted, so that
    the tree search's redeals, hence its decisions, are the same whatever the hidden cards' arrangement (the
    no-peeking test). The lookahead does not call it: its samples follow the gathered order, which changes
    no distribution but keeps its results as they were."""
    return _stub(root, seat, look)


CONTRACT = (to_move, decisions, begin_search, redeal, copy_position, key_playouts, apply, stop_after, playout, score)
NAMES = tuple(f.__name__ for f in CONTRACT)
OPTIONAL = ("reached", "sort_unseen")  # a game may leave these out: specialise binds search/defaults.py's
