"""Fit the search's evaluation (:mod:`citadels.bots.evaluation`) to played games.

Plays games of heuristic bots (the rollout player of ``hard``; a share of their moves random, so
the positions are varied) in every setup of an edition, at 3 to 6 players, records each seat's
features at the start of every round after the first, and labels them with who won. A
conditional logit (one linear score per seat, soft-max over the seats) is fitted by Newton's
method on all but a held-out fifth of the games; on that fifth the script prints the log loss
and how often the top-rated seat won, for the fitted weights and for the hand-set
``ismcts.standing`` soft-max the search used before. ``--write`` puts the weights into
``src/citadels/bots/evaluation.py``.

    python tools/fit_evaluation.py --games 3000 --workers 2 --write
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from citadels import new_game
from citadels.bots import evaluation
from citadels.bots.ismcts import bot_policy, rewards
from citadels.editions import EDITIONS
from citadels.engine import rules
from citadels.engine.state import OVER

ROOT = Path(__file__).resolve().parent.parent
SEED = 31_000_000
RANDOM_MOVES = 0.1


def _setups(edition: str) -> list[tuple[str | None, int]]:
    """(preset, fewest players) of each setup of ``edition``, the default one first."""
    ed = EDITIONS[edition]
    return [(None, 2)] + [(p.id, p.min_players) for p in ed.presets.values()]


def play(job: tuple[str, int]) -> list[tuple[list[list[float]], list[float], list[list[float]]]]:
    """One game: per recorded position, each seat's features, the final win shares and the
    hand-set evaluation's chances."""
    edition, index = job
    rng = random.Random(SEED + index)
    setups = _setups(edition)
    preset, fewest = setups[index % len(setups)]
    players = rng.randint(max(3, fewest), 6)
    options: dict[str, Any] = {"preset": preset} if preset else {}
    game = new_game(edition, players, seed=SEED + index, **options)
    s = game.state
    positions: list[tuple[list[list[float]], list[float]]] = []
    seen_round = s.round
    while s.phase != OVER:
        if s.round != seen_round:
            seen_round = s.round
            feats = [list(evaluation.features(s, seat)) for seat in range(players)]
            positions.append((feats, rewards(s)))
        legal = rules.legal_actions(s)
        if len(legal) == 1:
            action = legal[0]
        elif rng.random() < RANDOM_MOVES:
            action = legal[rng.randrange(len(legal))]
        else:
            action = bot_policy(s, legal, rng)
        rules.apply(s, action)
    final = rewards(s)
    return [(feats, final, [old]) for feats, old in positions]


def fit(data: list[tuple[np.ndarray, np.ndarray]], ridge: float = 1e-3) -> np.ndarray:
    """The conditional-logit weights maximising the likelihood of the win shares (Newton)."""
    k = data[0][0].shape[1]
    w = np.zeros(k)
    for _ in range(50):
        grad = np.zeros(k)
        hess = np.zeros((k, k))
        for x, y in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += (y - p) @ x
            centred = x - mean
            hess -= (centred * p[:, None]).T @ centred
        grad -= ridge * w
        hess -= ridge * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def judge(
    chances: list[np.ndarray], data: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[float, float]:
    """Mean log loss of the true win shares, and the share of positions whose top-rated seat
    won (a shared win counts by its share)."""
    loss = 0.0
    top = 0.0
    for p, (_, y) in zip(chances, data, strict=True):
        loss -= float(y @ np.log(np.maximum(p, 1e-12)))
        top += float(y[int(np.argmax(p))])
    return loss / len(data), top / len(data)


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The chances the weights ``w`` give the seats whose features are the rows of ``x``."""
    z = x @ w
    p: np.ndarray = np.exp(z - z.max())
    out: np.ndarray = p / p.sum()
    return out


def write(fitted: dict[str, np.ndarray]) -> None:
    """Put the fitted weights into the evaluation module (between its ``# fmt`` markers)."""
    path = ROOT / "src" / "citadels" / "bots" / "evaluation.py"
    text = path.read_text(encoding="utf-8")
    lines = ["# fmt: off", "WEIGHTS: dict[str, tuple[float, ...]] = {"]
    for edition, w in fitted.items():
        values = [f"{v:.4f}" for v in w]
        lines.append(f'    "{edition}": (')
        for at in range(0, len(values), 6):
            lines.append("        " + ", ".join(values[at : at + 6]) + ",")
        lines.append("    ),")
    lines += ["}", "# fmt: on"]
    head, rest = text.split("# fmt: off\n", 1)
    _, tail = rest.split("# fmt: on\n", 1)
    path.write_text(head + "\n".join(lines) + "\n" + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="games per edition")
    parser.add_argument("--editions", nargs="+", default=list(EDITIONS))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write the weights into evaluation.py")
    args = parser.parse_args(argv)
    fitted: dict[str, np.ndarray] = {}
    for edition in args.editions:
        jobs = [(edition, i) for i in range(args.games)]
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                games = list(pool.map(play, jobs, chunksize=20))
        else:
            games = [play(job) for job in jobs]
        held = len(games) // 5
        train = [(np.array(f), np.array(y)) for g in games[held:] for f, y, _ in g]
        test = [(np.array(f), np.array(y)) for g in games[:held] for f, y, _ in g]
        old = [np.array(o[0]) for g in games[:held] for _, _, o in g]
        w = fit(train)
        fitted[edition] = w
        new_loss, new_top = judge([predict(w, x) for x, _ in test], test)
        old_loss, old_top = judge(old, test)
        print(
            f"{edition}: {len(train)} positions to fit, {len(test)} held out; log loss "
            f"{new_loss:.4f} fitted vs {old_loss:.4f} hand-set; top-rated seat wins "
            f"{new_top:.1%} vs {old_top:.1%}",
            flush=True,
        )
        print(
            "  " + ", ".join(f"{n}={v:+.3f}" for n, v in zip(evaluation.FEATURES, w, strict=True))
        )
    if args.write:
        write(fitted)
        print(f"weights written to {ROOT / 'src/citadels/bots/evaluation.py'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
