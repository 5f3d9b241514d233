"""The words of a game review (:mod:`citadels.review`): labels, actions and key moments.

Every sentence goes through the translator, so a review reads in any of the game's languages;
actions are worded by :func:`~citadels.present.actions.describe_action` from the view the seat
had when it chose.
"""

from __future__ import annotations

from collections.abc import Sequence

from citadels.present.actions import describe_action
from citadels.present.i18n import NC_, translator
from citadels.review import SHARES, THRESHOLDS, Decision, Estimate, Review

#: The label words, marked for extraction (context ``review``).
LABEL_WORDS: dict[str, str] = {
    "good": NC_("review", "good"),
    "inaccuracy": NC_("review", "inaccuracy"),
    "mistake": NC_("review", "mistake"),
    "blunder": NC_("review", "blunder"),
}


def label_text(label: str, lang: str = "en") -> str:
    """One decision's label (``good``, ``inaccuracy``, ``mistake``, ``blunder``) in ``lang``."""
    return translator(lang).pgettext("review", LABEL_WORDS[label])


def chance_text(chance: float, lang: str = "en") -> str:
    """An estimated win chance as a whole percentage (``34%``; ``۳۴٪`` in Persian)."""
    return translator(lang).percent(chance, 0)


def loss_text(loss: float, lang: str = "en") -> str:
    """A loss in win chance in percentage points, one decimal (``−3.5``; ``0`` for none)."""
    tr = translator(lang)
    points = round(loss * 100, 1)
    return tr.decimal(0) if points == 0 else "−" + tr.decimal(points, 1)


def action_text(
    decision: Decision, estimate: Estimate, lang: str = "en", names: Sequence[str] | None = None
) -> str:
    """An action compared at ``decision``, worded for the seat that chose there."""
    return describe_action(estimate.action, decision.view, lang, names)


def moment_text(decision: Decision, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """A key moment in words: ``Round 5: “Build the Palace (6 gold)” would have kept 34%
    instead of 21% after “Take 2 gold”.``"""
    tr = translator(lang)
    best = decision.best[0]
    return tr.gettext(
        "Round {round}: “{better}” would have kept {kept} instead of {left} after “{chosen}”.",
        round=decision.round,
        better=action_text(decision, best, lang, names),
        kept=chance_text(best.chance, lang),
        left=chance_text(decision.chosen.chance, lang),
        chosen=action_text(decision, decision.chosen, lang, names),
    )


def key_moment_lines(
    review: Review, lang: str = "en", names: Sequence[str] | None = None
) -> list[str]:
    """The review's three key moments in words, in game order; one line saying there was no
    mistake when no decision reached an inaccuracy's thresholds."""
    moments = review.key_moments()
    if not moments:
        tr = translator(lang)
        return [
            tr.gettext(
                "No decision lost {threshold} or more of the estimated win chance, nor "
                "{share} of the chance the best choice kept.",
                threshold=chance_text(THRESHOLDS["inaccuracy"], lang),
                share=chance_text(SHARES["inaccuracy"], lang),
            )
        ]
    return [moment_text(d, lang, names) for d in moments]
