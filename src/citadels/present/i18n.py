"""The one translation function every user-facing string goes through.

Catalogs are gettext catalogs of the domain ``citadels`` under ``locale/<lang>/LC_MESSAGES``
beside this module: the ``.po`` file is the source (kept in git), the ``.mo`` file its compiled
form (``make compile``, a build output). A translator reads the ``.mo`` when it is at least as
new as the ``.po``, and otherwise compiles the ``.po`` in memory with Babel, so a fresh clone, an
editable install and an installed wheel all speak every language. A language without a catalog
falls back to English, the msgids themselves.

Placeholders are ``{name}`` fields filled after translation, so a translator may move them.
Literal msgids in ``tr.gettext("…")``, ``tr.ngettext("…", "…", n)`` (also through the short
aliases ``g``/``n`` of the renderers), ``N_("…")`` and ``NP_("…", "…")`` (markers for texts kept
in tables and translated when shown) are what Babel extracts, as ``babel.cfg`` says.

Contexts: ``tr.pgettext(context, "…")`` translates a msgid in a context (gettext's ``msgctxt``),
for English that means two things (``pgettext("score table", "Rank")`` is the finishing place,
plain ``"Rank"`` a character's rank) and for the words an edition's own rulebook has (the
context is the edition id: ``pgettext("dezh", "Thief")``). A context the catalog has no entry
for falls back to the plain msgid's translation, so an edition's context only overrides what
differs. ``NC_(context, "…")`` marks such a msgid kept in a table.

Numbers: in Persian the integers filled into a sentence are written in Persian digits
(``۱۲``), as a Persian reader expects; every other language keeps ASCII digits. Names filled
into a right-to-left sentence are wrapped in Unicode isolates (FSI … PDI), so a Latin name
such as ``Ann (medium)`` keeps its own direction inside Persian text.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The gettext domain of every catalog.
DOMAIN = "citadels"
#: Where the catalogs live: ``LOCALE_DIR/<lang>/LC_MESSAGES/citadels.po`` (and ``.mo``).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The languages of the interface, English (the msgids) first.
LANGUAGES: tuple[str, ...] = ("en", "fa", "ru", "ko", "vi")
#: Each language's name in itself (shown when switching; never translated).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fa": "فارسی",
    "ru": "Русский",
    "ko": "한국어",
    "vi": "Tiếng Việt",
}
#: The languages written right to left.
RTL_LANGUAGES = frozenset({"fa"})
#: The digits each language writes numbers with (absent: ASCII digits).
DIGITS: dict[str, str] = {"fa": "۰۱۲۳۴۵۶۷۸۹"}

_FSI = "\u2068"  # FIRST STRONG ISOLATE
_PDI = "\u2069"  # POP DIRECTIONAL ISOLATE
#: The bidi controls a text may carry (the marks, the isolates around names, the embeddings):
#: what a typed command and the terminal leave out.
BIDI_CONTROLS = "\u200e\u200f\u2066\u2067\u2068\u2069\u202a\u202b\u202c"
_NO_BIDI = dict.fromkeys(map(ord, BIDI_CONTROLS))


def without_bidi_controls(text: str) -> str:
    """``text`` with every bidi control (:data:`BIDI_CONTROLS`) removed."""
    return text.translate(_NO_BIDI)


def N_(message: str) -> str:
    """Mark a literal for extraction without translating it now (gettext's ``gettext_noop``)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction without translating it now."""
    return singular, plural


def NC_(context: str, message: str) -> str:
    """Mark a literal for extraction in ``context`` (a ``msgctxt``) without translating it now;
    it is translated with ``tr.pgettext(context, message)``."""
    del context
    return message


def localize_digits(text: str, lang: str) -> str:
    """``text`` with its ASCII digits written as ``lang`` writes them (Persian: ``۰``–``۹``)."""
    digits = DIGITS.get(lang)
    if digits is None:
        return text
    return text.translate(str.maketrans("0123456789", digits))


# Korean particles written for either ending, ``을(를)``: the right one is chosen from the
# sound the noun before them ends with, once the placeholders are filled (a final consonant,
# batchim, takes 을/이/은/과/으로; ㄹ takes 로).
_KO_PARTICLE = re.compile(r"을\(를\)|이\(가\)|은\(는\)|와\(과\)|\(으\)로")
_KO_FORMS = {
    "을(를)": ("을", "를"),
    "이(가)": ("이", "가"),
    "은(는)": ("은", "는"),
    "와(과)": ("과", "와"),
}
#: The final consonant (jongseong index, 0 for none) of each digit read in Sino-Korean:
#: 영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구.
_KO_DIGIT_FINALS = (21, 8, 0, 16, 0, 0, 1, 8, 8, 0)
#: The final consonant of a number ending in zeros, by their count: 십, 백, 천, then 만 (4–7
#: zeros), 억 (8–11), 조 (12 and more).
_KO_ZEROS_FINALS = (None, 17, 1, 4, 4, 4, 4, 4, 1, 1, 1, 1, 0)
#: Closing quotes a particle may follow; it agrees with the word inside them.
_KO_CLOSING_QUOTES = "\"'»”’」』〉》"
_KO_BRACKETS = {")": "(", "]": "[", "）": "（"}


def _korean_final(text: str) -> int | None:
    """The final consonant the end of ``text`` is read with (``0``: a vowel), or ``None``
    when it cannot be known (Latin letters, symbols). A parenthesis or bracket at the end is an
    aside the particle skips (``봇 2 (보통)`` ends in «2»); closing quotes are skipped too;
    digits are read as a Sino-Korean number (``30`` is 삼십)."""
    end = len(text)
    while end:
        last = text[end - 1]
        if last in _KO_CLOSING_QUOTES:
            end -= 1
        elif last in _KO_BRACKETS:
            opening = text.rfind(_KO_BRACKETS[last], 0, end - 1)
            if opening <= 0:
                return None
            end = len(text[:opening].rstrip())
        else:
            break
    if not end:
        return None
    last = text[end - 1]
    if "\uac00" <= last <= "\ud7a3":
        return (ord(last) - 0xAC00) % 28
    if not last.isascii() or not last.isdigit():
        return None
    start = end
    while start and text[start - 1].isascii() and text[start - 1].isdigit():
        start -= 1
    digits = text[start:end]
    stripped = digits.rstrip("0")
    if not stripped:
        return _KO_DIGIT_FINALS[0]
    zeros = len(digits) - len(stripped)
    if not zeros:
        return _KO_DIGIT_FINALS[int(stripped[-1])]
    return _KO_ZEROS_FINALS[min(zeros, len(_KO_ZEROS_FINALS) - 1)]


def korean_particles(text: str) -> str:
    """``text`` with each two-way Korean particle (``성을(를)``) made the one its noun takes
    (``성을``, ``시장을``, ``도시로``, ``봇 2 (보통)와``, ``30으로``); after a noun whose sound
    cannot be known (a name in Latin letters) the two-way form stays."""
    out: list[str] = []
    done = 0
    for match in _KO_PARTICLE.finditer(text):
        out.append(text[done : match.start()])
        done = match.end()
        particle = match.group()
        final = _korean_final(text[: match.start()])
        if final is None:
            out.append(particle)
        elif particle == "(으)로":
            out.append("로" if final in (0, 8) else "으로")
        else:
            with_final, without = _KO_FORMS[particle]
            out.append(with_final if final else without)
    out.append(text[done:])
    return "".join(out)


#: A filled-in (isolated) name ending in a Persian digit, a space, then a digit.
_FA_NUMBER_AFTER_NAME = re.compile("([۰-۹]" + _PDI + ") (?=[۰-۹])")


#: The most translations a :class:`Translator` keeps at hand (far more than the catalog's).
_MEMO_MAX = 20_000


class Translator:
    """Translates msgids for one language and fills their ``{name}`` placeholders."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog
        self.rtl = lang in RTL_LANGUAGES
        #: ``pgettext``'s translations before filling in, by (context, msgid): a server
        #: renders the same few hundred texts again and again. Bounded by ``_MEMO_MAX``.
        self._in_context: dict[tuple[str, str], str] = {}

    def number(self, value: float | str) -> str:
        """A number as this language writes it (``12`` → ``۱۲`` in Persian; the Persian
        decimal separator ``٫`` for a fraction)."""
        text = localize_digits(str(value), self.lang)
        return text.replace(".", "٫") if self.lang == "fa" and isinstance(value, float) else text

    def decimal(self, value: float, digits: int = 0) -> str:
        """A number with ``digits`` decimals and its thousands grouped, as this language writes
        it (``12,345.7``; Russian ``12 345,7``; Persian ``۱۲٬۳۴۵٫۷``), by Babel's CLDR data."""
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        text = format_decimal(value, pattern, locale=self.lang, numbering_system="default")
        return localize_digits(text, self.lang)

    def percent(self, value: float, digits: int = 1) -> str:
        """A share (``0.457``) as a percentage with ``digits`` decimals (``45.7%``, Russian
        ``45,7 %``, Persian ``۴۵٫۷٪``)."""
        from babel.numbers import format_percent

        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
        text = format_percent(value, pattern, locale=self.lang, numbering_system="default")
        if self.lang == "fa":
            text = text.replace("%", "٪")  # ARABIC PERCENT SIGN, as Persian writes it
        return localize_digits(text, self.lang)

    def _fields(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Placeholder values as this language shows them: integers in its digits, and in a
        right-to-left language every word field isolated from the sentence's direction."""
        if self.lang == "en" or not (self.rtl or self.lang in DIGITS):
            return dict(fields)
        out: dict[str, Any] = {}
        for key, value in fields.items():
            if isinstance(value, bool):
                out[key] = value
            elif isinstance(value, int | float):
                out[key] = self.number(value)
            elif isinstance(value, str) and self.rtl and value and not value.startswith(_FSI):
                out[key] = _FSI + value + _PDI
            else:
                out[key] = value
        return out

    def gettext(self, message: str, **fields: Any) -> str:
        """``message`` in this language, with ``{name}`` placeholders filled from ``fields``."""
        text = self._catalog.gettext(message)
        if not fields:
            return text
        return self._finish(text.format(**self._fields(fields)))

    def ngettext(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """The singular or plural form for ``n`` (as this language counts), filled in;
        ``{n}`` is always available."""
        text = self._catalog.ngettext(singular, plural, n)
        return self._finish(text.format(**self._fields({"n": n, **fields})))

    def has_context(self, context: str, message: str) -> bool:
        """Whether the catalog translates ``message`` (a msgid, or a plural pair's singular)
        in ``context`` itself."""
        entries = getattr(self._catalog, "_catalog", None)  # a GNUTranslations' messages
        if not isinstance(entries, dict):
            return False
        key = f"{context}\x04{message}"
        return key in entries or (key, 0) in entries

    def pgettext(self, context: str, message: str, **fields: Any) -> str:
        """``message`` in ``context`` (its ``msgctxt``), filled in; the plain translation of
        ``message`` when the catalog has none in that context."""
        text = self._in_context.get((context, message))
        if text is None:
            if self.has_context(context, message):
                text = self._catalog.pgettext(context, message)
            else:
                text = self._catalog.gettext(message)
            if len(self._in_context) < _MEMO_MAX:
                self._in_context[context, message] = text
        if not fields:
            return text
        return self._finish(text.format(**self._fields(fields)))

    def npgettext(self, context: str, singular: str, plural: str, n: int, **fields: Any) -> str:
        """The plural form for ``n`` of a pair in ``context``, filled in; the plain pair's
        translation when the catalog has none in that context."""
        if self.has_context(context, singular):
            text = self._catalog.npgettext(context, singular, plural, n)
        else:
            text = self._catalog.ngettext(singular, plural, n)
        return self._finish(text.format(**self._fields({"n": n, **fields})))

    def _finish(self, text: str) -> str:
        """A filled-in sentence as the language writes it: Korean particles agreed; in
        Persian, a filled-in name that ends in a digit («صندلی ۱») and a number right after it
        parted by «،», so that the two do not read as one number («صندلی ۱، ۲ کارت»)."""
        if self.lang == "ko":
            return korean_particles(text)
        if self.lang == "fa":
            return _FA_NUMBER_AFTER_NAME.sub("\\1، ", text)
        return text

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


#: Translators made so far, by language (a catalog is read once).
TRANSLATORS: dict[str, Translator] = {}


def catalog_path(lang: str, suffix: str = ".po") -> Path:
    """Where the catalog of ``lang`` is (``suffix`` ``".po"`` or ``".mo"``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / (DOMAIN + suffix)


def load_catalog(lang: str) -> gettext.NullTranslations:
    """The gettext catalog of ``lang``: its ``.mo`` when up to date, else its ``.po`` compiled
    in memory; a ``NullTranslations`` (English) when ``lang`` has no catalog."""
    po, mo = catalog_path(lang), catalog_path(lang, ".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if not po.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def normalize_lang(value: str | None) -> str | None:
    """The interface language a locale name means (``fa_IR.UTF-8`` → ``fa``, ``pt`` → ``None``):
    one of :data:`LANGUAGES`, or ``None``."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    return code if code in LANGUAGES else None


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of ``LANGUAGE``
    (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, and within
    it the first language we speak; English otherwise (``C``/``POSIX`` included)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var != "LANGUAGE" and (value in ("C", "POSIX") or value.startswith("C.")):
            return "en"
        for part in value.split(":"):
            found = normalize_lang(part)
            if found is not None:
                return found
        if var != "LANGUAGE":
            return "en"
    return "en"


def translator(lang: str = "en") -> Translator:
    """The translator for ``lang`` (``"en"``, ``"fa"``, ``"ru"``, …); English when no catalog
    exists for it (such a code shares the English translator)."""
    found = TRANSLATORS.get(lang)
    if found is None and isinstance(lang, str) and lang and lang not in LANGUAGES:
        # Not cached under its own name: a code from a browser must not grow the cache.
        return translator(normalize_lang(lang) or "en")
    if found is None:
        if not isinstance(lang, str) or not lang:
            raise ValueError(f"a language is a code such as 'en' or 'fa', not {lang!r}")
        # Only the languages we ship are read from disk (a code from a browser is untrusted).
        spoken = lang in LANGUAGES and lang != "en"
        catalog = load_catalog(lang) if spoken else gettext.NullTranslations()
        found = TRANSLATORS[lang] = Translator(lang, catalog)
    return found
