"""A tournament's report on disk: ``summary.json``, ``games.csv`` and PNG plots."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citadels.sim.tournament import Rate, TournamentResult


def write(result: TournamentResult, out: str, *, plots: bool | None = None) -> list[str]:
    """Write the report of ``result`` into the folder ``out`` (created if needed); returns the
    paths written.

    ``plots``: ``None`` draws the PNG plots when matplotlib is installed, ``True`` requires
    them (``ValueError`` naming the ``plots`` extra when it is missing, before anything is
    written), ``False`` leaves them out.
    """
    if plots and not plots_available():
        raise ValueError(NO_PLOTS)
    os.makedirs(out, exist_ok=True)
    paths = [_write_summary(result, out), _write_csv(result, out)]
    if plots is not False and plots_available():
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


def plots_available() -> bool:
    """Whether matplotlib is installed (the ``plots`` extra: ``pip install 'citadels[plots]'``)."""
    return importlib.util.find_spec("matplotlib") is not None


#: The one-line message shown when plots are asked for without matplotlib.
NO_PLOTS = "the PNG plots need matplotlib: pip install 'citadels[plots]'"


def _bars(
    ax: object, labels: list[str], rates: list[Rate], title: str, parity: float | None
) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    values = [r.rate for r in rates]
    errors = [
        [max(0.0, r.rate - r.low) for r in rates],
        [max(0.0, r.high - r.rate) for r in rates],
    ]
    ax.bar(range(len(values)), values, yerr=errors, capsize=4, color="#4c72b0")
    if parity is not None:
        ax.axhline(parity, color="#c44e52", linestyle="--", linewidth=1, label="parity (1/players)")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("win rate (95% CI)")
    top = max([r.high for r in rates] + [parity or 0.0])
    ax.set_ylim(0, min(1.0, max(0.25, top * 1.15)))  # room for the bars, not a sea of white
    ax.set_title(title, fontsize=10)


def _write_plots(result: TournamentResult, out: str) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(result.entries)
    parity = 1 / n
    setup = result.setup_line()
    paths = []

    def save(fig: object, name: str, what: str) -> None:
        # Every plot names what was played: edition, preset, players and games.
        fig.suptitle(f"{what}\n{setup}", fontsize=11)  # type: ignore[attr-defined]
        path = os.path.join(out, name)
        fig.savefig(path, dpi=110)  # type: ignore[attr-defined]
        plt.close(fig)  # type: ignore[arg-type]
        paths.append(path)

    bots = result.by_bot()
    counts = {label: sum(e.label == label for e in result.entries) for label in bots}
    labels = [f"{label} ×{counts[label]}" if counts[label] > 1 else label for label in bots]
    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    _bars(ax, labels, list(bots.values()), "seats rotated; a bot on several seats pooled", parity)
    save(fig, "win_rate_by_bot.png", "Win rate per bot")

    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    _bars(ax, [f"seat {i}" for i in range(n)], result.by_seat(), "whoever sat there", parity)
    save(fig, "win_rate_by_seat.png", "Win rate per seat")

    chars = result.by_character()
    fig, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    _bars(
        ax,
        list(chars),
        list(chars.values()),
        "share of the games a seat that picked it won (one trial per seat and game)",
        parity,
    )
    save(fig, "win_rate_by_character.png", "Win rate per character")

    # One box per bot (pooled), horizontal so that 6–8 bots stay readable; the mean is a dot.
    scores = result.scores_by_bot()
    names = list(scores)
    fig, ax = plt.subplots(figsize=(7, 1.6 + 0.45 * len(names)), layout="constrained")
    ax.boxplot(
        [scores[k] for k in names],
        orientation="horizontal",
        widths=0.6,
        showmeans=True,
        meanprops={"marker": "o", "markerfacecolor": "#c44e52", "markeredgecolor": "#c44e52"},
        medianprops={"color": "#4c72b0"},
        flierprops={"markersize": 3},
    )
    ax.set_yticks(range(1, len(names) + 1))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("final score (box: quartiles and median; dot: mean)")
    ax.grid(axis="x", alpha=0.3)
    save(fig, "scores.png", "Final scores per bot")

    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    rounds = [g.rounds for g in result.records]
    bins = range(min(rounds), max(rounds) + 2)
    ax.hist(rounds, bins=bins, color="#55a868", align="left", rwidth=0.85)
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    save(fig, "rounds.png", "Game length")
    return paths
