"""How the analyzer sets numba up before its kernels are defined: the cache folder, and the changes to how
numba compiles. Imported by every module that defines kernels (analyzer.games, analyzer.fold,
analyzer.rng) before it does; `import analyzer` itself stays light, so that the `analyzer` command is in
charge of Ctrl-C from its first moments (analyzer/__main__.py)."""
import hashlib
import os
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from analyzer import __version__, jit_deferred


def _numba_cache_dir():
    """Where numba keeps the compiled kernels: a folder named by a hash of every numba source file.

    numba's own cache checks only the timestamp of the file that defines a kernel, not of the files
    its inlined helpers come from, so after an edit to a helper it can load a stale kernel. Keying the
    cache folder by the sources makes any edit compile afresh (users, who do not edit, compile once)."""
    root = Path(__file__).parent  # the analyzer package
    # every file of numba code (and this one: it changes how numba compiles)
    digest = _source_digest(root, hashlib.sha1(__version__.encode()))
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "analyzer" / "numba"
    folder = base / digest.hexdigest()[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # keep the caches of the last few source versions (several checkouts may share this folder)
        _prune(base, folder)
        os.utime(folder)
    except OSError:
        return None  # not writable: numba's default (__pycache__ beside the sources)
    return str(folder)


def _source_digest(root, digest):
    """digest updated with every numba source file under root (its path and its bytes)."""
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text)
    return digest


@contextmanager
def cache_for(folder):
    """While a game from outside the analyzer package is imported (analyzer.games.get_game): numba caches its
    kernels in games/<a hash of the numba sources under `folder`> within the cache folder, for the reason
    _numba_cache_dir gives (an edit to one of the game's helpers then compiles afresh). The cache folder is
    named by the analyzer's sources, on which the game's kernels build (or is NUMBA_CACHE_DIR as set from
    outside); with none (numba's default, beside the sources) nothing changes."""
    from numba import config

    games = Path(config.CACHE_DIR) / "games" if config.CACHE_DIR else None
    sub = games / _source_digest(Path(folder), hashlib.sha1()).hexdigest()[:16] if games else None
    try:
        if sub is not None:
            sub.mkdir(parents=True, exist_ok=True)
            os.utime(sub)
            _prune(games, sub)
    except OSError:
        sub = None
    if sub is None:
        yield
        return
    before = config.CACHE_DIR
    config.CACHE_DIR = str(sub)  # (numba reads it when a function is decorated: at the game's import)
    try:
        yield
    finally:
        config.CACHE_DIR = before


KEPT_VERSIONS = 8  # source versions whose kernels stay cached (about 35 MB each): a few checkouts at once, each with
# runs of its own, must not prune each other's kernels mid-run (3 did: a "warm" suite compiled 403 s of CPU again)


def _prune(base, keep, last=KEPT_VERSIONS):
    """Remove all but the `last` most recently used folders of base (other source versions), keeping `keep`."""
    import shutil

    olds = sorted((p for p in base.iterdir() if p.is_dir() and p != keep), key=lambda p: p.stat().st_mtime)
    for old in olds[:-last]:
        shutil.rmtree(old, ignore_errors=True)


if "NUMBA_CACHE_DIR" not in os.environ:
    _folder = _numba_cache_dir()
    if _folder:
        os.environ["NUMBA_CACHE_DIR"] = _folder
        if "numba" in sys.modules:  # imported before us: tell its configuration too
            sys.modules["numba"].config.CACHE_DIR = _folder


from numba.core import caching  # noqa: E402  (after NUMBA_CACHE_DIR is set: numba reads it on import)

_PACKAGE_PARENT = Path(__file__).resolve().parent.parent  # the folder that holds the analyzer package


