"""The client's files as shipped (no browser needed): every module a page imports exists, nothing
is fetched from outside the server, and the interface's own words live in the strings table."""

from __future__ import annotations

import re
from pathlib import Path

import citadels

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
    for path in [WEB / "index.html", WEB / "css" / "app.css", *_js_files()]:
        text = path.read_text(encoding="utf-8")
        external = [
            url
            for url in re.findall(r"https?://[^\s\"')]+", text)
            if not url.startswith("http://www.w3.org/")  # the SVG namespace is a name, not a fetch
        ]
        assert not external, f"{path.name}: {external}"
        assert "@import" not in text and "fonts.googleapis" not in text


def test_interface_words_come_from_the_strings_table() -> None:
    """Every t("key") used by the modules is defined in strings.js (English at least)."""
    table = (WEB / "js" / "strings.js").read_text(encoding="utf-8")
    defined = set(re.findall(r"^\s+(\w+): \"", table, flags=re.M))
    used: set[str] = set()
    for path in _js_files():
        used |= set(re.findall(r"\bt\(\"(\w+)\"", path.read_text(encoding="utf-8")))
    # Keys built from data: the score columns and the side-panel tabs.
    used |= {f"score_{k}" for k in ("districts", "colours", "first_complete", "complete", "bonus")}
    used |= {"log", "chat"}
    missing = sorted(k for k in used if k not in defined)
    assert not missing, missing


def test_layout_uses_logical_properties_for_right_to_left() -> None:
    """Persian is coming (issue 11): no physical left/right in the stylesheet."""
    css = (WEB / "css" / "app.css").read_text(encoding="utf-8")
    physical = re.findall(
        r"(?<![-\w])(margin-left|margin-right|padding-left|padding-right|left|right|"
        r"border-left|border-right|text-align:\s*(?:left|right))\s*:",
        css,
    )
    assert not physical, physical
