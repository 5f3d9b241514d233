"""The browser's strings, generated from the gettext catalogs (issue 26: one source of terms).

The English table ``src/citadels/web/i18n/en.json`` is the source list: each of its keys is a
msgid of the catalogs in the context ``web:<key>`` (``msgctxt "web:robbed"``, ``msgid
"Robbed"``); a plural entry (``{"one": …, "other": …}``) is a plural msgid (``msgid`` the
``one`` text, ``msgid_plural`` the ``other`` one). The other languages' tables
(``fa.json``, ``ru.json``, ``ko.json``, ``vi.json``) are written from
``src/citadels/present/locale/<lang>/LC_MESSAGES/citadels.po``, in the English table's order and
layout, so a word of the browser is translated once, beside the terminal's words.

    .venv/bin/python tools/web_i18n.py               # import new keys, write the tables
    .venv/bin/python tools/web_i18n.py --prefer po   # …and let the catalogs win a difference
    .venv/bin/python tools/web_i18n.py --prefer json # …or the tables' words
    .venv/bin/python tools/web_i18n.py --check       # exit 1 if a table or catalog is stale
    .venv/bin/python tools/web_i18n.py pot out/citadels.pot   # add the keys to a template

Running it does two steps (``import`` and ``write`` run one each):

1. import: a key of ``en.json`` the catalogs lack gets its entry, with the translation the
   language's table has (a key other work added to the JSON files by hand); a key whose English
   changed gets a new entry, and a translation the table kept from the old English is marked
   fuzzy (not used, and the catalog tests fail until it is checked); an entry whose key left
   ``en.json`` is dropped. Where a catalog and a table give a key two different translations,
   the tool stops and lists them, unless told which wins (``--prefer po`` or ``json``).
2. write: each table is written from its catalog; an untranslated or fuzzy entry is left out
   (the browser then shows the English).

Plural forms: the catalogs count with gettext's forms, the browser with CLDR's categories
(``Intl.PluralRules``): Persian forms 0, 1 are ``one``, ``other``; Russian 0, 1, 2 are ``one``,
``few``, ``many``; Korean and Vietnamese have ``other`` only. Russian also has CLDR's ``other``
(fractions, and the fallback when no count is given): it is the ``few`` form, unless the entry
has a translator comment ``cldr-other: <text>`` giving it.

``make web-i18n`` runs this; ``make messages`` adds the keys to the template and ``make
update-po`` imports before merging and writes after. tests/web/test_i18n_catalogs.py checks that
the committed tables are what the catalogs give.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
#: The browser's tables (``<lang>.json``).
WEB_I18N = ROOT / "src" / "citadels" / "web" / "i18n"
#: The catalogs (``<lang>/LC_MESSAGES/citadels.po``).
LOCALE = ROOT / "src" / "citadels" / "present" / "locale"
DOMAIN = "citadels"
#: Where a browser msgid comes from, as the catalogs' location comments say.
SOURCE = "src/citadels/web/i18n/en.json"
#: The context of a browser key: ``web:<key>``.
PREFIX = "web:"
#: The translated languages, and which CLDR category each gettext plural form is.
FORMS: dict[str, tuple[str, ...]] = {
    "fa": ("one", "other"),
    "ru": ("one", "few", "many"),
    "ko": ("other",),
    "vi": ("other",),
}
#: CLDR categories a language's browser entries have beyond its gettext forms, with the form
#: each one is by default (Russian ``other``, fractions: the ``few`` form, genitive singular).
EXTRA: dict[str, dict[str, int]] = {"ru": {"other": 1}}
#: How the comment that gives an extra category begins.
EXTRA_COMMENT = "cldr-{category}: "
#: CLDR's order of the categories, the order a plural entry is written in.
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")
#: The English plural entry's categories.
EN_FORMS = ("one", "other")

#: The location comment of a browser msgid: the file, without a line (as ``--add-location=file``).
_LOCATION = cast(list[tuple[str, int]], [(SOURCE, None)])

Entry = str | dict[str, str]
Msgid = str | tuple[str, str]


class Conflict(Exception):
    """A catalog and a table give one key two translations and no side was chosen."""


@dataclass
class Report:
    """What a run changed (or, with ``check``, would change)."""

    imported: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    kept: str | None = None
    catalogs: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report, one line per change."""
        out = [f"imported from the table: {k}" for k in self.imported]
        out += [f"English changed, marked fuzzy: {k}" for k in self.stale]
        out += [f"no longer in en.json, dropped: {k}" for k in self.dropped]
        side = {"po": " (the catalog's kept)", "json": " (the table's kept)"}.get(
            self.kept or "", ""
        )
        out += [f"differs{side}: {k}" for k in self.conflicts]
        out += [f"catalog updated: {p}" for p in self.catalogs]
        out += [f"table written: {p}" for p in self.tables]
        return out


