"""The shape of everything a client sends: one strict schema per WebSocket message and per
HTTP body (docs/protocol.md), and the one JSON reader both go through.

Every model forbids fields it does not name and takes no value of another JSON type (a
``true`` is no integer, ``"3"`` no number), so a field a handler does not know cannot slip
through, and a new field is accepted only once it is written here. The protocol's JSON Schema
(``docs/schema/protocol.schema.json``) and the HTTP part's OpenAPI document
(``docs/schema/openapi.json``, :mod:`citadels.server.openapi`) are generated from these models.

The schemas check shapes and fixed ranges; what depends on a table (a seat's range, an
edition's options, a token) is checked by the handlers, with the codes the protocol names.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from citadels.server.errors import ServerError

#: The deepest nesting of arrays and objects a message or body may have.
DEPTH_MAX = 32

#: The key of each field's error code in the JSON Schema (HTTP bodies).
ERROR_KEY = "x-error-code"

#: The bot levels a table offers (``botpool.BOT_LEVELS``; a test checks they agree).
BotLevel = Literal["random", "easy", "medium", "hard"]

#: A message's ``id``: echoed back as ``ack`` and as an error's ``ref``.
Ref = Annotated[str, Field(max_length=64, description="Echoed back as `ack` and `ref`.")]
#: An event count the client already holds.
Since = Annotated[int, Field(ge=0, description="The event count the client already has.")]


def _code(code: str, **kw: Any) -> Any:
    """A field whose bad value answers ``code`` (over HTTP)."""
    return Field(json_schema_extra={ERROR_KEY: code}, **kw)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- WebSocket: client to server ---------------------------------------------------------


class Hello(_Strict):
    """Authenticate (the first message of a connection)."""

    type: Literal["hello"]
    # An integer from 1 to 1, not Literal[1]: a Literal lets true and 1.0 through.
    protocol: int = Field(1, ge=1, le=1, description="The protocol the client speaks: 1.")
    token: str | None = Field(None, description="A seat's token; null or absent: spectate.")
    since: Since = 0
    lang: str = Field("en", min_length=1, max_length=35, description="A language tag.")
    id: Ref | None = None


class Lang(_Strict):
    """From now on, this connection's texts in this language."""

    type: Literal["lang"]
    lang: str = Field(
        description="A language tag; one the server does not speak (even an "
        "empty one) answers unsupported_language."
    )
    id: Ref | None = None


class Act(_Strict):
    """Play an action on the given version."""

    type: Literal["act"]
    action: dict[str, Any] = Field(description="An action's JSON form (docs/api.md#actions).")
    version: int
    id: Ref | None = None


class Chat(_Strict):
    """Say something at the table (1 to 300 characters once cleaned: else ``bad_chat``)."""

    type: Literal["chat"]
    text: str
    id: Ref | None = None


class Sync(_Strict):
    """Ask for a fresh snapshot."""

    type: Literal["sync"]
    since: Since = 0
    id: Ref | None = None


class Ping(_Strict):
    """Keep-alive: answered by ``pong``."""

    type: Literal["ping"]
    id: Ref | None = None


class Hint(_Strict):
    """Ask for the best few actions now, with their estimated win chances (the seat to move,
    where hints are allowed; answered by ``hint``, or an error, after the search)."""

    type: Literal["hint"]
    version: int = Field(description="The version the hint is asked on.")
    id: Ref | None = None


#: Every message a client may send, by its ``type``.
MESSAGES: dict[str, type[_Strict]] = {
    "hello": Hello,
    "lang": Lang,
    "act": Act,
    "chat": Chat,
    "sync": Sync,
    "ping": Ping,
    "hint": Hint,
}

AnyMessage = Hello | Lang | Act | Chat | Sync | Ping | Hint
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]


# --- HTTP bodies ---------------------------------------------------------------------------


class Body(_Strict):
    #: The code of a body that is not an object, too deep or with an unknown field.
    shape_code: ClassVar[str] = "malformed"


