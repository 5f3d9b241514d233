"""The HTTP part of the protocol as an OpenAPI 3.1 document, generated from the body schemas
of :mod:`citadels.server.schema` (served at ``GET /api/openapi.json``, committed as
``docs/schema/openapi.json``; docs/protocol.md says the rest in words)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from citadels.server import schema
from citadels.server.messages import PROTOCOL

_REF = "#/components/schemas/{model}"


def _param(name: str, where: str, kind: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": where,
        "required": where == "path",
        "schema": kind,
        "description": text,
    }


_LANG = _param("lang", "query", {"type": "string"}, "A language tag (unknown: English).")
_CODE = _param("code", "path", {"type": "string"}, "The table's code (case-insensitive).")
_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]
_SESSION: list[dict[str, list[str]]] = [{"session": [], "csrf": []}]


def _answer(ok: int, what: str) -> dict[str, Any]:
    """Responses: ``ok`` with a JSON object, and any 4xx with the error body."""
    error = {"application/json": {"schema": {"$ref": _REF.format(model="Error")}}}
    return {
        str(ok): {
            "description": what,
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "4XX": {"description": "An error (docs/protocol.md, Error codes).", "content": error},
    }


def _op(
    summary: str,
    ok: int = 200,
    *,
    params: list[dict[str, Any]] | None = None,
    body: str | None = None,
    auth: bool = False,
    session: bool = False,
) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": _answer(ok, summary)}
    if session:
        op["security"] = _SESSION
    if params:
        op["parameters"] = params
    if body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": _REF.format(model=body)}}},
        }
    if auth:
        op["security"] = _AUTH
    return op


def document() -> dict[str, Any]:
    """The OpenAPI document of the HTTP API."""
    models: list[type[BaseModel]] = [
        schema.CreateTable, schema.JoinTable, schema.SeatBot, schema.ReviewQuery, schema.Error,
        schema.SignUp, schema.SignIn, schema.Claim, schema.ChangePassword,
        schema.LeaderboardQuery, schema.SetEmail,
    ]  # fmt: skip
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=_REF)
    seat = _param("seat", "path", {"type": "integer", "minimum": 0}, "A seat, from 0.")
    replay_params = [
        _CODE,
        _param("from", "query", {"type": "integer", "minimum": 0}, "The first version."),
        _param(
            "count",
            "query",
            {"type": "integer", "minimum": 1, "maximum": 500},
            "Frames in the page (at most 500).",
        ),
        _param("seat", "query", {"type": "integer", "minimum": 0}, "Whose point of view."),
        _LANG,
    ]
    review_params = [
        _CODE,
        _param("seat", "query", {"type": "integer", "minimum": 0}, "The reviewed seat."),
        _LANG,
    ]
    status = _param(
        "status", "query", {"enum": ["open", "playing", "finished"]}, "Which tables to list."
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Citadels server: HTTP API",
            "version": f"protocol {PROTOCOL}",
            "description": (
                "Tables and the lobby (docs/protocol.md). Bodies are JSON objects; an "
                "unknown field or a body that is not an object answers 400 malformed, a bad "
                f"field the code in its `{schema.ERROR_KEY}`."
            ),
        },
        "paths": {
            "/healthz": {"get": _op("Health check")},
            "/api/openapi.json": {"get": _op("This document")},
            "/api/info": {"get": _op("What the server offers", params=[_LANG])},
            "/api/cards/{edition}": {
                "get": _op(
                    "The cards of an edition",
                    params=[_param("edition", "path", {"type": "string"}, "An edition id."), _LANG],
                )
            },
            "/api/tables": {
                "get": _op("The lobby", params=[status]),
                "post": _op("Create a table", 201, body="CreateTable"),
            },
            "/api/tables/{code}": {"get": _op("The table object", params=[_CODE])},
            "/api/tables/{code}/join": {
                "post": _op("Take a seat", params=[_CODE], body="JoinTable")
            },
            "/api/tables/{code}/start": {
                "post": _op("The host starts the game", params=[_CODE], auth=True)
            },
            "/api/tables/{code}/seats/{seat}/bot": {
                "post": _op("Give a seat to a bot", params=[_CODE, seat], body="SeatBot", auth=True)
            },
            "/api/tables/{code}/replay": {
                "get": _op("A finished game, step by step", params=replay_params)
            },
            "/api/tables/{code}/review": {
                "get": {
                    **_op(
                        "A seat's game review (the query: ReviewQuery)",
                        params=review_params,
                        auth=True,
                    ),
                    "description": (
                        "Once the game has ended, anyone may review any seat, with or without "
                        "a token; while it is played, only the seat's own player, where hints "
                        "are allowed. A finished game's review is computed once and stored. "
                        "See docs/review.md."
                    ),
                }
            },
            "/api/accounts": {
                "post": _op("Create an account and sign in (docs/accounts.md)", 201, body="SignUp")
            },
            "/api/accounts/{name}": {
                "get": _op(
                    "An account's profile",
                    params=[_param("name", "path", {"type": "string"}, "The account's name.")],
                )
            },
            "/api/session": {
                "get": _op("The signed-in account and its CSRF token, or nulls"),
                "post": _op("Sign in", body="SignIn"),
                "delete": _op("Sign out", session=True),
            },
            "/api/account/claim": {
                "post": _op("Give guest seats to the account", body="Claim", session=True)
            },
            "/api/account/password": {
                "post": {
                    **_op("Change the account's password", body="ChangePassword", session=True),
                    "description": (
                        "The current password is checked as a sign-in is, and throttled with "
                        "it; every other session of the account ends, this one stays. "
                        'Answers {"changed": true, "signed_out": n}. See docs/accounts.md.'
                    ),
                }
            },
            "/api/account/tables": {
                "get": _op("My tables: where the account sits, what waits first", session=True)
            },
            "/api/account/email": {
                "get": _op('The account\'s address for "your turn" e-mails', session=True),
                "post": _op(
                    'Set or remove the account\'s address for "your turn" e-mails',
                    body="SetEmail",
                    session=True,
                ),
            },
            "/api/leaderboard": {
                "get": _op(
                    "An edition's leaderboard (the query: LeaderboardQuery)",
                    params=[_param("edition", "query", {"type": "string"}, "An edition id.")],
                )
            },
        },
        "components": {
            "schemas": defs["$defs"],
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat's token, as join or create gave it.",
                },
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "citadels_session",
                    "description": "A signed-in account's session (docs/accounts.md).",
                },
                "csrf": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-CSRF-Token",
                    "description": "The session's CSRF token (GET /api/session), with an "
                    "Origin header of the server's own host, on every state-changing request "
                    "the session authorises.",
                },
            },
        },
    }
