"""Throughput of the RL environments: steps per second with random legal actions.

Every step includes the observation encoding and the action mask of the seat to move.

    python benchmarks/rl_steps.py                      # PettingZoo AEC env, one core
    python benchmarks/rl_steps.py --mode batch --tables 64
    python benchmarks/rl_steps.py --mode batch --tables 64 --procs 2
    python benchmarks/rl_steps.py --mode gym --opponents random
    python benchmarks/rl_steps.py --mode engine         # the engine alone, for reference

``--seconds`` bounds each run (default 5); ``--edition``, ``--players`` pick the setup. Both
the wall-clock rate and the rate per CPU second are printed: on a shared machine the second
is the one-core figure.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def aec_steps(
    edition: str, players: int, seconds: float, seed: int, raw: bool = False
) -> tuple[int, float, float]:
    """PettingZoo: ``last()`` (observation and mask) then ``step`` for the agent to move;
    ``raw``: the environment without PettingZoo's checking wrappers (``raw_env``)."""
    from citadels.rl.pettingzoo import env, raw_env

    e = (raw_env if raw else env)(edition=edition, players=players)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                if not e.agents:
                    e.reset()
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start, time.process_time() - cpu


def batch_steps(
    edition: str, players: int, seconds: float, seed: int, tables: int
) -> tuple[int, float, float]:
    """The batched self-play tables: ``observe`` then ``step`` of every table at once."""
    from citadels.rl.vector import SelfPlayBatch

    batch = SelfPlayBatch(tables, edition, players, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        _, masks = batch.observe()
        # A random legal action per row: the argmax of random keys over the legal entries.
        keys = rng.random(masks.shape) * masks
        batch.step(keys.argmax(axis=1))
        steps += tables
    return steps, time.perf_counter() - start, time.process_time() - cpu


def gym_steps(
    edition: str, players: int, seconds: float, seed: int, opponents: str
) -> tuple[int, float, float]:
    """Gymnasium: the learner's steps only (the bots' moves happen inside ``step``)."""
    from citadels.rl.gym import CitadelsEnv

    e = CitadelsEnv(edition=edition, players=players, opponents=opponents)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(e.action_masks())
        _, _, terminated, _, _ = e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated:
            e.reset()
    return steps, time.perf_counter() - start, time.process_time() - cpu


def engine_steps(edition: str, players: int, seconds: float, seed: int) -> tuple[int, float, float]:
    """The engine alone: legal actions and apply, no view, no encoding."""
    import random

    from citadels.engine.game import new_game

    rng = random.Random(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        game = new_game(edition, players, seed=rng.getrandbits(63))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start, time.process_time() - cpu


def _run(args: argparse.Namespace, seed: int) -> tuple[int, float, float]:
    if args.mode == "aec":
        return aec_steps(args.edition, args.players, args.seconds, seed, args.raw)
    if args.mode == "batch":
        return batch_steps(args.edition, args.players, args.seconds, seed, args.tables)
    if args.mode == "gym":
        return gym_steps(args.edition, args.players, args.seconds, seed, args.opponents)
    return engine_steps(args.edition, args.players, args.seconds, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("aec", "batch", "gym", "engine"), default="aec")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=64, help="tables of --mode batch")
    parser.add_argument("--procs", type=int, default=1, help="processes, each its own run")
    parser.add_argument("--opponents", default="random", help="bots of --mode gym")
    parser.add_argument(
        "--raw", action="store_true",
        help="--mode aec without PettingZoo's order and bounds checks (raw_env)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.procs > 1:
        with ProcessPoolExecutor(args.procs) as pool:
            runs = list(pool.map(_run, [args] * args.procs, range(args.procs)))
    else:
        runs = [_run(args, 0)]
    steps = sum(s for s, _, _ in runs)
    elapsed = max(t for _, t, _ in runs)
    cpu = sum(c for _, _, c in runs)
    mode = args.mode + (" raw" if args.raw else "")
    print(
        f"{mode} {args.edition} {args.players}p procs={args.procs}: {steps} steps in "
        f"{elapsed:.1f} s = {steps / elapsed:,.0f} steps/s (wall clock); "
        f"{steps / cpu:,.0f} steps per CPU second per process"
    )


if __name__ == "__main__":
    main()
