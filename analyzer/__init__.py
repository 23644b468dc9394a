"""Monte Carlo strategy analyzer for card games."""
import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def _numba_cache_dir():
    """Where numba keeps the compiled kernels: a folder named by a hash of every numba source file.

    numba's own cache checks only the timestamp of the file that defines a kernel, not of the files
    its inlined helpers come from, so after an edit to a helper it can load a stale kernel. Keying the
    cache folder by the sources makes any edit compile afresh (users, who do not edit, compile once)."""
    root = Path(__file__).parent
    digest = hashlib.sha1(__version__.encode())
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:  # every file of numba code (and this one: it changes how numba compiles)
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "analyzer" / "numba"
    folder = base / digest.hexdigest()[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # keep the caches of the last few source versions (several checkouts may share this folder)
        olds = sorted((p for p in base.iterdir() if p.is_dir() and p != folder), key=lambda p: p.stat().st_mtime)
        for old in olds[:-3]:
            import shutil

            shutil.rmtree(old, ignore_errors=True)
        os.utime(folder)
    except OSError:
        return None  # not writable: numba's default (__pycache__ beside the sources)
    return str(folder)


if "NUMBA_CACHE_DIR" not in os.environ:
    _folder = _numba_cache_dir()
    if _folder:
        os.environ["NUMBA_CACHE_DIR"] = _folder
        if "numba" in sys.modules:  # imported before us: tell its configuration too
            sys.modules["numba"].config.CACHE_DIR = _folder
