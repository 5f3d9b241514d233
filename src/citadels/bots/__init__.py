"""Bots: anything with ``choose(view, legal_actions) -> Action``, seeing only its seat's view.

:func:`make_bot` builds one by name; :func:`attach_samplers` gives the search bots of a game
their seat's sampler (a game runner calls it once, before the first decision). A search bot
given its seat's whole view (log included) needs no sampler: it samples from the view alone
(:meth:`citadels.engine.determinize.InformationSet.from_view`).
"""

from citadels.bots.base import Bot, SamplerUser, attach_samplers, make_bot
from citadels.bots.heuristic import HeuristicBot
from citadels.bots.ismcts import ISMCTSBot
from citadels.bots.random_bot import RandomBot

__all__ = [
    "Bot",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "SamplerUser",
    "attach_samplers",
    "make_bot",
]
