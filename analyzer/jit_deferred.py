"""Machine code only for what Python runs: a jitted function stays LLVM IR until Python calls it.

numba compiles each jitted function to machine code as soon as it is typed, after optimising its library (its own IR
with a copy of every callee's library linked in) with LLVM's full pipeline. Only the kernels are run from Python:
every other function is compiled for its callers, which link a copy of its IR into their own library, optimise it
again and compile it again, once per level of callers. Here a library is finalised as numba does up to the IR (its
callees linked in, numba's cheap module pass, which inlines so that reference-count pruning sees both ends of a
reference) and is left as IR: "deferred". Its full optimisation and its machine code are made when Python first calls
one of its functions (Dispatcher._compile_for_args, the way of any call whose signature has no machine code yet), or
when anything asks for an address in it. A kernel's library then optimises its callees' IR with its own, once for all
(FULL_ROUNDS rounds of the full pipeline), and no library is compiled to machine code that nothing runs.

- Measured (one process compiling a bench case's batch kernel from an empty cache, CPU seconds, numba's way first,
  two pairs alternated): Battle of the Bards' greedy kernel 13.59, 13.23 -> 11.52, 11.25 s; The Distance's 13.75,
  14.45 -> 13.03, 12.72; Fight Song's lookahead 57.15, 59.15 -> 40.30, 41.97; Bring the Noize's lookahead 27.08,
  26.73 -> 23.88, 24.67; Fight Song's greedy 5.49, 5.20 -> 5.52, 5.54 (it links little). The games' rows are the
  same (checksums), the kernels as fast within the noise of such pairs, about 3% (docs/performance.md, issue 30's
  eleventh session).
- numba's cache: a deferred library is cached as its IR (kind "analyzer-ir"; numba's own entries hold the object code
  and the IR) and loaded as deferred; a compile for a call from Python makes the machine code before numba caches it,
  so a kernel is cached with its machine code and a warm start loads it as before. A function compiled first for a
  caller (or by compile_aside's jobs, which do not call) and called from Python later is cached again then.
- A function's environment (a global numba sets to a Python object when its code is loaded) is set once code that
  holds it is in the engine: a deferred function's own library never is, its callers' are.
Results are unchanged: LLVM's passes keep every integer and floating-point result (no kernel is compiled with
fast-math), so only the speed of the code can differ (golden tests, summary digests, every shipped scenario's
summary.csv; tests/test_jit_deferred.py shows the mechanism).
"""
from __future__ import annotations

import threading

import llvmlite.binding as ll

# Rounds of LLVM's full pipeline over a library made into machine code. numba's way gave a callee's code two or more
# (its own library's, then each caller's); with one, Bring the Noize's lookahead kernel ran 5% slower than numba's
# way (202,470 against 191,517 ns a game), with two as fast (184,867; in later pairs 187,042 and 189,657 against
# 185,561 and 185,314); the second round costs 0.1-2.8 s of compile CPU a kernel (docs/performance.md, the eleventh
# session). Kernels measured as fast with one round say so (optimise_once): their cold start is that much shorter.
FULL_ROUNDS = 2
_ONE_ROUND = set()  # the dispatchers of those kernels


def optimise_once(*kernels):
    """Give these kernels (jitted functions that Python calls) one round of the full pipeline, not FULL_ROUNDS: for
    kernels measured as fast with one (docs/performance.md, issue 30's twelfth session). Their results are the same
    either way (see the module's docstring); only the speed of their code could differ."""
    _ONE_ROUND.update(kernels)


IR_KIND = "analyzer-ir"  # numba's cache entry of a deferred library: (name, IR_KIND, bitcode)


class DeferredEntry:
    """What stands for a deferred function's Python entry point (CompileResult.entry_point) until it has one."""

    def __init__(self, library, fndesc, env):
        self.library, self.fndesc, self.env = library, fndesc, env

    def __call__(self, *args, **kws):  # (nothing calls it: Python calls go through _compile_for_args)
        raise RuntimeError(f"{self.fndesc.qualname} has no machine code yet")


def is_deferred(library) -> bool:
    return getattr(library, "_analyzer_deferred", False)


_installed = False


