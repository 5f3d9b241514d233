"""The game's generator (``citadels.rng``) is SplitMix64 exactly, in both of its ways.

``rng`` computes SplitMix64 with plain Python ints when interpreted and on 32-bit halves in
mypyc's native ``i64`` when compiled (see its docstring). Both must give, for every state,
the numbers of the textbook formulas written below; the games depend on it seed for seed. The
checks run in this process's engine; the halves are also run interpreted (where the plain
formulas are the default), and the engine this process does not use is checked in a child.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citadels.engine
from citadels import compiled, rng

ROOT = Path(__file__).resolve().parent.parent
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def reference_next(state: int) -> tuple[int, int]:
    """SplitMix64 as usually written: the new state and its 64-bit output."""
    state = (state + GAMMA) % (1 << 64)
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
    return state, z ^ (z >> 31)


def reference_shuffle(state: int, items: list[Any]) -> int:
    """Fisher–Yates from the last item down, ``j = output % (i + 1)``."""
    for i in range(len(items) - 1, 0, -1):
        state, bits = reference_next(state)
        j = bits % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


#: States where a carry or a shift crosses the halves: 0, all ones, around 2**32, 2**62,
#: 2**63, and around the states whose increment wraps past 2**64.
EDGES: list[int] = sorted(
    {
        v & MASK
        for base in (0, 1 << 31, 1 << 32, 1 << 62, 1 << 63, MASK, (1 << 64) - GAMMA)
        for v in (base - 2, base - 1, base, base + 1)
    }
    | {0x00000000FFFFFFFF, 0xFFFFFFFF00000000, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA}
)

states = st.one_of(st.sampled_from(EDGES), st.integers(min_value=0, max_value=MASK))


def check_state(state: int) -> None:
    assert rng.next_state(state) == reference_next(state), hex(state)


def check_shuffle(state: int, length: int) -> None:
    mine, theirs = list(range(length)), list(range(length))
    assert rng.shuffle(state, mine) == reference_shuffle(state, theirs), (hex(state), length)
    assert mine == theirs, (hex(state), length)


def test_the_engine_picks_the_way_of_its_build() -> None:
    assert rng._INTERPRETED is not citadels.engine.COMPILED


@pytest.mark.parametrize("state", EDGES, ids=hex)
def test_edge_states(state: int) -> None:
    check_state(state)
    for length in (0, 1, 2, 3, 8, 66):
        check_shuffle(state, length)


@settings(max_examples=500, deadline=None)
@given(states)
def test_next_state_is_splitmix64(state: int) -> None:
    check_state(state)


@settings(max_examples=300, deadline=None)
@given(states, st.integers(min_value=0, max_value=120))
def test_shuffle_is_fisher_yates_on_splitmix64(state: int, length: int) -> None:
    check_shuffle(state, length)


def test_a_sequence_of_states_follows_the_reference() -> None:
    mine = theirs = rng.seed_state(20260501)
    for _ in range(10_000):
        (mine, bits), (theirs, expected) = rng.next_state(mine), reference_next(theirs)
        assert (mine, bits) == (theirs, expected)


def test_seed_state_keeps_the_low_64_bits() -> None:
    assert rng.seed_state(-1) == MASK
    assert rng.seed_state(1 << 64) == 0
    assert rng.seed_state(12345) == 12345


@pytest.fixture
def halves_interpreted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled build's arithmetic on halves, run as Python (pure engine only)."""
    if not rng._INTERPRETED:
        pytest.skip("rng is compiled: its halves already run natively in the other tests")
    monkeypatch.setattr(rng, "_INTERPRETED", False)
    yield


@pytest.mark.usefixtures("halves_interpreted")
def test_the_halves_match_the_reference_when_interpreted() -> None:
    generator = random.Random(12)
    for state in EDGES + [generator.getrandbits(64) for _ in range(3000)]:
        check_state(state)
        check_shuffle(state, generator.randrange(70))


@pytest.mark.usefixtures("halves_interpreted")
def test_lists_too_long_for_the_halves_use_the_plain_formulas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rng, "_HALVES_MAX_ITEMS", 10)
    for state in EDGES:
        check_shuffle(state, 10)  # on halves
        check_shuffle(state, 11)  # the plain formulas


# --- the other engine, in a child process --------------------------------------------------


def outputs(reference: bool = False, count: int = 20_000) -> str:
    """A digest of ``rng``'s outputs (or the reference's) over the edge states and ``count``
    random ones: every ``next_state``, and shuffles of lists of 0 to 79 items."""
    next_state, shuffle = (
        (reference_next, reference_shuffle) if reference else (rng.next_state, rng.shuffle)
    )
    generator = random.Random(2026)
    out: list[Any] = []
    for state in EDGES + [generator.getrandbits(64) for _ in range(count)]:
        items = list(range(generator.randrange(80)))
        out.append([next_state(state), shuffle(state, items), items])
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


def test_this_engine_gives_the_reference_outputs() -> None:
    assert outputs() == outputs(reference=True)


@pytest.mark.xdist_group("compiled")
def test_the_other_engine_gives_the_reference_outputs() -> None:
    reason = compiled.check(honour_env=False)
    if reason:
        pytest.skip(f"no usable compiled build, so no other engine: {reason}")
    env = dict(os.environ)
    env.pop(compiled.PURE_VARIABLE, None)
    if citadels.engine.COMPILED:
        env[compiled.PURE_VARIABLE] = "1"
    code = (
        "import json, citadels.engine, tests.test_rng as t; "
        "print(json.dumps([citadels.engine.COMPILED, t.rng._INTERPRETED, t.outputs()]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    child_compiled, child_interpreted, digest = json.loads(proc.stdout)
    assert child_compiled is not citadels.engine.COMPILED, "the child ran this engine"
    assert child_interpreted is not child_compiled
    assert digest == outputs(reference=True)
