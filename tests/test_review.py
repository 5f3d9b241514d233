"""Issue 27: the game review and hints (citadels.review, citadels review).

The review's estimates come from each seat's view alone: a world the seat cannot tell from the
real one (other hands, deck order, face-down characters dealt again) gives every estimate
unchanged. The same record, seed and budget give the same review; the JSON has a fixed shape;
bad files and options get one clear error line.
"""

from __future__ import annotations

import importlib
import json
import random
import threading
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from citadels.bots import make_bot
from citadels.bots.ismcts import ISMCTSBot
from citadels.cli import main
from citadels.engine.actions import action_from_json
from citadels.engine.determinize import InformationSet, determinize
from citadels.engine.game import Game, new_game, replay
from citadels.engine.state import GameState
from citadels.present.review import key_moment_lines, label_text, moment_text
from citadels.review import (
    FLOOR,
    LABELS,
    REVIEW_FORMAT,
    SEARCH,
    SHARES,
    THRESHOLDS,
    _position_seed,
    analyse,
    hint,
    label,
    review_game,
)
from citadels.sim import play_game

BUDGET = 24


@cache
def played(seed: int = 3, kind: str = "medium", players: int = 4) -> dict[str, Any]:
    """The record of a game of ``kind`` bots (fixed seeds)."""
    game = new_game("classic", players, seed=seed)
    play_game(game, [make_bot(kind, seed=seed * 10 + i) for i in range(players)])
    return game.record()


@cache
def reviewed(seat: int = 1, seed: int = 0) -> dict[str, Any]:
    return review_game(replay(played()), seat, budget=BUDGET, seed=seed).to_json()


def test_labels_follow_the_thresholds_in_points_and_in_shares() -> None:
    # In points, whatever the chance there was (a seat far ahead).
    assert label(0.0, 0.9) == "good"
    assert label(THRESHOLDS["inaccuracy"] - 1e-9, 0.9) == "good"
    assert label(THRESHOLDS["inaccuracy"], 0.9) == "inaccuracy"
    assert label(THRESHOLDS["mistake"], 0.9) == "mistake"
    assert label(THRESHOLDS["blunder"] + 0.05, 0.9) == "blunder"
    # As a share of the best action's chance: a seat far behind loses few points.
    best = 0.1
    assert label(best * SHARES["inaccuracy"] - 1e-9, best) == "good"
    assert label(best * SHARES["inaccuracy"], best) == "inaccuracy"
    assert label(best * SHARES["mistake"], best) == "mistake"
    assert label(best * SHARES["blunder"], best) == "blunder"
    # Below the floor no share counts: the noise of estimates near 0 is no mistake.
    assert label(FLOOR - 1e-9, 0.01) == "good"
    assert label(FLOOR, 0.01) == "blunder"
    # The worse of the two wins: 7 points from 50% is a mistake by points, 14% by share.
    assert label(THRESHOLDS["mistake"], 0.5) == "mistake"
    assert THRESHOLDS["inaccuracy"] > FLOOR
    assert SHARES["inaccuracy"] < SHARES["mistake"] < SHARES["blunder"]
    assert list(LABELS) == ["good", "inaccuracy", "mistake", "blunder"]


def test_the_estimates_never_use_what_the_seat_could_not_know() -> None:
    """At every decision of the reviewed seat, a world dealt again from that seat's view (other
    hands, deck order, face-down characters, generator) gives the same estimates as the real
    game, while the worlds really differ from the real game in what the seat cannot see."""
    record = played()
    review = reviewed()
    seat = review["seat"]
    by_move = {d["move"]: d for d in review["decisions"]}
    game = new_game(record["edition"], record["players"], seed=record["seed"])
    changed = {"hands": 0, "deck": 0, "facedown": 0}
    rng = random.Random(99)
    checked = 0
    for i, obj in enumerate(record["actions"]):
        if i in by_move:
            world = determinize(game, seat, rng)
            assert world.view(seat) == game.view(seat)
            others = [p for p in range(game.num_players) if p != seat]
            if any(world.state.players[p].hand != game.state.players[p].hand for p in others):
                changed["hands"] += 1
            changed["deck"] += world.state.deck != game.state.deck
            changed["facedown"] += world.state.facedown != game.state.facedown
            chosen = action_from_json(obj)
            decision = by_move[i]
            a = analyse(
                world.view(seat),
                record["options"],
                world.legal_actions(),
                budget=BUDGET,
                seed=review["seed"],
                chosen=chosen,
            )
            mine = a.of(chosen)
            assert mine is not None
            assert mine.chance == decision["chosen"]["chance"]
            assert mine.visits == decision["chosen"]["visits"]
            assert [e.to_json() for e in a.estimates[:3]] == decision["best"]
            checked += 1
        game.apply_json(obj)
    assert checked == len(by_move) > 10
    assert all(n > 0 for n in changed.values()), changed