class PackagePathCacheLocator(caching.UserProvidedCacheLocator):
    """Names each module's cache subfolder by its path inside the analyzer package, not by where the checkout lies.

    numba names the subfolder after a hash of the source file's absolute folder, so every clone of the
    repository (a CI run, a worktree, a second checkout) compiled every kernel afresh although the cache folder,
    named by the sources' content (_numba_cache_dir), was the same. numba checks each file's content hash
    before it loads a kernel, so checkouts of the same sources can share it. Files outside the package (games
    imported through cache_for) keep numba's naming."""

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):
        folder = Path(py_file).resolve().parent
        if folder.is_relative_to(_PACKAGE_PARENT / "analyzer"):
            return "_".join(folder.relative_to(_PACKAGE_PARENT).parts)  # e.g. analyzer_games_distance
        return super().get_suitable_cache_subpath(py_file)


def _locate_caches_by_package_path():
    """Put PackagePathCacheLocator first, before numba's own locators (unless NUMBA_CACHE_LOCATOR_CLASSES is set)."""
    from numba.core import config

    if "NUMBA_CACHE_LOCATOR_CLASSES" not in os.environ:  # (numba re-reads its configuration from the environment)
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = ",".join(
            [f"{__name__}.PackagePathCacheLocator"] + [cls.__name__ for cls in caching.CacheImpl._locator_classes])
        config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]


_locate_caches_by_package_path()


# Where the rule below applies. Measured in fresh processes: Battle of the Bards' kernels compile in 49 s
# with it instead of 87 s; The Distance's took 45 s with it instead of 26 s, most likely because the extra
# frame moved a stack chunk boundary (see _compile_in_one_stack_chunk), so a game opts in once its compile
# time has been measured both ways. Every function compiled `forceinline` is typed plainly too, whatever its module:
# LLVM inlines it into each caller and folds the constants there, so one signature serves every constant.
PLAIN_CONSTANT_MODULES = ("analyzer.games.bards.",)


def _compile_constants_once():
    """Make a jitted call with a constant argument (`f(st, 0)`, `g(x, False)`) compile the callee once
    for the argument's type, not once per constant value.

    numba types a constant argument as a literal (Literal[int](0)) and compiles the callee afresh for
    each value it is called with: Battle of the Bards had 126 signatures for about 60 functions. The
    kernels never need the constant folded in, so the functions of PLAIN_CONSTANT_MODULES, and every function
    LLVM inlines (`forceinline`), are first tried with the plain types; a callee that really needs a literal (a tuple
    index, say) still gets it, because a typing error falls back to numba's own behaviour. Results are unchanged
    (golden tests)."""
    from numba.core import dispatcher, errors, types

    numba_call_template = dispatcher.Dispatcher.get_call_template
    if getattr(numba_call_template, "_analyzer", False):
        return

    def get_call_template(self, args, kws):
        if self.py_func.__module__.startswith(PLAIN_CONSTANT_MODULES) or self.targetoptions.get("forceinline"):
            plain = tuple(types.unliteral(a) for a in args)
            plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
            if plain != tuple(args) or plain_kws != kws:
                try:
                    return numba_call_template(self, plain, plain_kws)
                except errors.TypingError:
                    pass
        return numba_call_template(self, args, kws)

    get_call_template._analyzer = True
    dispatcher.Dispatcher.get_call_template = get_call_template


_compile_constants_once()

# machine code only for what Python runs (analyzer/jit_deferred.py); before the next change, whose frame then holds
# the whole of a call's compile, this one's included
jit_deferred.install()

STACK_SLOTS = 2 ** 16  # locals of the frame a compile starts from (512 KB: its chunk is 1 MB, half of it free)


def _compile_in_one_stack_chunk():
    """Run numba's compiles from a frame so large that the whole compile's Python stack fits in its chunk.

    CPython 3.11 keeps frames in 16 KB chunks and frees a chunk (munmap) as soon as its first frame
    returns. numba's compiler recurses (copy.deepcopy of IR when it inlines); when that recursion keeps
    crossing a chunk boundary, every crossing maps and unmaps a chunk: a cold start of The Distance spent
    17 s of system time (2.5 million page faults) in it, or about 2 s when the boundary fell elsewhere,
    depending only on how deep the caller was. A frame with STACK_SLOTS locals gets a chunk of its own,
    twice its size, and the compile's frames fill the free half: no chunk is allocated during a compile."""
    import types

    from numba.core import dispatcher

    numba_compile = dispatcher.Dispatcher._compile_for_args
    if getattr(numba_compile, "_analyzer", False):
        return

    def call(fn, *args, **kws):
        return fn(*args, **kws)

    code = call.__code__
    # (one name repeated: a code object takes it, and 65,536 distinct names took 25-38 ms to make at every start)
    slots = ("_slot",) * STACK_SLOTS
    try:
        big = types.FunctionType(code.replace(co_varnames=code.co_varnames + slots,
                                              co_nlocals=code.co_nlocals + STACK_SLOTS), {})
    except (TypeError, ValueError):  # a Python whose code objects do not take this: compile as numba does
        return

    def _compile_for_args(self, *args, **kws):
        return big(numba_compile, self, *args, **kws)

    _compile_for_args._analyzer = True
    dispatcher.Dispatcher._compile_for_args = _compile_for_args


