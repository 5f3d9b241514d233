"""Citadels: an exact, fast rules engine for Bruno Faidutti's board game.

Start a game with :func:`new_game`, ask ``game.legal_actions()``, play with ``game.apply``,
and give each client only ``game.view(seat)``.
"""

from citadels.editions import EDITIONS, Edition, get_edition
from citadels.engine.actions import (
    Action,
    Build,
    Destroy,
    DiscardCard,
    DrawReplacements,
    EndTurn,
    ExchangeHands,
    GatherCards,
    GatherGold,
    KeepCards,
    Murder,
    PickCharacter,
    PutAsideCharacter,
    Rob,
    TakeIncome,
    UseGraveyard,
    UseLaboratory,
    UseSmithy,
    action_from_json,
)
from citadels.engine.determinize import determinize
from citadels.engine.game import Game, game_from_json, new_game, replay
from citadels.engine.scoring import Breakdown, Outcome, SeatResult
from citadels.errors import (
    CitadelsError,
    CorruptState,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)

__version__ = "0.1.0"

__all__ = [
    "EDITIONS",
    "Action",
    "Breakdown",
    "Build",
    "CitadelsError",
    "CorruptState",
    "Destroy",
    "DiscardCard",
    "DrawReplacements",
    "Edition",
    "EndTurn",
    "ExchangeHands",
    "Game",
    "GameOver",
    "GatherCards",
    "GatherGold",
    "IllegalAction",
    "KeepCards",
    "MalformedAction",
    "Murder",
    "NotYourTurn",
    "Outcome",
    "PickCharacter",
    "PutAsideCharacter",
    "Rob",
    "SeatResult",
    "TakeIncome",
    "UseGraveyard",
    "UseLaboratory",
    "UseSmithy",
    "action_from_json",
    "determinize",
    "game_from_json",
    "get_edition",
    "new_game",
    "replay",
]
