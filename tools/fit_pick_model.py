"""Fit the ``"search"`` pick model of the draft model (:mod:`citadels.bots.model`) to the picks
of search players.

Plays games of the strength benchmark's matchup ``hard`` against three ``ismcts(200)``
(4-player ``classic``, ``benchmarks/strength.py``'s deals, bot seeds and seat rotation) at game
indices from ``--first`` on (600 by default: after the 600 games the benchmark plays, so the fit
never sees them). ``hard`` plays with the heuristic pick model (``draft_model=0.5``, the model
being fitted left out) and no time guard, so every run of the script plays the same games.
Every character pick of an ``ismcts`` seat with a choice is recorded with what the heuristic
bot thinks each offered character is worth to that seat, from its own view at the pick
(:meth:`citadels.bots.heuristic.HeuristicBot.character_value`).

A conditional logit is fitted by Newton's method: a seat takes character ``c`` of those offered
with probability proportional to ``exp(value(c) / temperature + bias(c))``, biases centred on
0. The script prints the mean log loss per pick of the uniform model, of the heuristic model
``hard`` used before (temperature 0.5, no bias), of the best temperature without biases and of
the fit, on all games and on a held-out fifth (fitted on the rest), and the fitted temperature
and biases. ``--write`` puts them into ``src/citadels/bots/model.py``.

    python tools/fit_pick_model.py --games 120 --workers 2 --write
"""

from __future__ import annotations

import argparse
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import strength  # noqa: E402  (benchmarks/strength.py: the deals and seeds)

from citadels import new_game  # noqa: E402
from citadels.bots import attach_samplers, make_bot  # noqa: E402
from citadels.bots.heuristic import HeuristicBot, _Table  # noqa: E402
from citadels.engine.actions import PickCharacter  # noqa: E402
from citadels.sim import play_game  # noqa: E402

#: A recorded pick: the characters offered, their values to the seat, the index of the one taken.
Pick = tuple[list[str], list[float], int]

FIELD: dict[str, Any] = {"iterations": 200}
HARD: dict[str, Any] = {"time_limit": None, "draft_model": 0.5, "pick_model": "heuristic"}


class _Recorder:
    """Plays a bot and records its character picks (with a choice) and their values."""

    def __init__(self, bot: Any, picks: list[Pick]) -> None:
        self.bot = bot
        self.picks = picks
        self.judge = HeuristicBot(0)

    def attach(self, sampler: Any) -> None:
        self.bot.attach(sampler)

    def choose(self, view: dict[str, Any], legal: Any) -> Any:
        action = self.bot.choose(view, legal)
        if len(legal) > 1 and isinstance(legal[0], PickCharacter):
            table = _Table(view)
            offered = [a.character for a in legal]
            values = [self.judge.character_value(table, c, view["seat"]) for c in offered]
            self.picks.append((offered, values, offered.index(action.character)))
        return action


def play(index: int) -> list[Pick]:
    """Game ``index`` of the benchmark's matchup: the picks of its ``ismcts`` seats."""
    setup = strength.Setup()
    game = new_game(setup.edition, setup.players, seed=setup.seed(index))
    focus = setup.focus_seat(index)
    picks: list[Pick] = []
    bots: list[Any] = [
        _Recorder(make_bot("ismcts", seed=strength._seed(index, seat), **FIELD), picks)
        for seat in range(setup.players)
    ]
    bots[focus] = make_bot("hard", seed=strength._seed(index, focus), **HARD)
    attach_samplers(game, bots)
    play_game(game, bots)
    return picks


def design(picks: list[Pick], characters: list[str]) -> list[tuple[np.ndarray, int]]:
    """Per pick: a row per offered character (its value, then one-hot of the character) and the
    row taken."""
    column = {c: i + 1 for i, c in enumerate(characters)}
    out = []
    for offered, values, taken in picks:
        x = np.zeros((len(offered), len(characters) + 1))
        for row, (c, v) in enumerate(zip(offered, values, strict=True)):
            x[row, 0] = v
            x[row, column[c]] = 1.0
        out.append((x, taken))
    return out


