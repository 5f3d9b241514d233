"""Single-observer Information-Set Monte Carlo Tree Search (SO-ISMCTS).

One tree per decision, over the bot's information set (Cowling, Powley and Whitehouse, 2012):
every iteration deals a full game consistent with the bot's view (a *determinization*, from
:class:`~citadels.engine.determinize.InformationSet`), walks the tree with UCB1 restricted to
the actions legal in that deal (each child's *availability* counts the iterations it could
have been chosen), adds one node, plays a cheap rollout and backs up the reward of the seat
that chose each move.

Rollouts are short: they stop when ``horizon`` rounds have ended (or the game); with
``rollout="bot"`` the heuristic bot plays them. The position is then scored by a soft-max of
each seat's standing (score, districts, gold, cards), so rewards are in [0, 1] and sum to 1
like a win share; a finished game gives its true win share. With ``draft_model`` the worlds
are weighed by a model of the other seats' character picks (:mod:`citadels.bots.model`).

The bot never sees the real game. Either a game runner gives it a
:class:`~citadels.engine.determinize.SeatSampler` for its seat (``attach``), whose samples are
a function of the seat's view alone, or it is given the seat's whole view (``game.view(seat)``,
log included) and samples from that alone
(:meth:`~citadels.engine.determinize.InformationSet.from_view`; the game's setup options go in
``bot.options``). With neither, ``choose`` raises :class:`~citadels.errors.BotNotReady` rather
than play as a weaker bot.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from citadels.bots.evaluation import soft_max, win_chances, win_shares
from citadels.bots.heuristic import HeuristicBot, _Table
from citadels.bots.model import PICK_MODELS, SEARCH_TEMPERATURE, DraftModel, WeightedWorlds
from citadels.engine import rules, scoring
from citadels.engine.actions import (
    Action,
    Build,
    Destroy,
    DiscardCard,
    EndTurn,
    ExchangeHands,
    GatherCards,
    GatherGold,
    GiveCard,
    KeepCards,
    Murder,
    PayTribute,
    PayWithCard,
    PickCharacter,
    PlaceWarrants,
    PutAsideCharacter,
    Rob,
    SearchDeck,
    TakeCard,
    TakeIncome,
    Threaten,
    UseGraveyard,
    UseLaboratory,
    UseMuseum,
    UseTheater,
)
from citadels.engine.determinize import InformationSet, SeatSampler
from citadels.engine.state import OVER, GameState
from citadels.engine.views import player_view
from citadels.errors import BotNotReady

#: A rollout policy: the state, its legal actions (at least two) and a generator -> one.
RolloutPolicy = Callable[[GameState, list[Action], random.Random], Action]


class _Node:
    """A node of a search tree: the move into it was chosen by ``mover``.

    Its children are keyed by the move as the tree's owner sees it: its own moves by the action
    itself, another seat's by the pair (that seat, the action) in the single tree or (that
    seat, :func:`observed` action) in a seat's own tree. The mover is part of the key because
    who moves next can differ between deals (the next character called in the turns), and a
    child's statistics are its mover's rewards."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[Hashable, _Node] = {}


# --- rollout policies ------------------------------------------------------------------------


