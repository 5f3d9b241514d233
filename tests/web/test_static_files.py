"""The client's files as shipped (no browser needed): every module a page imports exists, nothing
is fetched from outside the server, and the interface's own words live in the strings table."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import citadels
from citadels.server.botpool import BOT_LEVELS

WEB = Path(citadels.__file__).resolve().parent / "web"


def _js_files() -> list[Path]:
    return sorted((WEB / "js").glob("*.js"))


def test_index_loads_the_stylesheet_and_the_entry_module() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r'(?:href|src)="/static/([^"]+)"', html)
    assert "css/app.css" in refs and "js/app.js" in refs
    for ref in refs:
        assert (WEB / ref).is_file(), ref


def test_every_imported_module_exists() -> None:
    for path in _js_files():
        for target in re.findall(r'from "(\./[^"]+)"', path.read_text(encoding="utf-8")):
            assert (path.parent / target).resolve().is_file(), f"{path.name} imports {target}"


def test_nothing_is_fetched_from_outside_the_server() -> None:
    """No CDN fonts or scripts: the client works on a machine with no internet."""
    shipped = [WEB / "index.html", WEB / "css" / "app.css", WEB / "fonts" / "fonts.css"]
    for path in [*shipped, *_js_files()]:
        text = path.read_text(encoding="utf-8")
        external = [
            url
            for url in re.findall(r"https?://[^\s\"')]+", text)
            if not url.startswith("http://www.w3.org/")  # the SVG namespace is a name, not a fetch
        ]
        assert not external, f"{path.name}: {external}"
        assert "@import" not in text and "fonts.googleapis" not in text


def test_interface_words_come_from_the_strings_table() -> None:
    """Every t("key") used by the modules is defined in the English table (i18n/en.json), and
    every key of the table is used."""
    defined = set(json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8")))
    used: set[str] = set()
    for path in _js_files():
        used |= set(re.findall(r"\bt\(\"(\w+)\"", path.read_text(encoding="utf-8")))
    # Keys built from data: the score columns, the side-panel tabs, bot levels, error codes.
    used |= {f"score_{k}" for k in ("districts", "colours", "first_complete", "complete", "bonus")}
    used |= {f"legend_{k}" for k in ("districts", "colours", "first_complete", "complete", "bonus")}
    used |= {"log", "chat"}
    used |= {f"level_{k}" for k in BOT_LEVELS}
    used |= {k for k in defined if k.startswith("err_")}
    missing = sorted(k for k in used if k not in defined)
    assert not missing, missing
    unused = sorted(k for k in defined if k not in used)
    assert not unused, unused


def test_error_words_name_the_servers_error_codes() -> None:
    """The client words errors by their code; each err_ key is a code the server answers."""
    server = "\n".join(p.read_text(encoding="utf-8") for p in (WEB.parent / "server").glob("*.py"))
    codes = set(re.findall(r'ServerError\(\s*"(\w+)"', server)) | {"network"}
    defined = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    for key in defined:
        if key.startswith("err_"):
            code = key[4:].removesuffix("_rule")
            assert code in codes, key


def test_fonts_cover_every_letter_of_every_language() -> None:
    """fonts/fonts.css declares files that exist, and between them their unicode-ranges hold
    every letter and digit of the five strings tables (and Persian digits)."""
    css = (WEB / "fonts" / "fonts.css").read_text(encoding="utf-8")
    covered: set[int] = set()
    for src, ranges in re.findall(r"src: url\(\./([^)]+)\).*?unicode-range: ([^;]+);", css):
        assert (WEB / "fonts" / src).is_file(), src
        for part in ranges.split(","):
            lo, _, hi = part.strip()[2:].partition("-")
            covered.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    letters = set("۰۱۲۳۴۵۶۷۸۹")
    for path in (WEB / "i18n").glob("*.json"):
        text = path.read_text(encoding="utf-8")
        letters |= {c for c in text if unicodedata.category(c)[0] in "LN"}
    missing = sorted(c for c in letters if ord(c) not in covered)
    assert not missing, missing
    assert list((WEB / "fonts").glob("LICENSE-*.txt")), "the fonts' licences ship beside them"


def test_layout_uses_logical_properties_for_right_to_left() -> None:
    """Persian mirrors the page (issue 11): no physical left/right in the stylesheet."""
    css = (WEB / "css" / "app.css").read_text(encoding="utf-8")
    physical = re.findall(
        r"(?<![-\w])(margin-left|margin-right|padding-left|padding-right|left|right|"
        r"border-left|border-right|text-align:\s*(?:left|right))\s*:",
        css,
    )
    assert not physical, physical


def test_the_page_before_its_script_is_wordless_or_in_every_language() -> None:
    """The static page has no language yet: the loading screen has no words, and the
    <noscript> line is written in each of the five languages (marked with its lang/dir)."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    body = html.split("<body>", 1)[1]
    outside, noscript = re.split(r"<noscript>", body, maxsplit=1)
    assert not re.sub(r"<[^>]+>", "", outside).strip()
    langs = re.findall(r'<p lang="(\w+)" dir="(\w+)">[^<]+</p>', noscript)
    assert sorted(langs) == sorted(
        [("en", "ltr"), ("fa", "rtl"), ("ru", "ltr"), ("ko", "ltr"), ("vi", "ltr")]
    )