_compile_in_one_stack_chunk()


class Busy(Exception):
    """A top-level compile asked not to wait (asked.no_waiting) found another process compiling the function."""


class WouldCompile(Exception):
    """A top-level compile asked not to compile (asked.no_compiling) found the function not in the cache."""


# What this thread asks of its top-level compiles (a compile no other compile of the thread started), set by
# analyzer.compile_aside: no_waiting (raise Busy rather than wait for another process's compile of the function),
# no_compiling (raise WouldCompile rather than compile). The compiles they start wait and compile as usual.
asked = threading.local()


def in_cache(dispatcher, cache, sig):
    """Whether numba's cache holds dispatcher's compile for sig (its index read, nothing loaded)."""
    try:
        dispatcher.targetctx.refresh()
        return cache._index_key(sig, dispatcher.targetctx.codegen()) in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001  (another numba's cache: say it is, and numba compiles as it does)
        return True


def _one_process_compiles_each_kernel():
    """Processes that start cold together (a test run's two workers, Dask's local workers) compile a kernel once.

    Each compile of a cached function holds a file lock named after it and its signature in its cache folder
    (compile_lock_name): a second process that needs the same compile waits for the first, then loads what it cached
    (numba's compile looks in the cache first) instead of compiling it again. The test suite's two processes compiled
    55 s of CPU twice before. A compile of another signature of the function does not wait (a lock per function made
    a cold Fight Song skill run's helper wait 5 s for the command's batch engine.run before compiling the search
    playouts' own); the function's cache index, which both write, is saved under a lock of its own
    (_index_saved_under_a_lock). numba's own compiler lock is taken first, so that threads of one process never wait
    on each other's file locks; a process holds the locks of the compiles it is making, caller before callee, so two
    processes wait on each other only if two functions call each other, which kernels do not."""
    try:
        import fcntl
    except ImportError:  # (not on Windows: each process compiles as numba does)
        return

    from numba.core import caching, dispatcher, sigutils
    from numba.core.compiler_lock import global_compiler_lock

    numba_compile = dispatcher.Dispatcher.compile
    if getattr(numba_compile, "_analyzer", False):
        return

    def compile(self, sig):
        cache = getattr(self, "_cache", None)
        args = tuple(sigutils.normalize_signature(sig)[0])
        if not isinstance(cache, caching.Cache) or args in self.overloads:
            return numba_compile(self, sig)
        name = compile_lock_name(self.py_func, args)
        top = not global_compiler_lock.is_locked()  # (no compile of this thread under way)
        if top and getattr(asked, "no_compiling", False) and not in_cache(self, cache, sig):
            raise WouldCompile(name)
        with global_compiler_lock:
            try:
                lock = open(Path(cache._cache_path) / name, "a")
            except OSError:  # (a cache folder that takes no lock file: compile as numba does)
                return numba_compile(self, sig)
            with lock:
                if top and getattr(asked, "no_waiting", False):
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        raise Busy(name) from None
                else:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                return numba_compile(self, sig)  # (closing the file releases the lock)

    compile._analyzer = True
    dispatcher.Dispatcher.compile = compile
    _index_saved_under_a_lock(fcntl, caching)


def compile_lock_name(py_func, args):
    """The file (in the function's cache folder) whose lock a compile of py_func for argument types args holds."""
    import hashlib

    digest = hashlib.sha1(repr(args).encode()).hexdigest()[:16]
    return f"{py_func.__module__}.{py_func.__qualname__}.{digest}.lock"


def _index_saved_under_a_lock(fcntl, caching):
    """numba saves a compile by reading the function's cache index, adding the entry and writing the index back: two
    processes saving two signatures of one function at once could each write the index without the other's entry (a
    compile lost, made again by the next run). The save holds a lock on `<index>.lock` beside it."""
    index_file = caching.IndexDataCacheFile
    numba_save = index_file.save
    if getattr(numba_save, "_analyzer", False):
        return

    def save(self, key, data):
        try:
            lock = open(self._index_path + ".lock", "a")
        except OSError:  # (a cache folder that takes no lock file: save as numba does)
            return numba_save(self, key, data)
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return numba_save(self, key, data)

    save._analyzer = True
    index_file.save = save


_one_process_compiles_each_kernel()


def _blas_noted_without_scipy():
    """numba's CPU target, when it starts (the first kernel loaded), imports numba.np.arraymath, which imports
    scipy.linalg only to note whether np.dot and the like could be compiled: a third of the time it takes to load
    the first kernel from the cache when scipy is installed (a test extra). No kernel of the analyzer uses them; the
    note is taken from whether scipy is installed, without importing it (a kernel that used np.dot would still
    import it when compiled: numba.np.linalg's own check). Kernels and results are unchanged."""
    import importlib.util

    if "numba.np.arraymath" in sys.modules:  # (imported before us: the note is taken)
        return
    from numba.np import linalg

    numba_check = linalg.ensure_blas

    def scipy_installed():
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy 0.16+ is required for linear algebra")

    linalg.ensure_blas = scipy_installed  # (arraymath takes the name as it imports, and calls it once, then)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        linalg.ensure_blas = numba_check


_blas_noted_without_scipy()


def _inline_without_copying_fresh_ir():
    """Inline an `inline="always"` callee into its caller without two deep copies of the callee's IR.

    numba (0.68) inlines a call by building the callee's IR afresh (its untyped passes, inlining its own callees
    in turn), then deep-copying it block by block twice: once to mutate, once to keep an unmutated original that
    no caller of the inliner reads. Each block's copy copies the function's whole scope (every variable) again, so
    the copies cost blocks x variables per call site, at every level of nesting: the copies took about half of a
    cold compile of Bring the Noize's kernels. The IR built for one call site is not seen by anything else, so its
    blocks are inlined as they are (the numba-cuda project made the same change: numba/numba-cuda#689). Any other
    deep copy made while inlining (an @overload's cached IR, inlined by the typed passes) is unchanged. Kernels
    and results are unchanged (golden tests, summary digests)."""
    import copy
    import inspect
    import threading

    from numba.core import inline_closurecall as icc

    worker = icc.InlineWorker
    if getattr(worker.inline_function, "_analyzer", False):
        return
    # the inliner as this was written for: a copy_ir that deep-copies block by block with the module's `copy`,
    # and inline_function handing inline_ir the IR it has just built
    source = inspect.getsource(worker.inline_ir) + inspect.getsource(worker.inline_function)
    if ("copy.deepcopy(the_ir.blocks[block_label])" not in source or "callee_ir_original = copy_ir(callee_ir)"
            not in source or "callee_ir = self.run_untyped_passes(function)" not in source or icc.copy is not copy):
        return  # another numba: compile as it does
    fresh = threading.local()  # fresh.blocks: the ids of the blocks of the IR being inlined, built for this call

    class _CopyUnlessFresh:
        """inline_closurecall's `copy` module: deepcopy returns a block of the fresh IR as it is."""

        @staticmethod
        def deepcopy(x, memo=None):
            if id(x) in getattr(fresh, "blocks", ()):
                return x
            return copy.deepcopy(x, memo)

    numba_inline_function = worker.inline_function

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        callee_ir = self.run_untyped_passes(function)
        freevars = function.__code__.co_freevars
        outer = getattr(fresh, "blocks", ())
        fresh.blocks = {id(b) for b in callee_ir.blocks.values()}
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)
        finally:
            fresh.blocks = outer

    inline_function._analyzer = True
    inline_function._numba = numba_inline_function
    worker.inline_function = inline_function
    icc.copy = _CopyUnlessFresh