def random_policy(s: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A uniform choice."""
    return legal[rng.randrange(len(legal))]


def _cost(s: GameState, district: str) -> int:
    card = s.edition.districts.get(district)
    return (card.cost or 0) if card is not None else 0


def heuristic_policy(s: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A cheap, noisy player for rollouts: random characters and targets, gold or cards by
    the hand, income always, the dearest affordable district, rarely a Warlord's or a
    Magician's move, otherwise the end of the turn. Unknown actions: a uniform choice."""
    first = legal[0]
    cls = type(first)
    if cls is PickCharacter or cls is PutAsideCharacter:
        return legal[rng.randrange(len(legal))]
    if cls is KeepCards:
        city = s.players[rules.to_move(s) or 0].city

        def worth(a: Action) -> int:
            kept: tuple[str, ...] = getattr(a, "districts", ())
            return sum(_cost(s, d) - (9 if d in city else 0) for d in kept)

        return max(legal, key=worth)
    if cls is UseGraveyard:
        seat = rules.to_move(s)
        return legal[1] if seat is not None and s.players[seat].gold >= 3 else legal[0]
    gather: list[Action] = []
    named: list[Action] = []
    builds: list[Action] = []
    optional: list[Action] = []
    income: Action | None = None
    end: Action | None = None
    for a in legal:
        c = type(a)
        if c is Build:
            builds.append(a)
        elif c is GatherGold or c is GatherCards:
            gather.append(a)
        elif c is TakeIncome:
            income = a
        elif c is Murder or c is Rob:
            named.append(a)
        elif c is EndTurn:
            end = a
        elif c is ExchangeHands or c is Destroy:
            optional.append(a)
    if named:
        return named[rng.randrange(len(named))]
    if gather:
        t = s.turn
        hand = s.players[t.seat].hand if t is not None else []
        if len(gather) == 1 or (hand and rng.random() < 0.6):
            return gather[0]
        return gather[-1]
    if income is not None:
        return income
    if builds:
        return max(builds, key=lambda a: _cost(s, getattr(a, "district", "")))
    if optional and rng.random() < 0.15:
        return optional[rng.randrange(len(optional))]
    if end is not None:
        return end
    return legal[rng.randrange(len(legal))]


def widening_rank(s: GameState, a: Action) -> tuple[int, int]:
    """The order in which progressive widening lets a node's untried moves into the tree
    (lowest first): every move but a build or a destruction first, in the engine's order;
    then builds, the dearest first; then the Warlord's destructions (C-27), in the largest
    cities first and there the cheapest district first."""
    if isinstance(a, Build):
        return (1, -_cost(s, a.district))
    if isinstance(a, Destroy):
        return (2, -100 * s.city_size(a.seat) + _cost(s, a.district))
    return (0, 0)


#: The actions whose choice no other seat sees: a character picked or put aside (C-4), the
#: cards kept of those drawn, the Magician's discards, the cards paying for a Thieves' Den,
#: the card taken with the Lighthouse, given up to the Laboratory or the Museum; and, seen by
#: one other seat only (the receiver, the victim, the Emperor), the Seer's gift, the Wizard's
#: take and a tribute paid in a card, which every other seat's tree merges too (a seat
#: that could tell them apart merely learns less inside the search).
HIDDEN_CHOICES: frozenset[type[Action]] = frozenset(
    {
        PickCharacter,
        PutAsideCharacter,
        KeepCards,
        DiscardCard,
        PayWithCard,
        SearchDeck,
        UseLaboratory,
        UseMuseum,
        GiveCard,
        TakeCard,
        PayTribute,
    }
)


def observed(action: Action) -> Hashable:
    """What a seat other than the mover sees of ``action``: the action itself, or for a choice
    made in secret only its kind (:data:`HIDDEN_CHOICES`); the Magistrate's warrants and the
    Blackmailer's threats show the characters they go on but not which is signed or flowered
    (R-24), the Theater the seat it swaps with but not the characters (R-31). Two actions a seat
    cannot tell apart always give the same answer (``tests/test_search_observers.py``)."""
    cls = type(action)
    if cls in HIDDEN_CHOICES:
        return cls.type  # only the kind of move: "pick", "keep", ...
    if isinstance(action, PlaceWarrants):
        return (cls.type, frozenset((action.signed, action.first, action.second)))
    if isinstance(action, Threaten):
        return (cls.type, frozenset((action.flowered, action.other)))
    if isinstance(action, UseTheater):
        return (cls.type, action.seat)
    return action


_ROLLOUT = threading.local()
"""Per thread, the player of ``bot_policy`` (its generator is the search's, set at every
call): one per thread, so two searches in two threads (a review and a hint, a bot) never
draw from each other's generator, and each stays reproducible."""


def _rollout_bot() -> HeuristicBot:
    bot: HeuristicBot | None = getattr(_ROLLOUT, "bot", None)
    if bot is None:
        bot = _ROLLOUT.bot = HeuristicBot(0)
    return bot


def bot_policy(s: GameState, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic bot itself (:class:`~citadels.bots.heuristic.HeuristicBot`), playing
    every seat of the rollout from that seat's view of the sampled game (without its log),
    its tie-breaks drawn from ``rng``: slower than ``heuristic_policy`` (about 30 µs a
    decision) but a far better model of how the seats play."""
    bot = _rollout_bot()
    bot.rng = rng
    return bot.choose(player_view(s, rules.to_move(s), legal, len(s.log)), legal)


_SEARCH_PICKS = PICK_MODELS["search"]


def modelled_policy(s: GameState, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic bot (:func:`bot_policy`), except that every seat's character pick is
    drawn from the ``"search"`` pick model (:mod:`citadels.bots.model`): in proportion to
    ``exp(value / SEARCH_TEMPERATURE + bias)`` over the characters offered, as search players
    were seen to pick, rather than the heuristic's most valued character."""
    picks = [a for a in legal if isinstance(a, PickCharacter)]
    if len(picks) != len(legal):
        return bot_policy(s, legal, rng)
    seat = rules.to_move(s)
    table = _Table(player_view(s, seat, legal, len(s.log)))
    judge = _rollout_bot()
    scores = [
        judge.character_value(table, a.character, seat) / SEARCH_TEMPERATURE
        + _SEARCH_PICKS.get(a.character, 0.0)
        for a in picks
    ]
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    r = rng.random() * sum(weights)
    for a, w in zip(picks, weights, strict=True):
        r -= w
        if r <= 0:
            return a
    return picks[-1]


ROLLOUT_POLICIES: dict[str, RolloutPolicy] = {
    "heuristic": heuristic_policy,
    "random": random_policy,
    "bot": bot_policy,
    "modelled": modelled_policy,
}


# --- evaluation ------------------------------------------------------------------------------


def standing(s: GameState, seat: int) -> float:
    """A seat's standing in points: its score now plus what its city, gold and cards promise."""
    p = s.players[seat]
    return (
        scoring.breakdown(s, seat).total
        + 0.8 * len(p.city)
        + 0.5 * p.gold
        + 0.6 * min(len(p.hand), 4)
    )


def rewards(s: GameState, temperature: float = 3.0) -> list[float]:
    """Rewards in [0, 1] summing to 1: the win share once the game is over, otherwise a
    soft-max of the seats' standings."""
    if s.phase == OVER:
        return win_shares(s)
    return soft_max([standing(s, seat) for seat in range(len(s.players))], temperature)


#: How a rollout's last position is scored: ``"standing"``, the soft-max of :func:`standing` at
#: ``temperature``; ``"fitted"``, the conditional logit fitted to played games
#: (:func:`citadels.bots.evaluation.win_chances`).
EVALUATIONS: tuple[str, ...] = ("standing", "fitted")

#: How the other seats' moves are chosen inside the tree: ``"tree"``, by UCB1 on their own
#: rewards like the bot's (single-observer: in a deal they choose as if they saw it whole, the
#: bot's hand and character included); ``"model"``, by the rollout policy from their own view
#: of the deal (the tree then holds only the bot's own moves, each node the bot's information
#: after the other seats' unseen choices); ``"trees"``, by UCB1 in a tree of their own
#: (multiple-observer ISMCTS, Cowling, Powley and Whitehouse 2012): every seat's tree branches
#: on what that seat sees of each move (:func:`observed`), so no seat's choice, the bot's
#: included, depends on another seat's secret choice in the deal.
OPPONENT_MODELS: tuple[str, ...] = ("tree", "model", "trees")


# --- the bot ---------------------------------------------------------------------------------


class ISMCTSBot:
    """SO-ISMCTS with UCB1 and availability counts (see the module docstring).

    ``iterations`` and/or ``time_limit`` (seconds) bound each decision (the first reached
    stops it; with neither, 1,000 iterations). ``seed`` makes the choices reproducible (with
    ``time_limit`` the number of iterations, hence the choice, may vary). ``rollout`` is
    ``"bot"`` (the heuristic bot itself), ``"modelled"`` (the heuristic bot with its character
    picks drawn from the ``"search"`` pick model), ``"heuristic"`` (a cheap imitation) or
    ``"random"``;
    ``horizon`` is the number of round ends a rollout plays
    through before the position is scored, ``temperature`` (points) how sharply a lead counts
    then; ``exploration`` is the UCB1 constant. ``prior`` (default 0: off) biases the root
    towards the heuristic bot's choice for this view (progressive bias, ``prior / (visits +
    1)`` added to that action's UCB value), so a small budget departs from it only on
    evidence. ``draft_model`` (default 0: off) is the temperature of the opponent model that
    weighs the sampled worlds by the other seats' picks (:mod:`citadels.bots.model`), over a
    pool of ``pool`` worlds. ``workers`` above 1 searches in that many processes (root
    parallelisation, reproducible with a fixed number of iterations). ``evaluation`` scores a
    rollout's last position (:data:`EVALUATIONS`). ``widening`` above 0 turns on progressive
    widening: a node visited ``n`` times holds at most ``2 (n + 1) ** widening`` moves, let in
    in the order of :func:`widening_rank` (a move legal in the deal is still added when none of
    the node's moves is). ``opponents`` is how the other seats choose inside the tree
    (:data:`OPPONENT_MODELS`): by UCB1 in the tree (``"tree"``), by the rollout policy from
    their own view of the deal (``"model"``), or by UCB1 in a tree of their own that sees
    only what they see (``"trees"``). ``pick_model`` names the draft model's model of
    a pick (:data:`citadels.bots.model.PICK_MODELS`): the heuristic's values alone
    (``"heuristic"``) or with the biases fitted to search players (``"search"``).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 0.5,
        rollout: str = "heuristic",
        horizon: int = 1,
        temperature: float = 3.0,
        max_rollout_moves: int = 400,
        prior: float = 0.0,
        draft_model: float = 0.0,
        pool: int = 64,
        workers: int = 1,
        evaluation: str = "standing",
        widening: float = 0.0,
        opponents: str = "tree",
        pick_model: str = "heuristic",
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        if rollout not in ROLLOUT_POLICIES:
            known = ", ".join(ROLLOUT_POLICIES)
            raise ValueError(f"unknown rollout {rollout!r}; known rollouts: {known}")
        if type(horizon) is not int or horizon < 1:
            raise ValueError(f"horizon must be a positive integer, not {horizon!r}")
        if not prior >= 0:
            raise ValueError(f"prior must be a number of at least 0, not {prior!r}")
        if not draft_model >= 0:
            raise ValueError(f"draft_model must be a number of at least 0, not {draft_model!r}")
        if type(pool) is not int or pool < 1:
            raise ValueError(f"pool must be a positive integer, not {pool!r}")
        if type(workers) is not int or workers < 1:
            raise ValueError(f"workers must be a positive integer, not {workers!r}")
        if not 0 <= widening < 1:
            raise ValueError(
                f"widening must be a number from 0 up to 1 (excluded), not {widening!r}"
            )
        if opponents not in OPPONENT_MODELS:
            known = ", ".join(OPPONENT_MODELS)
            raise ValueError(f"unknown opponents {opponents!r}; known opponent models: {known}")
        if pick_model not in PICK_MODELS:
            known = ", ".join(PICK_MODELS)
            raise ValueError(f"unknown pick_model {pick_model!r}; known pick models: {known}")
        if evaluation not in EVALUATIONS:
            known = ", ".join(EVALUATIONS)
            raise ValueError(f"unknown evaluation {evaluation!r}; known evaluations: {known}")
        self.workers = workers
        self._shared = {
            "exploration": exploration,
            "rollout": rollout,
            "horizon": horizon,
            "temperature": temperature,
            "max_rollout_moves": max_rollout_moves,
            "prior": prior,
            "draft_model": draft_model,
            "pool": pool,
            "evaluation": evaluation,
            "widening": widening,
            "opponents": opponents,
            "pick_model": pick_model,
        }
        """What a worker's search shares with this one (root parallelisation)."""
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout = rollout
        self.policy = ROLLOUT_POLICIES[rollout]
        self.horizon = horizon
        self.temperature = temperature
        self.max_rollout_moves = max_rollout_moves
        self.prior = prior
        self.draft_model = draft_model
        self.pool = pool
        self.evaluation = evaluation
        self.widening = widening
        self.opponents = opponents
        self.pick_model = pick_model
        self.last_effective_worlds = 0.0
        """With the draft model: the effective size of the last decision's weighted pool."""
        self.sampler: SeatSampler | None = None
        self.options: dict[str, Any] = {}
        """The game's setup options, for a search from the view alone (no sampler): a view
        does not carry them and the deck's cards depend on them (see ``choose``)."""
        self.last_iterations = 0
        """Iterations run for the last decision (0 when there was no choice to make)."""
        self.last_stats: dict[Action, tuple[int, float]] = {}
        """For the last decision: each root action's visits and mean reward."""

    def attach(self, sampler: SeatSampler) -> None:
        """Take the sampler of the bot's seat (given by the game runner)."""
        self.sampler = sampler

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """Search from the information set of the attached seat, or, without a sampler,
        from ``view`` alone when it carries the whole log (``game.view(seat)``; the setup
        options are ``view["options"]`` if present, else :attr:`options`); returns the most
        visited legal action."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        started = time.perf_counter()  # the time limit counts the information set too
        self.last_iterations = 0
        self.last_stats = {}
        if len(legal_actions) == 1:
            return legal_actions[0]
        favoured = None
        if self.prior > 0:
            favoured = HeuristicBot(self.rng.randrange(1 << 30)).choose(view, legal_actions)
        sampler = self.sampler
        if sampler is None:
            log = view.get("log")
            if log and log[0].get("kind") == "setup":
                # The whole log: the view alone is enough (citadels.engine.from_view).
                info = InformationSet.from_view(view, view.get("options", self.options))
                return self.search(info, legal_actions, started, favoured, view)
            raise BotNotReady(
                "ISMCTSBot cannot search without its seat's whole view or sampler: give it "
                "game.view(seat) with the whole log (and its setup options, bot.options), or "
                "call citadels.bots.attach_samplers(game, bots) once after new_game (or play "
                "with citadels.sim.play_game, which does it); a bot that plays from the view "
                "alone without its log is make_bot('heuristic')"
            )
        if sampler.seat != view.get("seat"):
            raise BotNotReady(
                f"ISMCTSBot has the sampler of seat {sampler.seat} but was asked to play seat "
                f"{view.get('seat')!r}: give each seat its own bot and call "
                "citadels.bots.attach_samplers(game, bots)"
            )
        return self.search(sampler.information_set(), legal_actions, started, favoured, view)

    def search(
        self,
        info: InformationSet,
        legal_actions: Sequence[Action],
        started: float | None = None,
        favoured: Action | None = None,
        view: dict[str, Any] | None = None,
        *,
        floor: int = 0,
        evaluate: Sequence[Action] = (),
        evaluate_top: int = 0,
    ) -> Action:
        """Run the search on ``info`` and return the chosen action among ``legal_actions``.

        The time limit runs from ``started`` (a ``time.perf_counter()`` reading; default: now)
        and is checked after every iteration, so a decision overruns it by at most one
        iteration (a fraction of a millisecond to a few); the first iteration always runs.
        ``favoured`` (the heuristic's choice, when :attr:`prior` is set) gets a progressive
        bias at the root: ``prior / (visits + 1)`` added to its UCB value. ``view`` is the
        seat's view the draft model reads (default: the information set's own).

        ``floor`` (default 0: off) makes the estimates of some root actions rest on at least
        ``floor`` iterations each, for a caller that compares them (the game review,
        :mod:`citadels.review`): once the budget is spent, each action of ``evaluate`` and each
        of the ``evaluate_top`` most visited actions that has fewer visits gets further
        iterations that play it at the root and search on below it as usual. The chosen action
        is still the one most visited within the budget; :attr:`last_stats` counts the extra
        iterations too. Only with ``opponents`` ``"tree"`` or ``"model"`` and one worker."""
        if floor > 0 and (self.opponents == "trees" or self.workers > 1):
            raise ValueError("floor needs opponents 'tree' or 'model' and one worker")
        if self.workers > 1 and (self.iterations is None or self.iterations > 1):
            return self._search_in_parallel(info, legal_actions, started, favoured, view)
        rng = self.rng
        root = _Node(info.seat)
        roots: list[_Node] = []  # with opponents="trees": every seat's root, made at once
        deal = self._dealer(info, view, rng)
        limit = self.iterations
        deadline = None
        if self.time_limit is not None:
            deadline = (time.perf_counter() if started is None else started) + self.time_limit
        clock = time.perf_counter
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and clock() >= deadline:
                break
            if self.opponents == "trees":
                self._iterate_trees(deal, root, roots, rng, favoured)
            else:
                self._iterate(deal, root, rng, favoured)
            done += 1
        allowed = set(legal_actions)
        order = {a: i for i, a in enumerate(legal_actions)}
        stats = {
            a: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
            for a, ch in root.children.items()
            if a in allowed
        }
        if not stats:
            self.last_iterations = done
            self.last_stats = stats
            return legal_actions[rng.randrange(len(legal_actions))]
        choice = max(stats, key=lambda a: (stats[a][0], stats[a][1], -order[a]))
        if floor > 0:
            ranked = sorted(stats, key=lambda a: (-stats[a][0], -stats[a][1], order[a]))
            wanted = [a for a in evaluate if a in allowed] + ranked[:evaluate_top]
            for a in dict.fromkeys(wanted):
                child = root.children.get(a)
                for _ in range(floor - (child.visits if child is not None else 0)):
                    self._iterate(deal, root, rng, None, a)
                    done += 1
            stats = {
                a: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
                for a, ch in root.children.items()
                if a in allowed
            }
        self.last_iterations = done
        self.last_stats = stats
        return choice

    def _dealer(
        self, info: InformationSet, view: dict[str, Any] | None, rng: random.Random
    ) -> Callable[[random.Random], GameState]:
        """How the search deals its worlds from ``info``: uniformly, or with the draft model
        from a weighted pool drawn with ``rng`` (sets :attr:`last_effective_worlds`)."""
        self.last_effective_worlds = 0.0
        if self.draft_model <= 0:
            return lambda r: info.sample(r).state
        model = DraftModel(info.view() if view is None else view, self.draft_model, self.pick_model)
        worlds = WeightedWorlds(info, model, rng, self.pool)
        self.last_effective_worlds = worlds.effective
        return worlds.sample

    def evaluate(
        self,
        info: InformationSet,
        actions: Sequence[Action],
        iterations: int,
        view: dict[str, Any] | None = None,
    ) -> dict[Action, tuple[int, float]]:
        """An evaluation of each of ``actions`` (root actions of ``info``'s seat) on its own:
        a fresh tree and fresh worlds (from this bot's generator), ``iterations`` iterations
        per action, each playing that action at the root and searching on below it as usual,
        the actions taken in turn. Returns each action's visits and mean reward (an action
        legal in no world dealt gets no visits and a mean of 0).

        Every action rests on the same number of iterations and gets a subtree searched as
        deeply as the others', and nothing here chose which actions to evaluate: a caller
        that picked them with another search (the game review, :mod:`citadels.review`) gets
        estimates free of that search's selection (a best action's estimate read from the
        search that found it best is biased upward, the more so the more actions it compared,
        and a little-visited action's is biased downward by its less searched subtree).
        Only with ``opponents`` ``"tree"`` or ``"model"``."""
        if self.opponents == "trees":
            raise ValueError("evaluate needs opponents 'tree' or 'model'")
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        rng = self.rng
        root = _Node(info.seat)
        deal = self._dealer(info, view, rng)
        wanted = list(dict.fromkeys(actions))
        for _ in range(iterations):
            for a in wanted:
                self._iterate(deal, root, rng, None, a)
        self.last_iterations = iterations * len(wanted)
        out: dict[Action, tuple[int, float]] = {}
        for a in wanted:
            ch = root.children.get(a)
            visited = ch is not None and ch.visits > 0
            out[a] = (ch.visits, ch.reward / ch.visits) if ch is not None and visited else (0, 0.0)
        self.last_stats = out
        return out

    def _search_in_parallel(
        self,
        info: InformationSet,
        legal_actions: Sequence[Action],
        started: float | None,
        favoured: Action | None,
        view: dict[str, Any] | None,
    ) -> Action:
        """Root parallelisation: ``workers`` processes each search the same information set
        (rebuilt from the seat's whole view) with their own seed and a share of the
        iterations; their root statistics are summed and the most visited action wins. The
        seeds come from this bot's generator and the shares are fixed, so with a fixed
        number of iterations the choice does not depend on the processes' timing."""
        whole = info.view()
        count = self.workers if self.iterations is None else min(self.workers, self.iterations)
        shares: list[int | None] = [None] * count
        if self.iterations is not None:
            shares = [
                self.iterations // count + (k < self.iterations % count) for k in range(count)
            ]
        remaining = None
        if self.time_limit is not None:
            since = time.perf_counter() - (time.perf_counter() if started is None else started)
            remaining = max(self.time_limit - since, 1e-3)
        jobs = [
            (
                self._shared,
                self.rng.randrange(1 << 62),
                whole,
                info.options,
                list(legal_actions),
                share,
                remaining,
                favoured,
                view,
            )
            for share in shares
        ]
        results = list(_executor(count).map(_search_share, jobs))
        totals: dict[Action, list[float]] = {}
        for stats, _, _ in results:
            for a, (visits, reward) in stats.items():
                entry = totals.setdefault(a, [0, 0.0])
                entry[0] += visits
                entry[1] += reward
        self.last_iterations = sum(r[1] for r in results)
        self.last_effective_worlds = results[0][2]
        allowed = set(legal_actions)
        self.last_stats = {
            a: (int(v), r / v if v else 0.0) for a, (v, r) in totals.items() if a in allowed
        }
        stats = self.last_stats
        if not stats:
            return legal_actions[self.rng.randrange(len(legal_actions))]
        order = {a: i for i, a in enumerate(legal_actions)}
        return max(stats, key=lambda a: (stats[a][0], stats[a][1], -order[a]))

    def _iterate(
        self,
        deal: Callable[[random.Random], GameState],
        root: _Node,
        rng: random.Random,
        favoured: Action | None,
        forced: Action | None = None,
    ) -> None:
        """One iteration of the single tree; ``forced``, when given, is played at the root
        (the bot's first decision in the deal) instead of the move UCB1 would choose."""
        s = deal(rng)
        last_round = s.round + self.horizon - 1
        me = root.mover
        modelled = self.opponents == "model"
        policy = self.policy
        node = root
        root.visits += 1
        path: list[_Node] = []
        legal_actions = rules.legal_actions
        apply = rules.apply
        # Selection and expansion.
        while s.phase != OVER and s.round <= last_round:
            legal = legal_actions(s)
            if len(legal) == 1:
                apply(s, legal[0])
                continue
            mover = rules.to_move(s)
            assert mover is not None
            if modelled and mover != me:
                apply(s, policy(s, legal, rng))  # the opponent model, not the tree
                continue
            if forced is not None and mover == me and node is root and forced in legal:
                child = root.children.get(forced)
                expanded = child is None
                if child is None:
                    child = root.children[forced] = _Node(me)
                node = child
                apply(s, forced)
                path.append(node)
                forced = None
                if expanded:
                    break
                continue
            keys: Sequence[Hashable] = legal if mover == me else [(mover, a) for a in legal]
            chosen, node, expanded = self._select(s, mover, node, legal, keys, rng, favoured, root)
            apply(s, chosen)
            path.append(node)
            if expanded:
                break
        reward = self._play_out(s, last_round, rng)
        for n in path:  # backpropagation
            n.visits += 1
            n.reward += reward[n.mover]

    def _play_out(self, s: GameState, last_round: int, rng: random.Random) -> list[float]:
        """The rollout: ``s`` played on by the rollout policy to the end of ``last_round``
        (or of the game, or ``max_rollout_moves``); returns each seat's reward for the
        position reached (the win share, or the evaluation)."""
        policy = self.policy
        legal_actions = rules.legal_actions
        apply = rules.apply
        moves = 0
        while s.phase != OVER and s.round <= last_round and moves < self.max_rollout_moves:
            legal = legal_actions(s)
            apply(s, legal[0] if len(legal) == 1 else policy(s, legal, rng))
            moves += 1
        return win_chances(s) if self.evaluation == "fitted" else rewards(s, self.temperature)

    def _select(
        self,
        s: GameState,
        mover: int,
        node: _Node,
        legal: list[Action],
        keys: Sequence[Hashable],
        rng: random.Random,
        favoured: Action | None,
        root: _Node,
    ) -> tuple[Action, _Node, bool]:
        """One step down ``node`` for ``mover``, to move in ``s``: an untried legal action
        added as a new child, or the legal child of best UCB1 value with availability counts
        (``keys[i]`` is the child key of ``legal[i]``). Returns the action, its child and
        whether the child is new (the expansion that ends the descent)."""
        children = node.children
        widen = self.widening
        untried: list[int] = []
        for i, k in enumerate(keys):
            ch = children.get(k)
            if ch is None:
                untried.append(i)
            else:
                ch.avail += 1
        if untried and (
            not widen
            or len(untried) == len(legal)
            or len(children) < 2 * (node.visits + 1) ** widen
        ):
            if widen:
                i = min(untried, key=lambda j: widening_rank(s, legal[j]))
            else:
                i = untried[rng.randrange(len(untried))]
            child = children[keys[i]] = _Node(mover)
            return legal[i], child, True
        c = self.exploration
        best = -1
        best_value = -1.0
        bias = favoured if node is root else None
        for i, k in enumerate(keys):
            ch = children.get(k)
            if ch is None:  # held back by progressive widening
                continue
            value = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if bias is not None and legal[i] == bias:
                value += self.prior / (ch.visits + 1)  # progressive bias
            if value > best_value:
                best_value = value
                best = i
        return legal[best], children[keys[best]], False

    def _iterate_trees(
        self,
        deal: Callable[[random.Random], GameState],
        root: _Node,
        roots: list[_Node],
        rng: random.Random,
        favoured: Action | None,
    ) -> None:
        """One iteration of multiple-observer ISMCTS (``opponents="trees"``): one tree per
        seat, ``roots[seat]`` (``root`` is the bot's; the others are made on the first
        iteration), walked together. The seat to move chooses in its own tree, where its
        children are its own actions; every tree then follows the move as its owner sees it
        (:func:`observed`), so a seat's tree merges the other seats' secret
        choices into one move. The descent ends at the first new node of the mover's tree;
        the rollout and evaluation are the single tree's, and every tree backs up the reward
        of each node's mover along its own path."""
        s = deal(rng)
        me = root.mover
        if not roots:
            roots.extend(root if q == me else _Node(q) for q in range(len(s.players)))
        last_round = s.round + self.horizon - 1
        nodes = list(roots)
        paths: list[list[_Node]] = [[] for _ in roots]
        for r in roots:
            r.visits += 1
        seats = range(len(roots))
        legal_actions = rules.legal_actions
        apply = rules.apply
        while s.phase != OVER and s.round <= last_round:
            legal = legal_actions(s)
            if len(legal) == 1:
                apply(s, legal[0])
                continue
            mover = rules.to_move(s)
            assert mover is not None
            chosen, child, expanded = self._select(
                s, mover, nodes[mover], legal, legal, rng, favoured, root
            )
            key = (mover, observed(chosen))  # the move as every other seat's tree sees it
            for q in seats:
                step = child
                if q != mover:
                    siblings = nodes[q].children
                    found = siblings.get(key)
                    if found is None:
                        found = siblings[key] = _Node(mover)
                    step = found
                nodes[q] = step
                paths[q].append(step)
            apply(s, chosen)
            if expanded:
                break
        reward = self._play_out(s, last_round, rng)
        for path in paths:
            for n in path:
                n.visits += 1
                n.reward += reward[n.mover]


# --- root parallelisation --------------------------------------------------------------------

_EXECUTORS: dict[int, ProcessPoolExecutor] = {}


def _executor(workers: int) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes, made once per size and kept for the next
    decisions (the processes import the engine once)."""
    pool = _EXECUTORS.get(workers)
    if pool is None:
        pool = _EXECUTORS[workers] = ProcessPoolExecutor(workers)
    return pool


def _search_share(
    job: tuple[
        dict[str, Any],
        int,
        dict[str, Any],
        dict[str, Any],
        list[Action],
        int | None,
        float | None,
        Action | None,
        dict[str, Any] | None,
    ],
) -> tuple[dict[Action, tuple[int, float]], int, float]:
    """One worker's share of a root-parallel search: the information set rebuilt from the
    seat's whole view (the same worlds, :meth:`InformationSet.from_view`), searched with its
    own seed; returns each root action's visits and summed reward, the iterations run and the
    weighted pool's effective size."""
    params, seed, whole, options, legal, iterations, time_limit, favoured, view = job
    bot = ISMCTSBot(seed, iterations=iterations, time_limit=time_limit, **params)
    bot.search(InformationSet.from_view(whole, options), legal, None, favoured, view)
    stats = {a: (visits, visits * mean) for a, (visits, mean) in bot.last_stats.items()}
    return stats, bot.last_iterations, bot.last_effective_worlds
