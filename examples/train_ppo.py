"""Train a masked PPO policy for 4-player `classic` Citadels and plot its win rate.

The learner holds one seat (a random one each game) of the Gymnasium environment
``citadels.rl.gym.CitadelsEnv``; the other seats are project bots: random bots first, then
heuristic ones (``easy``, then ``medium``). sb3-contrib's ``MaskablePPO`` reads the legal-action
mask from the environment's ``action_masks()``. Every ``--eval-every`` steps the greedy policy
plays ``--eval-games`` games against three random bots and against three ``medium`` bots; the
win rates (a win shared by k seats counts 1/k; chance is 1/4) are written to
``OUT/curve.json`` and plotted to ``OUT/curve.png``. The policy is saved as a numpy
checkpoint that ``make_bot("learned", path=...)`` plays.

Needs the ``train`` extra (``pip install -e '.[train]'``). A bounded run, on one core::

    nice -n 10 python examples/train_ppo.py --random-steps 30000 --heuristic-steps 50000
    python examples/train_ppo.py --evaluate runs/ppo/learned.npz --eval-games 200

"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from citadels.bots.base import make_bot
from citadels.engine.game import new_game
from citadels.rl.gym import CitadelsEnv
from citadels.rl.policy import Policy

EDITION = "classic"
PLAYERS = 4


def make_env(opponents: str, seed: int) -> Any:
    """A learner's environment against ``opponents``, observations scaled by log1p (as the
    saved policy reads them)."""

    def build() -> gymnasium.Env[Any, Any]:
        env = CitadelsEnv(EDITION, PLAYERS, opponents=opponents, reward="win")
        env.reset(seed=seed)
        return gymnasium.wrappers.TransformObservation(env, np.log1p, env.observation_space)

    return build


def export(model: MaskablePPO) -> Policy:
    """The actor of ``model`` as a numpy :class:`Policy`."""
    pi = model.policy
    modules = [*pi.mlp_extractor.policy_net, pi.action_net]
    linears = [m for m in modules if isinstance(m, torch.nn.Linear)]
    layers = [
        (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
        for m in linears
    ]
    setup = {"edition": EDITION, "players": PLAYERS, "options": {}}
    return Policy(setup, layers, "log1p")


def win_rate(policy: Policy, opponents: str, games: int, base: int) -> float:
    """The greedy policy's share of wins over ``games`` games, its seat rotating."""
    wins = 0.0
    space = policy.space
    for i in range(games):
        game = new_game(EDITION, PLAYERS, seed=base + i)
        seat = i % PLAYERS
        rng = random.Random(base + i)
        bots = {s: make_bot(opponents, seed=rng.getrandbits(32)) for s in range(PLAYERS)}
        seen = [0] * PLAYERS  # a bot's view holds the events since its previous decision
        while not game.is_over:
            to_move = game.to_move
            assert to_move is not None
            legal = game.legal_actions()
            view = game.view(to_move, log_from=seen[to_move])
            seen[to_move] += len(view["log"])
            if to_move == seat:
                logits = policy.logits(policy.encoder.encode(view))
                action = max(legal, key=lambda a: float(logits[space.action_to_index(a)]))
            else:
                action = bots[to_move].choose(view, legal)
            game.apply(action)
        winners = game.result().winners
        if seat in winners:
            wins += 1.0 / len(winners)
    return wins / games


def plot(curve: list[dict[str, float]], path: Path, phases: list[tuple[int, str]]) -> None:
    """Win rates against training steps, with chance level and the phases marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [p["steps"] for p in curve]
    ax.plot(steps, [p["vs_random"] for p in curve], marker="o", label="vs 3 random bots")
    ax.plot(steps, [p["vs_medium"] for p in curve], marker="s", label="vs 3 medium bots")
    ax.axhline(1 / PLAYERS, color="grey", linestyle=":", label="chance (1/4)")
    for start, name in phases:
        ax.axvline(start, color="lightgrey")
        ax.text(start, 0.97, f" {name}", va="top", fontsize=8)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (greedy policy)")
    ax.set_ylim(0, 1)
    ax.set_title("Masked PPO, classic, 4 players")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--random-steps", type=int, default=30_000)
    parser.add_argument("--heuristic-steps", type=int, default=50_000)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    parser.add_argument("--checkpoint", type=Path, default=None, help="default: OUT/learned.npz")
    parser.add_argument(
        "--evaluate",
        type=Path,
        default=None,
        metavar="CHECKPOINT",
        help="train nothing: the win rates of CHECKPOINT against random, easy and medium bots",
    )
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.evaluate is not None:
        policy = Policy.load(args.evaluate)
        for kind in ("random", "easy", "medium"):
            rate = win_rate(policy, kind, args.eval_games, 30_000)
            print(f"vs 3 {kind} bots: {rate:.3f} over {args.eval_games} games (chance 0.25)")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    checkpoint = args.checkpoint or args.out / "learned.npz"

    # The opponents of each phase: random bots, then heuristic bots (half random, then not).
    half = args.heuristic_steps // 2
    phases = [(0, "random"), (args.random_steps, "easy"), (args.random_steps + half, "medium")]
    ends = [args.random_steps, args.random_steps + half, args.random_steps + args.heuristic_steps]
    model: MaskablePPO | None = None
    curve: list[dict[str, float]] = []
    start = time.time()

    def evaluate(steps: int) -> None:
        assert model is not None
        policy = export(model)
        point = {
            "steps": steps,
            "vs_random": win_rate(policy, "random", args.eval_games, 10_000),
            "vs_medium": win_rate(policy, "medium", args.eval_games, 20_000),
            "seconds": round(time.time() - start, 1),
        }
        curve.append(point)
        print(json.dumps(point), flush=True)

    next_eval = args.eval_every
    for (_, opponents), end in zip(phases, ends, strict=True):
        if model is not None and model.num_timesteps >= end:
            continue
        envs = DummyVecEnv([make_env(opponents, args.seed * 1000 + i) for i in range(args.envs)])
        if model is None:
            model = MaskablePPO(
                "MlpPolicy",
                envs,
                n_steps=128,
                batch_size=512,
                n_epochs=4,
                learning_rate=3e-4,
                ent_coef=0.01,
                gamma=0.995,
                seed=args.seed,
                verbose=0,
            )
            evaluate(0)
        else:
            model.set_env(envs)
        # learn() runs whole rollouts (envs x n_steps): the step counts are rounded up.
        while model.num_timesteps < end:
            model.learn(min(next_eval, end) - model.num_timesteps, reset_num_timesteps=False)
            if model.num_timesteps >= next_eval:
                evaluate(model.num_timesteps)
                next_eval += args.eval_every
    assert model is not None
    if not curve or curve[-1]["steps"] != model.num_timesteps:
        evaluate(model.num_timesteps)
    export(model).save(checkpoint)
    (args.out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
    plot(curve, args.out / "curve.png", phases)
    print(f"saved {checkpoint} and {args.out / 'curve.png'} in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
