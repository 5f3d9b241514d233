"""The one translation function every user-facing string goes through.

Catalogs are gettext ``.mo`` files of the domain ``citadels`` under ``locale/<lang>/LC_MESSAGES``
beside this module; a language without a catalog falls back to English, the msgids
themselves. Placeholders are ``{name}`` fields filled after translation, so a translator may
move them. Literal msgids in ``tr.gettext("…")``, ``tr.ngettext("…", "…", n)`` (also through
the short aliases ``g``/``n`` of the renderers), ``N_("…")`` and ``NP_("…", "…")`` (markers for
texts kept in tables and translated when shown) are what Babel extracts, as ``babel.cfg`` says.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any

#: The gettext domain of every catalog.
DOMAIN = "citadels"
#: Where the compiled catalogs live: ``LOCALE_DIR/<lang>/LC_MESSAGES/citadels.mo``.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(message: str) -> str:
    """Mark a literal for extraction without translating it now (gettext's ``gettext_noop``)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction without translating it now."""
    return singular, plural


class Translator:
    """Translates msgids for one language and fills their ``{name}`` placeholders."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def gettext(self, message: str, **fields: Any) -> str:
        """``message`` in this language, with ``{name}`` placeholders filled from ``fields``."""
        text = self._catalog.gettext(message)
        return text.format(**fields) if fields else text

    def ngettext(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """The singular or plural form for ``n`` (as this language counts), filled in;
        ``{n}`` is always available."""
        text = self._catalog.ngettext(singular, plural, n)
        return text.format(n=n, **fields)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


#: Translators made so far, by language (a catalog is read once).
TRANSLATORS: dict[str, Translator] = {}


def translator(lang: str = "en") -> Translator:
    """The translator for ``lang`` (``"en"``, ``"fa"``, ``"ru"``, …); English when no catalog
    exists for it."""
    found = TRANSLATORS.get(lang)
    if found is None:
        if not isinstance(lang, str) or not lang:
            raise ValueError(f"a language is a code such as 'en' or 'fa', not {lang!r}")
        catalog = gettext.translation(
            DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True
        )
        found = TRANSLATORS[lang] = Translator(lang, catalog)
    return found
