"""Cleaning what people type: names and chat are plain text, trimmed, sized and safe."""

from __future__ import annotations

import unicodedata

NAME_MAX = 24
CHAT_MAX = 300

# Joiners that scripts need (Persian's zero-width non-joiner among them) are kept; every other
# control or format character (bidi overrides included) is removed.
_KEEP_FORMAT = {"\u200c", "\u200d"}


def clean_text(text: str, limit: int, *, newlines: bool = False) -> str:
    """``text`` in NFC, without control and format characters, spaces collapsed, trimmed;
    raises ``ValueError`` if nothing is left or it is longer than ``limit``."""
    text = unicodedata.normalize("NFC", text)
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if (ch == "\n" and newlines) or ch in _KEEP_FORMAT:
            out.append(ch)
        elif cat in ("Zl", "Zp") or ch in "\t\r\n":
            out.append(" ")
        elif cat.startswith("C"):
            continue
        else:
            out.append(ch)
    lines = [" ".join(line.split()) for line in "".join(out).split("\n")]
    cleaned = "\n".join(lines).strip()
    if not cleaned:
        raise ValueError("it is empty")
    if len(cleaned) > limit:
        raise ValueError(f"it is longer than {limit} characters")
    return cleaned


def clean_name(name: object) -> str:
    """A player's name, or ``ValueError`` saying why not."""
    if not isinstance(name, str):
        raise ValueError("a name must be a string")
    return clean_text(name, NAME_MAX)


def clean_chat(text: object) -> str:
    """A chat message, or ``ValueError`` saying why not."""
    if not isinstance(text, str):
        raise ValueError("a chat message must be a string")
    return clean_text(text, CHAT_MAX, newlines=True)
