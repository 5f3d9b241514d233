"""The published schemas (docs/schema/) are what the server's models generate, and the server
serves the same OpenAPI document."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import typing
from pathlib import Path

import jsonschema

from citadels.server import openapi, schema
from citadels.server.botpool import BOT_LEVELS
from citadels.server.client import http
from tests.server.conftest import config, running

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "schema"


def test_the_committed_schemas_are_what_the_models_generate() -> None:
    for name, doc in (("protocol.schema.json", schema.protocol_schema()),
                      ("openapi.json", openapi.document())):  # fmt: skip
        committed = json.loads((DOCS / name).read_text(encoding="utf-8"))
        assert committed == doc, f"docs/schema/{name} is stale: run tools/write_schemas.py"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "write_schemas.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_the_schemas_are_valid_and_name_every_message_and_level() -> None:
    protocol = schema.protocol_schema()
    jsonschema.Draft202012Validator.check_schema(protocol)
    kinds = {d["properties"]["type"]["const"] for d in protocol["$defs"].values()}
    assert kinds == set(schema.MESSAGES)
    assert set(typing.get_args(schema.BotLevel)) == set(BOT_LEVELS)
    doc = openapi.document()
    assert doc["openapi"].startswith("3.1")
    for name, model in (("CreateTable", schema.CreateTable), ("JoinTable", schema.JoinTable),
                        ("SeatBot", schema.SeatBot)):  # fmt: skip
        body = doc["components"]["schemas"][name]
        assert set(body["properties"]) == set(model.model_fields)
        assert body["additionalProperties"] is False
        for field in body["properties"].values():
            assert field[schema.ERROR_KEY] in ("bad_name", "bad_setup", "bad_level", "bad_request")
    change = doc["paths"]["/api/account/password"]["post"]
    assert change["security"] == [{"session": [], "csrf": []}]
    body = doc["components"]["schemas"]["ChangePassword"]
    assert set(body["properties"]) == {"current_password", "new_password"}
    assert body["required"] == ["current_password", "new_password"]
    assert body["additionalProperties"] is False


def test_the_documented_messages_are_valid_and_the_review_cases_are_not() -> None:
    validator = jsonschema.Draft202012Validator(schema.protocol_schema())
    good = [
        {"type": "hello", "protocol": 1, "token": "t", "since": 0, "lang": "en"},
        {"type": "hello"},
        {"type": "lang", "lang": "fa"},
        {"type": "act", "action": {"type": "pick", "character": "king"}, "version": 17, "id": "a1"},
        {"type": "chat", "text": "nice one"},
        {"type": "sync", "since": 40},
        {"type": "ping"},
    ]
    bad = [
        {"type": "ping", "extra": 1},
        {"type": "sync", "since": 0, "x": 1},
        {"type": "chat", "text": "hi", "to": 1},
        {"type": "hello", "protocol": 1, "x": 1},
        {"type": "hello", "protocol": True},
        {"type": "act", "action": {}, "version": 1, "id": 5},
        {"type": "act", "action": {}, "version": 1, "id": "x" * 65},
        {"type": "act", "action": {}, "version": "1"},
        {"type": "dance"},
    ]
    for msg in good:
        assert validator.is_valid(msg), msg
        assert schema.message(msg).type == msg["type"]
    for msg in bad:
        assert not validator.is_valid(msg), msg


def test_the_server_serves_its_openapi_document(sqlite_url: str) -> None:
    async def go() -> None:
        async with running(config(sqlite_url)) as base:
            status, doc = await http(base, "GET", "/api/openapi.json")
            assert status == 200
            assert doc == openapi.document()

    asyncio.run(go())