class CreateTable(Body):
    """``POST /api/tables``: create a table."""

    name: str = _code("bad_name", description="The creator's name, 1-24 characters.")
    edition: str = _code("bad_setup", default="classic")
    players: int = _code("bad_setup", default=4, ge=2, le=8)
    preset: str | None = _code("bad_setup", default=None)
    characters: list[str] | None = _code("bad_setup", default=None)
    districts: list[str] | None = _code("bad_setup", default=None)
    complete_at: int | None = _code("bad_setup", default=None)
    bots: dict[str, BotLevel] | None = _code(
        "bad_level", default=None, description='Seats ("1" to "7") given to bots.'
    )
    # Its range (GET /api/info, timer) is the lobby's to check.
    timer: int | None = _code(
        "bad_request", default=None, description="Seconds per decision (10 to 600), or null."
    )
    # Its range (GET /api/info, pace) is the lobby's to check.
    # Its range (GET /api/info, turn_timer) is the lobby's to check.
    turn_timer: int | None = _code(
        "bad_request",
        default=None,
        description="A turn-based table's seconds per turn (3600 to 1209600: 1 hour to 14 "
        "days), or null (a live table). Not with timer.",
    )
    on_timeout: Literal["stand_in", "skip"] | None = _code(
        "bad_request",
        default=None,
        description="What happens when a turn-based table's turn runs out: a stand-in bot "
        'plays it ("stand_in", the default) or it is skipped ("skip"). Only with turn_timer.',
    )
    pace: int | None = _code(
        "bad_request",
        default=None,
        description="Milliseconds between two moves a browser shows (0 to 10000), or null.",
    )
    public: bool = _code("bad_request", default=True)
    spectator_chat: bool = _code("bad_request", default=False)
    hints: bool = _code(
        "bad_request",
        default=False,
        description="Allow hints at a table with friends (a solo game always has them).",
    )
    seed: int | None = _code("bad_setup", default=None, ge=0, lt=2**62)


class JoinTable(Body):
    """``POST /api/tables/{code}/join``: take a seat."""

    name: str = _code("bad_name")
    seat: int | None = _code("bad_request", default=None, ge=0)


class SeatBot(Body):
    """``POST /api/tables/{code}/seats/{seat}/bot``: a bot at a seat, or ``null``: empty."""

    level: BotLevel | None = _code("bad_level")


class ReviewQuery(Body):
    """``GET /api/tables/{code}/review``'s query: whose review, in which language."""

    seat: int = _code("bad_request", ge=0, description="The reviewed seat, from 0.")
    lang: str = _code("bad_request", default="en", max_length=35, description="A language tag.")


class SeatClaim(_Strict):
    """A guest's seat: its table's code and the seat's token (as the browser keeps them)."""

    code: str = Field(max_length=64, description="The table's code.")
    token: str = Field(max_length=200, description="The seat's token.")


#: A list of guest seats to claim (at most 100).
Claims = Annotated[list[SeatClaim], Field(max_length=100)]


class SignUp(Body):
    """``POST /api/accounts``: create an account (and sign in)."""

    name: str = _code(
        "bad_account_name", max_length=200,
        description="3 to 24 letters, digits, '_', '-' or '.'; unique, whatever the case.",
    )  # fmt: skip
    password: str = _code("bad_password", max_length=1000, description="8 to 200 characters.")
    seats: Claims | None = _code(
        "bad_request", default=None, description="Guest seats to give the new account."
    )


class SignIn(Body):
    """``POST /api/session``: sign in."""

    name: str = _code("bad_account_name", max_length=200)
    password: str = _code("bad_password", max_length=1000)
    seats: Claims | None = _code(
        "bad_request", default=None, description="Guest seats to give the account."
    )


class ChangePassword(Body):
    """``POST /api/account/password``: the signed-in player changes their own password."""

    current_password: str = _code(
        "bad_password", max_length=1000, description="The account's password now."
    )
    new_password: str = _code(
        "bad_password", max_length=1000,
        description="8 to 200 characters; not one character repeated, nor the account's name, "
        "nor the current password.",
    )  # fmt: skip


class Claim(Body):
    """``POST /api/account/claim``: give guest seats to the signed-in account."""

    seats: Claims = _code("bad_request")


class SetEmail(Body):
    """``POST /api/account/email``: the address "your turn" e-mails go to, and their
    language (docs/accounts.md)."""

    email: str | None = _code(
        "bad_email",
        max_length=1000,
        description="An address such as name@example.org (at most 254 characters); null "
        "or empty: no e-mails.",
    )
    lang: str = _code(
        "unsupported_language",
        default="en",
        max_length=35,
        description="The language of the e-mails (one of GET /api/info's languages).",
    )


class LeaderboardQuery(Body):
    """``GET /api/leaderboard``'s query."""

    edition: str = _code("bad_request", default="classic", max_length=20)


class ErrorDetail(_Strict):
    """What went wrong: a stable code (docs/protocol.md) and a message for developers."""

    code: str
    message: str


class Error(_Strict):
    """The body of every HTTP error."""

    error: ErrorDetail