# --- the English source list ------------------------------------------------------------------


def read_table(path: Path) -> dict[str, Entry]:
    """A browser table (``{}`` if the file is missing)."""
    if not path.is_file():
        return {}
    data: dict[str, Entry] = json.loads(path.read_text(encoding="utf-8"))
    return data


def english(web: Path = WEB_I18N) -> dict[str, Entry]:
    """The English table, checked: every entry a text or a plural ``{"one", "other"}``."""
    table = read_table(web / "en.json")
    for key, entry in table.items():
        ok = isinstance(entry, str) or (
            isinstance(entry, dict)
            and set(entry) == set(EN_FORMS)
            and all(isinstance(v, str) for v in entry.values())
        )
        if not ok:
            raise ValueError(f"en.json: {key!r} is neither a text nor {{'one', 'other'}}")
    return table


def msgid(entry: Entry) -> Msgid:
    """The msgid of an English entry: its text, or its (one, other) pair."""
    return entry if isinstance(entry, str) else (entry["one"], entry["other"])


def context(key: str) -> str:
    """The catalogs' context of a browser key."""
    return PREFIX + key


def messages(web: Path = WEB_I18N) -> list[tuple[str, Msgid]]:
    """Every browser (context, msgid), in the English table's order."""
    return [(context(key), msgid(entry)) for key, entry in english(web).items()]


# --- the catalogs -----------------------------------------------------------------------------


def catalog_file(lang: str, locale: Path = LOCALE) -> Path:
    """The ``.po`` catalog of a language."""
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(path: Path, lang: str | None = None) -> Catalog:
    """A catalog (or template) read from its file."""
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN if lang else None)


def dump(catalog: Catalog) -> bytes:
    """A catalog written as ``pybabel update --no-wrap --ignore-obsolete`` writes one."""
    out = io.BytesIO()
    write_po(out, catalog, ignore_obsolete=True, width=None)  # type: ignore[arg-type]
    return out.getvalue()


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and all(s for s in strings)


def _extra_comment(message: Message, category: str) -> str | None:
    prefix = EXTRA_COMMENT.format(category=category)
    for comment in message.user_comments:
        if comment.startswith(prefix):
            return str(comment[len(prefix) :])
    return None


def entry_of(message: Message, lang: str) -> Entry:
    """The browser entry a catalog entry gives: its text, or its forms by CLDR category."""
    if not isinstance(message.string, tuple):
        return str(message.string)
    forms = dict(zip(FORMS[lang], message.string, strict=True))
    for category, index in EXTRA.get(lang, {}).items():
        given = _extra_comment(message, category)
        forms[category] = message.string[index] if given is None else given
    return {c: forms[c] for c in CLDR_ORDER if c in forms}


def _set_entry(message: Message, lang: str, entry: Entry) -> None:
    """Give a catalog entry the translation of a browser entry (which must fit its shape)."""
    if isinstance(message.string, tuple):
        assert isinstance(entry, dict)
        message.string = tuple(entry[c] for c in FORMS[lang])
        for category, index in EXTRA.get(lang, {}).items():
            prefix = EXTRA_COMMENT.format(category=category)
            message.user_comments = [c for c in message.user_comments if not c.startswith(prefix)]
            if category in entry and entry[category] != message.string[index]:
                message.user_comments.append(prefix + entry[category])
    else:
        assert isinstance(entry, str)
        message.string = entry
    message.flags.discard("fuzzy")


