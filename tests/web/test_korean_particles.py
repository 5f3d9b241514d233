"""Korean particles in the browser's own strings (issue 26): a string the client fills in
itself, such as the notice «{name}이(가) 내 {character}을(를) 암살했습니다», shows the particle
each name takes, the same one the server's resolver (``korean_particles``) chooses for its own
texts: bot names with a level in brackets, names ending in digits, numbers, Hangul names with
and without a final consonant; after a Latin name both forms stay."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from citadels.present.i18n import korean_particles
from tests.web.conftest import LAPTOP

pytestmark = pytest.mark.xdist_group("korean")

NAMES = [
    "봇 2 (보통)", "봇 3 (보통)", "봇 1 (어려움)", "봇 10 (쉬움)", "지민", "서연", "한결",
    "1번 자리", "성", "시장", "도시", "30", "100", "7", "Anna", "Ben (2)", "「왕」", "‘영주’",
    "Chloé", "X", "", "(보통)", "김철수]", "12000", "3)",
]  # fmt: skip
TEMPLATES = ["{x}이(가) 왔습니다", "{x}을(를) 골랐습니다", "{x}은(는) 없습니다",
             "{x}와(과) {x}", "{x}(으)로 갑니다", "이(가) 앞에"]  # fmt: skip

RESOLVE = """async (cases) => {
  const { koreanParticles } = await import('/static/js/korean.js');
  return cases.map((text) => koreanParticles(text));
}"""

#: t() in Korean with a sentence's fields, as the client shows it (a key no table holds is shown
#: as itself, so the sentence is the key; the catalogs' own notices now write fixed particles).
NOTICE = """async () => {
  const strings = await import('/static/js/strings.js');
  await strings.setLanguage('ko');
  const text = strings.t('{name}이(가) 내 {character}을(를) 암살했습니다.',
                         {name: '봇 2 (보통)', character: '왕'});
  await strings.setLanguage('en');
  return text;
}"""


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    ctx = browser.new_context(viewport=LAPTOP, base_url=server)
    ctx.add_init_script("localStorage.setItem('citadels.lang', 'en');")
    p = ctx.new_page()
    p.set_default_timeout(20000)
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.goto("/")
    yield p
    ctx.close()
    assert errors == []


def test_the_client_chooses_each_particle_as_the_server_does(page: Any) -> None:
    cases = [t.replace("{x}", name) for name in NAMES for t in TEMPLATES]
    # The client isolates a filled-in name (FSI … PDI): the particle reads through the marks.
    isolated = [t.replace("{x}", f"\u2068{name}\u2069") for name in NAMES for t in TEMPLATES]
    assert page.evaluate(RESOLVE, cases) == [korean_particles(text) for text in cases]
    got = page.evaluate(RESOLVE, isolated)
    assert [g.replace("\u2068", "").replace("\u2069", "") for g in got] == [
        korean_particles(text) for text in cases
    ]
    assert korean_particles("봇 2 (보통)와(과) 지민을(를)") == "봇 2 (보통)와 지민을"
    assert korean_particles("Anna이(가)") == "Anna이(가)"


def test_a_sentence_the_client_fills_in_reads_with_one_particle(page: Any) -> None:
    text = page.evaluate(NOTICE).replace("\u2068", "").replace("\u2069", "")
    assert "(가)" not in text and "(를)" not in text and "(을)" not in text, text
    assert text.startswith("봇 2 (보통)가 내 왕을 "), text  # «2» is read 이: a vowel
