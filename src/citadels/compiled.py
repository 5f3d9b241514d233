"""Which engine runs: the mypyc-compiled build of the engine's modules, or the pure Python.

``make install`` (and a wheel built where a C compiler is present) compiles the modules of
:data:`MODULES` with mypyc into the gitignored directory ``citadels/_compiled/``, next to a
``manifest.json`` recording a hash of the sources it was built from (:func:`digest`). Nothing
there is ever imported on its own: the directory is not beside the ``.py`` files and is on no
path until :func:`activate` (called first thing by ``import citadels``) has checked that

- ``CITADELS_PURE`` is not set to a true value (``1``, ``true``, ``yes``, ``on``);
- the manifest exists and was built for this interpreter (its extension suffix);
- the hash of today's sources equals the recorded one (an edited ``.py`` is never shadowed
  by a stale build: the package warns and runs pure instead).

Only then are ``_compiled`` and ``_compiled/engine`` put first on the package paths of
``citadels`` and ``citadels.engine``, so the compiled modules are found before the ``.py``
files. It is all or nothing: every compiled module or none. This module imports nothing from
the package (the build reads :data:`MODULES` and :func:`digest` from it by path).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

#: The package's directory (``src/citadels`` in a checkout).
PACKAGE = Path(__file__).resolve().parent
#: Where the build puts the extension modules and the manifest (gitignored).
BUILD_DIR = PACKAGE / "_compiled"
MANIFEST = BUILD_DIR / "manifest.json"
#: The name of mypyc's shared library of the build (``<GROUP>__mypyc``).
GROUP = "citadels_engine"

#: The modules compiled with mypyc, as paths relative to the package directory.
MODULES: tuple[str, ...] = (
    "cards.py",
    "ids.py",
    "rng.py",
    "engine/bonus_characters.py",
    "engine/bonus_districts.py",
    "engine/characters.py",
    "engine/characters_2016.py",
    "engine/determinize.py",
    "engine/districts.py",
    "engine/districts_2016.py",
    "engine/effects.py",
    "engine/events.py",
    "engine/from_view.py",
    "engine/game.py",
    "engine/legality.py",
    "engine/rules.py",
    "engine/scoring.py",
    "engine/serialize.py",
    "engine/shared.py",
    "engine/state.py",
    "engine/views.py",
)

#: Sources the compiled modules depend on without being compiled themselves: a change to
#: them also makes the build stale (mypyc compiles against their types).
DEPENDENCIES: tuple[str, ...] = ("editions.py", "engine/actions.py", "errors.py")

#: Environment variable forcing the pure-Python engine.
PURE_VARIABLE = "CITADELS_PURE"

#: Whether the compiled engine is in use (set by :func:`activate`).
COMPILED = False
#: Why the pure engine runs, when it does ("" when compiled).
REASON = "not activated"


def digest(package: Path = PACKAGE) -> str:
    """The SHA-256 of the sources of :data:`MODULES` and :data:`DEPENDENCIES` under
    ``package``, each with its path (the hash the build records)."""
    h = hashlib.sha256()
    for rel in sorted((*MODULES, *DEPENDENCIES)):
        h.update(rel.encode())
        h.update(b"\0")
        h.update((package / rel).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def extension_suffix() -> str:
    """The file suffix of this interpreter's extension modules (``.cpython-311-…so``)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def pure_requested() -> bool:
    """Whether ``CITADELS_PURE`` asks for the pure-Python engine."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def check(package: Path = PACKAGE, *, honour_env: bool = True) -> str:
    """Why the compiled build of ``package`` cannot be used, or "" when it can
    (``honour_env``: ``CITADELS_PURE`` counts)."""
    if honour_env and pure_requested():
        return f"{PURE_VARIABLE} is set"
    build = package / BUILD_DIR.name
    manifest_path = build / MANIFEST.name
    if not manifest_path.is_file():
        return "no compiled build (make install builds one where a C compiler is present)"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        suffix = manifest["suffix"]
        recorded = manifest["digest"]
        modules = tuple(manifest["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        return f"unreadable manifest {manifest_path}"
    if suffix != extension_suffix():
        return f"the compiled build is for {suffix}, not this interpreter ({extension_suffix()})"
    if modules != MODULES:
        return "the compiled build has other modules than citadels/compiled.py lists"
    missing = [m for m in (*MODULES, GROUP) if not _extension(m, build).is_file()]
    if missing:
        return f"the compiled build lacks {missing[0]}"
    if recorded != digest(package):
        return "the engine's sources changed since the compiled build (run make install)"
    return ""


def _extension(module: str, build: Path = BUILD_DIR) -> Path:
    """The extension file of a compiled module (``engine/rules.py``) or of the group."""
    stem = f"{GROUP}__mypyc" if module == GROUP else module.removesuffix(".py")
    return build / f"{stem}{extension_suffix()}"


def activate(package_path: list[str]) -> bool:
    """Put the compiled build first on ``package_path`` (``citadels.__path__``) when
    :func:`check` allows; otherwise the pure engine runs, with a warning when a build exists
    but is stale or unusable. Returns :data:`COMPILED`."""
    global COMPILED, REASON
    if "citadels.engine" in sys.modules or "citadels.editions" in sys.modules:
        # Too late to choose (the modules are already imported): report what is loaded.
        return COMPILED
    REASON = check()
    if REASON:
        if MANIFEST.is_file() and not pure_requested():
            warnings.warn(f"citadels: running the pure-Python engine: {REASON}", stacklevel=3)
        return False
    name = f"{GROUP}__mypyc"
    if name not in sys.modules:
        # The shared library the compiled modules import by name: loaded here from its
        # path, so the build directory never goes on sys.path.
        loader = importlib.machinery.ExtensionFileLoader(name, str(_extension(GROUP)))
        spec = importlib.util.spec_from_file_location(name, loader.path, loader=loader)
        if spec is None:  # pragma: no cover - a path with the extension suffix always has one
            REASON = "cannot load the compiled build"
            return False
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loader.exec_module(module)
    package_path.insert(0, str(BUILD_DIR))
    COMPILED = True
    return True


def engine_path(path: list[str]) -> None:
    """Put the compiled engine modules first on ``citadels.engine.__path__`` when active."""
    if COMPILED and str(BUILD_DIR / "engine") not in path:
        path.insert(0, str(BUILD_DIR / "engine"))


def engine_name() -> str:
    """Which engine runs: ``compiled (mypyc)`` or ``pure Python``."""
    return "compiled (mypyc)" if COMPILED else "pure Python"


def describe() -> str:
    """One line for humans: which engine runs, and why not the compiled one."""
    return engine_name() if COMPILED else f"{engine_name()} ({REASON})"
