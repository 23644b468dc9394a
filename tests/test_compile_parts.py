"""A game's compile parts (Game.extra["compile_parts"], analyzer.runner's warm-up) are the signatures its batch kernel
calls (or the kernel's own, for Noize): a part that went stale (the kernel now calls it with other types) would compile
for nothing on a cold start, beside the kernel's own compile of the callee. The kernel is typed, not compiled (numba's
untyped passes and its type inference only: a few seconds of CPU for each game): the calls it makes to jitted functions
are read from its call types. The callees' compiles it needs are in the cache once any test has played the game (the
same kernels, small runs)."""
import numpy as np
import pytest
from numba.core import compiler, types
from numba.core.compiler_machinery import FunctionPass, PassManager, register_pass
from numba.core.typed_passes import NopythonTypeInference

from analyzer.chunks import block_array
from analyzer.configs import Arm
from analyzer.games import get_game
from analyzer.games.bards import engine as bards_engine
from analyzer.games.distance import engine as distance_engine
from analyzer.games.fightsong import engine as fightsong_engine
from analyzer.games.noize import engine as noize_engine


class _Typed(Exception):
    """Raised by the last pass, with the compile's state: what the kernel calls, typed."""


@register_pass(mutates_CFG=False, analysis_only=True)
class _StopWhenTyped(FunctionPass):
    _name = "analyzer_stop_when_typed"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        raise _Typed(state)


class _TypeOnly(compiler.CompilerBase):
    def define_pipelines(self):
        pm = PassManager("type_only")
        pm.passes.extend(compiler.DefaultPassBuilder.define_untyped_pipeline(self.state).passes)
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(_StopWhenTyped, "stop")
        pm.finalize()
        return [pm]


def jitted_calls(kernel, sig):
    """{(callee dispatcher's function, argument types)} of the calls kernel(sig) makes, after numba's inlining."""
    flags = compiler.Flags()
    kernel.targetdescr.options.parse_as_flags(flags, kernel.targetoptions)
    try:
        compiler.compile_extra(kernel.targetdescr.typing_context, kernel.targetdescr.target_context, kernel.py_func,
                               sig, None, flags, {}, pipeline_class=_TypeOnly)
    except _Typed as typed:
        state = typed.args[0]
    else:
        raise AssertionError("the type-only pipeline compiled")
    calls = set()
    for expr, call in state.calltypes.items():
        if getattr(expr, "op", None) == "call":
            callee = state.typemap[expr.func.name]
            if isinstance(callee, types.Dispatcher):
                calls.add((callee.dispatcher.py_func, tuple(call.args)))
    return calls


# game: (the batch kernel, its compile parts callees of it or itself; its policy at every seat; players)
KERNELS = {"bards": (bards_engine.run, "greedy", 2), "distance": (distance_engine.play_games, "greedy", 4),
           "fightsong": (fightsong_engine.run, "team", 4), "noize": (noize_engine.run, "threshold", 4)}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_compile_parts_are_the_kernels_calls(name):
    game = get_game(name)
    kernel, policy, players = KERNELS[name]
    arm = Arm("t", game.validate_rules({}, players, "t"), [game.validate_seat({"policy": policy}, "t", "s")] * players,
              {})
    out = block_array(1, 1, len(game.columns(players)))
    game.run_batch(arm.encoded(game), 1, 0, out[0])  # (the kernel loaded, or compiled: its signature)
    assert kernel.signatures, "the batch did not play through the kernel named here"
    parts = game.extra["compile_parts"](arm)
    assert parts
    calls = set().union(*(jitted_calls(kernel, sig) for sig in kernel.signatures))
    # (a part may be a callee of another part: Bards' pick, play_group's, not the kernel's own calls. The other parts
    # are typed for their calls only then: typing them all was 3.5 s of CPU for The Distance and Fight Song alone)
    if any(part is not kernel and (part.py_func, tuple(sig)) not in calls for part, sig in parts):
        calls |= set().union(*(jitted_calls(part, sig) for part, sig in parts if part is not kernel))
    for part, sig in parts:
        if part is kernel:  # (Noize's: the kernel itself, compiled while the helper encodes)
            assert tuple(sig) in kernel.signatures, f"{part.py_func.__qualname__}{tuple(sig)} is not its signature"
        else:
            assert (part.py_func, tuple(sig)) in calls, f"{part.py_func.__qualname__}{tuple(sig)} is not called so"


def test_fight_song_s_lookahead_part_is_the_search_playouts_engine_run():
    """A skill scenario's lookahead level names the search playouts' engine.run as a part (the command compiles it
    while the helper compiles the lookahead kernel): its signature is the one search_ops._run calls it with."""
    import numba

    from analyzer.games.fightsong import lookahead, search_ops

    game = get_game("fightsong")
    seats = [game.validate_seat({"policy": "lookahead"}, "t", "s")] * 4
    arm = Arm("t", game.validate_rules({}, 4, "t"), seats, {})
    parts = game.extra["compile_parts"](arm)
    resume = [sig for part, sig in parts if part is fightsong_engine.run]
    assert len(resume) == 1
    cfg = fightsong_engine.Config(*arm.encoded(game))  # (what the batch gives the kernel: fightsong.batch)
    pos = lookahead._position(cfg)
    look = lookahead._scratch(cfg, pos.rg, len(game.columns(4)))

    def playout_run(pos, look):
        search_ops._run(pos, look)

    calls = jitted_calls(numba.njit(playout_run), (numba.typeof(pos), numba.typeof(look)))
    assert (fightsong_engine.run.py_func, tuple(resume[0])) in calls
    plain = Arm("t", game.validate_rules({}, 4, "t"), [game.validate_seat({"policy": "team"}, "t", "s")] * 4, {})
    assert all(part is not fightsong_engine.run for part, _ in game.extra["compile_parts"](plain))


def test_noize_s_lookahead_part_is_the_tree_search_as_choose_calls_it():
    """A skill scenario's lookahead or search level names Bring the Noize's tree search as a part (the command compiles
    it while the helper compiles the lookahead kernel, which calls it): its signature is the one `choose` calls it
    with, on the scratch the kernel is given (lookahead._scratch)."""
    import numba

    from analyzer.games.noize import lookahead

    game = get_game("noize")
    for policy in ("lookahead", "search"):
        seats = [game.validate_seat({"policy": policy}, "t", "s")] + [game.validate_seat({"policy": "threshold"}, "t",
                                                                                        "s")] * 2
        arm = Arm("t", game.validate_rules({}, 3, "t"), seats, {})
        assert game.extra["compile_parts"](arm) == [(lookahead.search_tree, lookahead.search_tree_signature())]
    rules, deck, pol, par, table, actions, seat_rows, first_hand = arm.encoded(game)
    _, search = lookahead._scratch(rules, deck, pol, par, table, actions.reshape(actions.size),
                                   np.int64(actions.shape[1]), seat_rows, first_hand, np.int64(len(game.columns(3))))
    rng = np.zeros(8, dtype=np.uint64)
    typeof = numba.typeof
    calls = jitted_calls(lookahead.choose, (types.int64, typeof(search[0]), typeof(rng), typeof(pol), typeof(par),
                                            typeof(search)))
    assert (lookahead.search_tree.py_func, lookahead.search_tree_signature()) in calls
    plain = Arm("t", game.validate_rules({}, 3, "t"), [game.validate_seat({"policy": "threshold"}, "t", "s")] * 3, {})
    assert all(part is not lookahead.search_tree for part, _ in game.extra["compile_parts"](plain))
