"""`prefetch(arr, i)` in numba code: ask the CPU to start loading element i (in memory order) of the
C-contiguous array arr into its caches, so that a later load of it does not wait for memory. It changes
no result. Bring the Noize's decisions are chains of dependent loads from a table about the size of the
L2 cache; fetching a round's rows as soon as the hands are known lets the misses overlap instead of
stalling one decision after another."""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I32 = ir.IntType(32)
_I8P = ir.IntType(8).as_pointer()


@intrinsic
def prefetch(typingctx, arr, index):
    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), _I8P)
        fnty = ir.FunctionType(ir.VoidType(), [_I8P, _I32, _I32, _I32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read (0), keep in all cache levels (3), data cache (1)
        builder.call(fn, [ptr, _I32(0), _I32(3), _I32(1)])
        return context.get_dummy_value()

    return types.void(arr, index), codegen
