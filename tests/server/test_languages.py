"""Languages per connection (issue 11): every connection's texts are rendered in its own
language, and a connection may switch language at any time with a ``lang`` message."""

from __future__ import annotations

import asyncio
import gettext
from typing import Any

import pytest

from citadels.present import i18n
from citadels.server import texts
from citadels.server.client import PlayerClient, http
from tests.server.conftest import config, running

MARK = "‹fa›"


class _Marked(gettext.NullTranslations):
    """A stand-in Persian catalog that marks every text it translates, so the test tells the
    language a text was rendered in whatever catalogs are installed."""

    def gettext(self, message: str) -> str:
        return MARK + message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return MARK + (msgid1 if n == 1 else msgid2)


@pytest.fixture
def marked_fa(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(i18n.TRANSLATORS, "fa", i18n.Translator("fa", _Marked()))


def test_language_tags_name_a_supported_language() -> None:
    assert texts.language("fa") == "fa"
    assert texts.language("fa-IR") == "fa"
    assert texts.language("ru_RU") == "ru"
    assert texts.language("KO") == "ko"
    assert texts.language("de") is None
    assert texts.language("") is None
    assert texts.language(7) is None
    assert set(texts.LANGUAGES) == {"en", "fa", "ru", "ko", "vi"}
    assert texts.LANGUAGES["fa"]["dir"] == "rtl"


async def _started(base: str) -> tuple[str, str, str]:
    status, made = await http(base, "POST", "/api/tables",
                              {"name": "Anna", "edition": "basic", "players": 3,
                               "bots": {"2": "random"}})  # fmt: skip
    assert status == 201, made
    code = made["code"]
    status, joined = await http(base, "POST", f"/api/tables/{code}/join", {"name": "Ben"})
    assert status == 200, joined
    return code, made["token"], joined["token"]


async def _next(client: PlayerClient, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (updates of the bots' moves may come between)."""
    while True:
        msg = await client.recv()
        if msg["type"] in kinds:
            return msg


def _marked(texts_: list[str]) -> bool:
    return bool(texts_) and all(t.startswith(MARK) for t in texts_)


def test_two_players_at_one_table_read_their_own_language(sqlite_url: str, marked_fa: None) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, grace=30)) as base:
            code, anna_token, ben_token = await _started(base)
            anna = PlayerClient(base, code, anna_token, lang="fa-IR")
            ben = PlayerClient(base, code, ben_token, lang="en")
            await anna.connect()
            await ben.connect()
            await http(base, "POST", f"/api/tables/{code}/start", token=anna_token)
            for client in (anna, ben):
                while not client.events:
                    await client.recv()
            # The same events, each connection's texts in its own language.
            assert _marked([e["text"] for e in anna.events])
            assert not any(MARK in e["text"] for e in ben.events)
            assert [e["kind"] for e in anna.events] == [e["kind"] for e in ben.events]
            await anna.close()
            await ben.close()

    asyncio.run(go())


def test_lang_message_switches_a_connection_and_answers_a_whole_snapshot(
    sqlite_url: str, marked_fa: None
) -> None:
    async def go() -> None:
        async with running(config(sqlite_url, grace=30)) as base:
            code, anna_token, ben_token = await _started(base)
            anna = PlayerClient(base, code, anna_token, lang="en")
            await anna.connect()
            await http(base, "POST", f"/api/tables/{code}/start", token=anna_token)
            while not anna.events:
                await anna.recv()
            count = anna.event_count
            assert not any(MARK in e["text"] for e in anna.events)

            # An unknown language: a clear error, and nothing changes.
            for bad in ("xx", "", "fa;DROP", "x" * 300):
                await anna.send({"type": "lang", "lang": bad})
                err = await _next(anna, "error", "snapshot")
                assert err["type"] == "error" and err["code"] == "unsupported_language"
                assert "fa" in err["message"] and "ru" in err["message"]
            # A lang that is not even a string is malformed (the schema's type).
            for bad in (5, None, ["fa"]):
                await anna.send({"type": "lang", "lang": bad})
                err = await _next(anna, "error", "snapshot")
                assert err["type"] == "error" and err["code"] == "malformed"
            await anna.send({"type": "lang", "lang": "fa", "extra": 1})
            err = await _next(anna, "error", "snapshot")
            assert err["type"] == "error" and err["code"] == "malformed"
            await anna.send({"type": "sync", "since": count})
            snap = await _next(anna, "snapshot")
            assert all(e["n"] >= count for e in snap["events"])
            assert not any(MARK in e["text"] for e in snap["events"])

            # Persian: a snapshot with every event rendered again, and the legal actions.
            await anna.send({"type": "lang", "lang": "fa"})
            snap = await _next(anna, "snapshot")
            assert [e["n"] for e in snap["events"]] == list(range(snap["event_count"]))
            assert _marked([e["text"] for e in snap["events"]])
            assert _marked([entry["label"] for entry in snap["legal"]]) or not snap["legal"]
            assert snap["you"]["seat"] == 0

            # The next update comes in Persian too, then English again on request.
            ben = PlayerClient(base, code, ben_token)
            await ben.connect()
            while True:  # until Anna or Ben is to move (the bot may move first)
                assert anna.view is not None
                to_move = anna.view["to_move"]
                if to_move in (0, 1):
                    break
                await anna.recv()
            mover = (anna, ben)[to_move]
            while mover.version < anna.version or not mover.legal:
                await mover.recv()
            await mover.act(mover.legal[0]["action"])
            update = await _next(anna, "update")
            while not update["events"]:
                update = await _next(anna, "update")
            assert _marked([e["text"] for e in update["events"]])
            await anna.send({"type": "lang", "lang": "en"})
            snap = await _next(anna, "snapshot")
            assert snap["events"] and not any(MARK in e["text"] for e in snap["events"])
            await anna.close()
            await ben.close()

    asyncio.run(go())


def test_info_lists_the_languages_and_speaks_the_one_asked_for(
    sqlite_url: str, marked_fa: None
) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            _, info = await http(base, "GET", "/api/info?lang=fa")
            assert info["lang"] == "fa"
            assert set(info["languages"]) == {"en", "fa", "ru", "ko", "vi"}
            assert info["languages"]["fa"] == {"name": "فارسی", "dir": "rtl"}
            assert all(e["title"].startswith(MARK) for e in info["editions"])
            _, info = await http(base, "GET", "/api/info?lang=xx")
            assert info["lang"] == "en"
            assert not any(MARK in e["title"] for e in info["editions"])

    asyncio.run(go())


def test_the_server_offers_exactly_the_languages_the_catalogs_speak() -> None:
    from citadels.present import i18n
    from citadels.server import texts

    assert tuple(texts.LANGUAGES) == i18n.LANGUAGES
    assert {c for c, v in texts.LANGUAGES.items() if v["dir"] == "rtl"} == i18n.RTL_LANGUAGES
