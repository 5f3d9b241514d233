"""A player changes their password on /me, and the leaderboard shows the bots' measure
against people (issue 28), in Chromium at a laptop and a phone size, with screenshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import PHONE, shot

pytestmark = pytest.mark.xdist_group("accounts-web")

I18N = Path(__file__).resolve().parents[2] / "src" / "citadels" / "web" / "i18n"


def test_a_player_changes_their_password_on_the_me_page(page: Any, server: str) -> None:
    other = httpx.Client(base_url=server, timeout=10)
    page.goto("/me")
    page.fill("#account-name", "Pavel")
    page.fill("#account-password", "the first secret")
    page.click("[data-key=sign-up]")
    page.wait_for_selector(".account-page [data-key=nav-profile]")
    # Another device signed in to the same account.
    assert other.post("/api/session", json={"name": "Pavel", "password": "the first secret"})
    assert other.get("/api/session").json()["account"] == {"name": "Pavel"}
    page.click("[data-key=change-password]")
    page.fill("#password-current", "not the first one")
    page.fill("#password-new", "the second secret")
    page.fill("#password-again", "the second secret")
    page.click("[data-key=password-submit]")
    alert = page.wait_for_selector("details .error")
    assert "The current password is wrong." in (alert.text_content() or "")
    page.fill("#password-current", "the first secret")
    page.fill("#password-again", "the second secreT")
    page.click("[data-key=password-submit]")
    page.wait_for_selector("details .error:has-text('differ')")
    page.fill("#password-again", "the second secret")
    page.click("[data-key=password-submit]")
    done = page.wait_for_selector("details [role=status]")
    assert "other browsers and devices are signed out" in (done.text_content() or "")
    shot(page, "accounts-password-changed-laptop")
    assert other.get("/api/session").json()["account"] is None
    assert page.evaluate("() => fetch('/api/session').then(r => r.json())")["account"]
    r = httpx.post(f"{server}/api/session", json={"name": "Pavel", "password": "the second secret"})
    assert r.status_code == 200
    page.set_viewport_size(PHONE)
    page.reload()
    page.click("[data-key=change-password]")
    page.wait_for_selector("#password-current")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    shot(page, "accounts-password-phone")
    other.close()


def test_the_leaderboard_shows_a_levels_measure_once_it_has_enough_games(
    page: Any, server: str
) -> None:
    real = httpx.get(f"{server}/api/leaderboard?edition=classic", timeout=10).json()
    assert real["measured_min"] >= 1 and set(real["bots_measured"]) == set(real["bots"])
    board = dict(real)
    board["bots_measured"] = {
        level: {**m, "games": 12, "rating": None, "mu": None, "sigma": None}
        for level, m in real["bots_measured"].items()
    }
    board["bots_measured"]["hard"] = {
        **real["bots_measured"]["hard"], "games": 31, "rating": 1234, "mu": 20.57, "sigma": 2.1,
    }  # fmt: skip

    def answer(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(board))

    page.route("**/api/leaderboard?*", answer)
    page.goto("/leaderboard")
    item = page.wait_for_selector("[data-key=bot-measured] li[data-level=hard]")
    text = (item.text_content() or "").replace("\u2068", "").replace("\u2069", "")
    assert text.endswith("· measured against people: 31 games, about 1,230"), text
    assert page.query_selector("[data-key=bot-measured] li[data-level=easy]") is None
    shot(page, "accounts-leaderboard-measured-laptop")


def test_a_won_game_has_its_own_word_beside_the_column_of_wins() -> None:
    ru = json.loads((I18N / "ru.json").read_text(encoding="utf-8"))
    assert (ru["games_won"], ru["game_won"]) == ("Победы", "Победа")
    js = (I18N.parent / "js" / "account.js").read_text(encoding="utf-8")
    assert 'icon("crown"), " ", t("game_won")' in js
