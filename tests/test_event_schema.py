"""Every event the engine logs is known to the save loader's schema and to the renderer.

The loader (``serialize.EVENTS``) refuses a save holding a field it does not know, so an event
field added in the engine but not in the schema would make the game's own saves unloadable.
This reads every ``log_event`` call of the engine's source and checks its literal fields.
"""

from __future__ import annotations

import ast
from pathlib import Path

import citadels.engine
from citadels.engine.events import EVENT_KINDS
from citadels.engine.serialize import EVENTS

ENGINE = Path(citadels.engine.__file__).parent


def _log_event_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "log_event":
                calls.append((path.name, node.lineno, node))
    return calls


def test_the_loader_and_the_renderer_know_the_same_event_kinds() -> None:
    assert set(EVENT_KINDS) == set(EVENTS)


def test_every_logged_event_field_is_in_the_loaders_schema() -> None:
    calls = _log_event_calls()
    assert len(calls) > 50
    problems = []
    for name, line, call in calls:
        kind_arg = call.args[0]
        assert isinstance(kind_arg, ast.Constant), f"{name}:{line}: the event kind is not literal"
        kind = kind_arg.value
        if kind not in EVENTS:
            problems.append(f"{name}:{line}: kind {kind!r} is not in the schema")
            continue
        public, secret, _ = EVENTS[kind]
        for part, schema in zip(call.args[2:4], (public, secret or {}), strict=False):
            if not isinstance(part, ast.Dict):
                continue
            allowed = {k.rstrip("?") for k in schema}
            for key in part.keys:
                if isinstance(key, ast.Constant) and key.value not in allowed:
                    problems.append(f"{name}:{line}: {kind}.{key.value} is not in the schema")
    assert not problems, "\n".join(problems)