def _fits(entry: Entry | None, english_entry: Entry, lang: str) -> bool:
    """Whether a table's entry has the shape of the English one (a text, or every form)."""
    if entry is None:
        return False
    if isinstance(english_entry, str):
        return isinstance(entry, str) and bool(entry)
    wanted = set(FORMS[lang])
    return isinstance(entry, dict) and wanted <= set(entry) and all(entry[c] for c in wanted)


def _empty(english_id: Msgid, lang: str) -> str | tuple[str, ...]:
    return tuple("" for _ in FORMS[lang]) if isinstance(english_id, tuple) else ""


def import_tables(
    lang: str,
    catalog: Catalog,
    table: dict[str, Entry],
    english_table: dict[str, Entry],
    prefer: str | None,
    report: Report,
) -> None:
    """Bring one catalog's browser entries in line with the English table, taking the
    translations the language's table has where the catalog has none (step 1 above)."""
    by_context = {
        m.context: m for m in catalog if m.id and m.context and m.context.startswith(PREFIX)
    }
    for key, english_entry in english_table.items():
        ctx, wanted = context(key), msgid(english_entry)
        found = table.get(key)
        message = by_context.pop(ctx, None)
        where = f"{lang}:{key}"
        if message is not None and message.id != wanted:
            old = message
            catalog.delete(old.id, context=ctx)
            message = Message(wanted, _empty(wanted, lang), locations=_LOCATION, context=ctx)
            catalog[wanted] = message
            if _fits(found, english_entry, lang):
                assert found is not None
                _set_entry(message, lang, found)
                if _translated(old) and entry_of(old, lang) == found:
                    message.flags.add("fuzzy")
                    report.stale.append(where)
                else:
                    report.imported.append(where)
            continue
        if message is None:
            message = Message(wanted, _empty(wanted, lang), locations=_LOCATION, context=ctx)
            catalog[wanted] = message
            if _fits(found, english_entry, lang):
                assert found is not None
                _set_entry(message, lang, found)
                report.imported.append(where)
            continue
        if not _fits(found, english_entry, lang):
            continue
        assert found is not None
        if not _translated(message):
            if message.fuzzy and entry_of(message, lang) == found:
                continue
            _set_entry(message, lang, found)
            report.imported.append(where)
        elif entry_of(message, lang) != found:
            report.conflicts.append(
                f"{where}: catalog {json.dumps(entry_of(message, lang), ensure_ascii=False)},"
                f" table {json.dumps(found, ensure_ascii=False)}"
            )
            if prefer == "json":
                _set_entry(message, lang, found)
    for stale_context, message in by_context.items():
        catalog.delete(message.id, context=stale_context)
        report.dropped.append(f"{lang}:{stale_context[len(PREFIX) :]}")
    _order(catalog, english_table)


def _order(catalog: Catalog, english_table: dict[str, Entry]) -> None:
    """Put the browser entries last, in the English table's order (where ``make messages``
    puts them in the template)."""
    web = []
    for key, entry in english_table.items():
        message = catalog.get(msgid(entry), context=context(key))
        if message is not None:
            web.append(message)
            catalog.delete(message.id, context=message.context)
    for message in web:
        catalog[message.id] = message


def table_of(catalog: Catalog, lang: str, english_table: dict[str, Entry]) -> dict[str, Entry]:
    """A language's browser table from its catalog (step 2): the translated keys, in order."""
    out: dict[str, Entry] = {}
    for key, entry in english_table.items():
        message = catalog.get(msgid(entry), context=context(key))
        if message is not None and _translated(message):
            out[key] = entry_of(message, lang)
    return out


# --- the tables' layout -----------------------------------------------------------------------

_KEY_LINE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:')


def groups(english_text: str) -> set[str]:
    """The keys a blank line comes before in the English table (its layout, kept in every
    language)."""
    before: set[str] = set()
    blank = False
    for line in english_text.splitlines():
        if not line.strip():
            blank = True
            continue
        match = _KEY_LINE.match(line)
        if match:
            if blank:
                before.add(json.loads(f'"{match.group(1)}"'))
            blank = False
    return before