_inline_without_copying_fresh_ir()


def _compile_options_compared_without_properties():
    """Compare and hash numba's compile options (Flags) from their stored values, not option by option through
    their properties.

    numba looks each typed call up in a cache keyed by the compile's Flags; each lookup hashes and compares them,
    and TargetConfig.values() builds their dict by calling one property per option (about 30): a hash and a
    comparison took 22.9 us, and a cold compile of The Distance's kernels makes about 39,000 lookups. The same
    dict is the defaults updated with the values set (what each property returns), built in one step: 4.1 us.
    Kernels and results are unchanged."""
    from numba.core import targetconfig

    config = targetconfig.TargetConfig
    if getattr(config.values, "_analyzer", False):
        return
    defaults = {}  # per TargetConfig class: {option: default}

    def values(self):
        cls = type(self)
        base = defaults.get(cls)
        if base is None:
            base = defaults[cls] = {k: opt.default for k, opt in cls.options.items()}
        out = base.copy()
        out.update(self._values)  # (set only through the options' setters, or copied from another config)
        return out

    values._analyzer = True
    values.__doc__ = config.values.__doc__
    config.values = values


_compile_options_compared_without_properties()


def _none_tests_decided_for_every_type():
    """Decide `arg is None` (and `is not`) before typing for an argument of a type that is never None.

    numba (0.68) drops the branch of such a test before typing it only where the argument is None (or omitted) or a
    literal; for an argument of another type (an array, a tuple) it types both branches, and every call in the one
    never taken is compiled for nothing. Fight Song's game loop chooses its calls of play_board and fight_song_round
    by `look is None` and `resume is not None`: its lookahead kernel (given `look`) compiled clones of both for the
    call without it (3.6 s of CPU), and the search playouts' engine.run (given `resume`) typed the plain calls too,
    a compile of 14.5 s that is now 5-6 s, on the critical path of a skill scenario's cold start (docs/performance.md,
    issue 30's eighteenth session). An array, a number, a boolean, a tuple or a record is never None, so numba is handed
    its type as it reads a literal's (`literal_type`) and decides the test as it does for a literal: numba resolves
    that way only comparisons with None (with anything else it leaves the branch, as before). An Optional, which may
    hold None, is left as it is. Kernels and results are unchanged: the branch dropped is one the code never takes."""
    from numba.core import analysis, types, untyped_passes

    numba_prune = analysis.dead_branch_prune
    if getattr(numba_prune, "_analyzer", False):
        return
    # the pruning as this was written for: its resolve_input_arg_const reads the argument's type from called_args and
    # a literal's literal_type (its code's constants, not inspect.getsource: reading the source cost 28 ms a start)
    inner = {c.co_name: c for c in numba_prune.__code__.co_consts if hasattr(c, "co_name")}
    resolve = inner.get("resolve_input_arg_const")
    if (untyped_passes.dead_branch_prune is not numba_prune or resolve is None
            or "literal_type" not in resolve.co_consts or "called_args" not in resolve.co_freevars):
        return  # another numba: compile as it does
    never_none = (types.Array, types.Number, types.Boolean, types.BaseTuple, types.Record)

    class _NeverNone:
        """An argument's type as numba's branch pruning reads a literal's: never None."""

        def __init__(self, ty):
            self.literal_type = ty

    def dead_branch_prune(func_ir, called_args):
        if called_args:
            called_args = tuple(_NeverNone(ty) if isinstance(ty, never_none) and not hasattr(ty, "literal_type")
                                else ty for ty in called_args)
        return numba_prune(func_ir, called_args)

    dead_branch_prune._analyzer = True
    dead_branch_prune.__doc__ = numba_prune.__doc__
    analysis.dead_branch_prune = dead_branch_prune  # (inline_closurecall calls it through the module)
    untyped_passes.dead_branch_prune = dead_branch_prune  # (the pass imported the name)


_none_tests_decided_for_every_type()