# --- reading -------------------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> bool:
    """Whether arrays and objects nest deeper than :data:`DEPTH_MAX` in the JSON ``text``
    (strings skipped). Text that opens no more brackets than that cannot (every message of
    the protocol), and is not scanned."""
    if text.count("[") + text.count("{") <= DEPTH_MAX:
        return False
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest > DEPTH_MAX


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: The decoder of every message (``json.loads`` with an argument would build one per call).
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _text_ok(value: Any) -> bool:
    """Every string in ``value`` (keys too) is text that UTF-8 can hold (no lone
    surrogate from a ``\\ud800`` escape)."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_text_ok(v) for v in value)
    if isinstance(value, dict):
        return all(_text_ok(k) and _text_ok(v) for k, v in value.items())
    return True


def load_json(raw: str | bytes) -> Any:
    """The JSON value of ``raw``, or ``ServerError("malformed")``: not JSON (``NaN`` and
    ``Infinity`` are not), not UTF-8 text, or nested deeper than :data:`DEPTH_MAX`. The depth
    is checked before parsing, so no input reaches the parser's recursion limit."""
    try:
        text = raw.decode() if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ServerError("malformed", "the body is not UTF-8 text") from None
    if _too_deep(text):
        raise ServerError("malformed", f"JSON nested deeper than {DEPTH_MAX} levels")
    try:
        value = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise ServerError("malformed", "not JSON") from None
    if not _text_ok(value):
        raise ServerError("malformed", "a string holds a lone surrogate: not text")
    return value


def _where(err: Any) -> str:
    return ".".join(str(p) for p in err["loc"]) or "body"


def _problem(err: Any) -> str:
    """One validation error in words: the field, what was wrong and (briefly) what came."""
    if err["type"] == "extra_forbidden":
        return f"unknown field {_where(err)!r}"
    got = json.dumps(err.get("input"), ensure_ascii=False, default=str)
    if len(got) > 40:
        got = got[:37] + "..."
    return f"{_where(err)}: {err['msg'].lower()} (got {got})"


def message(msg: dict[str, Any]) -> AnyMessage:
    """A client's WebSocket message (a JSON object with a string ``type``) as its model, or
    ``ServerError("malformed")`` saying what is wrong."""
    kind = msg.get("type")
    model = MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ServerError("malformed", f"unknown message type {str(kind)[:32]!r}")
    try:
        checked: AnyMessage = model.model_validate(msg)  # type: ignore[assignment]
        return checked
    except ValidationError as exc:
        raise ServerError("malformed", f"{kind}: {_problem(exc.errors()[0])}") from None


def body(value: Any, model: type[Body]) -> dict[str, Any]:
    """An HTTP body checked against ``model``: the fields it gave (defaults left out), or
    ``ServerError``: ``malformed`` when it is not an object or names an unknown field, else
    the code of the first bad field (``bad_name``, ``bad_setup``, ``bad_level``,
    ``bad_request``)."""
    if not isinstance(value, dict):
        raise ServerError(model.shape_code, "the body must be a JSON object")
    try:
        checked = model.model_validate(value)
    except ValidationError as exc:
        raise _refusal(model, exc) from None
    return checked.model_dump(exclude_unset=True)


def _refusal(model: type[Body], exc: ValidationError) -> ServerError:
    """The documented error for ``exc``: an unknown field is the model's shape code, else the
    first bad field's own code."""
    errors = exc.errors()
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    if unknown:
        return ServerError(model.shape_code, "; ".join(map(_problem, unknown)))
    first = errors[0]
    extra = model.model_fields[str(first["loc"][0])].json_schema_extra
    code = extra.get(ERROR_KEY, "bad_request") if isinstance(extra, dict) else "bad_request"
    return ServerError(str(code), _problem(first))


def query(params: dict[str, str], model: type[Body]) -> dict[str, Any]:
    """An HTTP query checked against ``model``: its text values read as the fields' types
    (``"3"`` as an integer), an unknown parameter ``malformed``, a bad one its field's code."""
    try:
        checked = model.model_validate(params, strict=False)
    except ValidationError as exc:
        raise _refusal(model, exc) from None
    return checked.model_dump()


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every message a client sends over the WebSocket."""
    schema = TypeAdapter(ClientMessage).json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "protocol.schema.json",
        "title": "Citadels protocol 1: client to server WebSocket messages",
        "description": (
            "One JSON object per text frame, at most 8192 bytes, arrays and objects nested at "
            f"most {DEPTH_MAX} deep. See docs/protocol.md."
        ),
        **schema,
    }
