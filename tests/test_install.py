"""The default install is light: the engine and the command need neither Ray nor matplotlib."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import citadels
from citadels.cli import app
from citadels.sim import report
from citadels.sim.tournament import parse_bots, run_tournament

HEAVY = ("ray", "matplotlib", "numpy")
app_module = sys.modules["citadels.cli.app"]


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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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


ROOT = Path(__file__).resolve().parent.parent


def test_license_and_changelog_match_the_package() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["license"] == {"text": "MIT"}
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License")
    assert "The Citadels project contributors" in license_text
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog and f"## [{meta['version']}]" in changelog
    assert meta["version"] == citadels.__version__


def test_heavy_dependencies_are_extras() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(meta["dependencies"])
    assert "matplotlib" not in core and "ray" not in core
    extras = meta["optional-dependencies"]
    assert any(d.startswith("matplotlib") for d in extras["plots"])
    assert any(d.startswith("ray") for d in extras["ray"])


def test_simulate_out_without_matplotlib_says_how_to_get_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "plots_available", lambda: False)
    monkeypatch.setattr(app_module, "plots_available", lambda: False)
    result = CliRunner().invoke(
        app, ["simulate", "--bots", "random,random", "--games", "1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "pip install 'citadels[plots]'" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "summary.json"]
