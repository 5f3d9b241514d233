"""A tournament's report on disk: ``summary.json``, ``games.csv`` and PNG plots."""

from __future__ import annotations

import csv
import json
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citadels.sim.tournament import Rate, TournamentResult


def write(result: TournamentResult, out: str) -> list[str]:
    """Write the report of ``result`` into the folder ``out`` (created if needed)."""
    os.makedirs(out, exist_ok=True)
    paths = [_write_summary(result, out), _write_csv(result, out)]
    paths.extend(_write_plots(result, out))
    return paths


def _write_summary(result: TournamentResult, out: str) -> str:
    path = os.path.join(out, "summary.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result.summary(), f, indent=2)
        f.write("\n")
    return path


def _write_csv(result: TournamentResult, out: str) -> str:
    path = os.path.join(out, "games.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "game",
                "seed",
                "rounds",
                "decisions",
                "seat",
                "bot",
                "score",
                "rank",
                "win",
                "characters",
            ]
        )
        for g in result.records:
            for s in g.seats:
                w.writerow(
                    [
                        g.index,
                        g.seed,
                        g.rounds,
                        g.decisions,
                        s.seat,
                        result.entries[s.entry].label,
                        s.score,
                        s.rank,
                        f"{s.win:.4f}",
                        " ".join(s.characters),
                    ]
                )
    return path


def _bars(ax: object, labels: list[str], rates: list[Rate], title: str, parity: float) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    values = [r.rate for r in rates]
    errors = [
        [max(0.0, r.rate - r.low) for r in rates],
        [max(0.0, r.high - r.rate) for r in rates],
    ]
    ax.bar(range(len(values)), values, yerr=errors, capsize=4, color="#4c72b0")
    ax.axhline(parity, color="#c44e52", linestyle="--", linewidth=1, label="parity")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)


def _write_plots(result: TournamentResult, out: str) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(result.entries)
    parity = 1 / n
    header = f"{result.edition}, {n} players, {result.games} games"
    paths = []

    def save(fig: object, name: str) -> None:
        path = os.path.join(out, name)
        fig.savefig(path, dpi=110)  # type: ignore[attr-defined]
        plt.close(fig)  # type: ignore[arg-type]
        paths.append(path)

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    labels = [f"{i}: {e.label}" for i, e in enumerate(result.entries)]
    _bars(ax, labels, result.by_entry(), f"Win rate per bot ({header})", parity)
    save(fig, "win_rate_by_bot.png")

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    _bars(ax, [f"seat {i}" for i in range(n)], result.by_seat(), "Win rate per seat", parity)
    save(fig, "win_rate_by_seat.png")

    chars = result.by_character()
    fig, ax = plt.subplots(figsize=(9, 4), layout="constrained")
    _bars(ax, list(chars), list(chars.values()), "Win rate of the seat that picked it", parity)
    save(fig, "win_rate_by_character.png")

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    scores = result.scores()
    ax.hist(scores, bins=20, label=labels, alpha=0.8)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("Score distribution")
    ax.legend(fontsize=8)
    save(fig, "scores.png")

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    rounds = [g.rounds for g in result.records]
    ax.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#55a868", align="left")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    save(fig, "rounds.png")
    return paths
