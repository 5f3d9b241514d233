"""A table's secrets: its invite code (who knows it finds the table) and its seats' tokens
(who holds one plays that seat). The database keeps only a token's hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from citadels.server.storage import TableRow

#: The characters of a table code: no 0/O, 1/I/L, so that a code read aloud or copied by
#: hand comes out right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters of a code, shown in groups of ``CODE_GROUP`` joined by dashes
#: (``K7QM-2XPA-9HJC-R4TW``): 31^16, about 7.3 * 10^23 codes (79 bits). docs/deploy.md says
#: how long guessing one takes at the allowed rate.
CODE_LENGTH = 16
CODE_GROUP = 4
#: The length of the codes given before (still valid for the tables that have them).
OLD_CODE_LENGTH = 6


def new_code() -> str:
    """A fresh random table code, grouped."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(chars[i : i + CODE_GROUP] for i in range(0, CODE_LENGTH, CODE_GROUP))


def normal_code(code: str) -> str | None:
    """A code as the database holds it, from what a person typed or pasted (any case, with or
    without the dashes, spaces around), or ``None`` when it has not the form of a code."""
    chars = "".join(ch for ch in code.upper() if ch not in "- ")
    if not all(ch in CODE_ALPHABET for ch in chars):
        return None
    if len(chars) == CODE_LENGTH:
        return "-".join(chars[i : i + CODE_GROUP] for i in range(0, CODE_LENGTH, CODE_GROUP))
    if len(chars) == OLD_CODE_LENGTH:
        return chars
    return None


def valid_code(code: str) -> bool:
    """Whether ``code`` has the form of a table code."""
    return normal_code(code) is not None


def new_token() -> str:
    """A fresh seat token."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(row: TableRow, token: object) -> int | None:
    """The seat whose token this is, or ``None``."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return None
    digest = hash_token(token)
    for s in row.seats:
        if s.token_hash and hmac.compare_digest(s.token_hash, digest):
            return s.seat
    return None
