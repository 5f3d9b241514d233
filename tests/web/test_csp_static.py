"""The client keeps to a strict Content-Security-Policy (``default-src 'self'``, no inline script,
no inline style attribute, no eval): checked on the shipped files, without a browser."""

from __future__ import annotations

import re
from pathlib import Path

import citadels

WEB = Path(citadels.__file__).resolve().parent / "web"


def _js() -> list[Path]:
    return sorted((WEB / "js").glob("*.js"))


def test_index_has_no_inline_script_style_or_data_url() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, f"inline script: {tag}"
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "a script element with a body"
    assert not re.search(r"\sstyle\s*=", html), "a style attribute"
    assert "<style" not in html, "an inline style sheet"
    assert not re.search(r"\son[a-z]+\s*=", html), "an inline event handler"
    # default-src 'self' refuses data: URLs (the icon is a file of ours).
    assert "data:" not in html


def test_scripts_write_no_style_attribute_and_never_eval() -> None:
    for path in _js():
        text = path.read_text(encoding="utf-8")
        evals = r"\beval\s*\(|new Function\s*\(|setTimeout\(\s*[\"'`]"
        assert not re.search(evals, text), path.name
        # Styles are set through the CSSOM (el.style.setProperty), which a CSP allows; a style
        # attribute in markup or through setAttribute is refused.
        assert not re.search(r"style\s*=\s*[\"']|setAttribute\(\s*[\"']style", text), path.name
        assert "insertAdjacentHTML" not in text and "document.write" not in text, path.name
        if path.name != "dom.js":
            assert "innerHTML" not in text, f"{path.name}: markup from a string"


def test_the_icons_markup_carries_no_style_or_script() -> None:
    """dom.js writes its static SVG icons through innerHTML: they hold no style or script."""
    text = (WEB / "js" / "dom.js").read_text(encoding="utf-8")
    svgs = re.findall(r"'(<svg.*?</svg>)'", text)
    assert len(svgs) > 10
    for svg in svgs:
        assert "style" not in svg and "<script" not in svg and " on" not in svg.lower(), svg[:60]