class _Peeker:
    """A leaky information set: every world it deals is the real game itself."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game, self.seat = game, seat

    def sample(self, rng: random.Random) -> Game:
        return self.game.copy()

    def redeal(self, world: GameState, rng: random.Random) -> GameState:
        return world.copy()

    def view(self, **kwargs: Any) -> dict[str, Any]:
        return self.game.view(self.seat, **kwargs)


def test_the_check_above_would_see_a_search_that_peeks() -> None:
    """A search that dealt the real game's hidden parts would give other numbers in a world the
    seat cannot tell from it: the comparison above would catch such a leak."""
    record = played()
    game = new_game(record["edition"], record["players"], seed=record["seed"])
    while game.to_move != 1 or len(game.legal_actions()) < 2 or game.round < 3:
        game.apply(game.legal_actions()[0])
    world = determinize(game, 1, random.Random(5))
    assert world.view(1) == game.view(1)

    def peeked(g: Game) -> list[tuple[int, float]]:
        bot = ISMCTSBot(0, iterations=BUDGET, **SEARCH)
        bot.search(_Peeker(g, 1), g.legal_actions(), view=g.view(1))  # type: ignore[arg-type]
        return [bot.last_stats[a] for a in g.legal_actions() if a in bot.last_stats]

    assert peeked(game) != peeked(world)

    def honest(g: Game) -> list[Any]:
        a = analyse(g.view(1), record["options"], g.legal_actions(), budget=BUDGET, seed=0)
        return [e.to_json() for e in a.estimates]

    assert honest(game) == honest(world)


def test_same_record_same_seed_same_review_and_another_seed_another() -> None:
    again = review_game(replay(played()), 1, budget=BUDGET, seed=0).to_json()
    assert again == reviewed()
    other = reviewed(seed=1)
    assert [d["chosen"]["chance"] for d in other["decisions"]] != [
        d["chosen"]["chance"] for d in reviewed()["decisions"]
    ]


def test_two_reviews_in_two_threads_are_each_the_same_as_alone() -> None:
    """The terminal game reviews in threads (a seat, then another with →) while hints and
    bots search too: no search draws from another's generator (the rollout player is one per
    thread), so each review is the one made alone."""
    out: dict[int, dict[str, Any]] = {}

    def run(seat: int) -> None:
        out[seat] = review_game(replay(played()), seat, budget=BUDGET).to_json()

    threads = [threading.Thread(target=run, args=(seat,)) for seat in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[1] == reviewed(1)
    assert out[2] == reviewed(2)


def test_the_review_covers_every_choice_and_every_seat_on_the_curve() -> None:
    record = played()
    game = replay(record)
    review = reviewed()
    # Every decision of seat 1 with more than one legal action, and no other.
    g = new_game(record["edition"], record["players"], seed=record["seed"])
    expected = []
    for i, obj in enumerate(record["actions"]):
        if g.to_move == 1 and len(g.legal_actions()) > 1:
            expected.append(i)
        g.apply_json(obj)
    assert [d["move"] for d in review["decisions"]] == expected
    for d in review["decisions"]:
        assert 0 <= d["chosen"]["chance"] <= 1
        assert d["loss"] == pytest.approx(max(0.0, d["best"][0]["chance"] - d["chosen"]["chance"]))
        assert d["label"] == label(d["loss"], d["best"][0]["chance"])
        # The search's choice first, then the others by their estimates (all from the second,
        # independent evaluation, each on the same number of iterations).
        assert [e["chance"] for e in d["best"][1:]] == sorted(
            (e["chance"] for e in d["best"][1:]), reverse=True
        )
        assert {e["visits"] for e in [*d["best"], d["chosen"]]} == {round(BUDGET * 0.2)}
        if d["chosen"]["action"] == d["best"][0]["action"]:
            assert d["loss"] == 0
    seats = {p["seat"] for p in review["curve"]}
    assert seats == set(range(game.num_players))
    finals = [p for p in review["curve"] if p["final"]]
    winners = set(game.result().winners)
    assert {p["seat"] for p in finals if p["chance"] > 0} == winners
    assert review["winners"] == sorted(winners)


def test_key_moments_are_the_largest_losses_in_words_in_every_language() -> None:
    review = review_game(replay(played()), 1, budget=BUDGET, seed=0)
    moments = review.key_moments()
    losses = sorted((d.loss for d in review.decisions if d.label != "good"), reverse=True)
    assert sorted((d.loss for d in moments), reverse=True) == losses[:3]
    assert moments, "a medium bot's game at this budget has some mistakes"
    d = moments[0]
    text = moment_text(d)
    assert text.startswith(f"Round {d.round}: “") and "would have kept" in text
    assert f"{round(d.best[0].chance * 100)}%" in text
    for lang in ("fa", "ru", "ko", "vi"):
        lines = key_moment_lines(review, lang)
        assert len(lines) == len(moments)
        assert all("would have" not in line for line in lines)
        assert label_text("blunder", lang) != "blunder"


def test_a_hint_from_the_game_and_from_the_view_agree() -> None:
    game = replay(played())
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"])
    for obj in record["actions"][:40]:
        g.apply_json(obj)
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    seat = g.to_move
    assert seat is not None
    from_game = hint(g, seat, BUDGET)
    from_view = hint(g.view(seat), seat, BUDGET, options=record["options"])
    assert from_game == from_view
    assert 1 <= len(from_game) <= 3
    assert all(e.action in g.legal_actions() for e in from_game)
    with pytest.raises(ValueError, match="not to move"):
        hint(g, (seat + 1) % g.num_players, BUDGET)
    with pytest.raises(ValueError, match="budget"):
        hint(g, seat, 0)


def test_the_search_floor_gives_compared_actions_their_iterations_and_keeps_the_choice() -> None:
    game = replay(played())
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"])
    while g.to_move != 0 or len(g.legal_actions()) < 3:
        g.apply(g.legal_actions()[-1])
    legal = g.legal_actions()
    info = InformationSet(g, 0)
    plain = ISMCTSBot(5, iterations=40, **SEARCH)
    floored = ISMCTSBot(5, iterations=40, **SEARCH)
    a = plain.search(info, legal)
    b = floored.search(info, legal, floor=30, evaluate=[legal[-1]], evaluate_top=2)
    assert a == b
    assert floored.last_stats[legal[-1]][0] >= 30
    stats = plain.last_stats
    top = sorted(stats, key=lambda x: (-stats[x][0], -stats[x][1], legal.index(x)))[:2]
    assert all(floored.last_stats[x][0] >= 30 for x in top)
    assert floored.last_iterations > plain.last_iterations == 40


def test_the_second_evaluation_gives_each_action_as_many_iterations_of_its_own() -> None:
    """The loss is read from a second, independent evaluation: each compared action gets the
    same iterations in a fresh tree with another generator, and the best is the first
    search's choice, not the largest of the estimates (docs/review.md, the winner's curse)."""
    game = replay(played())
    record = game.record()
    g = new_game(record["edition"], record["players"], seed=record["seed"])
    while g.to_move != 0 or len(g.legal_actions()) < 3:
        g.apply(g.legal_actions()[-1])
    legal = g.legal_actions()
    info = InformationSet(g, 0)
    judge = ISMCTSBot(5, **SEARCH)
    stats = judge.evaluate(info, [legal[0], legal[2], legal[0]], 15)
    assert list(stats) == [legal[0], legal[2]]
    assert all(visits == 15 for visits, _ in stats.values())
    assert judge.last_iterations == 30
    assert ISMCTSBot(5, **SEARCH).evaluate(info, [legal[0], legal[2]], 15) == stats
    with pytest.raises(ValueError, match="positive"):
        judge.evaluate(info, legal, 0)
    view = g.view(0)
    a = analyse(view, record["options"], legal, budget=BUDGET, seed=0, chosen=legal[-1])
    first = ISMCTSBot(None, iterations=BUDGET, **SEARCH)
    first.rng = random.Random(_position_seed(0, 0, view))
    best = first.search(InformationSet.from_view(view, record["options"]), legal)
    assert a.estimates[0].action == best
    assert {e.visits for e in a.estimates} == {round(BUDGET * 0.2)}
    assert a.iterations == BUDGET + round(BUDGET * 0.2) * len(a.estimates)


# --- the command -----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out = capsys.readouterr()
    code = exc.value.code
    return int(code) if isinstance(code, int) else 0, out.out, out.err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played()), encoding="utf-8")
    return path


def test_the_json_output_has_its_shape(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    code, out, err = run(capsys, "review", str(record_file), "--seat", "1", "--budget", "24",
                         "--json")  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == REVIEW_FORMAT
    assert set(data) == {
        "format", "edition", "players", "seat", "budget", "seed", "thresholds", "shares",
        "floor", "over",
        "winners", "counts", "mean_loss", "decisions", "key_moments", "curve",
        "key_moment_texts",
    }  # fmt: skip
    assert (data["edition"], data["players"], data["seat"], data["budget"]) == ("classic", 4, 1, 24)
    assert data["thresholds"] == THRESHOLDS
    assert data["shares"] == SHARES and data["floor"] == FLOOR
    assert set(data["counts"]) == set(LABELS)
    assert sum(data["counts"].values()) == len(data["decisions"])
    for d in data["decisions"]:
        assert set(d) == {"move", "round", "chosen", "best", "loss", "label"}
        for e in [d["chosen"], *d["best"]]:
            assert set(e) == {"action", "chance", "visits"}
            assert "type" in e["action"]
    for p in data["curve"]:
        assert set(p) == {"seat", "round", "move", "chance", "final"}
    assert set(data["key_moments"]) <= {d["move"] for d in data["decisions"]}
    assert len(data["key_moment_texts"]) == max(1, len(data["key_moments"]))
    # The command's review is the library's.
    assert {k: v for k, v in data.items() if k != "key_moment_texts"} == reviewed()


def test_the_table_in_a_language(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    code, out, _ = run(capsys, "review", str(record_file), "--seat", "1", "--budget", "24",
                       "--lang", "ru")  # fmt: skip
    assert code == 0
    assert "Разбор" in out and "Ключевые моменты" in out and "Раунд" in out


def test_the_png_of_the_curves(
    capsys: pytest.CaptureFixture[str], record_file: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "curves.png"
    code, _, err = run(capsys, "review", str(record_file), "--budget", "8", "--out", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_out_fails_clearly(
    capsys: pytest.CaptureFixture[str], record_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = importlib.import_module("citadels.cli.app")
    monkeypatch.setattr(app, "plots_available", lambda: False)
    code, out, err = run(capsys, "review", str(record_file), "--out", "x.png")
    assert code == 2 and not out
    assert "matplotlib" in err and "pip install 'citadels[plots]'" in err


@pytest.mark.parametrize(
    ("content", "args", "said"),
    [
        (None, (), "cannot read"),
        ("{not json", (), "is not valid JSON"),
        ('{"format": "something else"}', (), "not a game record"),
        ("[1, 2]", (), "not a game record"),
        ("RECORD", ("--seat", "4"), "--seat must be from 0 to 3 in this game, not 4"),
        ("RECORD", ("--seat", "-1"), "--seat must be from 0 to 3"),
        ("RECORD", ("--budget", "0"), "--budget must be at least 1, not 0"),
        ("BROKEN", (), "does not replay"),
    ],
)
def test_bad_files_and_options_give_one_clear_error(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str | None,
    args: tuple[str, ...],
    said: str,
) -> None:
    path = tmp_path / "in.json"
    if content == "RECORD":
        content = json.dumps(played())
    elif content == "BROKEN":
        record = dict(played())
        actions = list(record["actions"])
        actions[5], actions[30] = actions[30], actions[5]
        record["actions"] = actions
        content = json.dumps(record)
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), *args)
    assert code == 2 and not out
    assert err.startswith("error: ") and said in err
    assert len(err.strip().splitlines()) == 1


def test_a_play_save_reviews_the_players_seat_by_default_under_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = replay(played())
    seats = [{"kind": "medium", "name": "Bot A"}, {"kind": "human", "name": "Ann"}]
    seats += [{"kind": "medium", "name": f"Bot {c}"} for c in "BC"]
    path = tmp_path / "save.json"
    save = {"format": "citadels.play/1", "game": game.to_json(), "seats": seats}
    path.write_text(json.dumps(save), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--budget", "24", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seat"] == 1
    code, out, err = run(capsys, "review", str(path), "--budget", "24")
    assert code == 0, err
    assert "Review of Ann" in out
