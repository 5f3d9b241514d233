"""The lobby's setups are in the page's language (issue 24), in Chromium.

The create-table form lists an edition's named setups ("presets") under "Characters and
districts". Their titles come with each edition from ``GET /api/info`` in the asked language;
the form used to look for them at the top of the answer, found none, and showed every setup
by its id in English ("Dark city") on a Russian, Persian, Korean or Vietnamese page."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.xdist_group("lobby_presets")


@pytest.mark.parametrize("lang", ["en", "fa", "ru", "ko", "vi"])
@pytest.mark.parametrize("edition", ["classic", "2016"])
def test_the_setups_are_named_in_the_pages_language(
    browser: Any, server: str, lang: str, edition: str
) -> None:
    info = httpx.get(f"{server}/api/info", params={"lang": lang}).json()
    titles = next(e for e in info["editions"] if e["id"] == edition)["preset_titles"]
    assert titles, f"{edition} has no setups"
    ctx = browser.new_context(base_url=server, reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('citadels.lang', '{lang}');")
    try:
        page = ctx.new_page()
        page.goto("/")
        page.wait_for_selector(f"#create-edition option[value='{edition}']", state="attached")
        page.select_option("#create-edition", edition)
        page.wait_for_selector("#create-preset option[value]:not([value=''])", state="attached")
        shown = page.eval_on_selector_all(
            "#create-preset option",
            "(os) => Object.fromEntries(os.map((o) => [o.value, o.textContent]))",
        )
        assert {p: shown.get(p) for p in titles} == titles
    finally:
        ctx.close()
