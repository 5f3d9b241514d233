"""The compiled engine (mypyc, ``citadels.compiled``) plays exactly the games of the pure one.

Seeded games of every edition at several player counts, with random and heuristic bots, are
played by this process's engine and, in a child process, by the other one; their records,
views along the way, determinized samples, final states and results must be equal. The
loader is checked too: a build whose sources changed is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import citadels
from citadels import compiled
from citadels.bots import HeuristicBot, RandomBot
from citadels.engine.determinize import InformationSet, determinize

ROOT = Path(__file__).resolve().parent.parent

#: (edition, players, bots, seed): every edition, fewest to most players, both bot kinds.
GAMES: list[tuple[str, int, str, int]] = [
    (edition, players, bots, 100 * i + players)
    for i, (edition, counts) in enumerate(
        [("basic", (2, 4, 7)), ("dezh", (3, 5)), ("classic", (2, 4, 8)), ("2016", (3, 6, 8))]
    )
    for players in counts
    for bots in ("random", "heuristic")
]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def play(edition: str, players: int, bots: str, seed: int) -> dict[str, Any]:
    """One seeded game, and everything an engine difference could show in it."""
    options: dict[str, Any] = {}
    if edition == "classic" and players == 8:
        options["characters"] = [
            "assassin", "thief", "magician", "king", "bishop", "merchant", "architect",
            "warlord", "queen",
        ]  # fmt: skip
    game = citadels.new_game(edition, players, seed=seed, **options)
    make = HeuristicBot if bots == "heuristic" else RandomBot
    chooser = [make(seed + s) for s in range(players)]
    views: list[str] = []
    samples: list[str] = []
    steps = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if steps % 37 == 0:
            # A view with its whole log, and the worlds a search bot would sample from it.
            views.append(_digest(view))
            rng = random.Random(steps)
            samples.append(_digest(determinize(game, seat, rng).to_json()))
            sample = InformationSet.from_view(view, game.record()["options"]).sample(rng)
            samples.append(_digest(sample.to_json()))
            samples.append(_digest(game.copy().view(None, log_from=steps)))
        game.apply(chooser[seat].choose(view, game.legal_actions()), seat)
        steps += 1
    return {
        "record": game.record(),
        "views": views,
        "samples": samples,
        "state": game.to_json()["state"],
        "result": game.result().to_json(),
        "final_views": [_digest(game.view(s)) for s in [None, *range(players)]],
    }


def play_all() -> dict[str, Any]:
    """Every game of :data:`GAMES`, with the engine that played them."""
    return {
        "compiled": citadels.engine.COMPILED,
        "games": [play(*g) for g in GAMES],
    }


def _play_in_child(pure: bool) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop(compiled.PURE_VARIABLE, None)
    if pure:
        env[compiled.PURE_VARIABLE] = "1"
    code = "import json, tests.test_compiled as t; print(json.dumps(t.play_all()))"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


@pytest.mark.xdist_group("compiled")
def test_compiled_and_pure_engines_play_identical_games() -> None:
    reason = compiled.check(honour_env=False)
    if reason:
        pytest.skip(f"no usable compiled build to compare with the pure engine: {reason}")
    here = play_all()
    there = _play_in_child(pure=here["compiled"])
    assert here["compiled"] != there["compiled"], "both runs used the same engine"
    assert len(here["games"]) == len(there["games"]) == len(GAMES)
    for setup, mine, theirs in zip(GAMES, here["games"], there["games"], strict=True):
        for key in mine:
            assert mine[key] == theirs[key], f"{setup}: {key} differs"


# --- the loader ------------------------------------------------------------------------------


def _package_copy(tmp_path: Path) -> Path:
    """A copy of the installed package (with its compiled build, if any) under tmp_path."""
    target = tmp_path / "src" / "citadels"
    shutil.copytree(compiled.PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    return target


def _engine_of(package: Path, pure: bool = False) -> tuple[bool, str, str]:
    """Which engine ``import citadels`` picks from ``package``: compiled, the file of
    ``citadels.engine.rules``, and what it warned."""
    env = dict(os.environ, PYTHONPATH=str(package.parent))
    env.pop(compiled.PURE_VARIABLE, None)
    if pure:
        env[compiled.PURE_VARIABLE] = "1"
    code = (
        "import citadels.engine, citadels.engine.rules as r; "
        "print(citadels.engine.COMPILED, r.__file__, sep='\\n')"
    )
    proc = subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    flag, path = proc.stdout.split("\n")[:2]
    return flag == "True", path, proc.stderr


def test_no_build_runs_the_pure_engine_silently(tmp_path: Path) -> None:
    package = _package_copy(tmp_path)
    shutil.rmtree(package / "_compiled", ignore_errors=True)
    assert "no compiled build" in compiled.check(package, honour_env=False)
    is_compiled, path, warned = _engine_of(package)
    assert not is_compiled and path == str(package / "engine" / "rules.py")
    assert "pure-Python engine" not in warned


@pytest.mark.xdist_group("compiled")
def test_a_stale_build_is_never_used(tmp_path: Path) -> None:
    if compiled.check(honour_env=False):
        pytest.skip(f"no usable compiled build: {compiled.check(honour_env=False)}")
    package = _package_copy(tmp_path)
    assert compiled.check(package, honour_env=False) == ""
    is_compiled, path, _ = _engine_of(package)
    assert is_compiled and path != str(package / "engine" / "rules.py")
    # CITADELS_PURE=1 runs the pure engine, without a warning.
    is_compiled, path, warned = _engine_of(package, pure=True)
    assert not is_compiled and path == str(package / "engine" / "rules.py")
    assert "pure-Python engine" not in warned
    # An edited source (a module compiled or one it depends on): pure, with a warning.
    for rel in ("engine/rules.py", "engine/actions.py"):
        source = package / rel
        original = source.read_bytes()
        source.write_bytes(original + b"\n# edited\n")
        assert "sources changed" in compiled.check(package, honour_env=False)
        is_compiled, path, warned = _engine_of(package)
        assert not is_compiled and path == str(package / "engine" / "rules.py")
        assert "running the pure-Python engine" in warned and "sources changed" in warned
        source.write_bytes(original)
    # A build for another interpreter, or missing a module: pure, with a warning.
    manifest_path = package / "_compiled" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest_path.write_text(json.dumps({**manifest, "suffix": ".cpython-99-x.so"}))
    assert "for .cpython-99-x.so" in compiled.check(package, honour_env=False)
    manifest_path.write_text(json.dumps(manifest))
    (package / "_compiled" / f"rng{compiled.extension_suffix()}").unlink()
    assert "lacks rng.py" in compiled.check(package, honour_env=False)
    assert not _engine_of(package)[0]


def test_without_a_c_compiler_the_build_leaves_no_build(tmp_path: Path) -> None:
    out = tmp_path / "_compiled"
    out.mkdir()
    (out / "manifest.json").write_text("{}")
    env = dict(os.environ, CC=str(tmp_path / "no-such-cc"))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_compiled.py"), "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "compiled engine not built: no C compiler" in proc.stdout
    assert not out.exists()


def test_every_engine_module_is_compiled_or_a_dependency_of_the_build() -> None:
    # A module the build does not know would not make a build stale when it changes.
    engine = {
        str(p.relative_to(compiled.PACKAGE))
        for p in (compiled.PACKAGE / "engine").glob("*.py")
        if p.name != "__init__.py"
    }
    known = set(compiled.MODULES) | set(compiled.DEPENDENCIES)
    assert engine <= known, sorted(engine - known)
    assert all((compiled.PACKAGE / m).is_file() for m in known)
    assert not set(compiled.MODULES) & set(compiled.DEPENDENCIES)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_compiled.py"), "--sources"],
        capture_output=True,
        text=True,
        check=True,
    )
    listed = {Path(p).resolve() for p in proc.stdout.split()}
    assert listed == {(compiled.PACKAGE / m).resolve() for m in known}


def test_mypyc_translates_the_engine_without_a_warning(tmp_path: Path) -> None:
    """mypyc's translation to C (the part of the build that warns, a few seconds; the C
    compiler's minute is left to ``make install``) prints nothing: a warning such as "Treating
    generator comprehension as list" would show on every ``make run``."""
    pytest.importorskip("mypyc.build")
    code = (
        "import sys; from pathlib import Path; from mypyc.build import mypycify; "
        "sys.path.insert(0, 'tools'); import build_compiled as b; "
        "pkg = Path('src/citadels').resolve(); c = b.load_compiled(pkg); "
        "mypycify([str(pkg / m) for m in c.MODULES], opt_level='3', multi_file=True, "
        "group_name=c.GROUP, target_dir=sys.argv[1])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "c")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert out.returncode == 0, out.stderr
    assert (out.stdout + out.stderr).strip() == ""
    assert list((tmp_path / "c").glob("*.c"))
