"""The default install is light: the engine and the command need neither Ray nor matplotlib."""

from __future__ import annotations

import subprocess
import sys

import pytest

from citadels.sim import report
from citadels.sim.tournament import parse_bots, run_tournament

HEAVY = ("ray", "matplotlib", "numpy")


def test_importing_the_package_and_the_cli_loads_no_heavy_dependency() -> None:
    code = (
        "import sys, citadels, citadels.cli, citadels.cli.app, citadels.sim.tournament, "
        "citadels.sim.report, citadels.bots\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_without_matplotlib_the_report_says_how_to_get_plots(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "plots_available", lambda: False)
    result = run_tournament("classic", parse_bots("random,random"), 2, seed=1)
    with pytest.raises(ValueError, match=r"pip install 'citadels\[plots\]'"):
        result.write(str(tmp_path), plots=True)
    written = result.write(str(tmp_path))
    assert sorted(p.rsplit("/", 1)[-1] for p in written) == ["games.csv", "summary.json"]


def test_the_ray_backend_without_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    with pytest.raises(ValueError, match=r"pip install 'citadels\[ray\]'"):
        run_tournament("classic", parse_bots("random,random"), 2, backend="ray")
