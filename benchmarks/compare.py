"""Side-by-side benchmark: this checkout against a baseline commit, on the same machine in
the same run.

The baseline's ``src/`` is extracted with ``git archive`` into a temporary directory (the
repository and its worktrees are not touched) and run with that directory first on
``PYTHONPATH``, with this checkout's interpreter and dependencies; this checkout runs the
same way from its own ``src/``. Each measurement is a fresh process, and the two sides
alternate (baseline first in odd rounds, current first in even ones), so both see the same
load on a shared machine; times are the process's CPU time (``time.process_time``), which
other processes disturb far less than the wall clock. The workloads, each bounded to a few
seconds per run:

- ``random``: random 4-player ``classic`` playouts through ``legal_actions()`` and ``apply()``;
- ``heuristic``: the README's loop with four heuristic bots, each reading its full
  ``view(seat)`` at every decision;
- ``view``: ``view(seat)`` and ``view(seat, log_from=len(log))`` 150 decisions into a seeded
  random ``classic`` game (µs; lower is better).

Both sides play the same games, seed for seed. The current side runs with each engine of
``--engines``: ``compiled`` (the mypyc build of ``make install``; the run stops if it is not
in use) and ``pure`` (``CITADELS_PURE=1``); the baseline, extracted from git without any
build, is always pure Python. Run from the repository root::

    python benchmarks/compare.py [--baseline bd5fa0a] [--rounds 5] [--seconds 2]
        [--engines compiled,pure]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "bd5fa0a"
WORKLOADS = ("random", "heuristic", "view")
ENGINES = ("compiled", "pure")


# --- the measurements, run in a child process against one side's ``citadels`` ------------


def _random(seconds: float) -> dict[str, float]:
    import random

    from citadels import new_game

    rng = random.Random(0)
    games = decisions = 0
    start = time.process_time()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        game = new_game("classic", 4, seed=rng.getrandbits(63))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
        elapsed = time.process_time() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}


def _heuristic(seconds: float) -> dict[str, float]:
    from citadels import new_game
    from citadels.bots import HeuristicBot

    games = decisions = 0
    start = time.process_time()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        game = new_game("classic", 4, seed=games)
        bots = [HeuristicBot(seed) for seed in range(4)]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat)
            decisions += 1
        games += 1
        elapsed = time.process_time() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed}


def _view(seconds: float) -> dict[str, float]:
    import random
    import timeit

    from citadels import new_game

    game = new_game("classic", 4, seed=1)
    rng = random.Random(1)
    for _ in range(150):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    seat = game.to_move
    size = len(game.state.log)
    per = max(seconds / 2 / 7, 0.01)

    def median_us(func: Any) -> float:
        clock = time.process_time
        number = max(1, int(per / max(timeit.timeit(func, clock, number=20) / 20, 1e-7)))
        runs = timeit.repeat(func, clock, number=number, repeat=7)
        return statistics.median(runs) / number * 1e6

    # The first full view renders (and, where kept, keeps) the log; then both are timed.
    game.view(seat)
    return {
        "full_view_us": median_us(lambda: game.view(seat)),
        "tail_view_us": median_us(lambda: game.view(seat, log_from=size)),
    }


def worker(workload: str, seconds: float) -> None:
    """Run one measurement and print it as JSON (the child process's side)."""
    import citadels

    run = {"random": _random, "heuristic": _heuristic, "view": _view}[workload]
    out: dict[str, Any] = dict(run(seconds))
    out["source"] = str(Path(citadels.__file__).resolve().parent)
    engine = getattr(citadels, "engine", None)
    out["compiled"] = bool(getattr(engine, "COMPILED", False))
    print(json.dumps(out))


# --- the harness ------------------------------------------------------------------------


def extract(ref: str, into: Path) -> Path:
    """``src/`` of ``ref`` under ``into`` (``git archive``: no worktree, no checkout)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def measure(src: Path, workload: str, seconds: float, engine: str = "pure") -> dict[str, Any]:
    """One run of ``workload`` in a fresh process importing ``citadels`` from ``src`` with
    ``engine`` (``pure``: ``CITADELS_PURE=1``; ``compiled``: its build must be in use)."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    env.pop("CITADELS_PURE", None)
    if engine == "pure":
        env["CITADELS_PURE"] = "1"
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", workload, str(seconds)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if Path(out["source"]) != (src / "citadels").resolve():
        raise SystemExit(f"the run imported {out['source']}, not {src / 'citadels'}")
    if out["compiled"] != (engine == "compiled"):
        raise SystemExit(
            f"the {engine} run of {src} used the {'compiled' if out['compiled'] else 'pure'} "
            "engine (is the compiled build up to date? make install)"
        )
    return out


def spread(values: list[float]) -> str:
    """Median with the lowest and highest value."""
    return f"{statistics.median(values):8.2f}  [{min(values):.2f} … {max(values):.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--baseline", default=BASELINE, help="git ref of the baseline")
    parser.add_argument("--rounds", type=int, default=5, help="alternations (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per run")
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated")
    parser.add_argument(
        "--engines", default=",".join(ENGINES), help="engines of the current side (comma-separated)"
    )
    parser.add_argument("--json", action="store_true", help="print the runs as JSON")
    parser.add_argument(
        "--worker", nargs=2, metavar=("WORKLOAD", "SECONDS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], float(args.worker[1]))
        return 0
    workloads = [w for w in args.workloads.split(",") if w]
    unknown = [w for w in workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}; choose from {', '.join(WORKLOADS)}")
    engines = [e for e in args.engines.split(",") if e]
    if not engines or any(e not in ENGINES for e in engines):
        parser.error(f"--engines takes some of {', '.join(ENGINES)}")
    current = ROOT / "src"
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    labels = ["baseline", *engines]
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        w: {label: [] for label in labels} for w in workloads
    }
    with tempfile.TemporaryDirectory(prefix="citadels-baseline-") as tmp:
        baseline = extract(args.baseline, Path(tmp))
        print(
            f"baseline {args.baseline} ({rev}, pure) vs current {current} "
            f"({', '.join(engines)}); {sys.version.split()[0]}"
        )
        for r in range(args.rounds):
            for w in workloads:
                sides = [("baseline", baseline, "pure")] + [(e, current, e) for e in engines]
                for label, src, engine in sides if r % 2 == 0 else sides[::-1]:
                    runs[w][label].append(measure(src, w, args.seconds, engine))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    if args.json:
        print(json.dumps({"baseline": args.baseline, "runs": runs}, indent=1))
        return 0
    print(f"{'':34}{'median  [min … max] over ' + str(args.rounds) + ' rounds':>40}")
    for w in workloads:
        keys = [k for k in runs[w]["baseline"][0] if k not in ("source", "compiled")]
        for key in keys:
            base = [run[key] for run in runs[w]["baseline"]]
            print(f"{w} {key}")
            print(f"  {'baseline':17}{spread(base)}")
            for engine in engines:
                cur = [run[key] for run in runs[w][engine]]
                # Each round's pair: > 1 is faster now (for µs, baseline / current).
                if key.endswith("_us"):
                    ratios = [b / c for b, c in zip(base, cur, strict=True)]
                else:
                    ratios = [c / b for b, c in zip(base, cur, strict=True)]
                print(f"  {engine:17}{spread(cur)}")
                print(f"  {'  speed-up':17}{spread(ratios)}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
