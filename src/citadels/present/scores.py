"""The final score table: one row per seat with the C-15 breakdown and the tie-break."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citadels.engine.scoring import Outcome
from citadels.present.i18n import N_, translator
from citadels.present.labels import seat_label

# What each tie-break criterion means, in words (``SeatResult.tiebreak``).
_TIEBREAKS: dict[str, str] = {
    "district_costs": N_("tie broken by district costs"),
    "gold": N_("tie broken by gold"),
    "character_rank": N_("tie broken by the rank of the last round's character"),
    "shared": N_("tie not broken: the rank is shared"),
}


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One seat's row of the score table, words already made.

    ``city`` … ``bonus`` are the parts of C-15 (a–e); ``tiebreak`` says how a tie with
    this seat's score was broken (``""`` if no other seat had the same score)."""

    seat: int
    name: str
    score: int
    city: int
    colours: int
    first: int
    complete: int
    bonus: int
    rank: int
    winner: bool
    tiebreak: str
    gold: int = 0
    """Gold in hand at the end (a tie-break in `classic` and `2016`)."""


def score_headers(lang: str = "en") -> tuple[str, ...]:
    """The column titles matching :class:`ScoreLine`'s fields after ``seat``."""
    tr = translator(lang)
    return (
        tr.gettext("Player"),
        tr.gettext("Score"),
        tr.gettext("City"),
        tr.gettext("Colours"),
        tr.gettext("First"),
        tr.gettext("Complete"),
        tr.gettext("Bonus"),
        # The finishing place, not a character's rank (that is the plain "Rank").
        tr.pgettext("score table", "Rank"),
        tr.gettext("Winner"),
        tr.gettext("Tie-break"),
        tr.gettext("Gold"),
    )


def tiebreak_text(tiebreak: str | None, lang: str = "en") -> str:
    """How a tie was broken, in words (``""`` when there was no tie)."""
    if not tiebreak:
        return ""
    tr = translator(lang)
    msgid = _TIEBREAKS.get(tiebreak)
    return tr.gettext(msgid) if msgid else tiebreak.replace("_", " ")


def score_lines(
    result: Mapping[str, Any] | Outcome,
    lang: str = "en",
    names: Sequence[str] | None = None,
) -> list[ScoreLine]:
    """The rows of the final score table, best rank first (then by seat), from
    ``Game.result()`` or its JSON (``view["result"]``)."""
    data = result.to_json() if isinstance(result, Outcome) else result
    rows = []
    for r in sorted(data["seats"], key=lambda r: (r["rank"], r["seat"])):
        b = r["breakdown"]
        rows.append(
            ScoreLine(
                seat=r["seat"],
                name=seat_label(r["seat"], names, lang),
                score=r["score"],
                city=b["districts"],
                colours=b["colours"],
                first=b["first_complete"],
                complete=b["complete"],
                bonus=b["bonus"],
                rank=r["rank"],
                winner=r["rank"] == 1,
                tiebreak=tiebreak_text(r.get("tiebreak"), lang),
                gold=int(r.get("gold", 0)),
            )
        )
    return rows