def log_loss(w: np.ndarray, data: list[tuple[np.ndarray, int]]) -> float:
    """Mean negative log-likelihood per pick of weights ``w`` (slope, then the biases)."""
    total = 0.0
    for x, taken in data:
        u = x @ w
        top = u.max()
        total += top + np.log(np.exp(u - top).sum()) - u[taken]
    return total / len(data)


def fit(data: list[tuple[np.ndarray, int]], ridge: float = 1e-3) -> np.ndarray:
    """Newton's method on the conditional logit's log-likelihood (a small ridge keeps the
    biases, defined up to a constant, unique); the biases are returned centred on 0."""
    k = data[0][0].shape[1]
    w = np.zeros(k)
    w[0] = 1.0
    for _ in range(50):
        grad = ridge * w
        hess = ridge * np.eye(k)
        for x, taken in data:
            u = x @ w
            p = np.exp(u - u.max())
            p /= p.sum()
            mean = p @ x
            grad -= x[taken] - mean
            centred = x - mean
            hess += (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    if k > 1:
        w[1:] -= w[1:].mean()
    return w


def write(temperature: float, biases: dict[str, float]) -> None:
    """Put the fitted temperature and biases into ``src/citadels/bots/model.py``."""
    path = ROOT / "src" / "citadels" / "bots" / "model.py"
    text = path.read_text()
    items = [f'"{c}": {round(b, 3)},' for c, b in biases.items()]
    lines = ["        " + " ".join(items[i : i + 4]) for i in range(0, len(items), 4)]
    block = '    "search": {\n' + "\n".join(lines) + "\n    },\n"
    text, found = re.subn(r'    "search": \{\n.*?\n    \},\n', lambda _: block, text, flags=re.S)
    text, found_t = re.subn(
        r"SEARCH_TEMPERATURE = [0-9.]+", f"SEARCH_TEMPERATURE = {temperature:.3f}", text
    )
    if found != 1 or found_t != 1:
        raise SystemExit(f"could not find the search pick model in {path}")
    path.write_text(text)
    print(f"written to {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--first", type=int, default=600, help="the first game index")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write the fit into model.py")
    args = parser.parse_args(argv)
    indices = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(play, indices, chunksize=1))
    picks = [p for game in games for p in game]
    characters = sorted({c for offered, _, _ in picks for c in offered})
    data = design(picks, characters)
    held = [d for g, game in enumerate(games) for d in design(game, characters) if g % 5 == 4]
    train = [d for g, game in enumerate(games) for d in design(game, characters) if g % 5 != 4]
    print(f"{len(games)} games, {len(picks)} picks by ismcts(200) seats")
    uniform = sum(np.log(len(x)) for x, _ in data) / len(data)
    held_uniform = sum(np.log(len(x)) for x, _ in held) / len(held)
    heuristic = np.zeros(len(characters) + 1)
    heuristic[0] = 2.0
    only = np.zeros(len(characters) + 1)
    only[0] = fit([(x[:, :1], taken) for x, taken in data])[0]
    only_train = np.zeros(len(characters) + 1)
    only_train[0] = fit([(x[:, :1], taken) for x, taken in train])[0]
    w_train = fit(train)
    w = fit(data)
    print("mean log loss per pick        all games   held-out fifth (fitted on the rest)")
    for name, all_w, held_w in (
        ("heuristic, temperature 0.5", heuristic, heuristic),
        (f"heuristic, temperature {1 / only[0]:.2f}", only, only_train),
        ("fitted biases and temperature", w, w_train),
    ):
        print(f"  {name:<29} {log_loss(all_w, data):9.4f}   {log_loss(held_w, held):9.4f}")
    print(f"  {'uniform':<29} {uniform:9.4f}   {held_uniform:9.4f}")
    temperature = 1 / w[0]
    biases = {c: float(w[i + 1]) for i, c in enumerate(characters)}
    print(f"temperature {temperature:.3f}")
    print("biases " + ", ".join(f"{c} {b:+.3f}" for c, b in biases.items()))
    if args.write:
        write(temperature, biases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
