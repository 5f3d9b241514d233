"""The game review and hints in the browser (issue 27): a whole short game against an easy
bot (2 players, basic edition, a fixed seed) with a hint asked on the way, then "Review the
game" from the final scores, at a laptop's and a phone's size, under the server's own
Content-Security-Policy (every violation the browser reports fails the test), with the
accessibility scan and screenshots (out/screenshots/review-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import AT_ONCE, LAPTOP, PHONE, serious, shot

pytestmark = pytest.mark.xdist_group("browser-review")

ACTION = ".tray .action:not([disabled])"
#: Runs before the page's scripts and keeps the CSP violations the browser reports.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ` +
                    `${e.sourceFile || "?"}:${e.lineNumber || 0}`);
});
"""


def _context(browser: Any, server: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport, base_url=server, reduced_motion="reduce")
    ctx.add_init_script(AT_ONCE)
    ctx.add_init_script(WATCH)
    return ctx


def _wait(page: Any, script: str, timeout_ms: int = 20000) -> Any:
    """Poll ``script`` until it is truthy (wait_for_function would need eval, which the
    page's policy refuses)."""
    for _ in range(timeout_ms // 50):
        value = page.evaluate(script)
        if value:
            return value
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {script}")


@pytest.fixture(scope="module")
def reviewed(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    """Play the game, ask a hint, open the review; record what the pages showed."""
    made = httpx.post(f"{server}/api/tables", json={
        "name": "Anna", "edition": "basic", "players": 2, "bots": {"1": "easy"}, "seed": 27,
    }, timeout=10).json()  # fmt: skip
    code, token = made["code"], made["token"]
    rec: dict[str, Any] = {"code": code, "errors": [], "axe": {}}
    laptop = _context(browser, server, LAPTOP)
    page = laptop.new_page()
    page.set_default_timeout(20000)
    page.on("pageerror", lambda exc: rec["errors"].append(str(exc)))
    key = "citadels.token." + re.sub("[^A-Z0-9]", "", code)
    page.goto("/")
    page.evaluate(f"localStorage.setItem('{key}', '{token}')")
    try:
        page.goto(f"/t/{code}")
        page.click("[data-key=start]")
        page.wait_for_selector(".table-screen")
        for _ in range(600):
            if page.query_selector(".scores"):
                break
            try:
                page.wait_for_selector(f"{ACTION}, .scores", timeout=20000)
                if page.query_selector(".scores"):
                    break
                if "hint" not in rec and page.query_selector("[data-key=hint]"):
                    page.click("[data-key=hint]")
                    page.wait_for_selector(".hint-box li", timeout=20000)
                    rec["hint"] = page.eval_on_selector_all(
                        ".hint-box li", "els => els.map(e => e.textContent)"
                    )
                    rec["tray"] = page.eval_on_selector_all(
                        ".tray .action .action-label", "els => els.map(e => e.textContent)"
                    )
                    rec["axe"]["hint"] = serious(page)
                    shot(page, "review-hint-laptop")
                before = page.evaluate("document.getElementById('app').dataset.version")
                page.click(ACTION)
                _wait(page, f"document.getElementById('app').dataset.version !== '{before}'"
                            " || !!document.querySelector('.scores')")  # fmt: skip
            except Exception:  # the tray was drawn again under the click: look again
                continue
        page.wait_for_selector(".scores")
        shot(page, "review-final-scores-laptop")
        page.click("[data-key=review-game]")
        page.wait_for_url(re.compile(r"/replay/.*review=1"))
        page.wait_for_selector(".review-panel svg.curve", timeout=60000)
        rec["lines"] = page.eval_on_selector_all(
            ".review-panel .curve polyline", "els => els.map(e => e.getAttribute('class'))"
        )
        rec["dots"] = len(page.query_selector_all(".review-panel .curve line.dot"))
        rec["keys"] = page.eval_on_selector_all(
            ".review-keys li", "els => els.map(e => e.textContent)"
        )
        rec["title"] = page.inner_text(".review-panel h2")
        first_key = page.query_selector(".review-keys button")
        if first_key is not None:
            first_key.click()
            page.wait_for_selector(".review-move")
            rec["move"] = page.inner_text(".review-move")
            rec["marked"] = len(page.query_selector_all(".log li.marked"))
        rec["axe"]["review"] = serious(page)
        shot(page, "review-laptop")
        # The drawing goes to the step pressed: its middle is about half the game.
        steps = int(page.evaluate("document.getElementById('r-slider').max"))
        box = page.query_selector(".review-panel svg.curve").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        rec["middle"] = (int(page.input_value("#r-slider")), steps)
        rec["csp_laptop"] = page.evaluate("window.__csp")
        # Anyone may review once it has ended: a phone without the player's token.
        phone = _context(browser, server, PHONE)
        other = phone.new_page()
        other.set_default_timeout(20000)
        other.on("pageerror", lambda exc: rec["errors"].append(str(exc)))
        other.goto(f"/replay/{code}?review=1")
        other.wait_for_selector(".review-panel svg.curve", timeout=60000)
        rec["phone_title"] = other.inner_text(".review-panel h2")
        rec["phone_overflow"] = other.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        rec["axe"]["phone"] = serious(other)
        shot(other, "review-phone")
        other.click("[data-key=review-close]")
        other.wait_for_selector(".review-panel", state="detached")
        rec["csp_phone"] = other.evaluate("window.__csp")
        phone.close()
        yield rec
    finally:
        laptop.close()


def test_a_hint_shows_the_best_actions_with_their_chances(reviewed: dict[str, Any]) -> None:
    hint = reviewed.get("hint")
    assert hint, "the Hint button never showed during a solo game"
    assert 1 <= len(hint) <= 3
    for line in hint:
        assert re.search(r"\d+\s?%|—", line), line
    labels = reviewed["tray"]
    assert any(lab.strip() and lab.strip() in " ".join(hint) for lab in labels), (hint, labels)


def test_the_review_draws_every_seats_curve_and_marks_the_moments(reviewed: dict[str, Any]) -> None:
    assert sorted(reviewed["lines"]) == ["line s0 reviewed", "line s1"], reviewed["lines"]
    assert "Anna" in reviewed["title"]
    assert reviewed["keys"], "no key moment and no sentence saying there was none"
    if "move" in reviewed:  # there was a key moment to go to
        assert "Chosen:" in reviewed["move"]
        assert reviewed["marked"] >= 1
        assert reviewed["dots"] >= 1
    at, steps = reviewed["middle"]
    assert abs(at - steps / 2) <= steps * 0.1, reviewed["middle"]


def test_anyone_reviews_a_finished_game_on_a_phone(reviewed: dict[str, Any]) -> None:
    assert "Anna" in reviewed["phone_title"]
    assert reviewed["phone_overflow"] <= 0


def test_no_csp_violation_no_page_error_and_the_scan_passes(reviewed: dict[str, Any]) -> None:
    assert reviewed["csp_laptop"] == [] and reviewed["csp_phone"] == []
    assert reviewed["errors"] == []
    for where, found in reviewed["axe"].items():
        assert found == [], (where, found)
