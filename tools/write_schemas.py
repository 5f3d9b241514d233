"""Write the protocol's JSON Schema and the HTTP API's OpenAPI document, generated from the
server's models (src/citadels/server/schema.py), into docs/schema/.

    .venv/bin/python tools/write_schemas.py           # write them
    .venv/bin/python tools/write_schemas.py --check   # exit 1 if a committed one is stale

tests/server/test_schemas.py checks that the committed files are what the models generate.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from citadels.server import openapi, schema

OUT = Path(__file__).resolve().parent.parent / "docs" / "schema"


def documents() -> dict[str, dict[str, Any]]:
    """Each published file's name and content."""
    return {
        "protocol.schema.json": schema.protocol_schema(),
        "openapi.json": openapi.document(),
    }


def text(doc: dict[str, Any]) -> str:
    """A document as it is committed: indented, keys in the models' order, one final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, doc in documents().items():
        path = OUT / name
        want = text(doc)
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != want:
                stale.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(want, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("stale (run tools/write_schemas.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