def _value(entry: Entry) -> str:
    if isinstance(entry, str):
        return json.dumps(entry, ensure_ascii=False)
    inner = ", ".join(
        f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in entry.items()
    )
    return "{" + inner + "}"


def render(table: dict[str, Entry], english_text: str) -> str:
    """A table as the files are written: one key a line, the English table's blank lines."""
    breaks = groups(english_text)
    lines = []
    for index, (key, entry) in enumerate(table.items()):
        if index and key in breaks:
            lines.append("")
        comma = "," if index < len(table) - 1 else ""
        lines.append(f"  {json.dumps(key, ensure_ascii=False)}: {_value(entry)}{comma}")
    return "{\n" + "\n".join(lines) + "\n}\n"


# --- the steps --------------------------------------------------------------------------------


def run(
    steps: Iterable[str] = ("import", "write"),
    *,
    prefer: str | None = None,
    check: bool = False,
    web: Path = WEB_I18N,
    locale: Path = LOCALE,
    langs: Iterable[str] = tuple(FORMS),
) -> Report:
    """Run the steps over every language; with ``check``, write nothing and report what would
    change. Raises :class:`Conflict` when a catalog and a table differ and ``prefer`` is
    unset (nothing is written then)."""
    steps = tuple(steps)
    english_text = (web / "en.json").read_text(encoding="utf-8")
    english_table = english(web)
    report = Report(kept=prefer)
    writes: list[tuple[Path, bytes]] = []
    for lang in langs:
        path = catalog_file(lang, locale)
        raw = path.read_bytes()
        catalog = read_po(io.BytesIO(raw), locale=lang, domain=DOMAIN)
        table_path = web / f"{lang}.json"
        if "import" in steps:
            import_tables(lang, catalog, read_table(table_path), english_table, prefer, report)
            new = dump(catalog)
            if new != raw:
                writes.append((path, new))
                report.catalogs.append(str(path))
        if "write" in steps:
            text = render(table_of(catalog, lang, english_table), english_text)
            old = table_path.read_text(encoding="utf-8") if table_path.is_file() else None
            if text != old:
                writes.append((table_path, text.encode("utf-8")))
                report.tables.append(str(table_path))
    if report.conflicts and prefer is None and not check:
        raise Conflict("\n".join(report.conflicts))
    if not check:
        for target, data in writes:
            target.write_bytes(data)
    return report


def add_to_template(pot: Path, web: Path = WEB_I18N) -> int:
    """Add every browser msgid to a template (``make messages``' ``out/citadels.pot``), after
    the extracted ones; answers how many."""
    template = load(pot)
    added = 0
    for ctx, wanted in messages(web):
        if template.get(wanted, context=ctx) is None:
            template[wanted] = Message(wanted, locations=_LOCATION, context=ctx)
            added += 1
    out = io.BytesIO()
    write_po(out, template, width=None, include_lineno=False)  # type: ignore[arg-type]
    pot.write_bytes(out.getvalue())
    return added


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("step", nargs="?", choices=("all", "import", "write", "pot"), default="all")
    parser.add_argument("template", nargs="?", type=Path, help="the template, for 'pot'")
    parser.add_argument("--prefer", choices=("po", "json"), default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.step == "pot":
        if args.template is None:
            parser.error("'pot' takes the template's path")
        added = add_to_template(args.template)
        print(f"{added} browser strings added to {args.template}")
        return 0
    steps = ("import", "write") if args.step == "all" else (args.step,)
    try:
        report = run(steps, prefer=args.prefer, check=args.check)
    except Conflict as conflict:
        print(
            "A catalog and a browser table translate these keys differently:\n"
            f"{conflict}\n"
            "Nothing was written. Rerun with --prefer po (make web-i18n PREFER=po) to keep the "
            "catalogs' words, or --prefer json (PREFER=json) to keep the tables'.",
            file=sys.stderr,
        )
        return 1
    for line in report.lines():
        print(line)
    if args.check:
        return 1 if report.catalogs or report.tables or report.conflicts else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
