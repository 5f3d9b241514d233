"""Simulations: many games among bots, with per-seat statistics."""

from citadels.sim.random_games import (
    BotFactory,
    GameSummary,
    SimStats,
    game_seeds,
    play_game,
    random_bots,
    run_games,
)

__all__ = [
    "BotFactory",
    "GameSummary",
    "SimStats",
    "game_seeds",
    "play_game",
    "random_bots",
    "run_games",
]
