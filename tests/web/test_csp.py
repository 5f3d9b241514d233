"""The page works under the server's Content-Security-Policy (issue 23, item 7): the lobby,
a table and a few moves in Chromium, with every CSP violation the browser reports (its
console and ``securitypolicyviolation`` events) collected; any one fails the test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LAPTOP, create_table

pytestmark = pytest.mark.xdist_group("browser-csp")

#: Runs in every page before its own scripts (Playwright's init scripts are not subject to
#: the page's policy) and keeps what the browser reports.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ` +
                    `${e.sourceFile || "?"}:${e.lineNumber || 0}`);
});
"""

ACTION = ".tray .action:not([disabled])"


def test_lobby_and_moves_run_without_csp_violations(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport=LAPTOP, base_url=server, reduced_motion="reduce")
    ctx.add_init_script(WATCH)
    console: list[str] = []
    errors: list[str] = []
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        response = page.goto("/")
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector("#create-edition option[value=basic]", state="attached")
        create_table(page, "Anna", players=2, bots=1)
        page.click("[data-key=start]")
        page.wait_for_selector(".table-screen")
        moves = 0
        for _ in range(200):
            if moves >= 4:
                break
            try:
                page.wait_for_selector(ACTION, timeout=20000)
                before = page.evaluate("document.querySelectorAll('.log li').length")
                # The key the first button shows (in the draft, the rank printed on the card).
                key = page.get_attribute(f"{ACTION}[data-keynum]", "data-keynum")
                if key is None:
                    page.click(ACTION)
                else:
                    page.keyboard.press(key)
                # Polled with evaluate: wait_for_function compiles its predicate with eval
                # in the page, which the policy rightly refuses (and reports).
                for _ in range(200):
                    if page.evaluate("document.querySelectorAll('.log li').length") > before:
                        moves += 1
                        break
                    page.wait_for_timeout(50)
            except Exception:  # the page re-rendered under the key; look again
                continue
        assert moves >= 4, "the page did not let four moves be played"
        page.click("[data-key=tab-chat]")
        violations = page.evaluate("window.__csp")
        assert violations == [] and console == [], (violations, console)
        assert errors == []
    finally:
        ctx.close()