def install():
    """Patch numba (once): JIT libraries are deferred, and made into machine code as said above."""
    global _installed
    if _installed:
        return
    from numba.core import codegen, config, cpu, dispatcher
    from numba.core.compiler_lock import global_compiler_lock, require_global_compiler_lock

    library_class = codegen.JITCodeLibrary
    needed = [(library_class, "_finalize_final_module"), (library_class, "_get_module_for_linking"),
              (library_class, "_unserialize"), (codegen.CPUCodegen, "_module_pass_manager"),
              (codegen.CPUCodegen, "_check_llvm_bugs"), (dispatcher.Dispatcher, "add_overload")]
    if not all(hasattr(cls, name) for cls, name in needed):
        return  # another numba: compile as it does
    numba_get_pointer = library_class.get_pointer_to_function
    numba_serialize = library_class.serialize_using_object_code
    numba_unserialize = library_class._unserialize.__func__
    numba_set_env = codegen.JITCPUCodegen.set_env
    numba_get_executable = cpu.CPUContext.get_executable
    numba_add_overload = dispatcher.Dispatcher.add_overload
    numba_compile_for_args = dispatcher.Dispatcher._compile_for_args
    pending_envs = {}  # environment global -> environment, for globals no code in the engine holds yet
    called = threading.local()  # called.dispatchers: those being called from Python on this thread (a stack)

    def finalize(self):
        """numba's finalize up to the IR: callees linked in, the cheap module pass (and refcount pruning)."""
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                self._reload_init.update(library._reload_init)
                seen.add(library)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        cheap, cheap_builder = self._codegen._module_pass_manager(
            loop_vectorize=self._codegen._loopvect, slp_vectorize=False, opt=self._codegen._opt_level, cost="cheap")
        cheap.run(self._final_module, cheap_builder)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
        self._final_module.verify()
        self._analyzer_deferred = True
        self._finalized = True

    def make_machine_code(self, rounds=FULL_ROUNDS):
        """The rest of numba's finalize: the full module pipeline, then machine code in the engine."""
        with global_compiler_lock:
            if not is_deferred(self):
                return
            for _ in range(rounds):
                full, full_builder = self._codegen._module_pass_manager()  # (a pass manager runs once)
                full.run(self._final_module, full_builder)
            self._final_module.verify()
            self._finalize_final_module()
            self._analyzer_deferred = False
            self._analyzer_unsaved = True  # (its machine code not in numba's cache yet)
            engine = self._codegen._engine
            for name in [n for n in pending_envs if engine.get_global_value_address(n)]:
                numba_set_env(self._codegen, name, pending_envs.pop(name))

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        make_machine_code(self)
        return numba_get_pointer(self, name)

    def serialize_using_object_code(self):
        self._ensure_finalized()
        if is_deferred(self):
            # (its own module: the one for linking has its functions linkonce, which the full pipeline drops when
            # nothing in the module calls them, and the machine code made on a load would lack them)
            return (self.name, IR_KIND, self._final_module.as_bitcode())
        self._analyzer_unsaved = False
        return numba_serialize(self)

    def _unserialize(cls, codegen_, state):
        name, kind, data = state
        if kind != IR_KIND:
            return numba_unserialize(cls, codegen_, state)
        self = codegen_.create_library(name)
        self.enable_object_caching()  # (its machine code, once made, is cached as numba's own)
        self._final_module = ll.parse_bitcode(data)
        self._analyzer_deferred = True
        self._finalized = True
        return self

    def set_env(self, env_name, env):
        if self._engine.get_global_value_address(env_name):
            numba_set_env(self, env_name, env)
        else:
            pending_envs[env_name] = env

    def get_executable(self, library, fndesc, env):
        library._ensure_finalized()
        if not is_deferred(library):
            return numba_get_executable(self, library, fndesc, env)
        set_env(library.codegen, self.get_env_name(fndesc), env)
        return DeferredEntry(library, fndesc, env)

    def with_machine_code(dispatcher_, cres):
        """cres with its library made into machine code and a Python entry point."""
        entry = cres.entry_point
        make_machine_code(entry.library, 1 if dispatcher_ in _ONE_ROUND else FULL_ROUNDS)
        cfunc = numba_get_executable(dispatcher_.targetctx, entry.library, entry.fndesc, entry.env)
        # jitted callers typed from now on find the function by its entry point: register the new one as numba did
        # the placeholder (typed_passes.NativeLowering, Dispatcher.compile)
        dispatcher_.targetctx.insert_user_function(cfunc, entry.fndesc, [entry.library])
        return cres._replace(entry_point=cfunc)

    def add_overload(self, cres):
        if isinstance(cres.entry_point, DeferredEntry):
            if self not in getattr(called, "dispatchers", ()):
                self.overloads[tuple(cres.signature.args)] = cres  # (no Python entry: see _compile_for_args)
                return
            # compiled (or loaded) for a call from Python: its machine code now, before numba caches it
            cres = with_machine_code(self, cres)
        numba_add_overload(self, cres)

    def _compile_for_args(self, *args, **kws):
        stack = called.__dict__.setdefault("dispatchers", [])
        stack.append(self)
        try:
            entry = numba_compile_for_args(self, *args, **kws)
        finally:
            stack.pop()
        if not isinstance(entry, DeferredEntry):
            return entry
        # compiled earlier for jitted callers only, or compiled (or loaded) and made into machine code just now
        with global_compiler_lock:
            # (by its fndesc, which the placeholder and the compile share, whether it is still the placeholder or
            # has been given its machine code since)
            key, cres = next(((k, c) for k, c in self.overloads.items() if c.fndesc is entry.fndesc), (None, None))
            if cres is None:  # (not an overload of this dispatcher's: no other numba path hands one out)
                raise RuntimeError(f"{entry.fndesc.qualname}: no overload holds the entry numba returned")
            if isinstance(cres.entry_point, DeferredEntry):
                cres = with_machine_code(self, cres)
                numba_add_overload(self, cres)
            if getattr(cres.library, "_analyzer_unsaved", False):  # (numba saved a fresh compile's already)
                self._cache.save_overload(key, cres)  # (a NullCache for functions not cached)
        return cres.entry_point

    library_class.finalize = finalize
    library_class.get_pointer_to_function = get_pointer_to_function
    library_class.serialize_using_object_code = serialize_using_object_code
    library_class._unserialize = classmethod(_unserialize)
    codegen.JITCPUCodegen.set_env = set_env
    cpu.CPUContext.get_executable = get_executable
    dispatcher.Dispatcher.add_overload = add_overload
    dispatcher.Dispatcher._compile_for_args = _compile_for_args
    _installed = True
