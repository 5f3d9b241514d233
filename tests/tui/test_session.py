"""The session under the terminal game: seats, bots on their own view, save files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from citadels.engine.game import new_game
from citadels.tui import SaveError, Seat, Session, default_save_dir, load_session, make_seats
from citadels.tui.session import SAVE_FORMAT
from tests.tui.harness import session


class TestSeats:
    def test_alone_the_person_sits_at_the_chosen_seat_and_bots_fill_the_rest(self) -> None:
        seats = make_seats(4, None, 2, False)
        assert [s.kind for s in seats] == ["medium", "medium", "human", "medium"]

    def test_one_level_per_bot_in_seat_order(self) -> None:
        seats = make_seats(4, ["easy", "Hard", "random"], 1, False)
        assert [s.kind for s in seats] == ["easy", "human", "hard", "random"]

    def test_hotseat_bots_sit_after_the_people(self) -> None:
        seats = make_seats(4, ["easy"], 0, True, ["Anna", "Ben"])
        assert [s.kind for s in seats] == ["human", "human", "human", "easy"]
        assert [s.name for s in seats] == ["Anna", "Ben", None, None]

    @pytest.mark.parametrize(
        ("players", "bots", "seat", "hotseat", "message"),
        [
            (4, ["grandmaster"], 0, False, "unknown bot 'grandmaster'"),
            (4, ["easy", "hard"], 0, False, "--bots gives 2 levels"),
            (3, None, 3, False, "--seat must be from 0 to 2"),
            (3, ["easy", "easy"], 0, True, "needs at least 2 people"),
            (1, None, 0, False, "at least 2 players"),
        ],
    )
    def test_bad_seats_are_named(
        self, players: int, bots: list[str] | None, seat: int, hotseat: bool, message: str
    ) -> None:
        with pytest.raises(ValueError, match=message):
            make_seats(players, bots, seat, hotseat)

    def test_a_session_needs_a_person(self) -> None:
        game = new_game("basic", 2, seed=1)
        with pytest.raises(ValueError, match="at least one seat"):
            Session(game, [Seat("easy"), Seat("easy")])

    def test_two_people_need_hotseat(self) -> None:
        game = new_game("basic", 2, seed=1)
        with pytest.raises(ValueError, match="--hotseat"):
            Session(game, [Seat("human"), Seat("human")])


class TestBots:
    @pytest.mark.parametrize("level", ["easy", "medium", "random"])
    def test_a_bot_chooses_a_legal_action_without_touching_the_game(self, level: str) -> None:
        s = session("classic", 3, seed=4, bots=[level], seat=0)
        game = s.game
        while s.is_human(game.to_move):
            game.apply(game.legal_actions()[0])  # the person picks; then a bot is to move
        seat = game.to_move
        assert seat is not None and not s.is_human(seat)
        before = json.dumps(game.to_json(), sort_keys=True)
        action = s.bot_choice(seat)
        assert action in game.legal_actions()
        assert json.dumps(game.to_json(), sort_keys=True) == before

    def test_a_search_bot_gets_a_sampler_of_a_copy_for_its_seat(self) -> None:
        s = session("basic", 2, seed=4, bots=["hard"])
        bot = s._bots[1]
        bot.iterations = 20  # type: ignore[attr-defined]
        game = s.game
        while game.to_move == 0:
            game.apply(game.legal_actions()[0], 0)
        before = json.dumps(game.to_json(), sort_keys=True)
        action = s.bot_choice(1)
        assert action in game.legal_actions()
        sampler = bot.sampler  # type: ignore[attr-defined]
        assert sampler.seat == 1
        assert sampler._game is not game  # it searched a copy, never the live game
        assert json.dumps(game.to_json(), sort_keys=True) == before


class TestSaveFiles:
    def test_save_and_load_give_the_same_game_seats_and_reading_marks(self, tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        s = session(
            "classic",
            4,
            seed=9,
            bots=["easy", "medium", "random"],
            seat=2,
            names=["", "", "Me", ""],
            save=path,
        )
        while s.game.to_move != 2:
            seat = s.game.to_move
            assert seat is not None
            s.apply(s.bot_choice(seat), seat)
        s.apply(s.game.legal_actions()[0], 2)
        assert s.save() == path
        back = load_session(path)
        assert back.game.record() == s.game.record()
        assert back.game.view(2) == s.game.view(2)
        assert [(x.kind, x.name) for x in back.seats] == [(x.kind, x.name) for x in s.seats]
        assert back.seen == s.seen and back.seen[2] > 0
        assert back.save_path == path
        assert not list(tmp_path.glob(".citadels-*"))  # no temporary file left behind

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            (b"{", "not valid JSON"),
            (b"\xff\xfe\x00", "not text"),
            (b'{"format": "something/1"}', "not a Citadels save file"),
            (
                json.dumps({"format": SAVE_FORMAT, "game": {"format": "citadels.game/1"}}).encode(),
                "damaged",
            ),
        ],
    )
    def test_a_corrupt_save_is_named_and_left_as_it_is(
        self, tmp_path: Path, content: bytes, message: str
    ) -> None:
        path = tmp_path / "bad.json"
        path.write_bytes(content)
        with pytest.raises(SaveError, match=message):
            load_session(path)
        assert path.read_bytes() == content

    def test_a_save_with_a_broken_seat_list_is_refused(self, tmp_path: Path) -> None:
        s = session("basic", 2, seed=1, bots=["easy"], save=tmp_path / "g.json")
        data = s.to_json()
        data["seats"] = [{"kind": "human"}, {"kind": "wizard"}]
        (tmp_path / "g.json").write_text(json.dumps(data))
        with pytest.raises(SaveError, match="unknown kind 'wizard'"):
            load_session(tmp_path / "g.json")

    def test_missing_file_and_directory(self, tmp_path: Path) -> None:
        with pytest.raises(SaveError, match="no save file at"):
            load_session(tmp_path / "none.json")
        with pytest.raises(SaveError, match="is a directory"):
            load_session(tmp_path)

    @pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
    def test_an_unwritable_place_is_named(self, tmp_path: Path) -> None:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        s = session("basic", 2, seed=1, bots=["easy"], save=locked / "g.json")
        with pytest.raises(SaveError, match="cannot write"):
            s.save()

    def test_a_file_in_place_of_the_directory_is_named(self, tmp_path: Path) -> None:
        (tmp_path / "file").write_text("x")
        s = session("basic", 2, seed=1, bots=["easy"], save=tmp_path / "file" / "g.json")
        with pytest.raises(SaveError, match="cannot write"):
            s.save()

    def test_the_default_directory_follows_xdg_data_home(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        assert default_save_dir() == tmp_path / "citadels" / "games"
