"""The wheel's build hook: compiles the engine with mypyc when the machine can (docs/api.md,
"The compiled engine").

A wheel built where a C compiler and the Python headers are present carries the compiled
build in ``citadels/_compiled`` (with its manifest, checked at import) and is tagged for this
interpreter and platform; elsewhere, or with ``CITADELS_PURE=1``, it is the pure-Python wheel.
Editable installs build nothing here: ``make install`` builds ``src/citadels/_compiled``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the mypyc-compiled engine to a standard wheel when it can be built."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("CITADELS_PURE", "").strip().lower() in ("1", "true", "yes", "on"):
            self.app.display_info("CITADELS_PURE is set: a pure-Python wheel")
            return
        spec = importlib.util.spec_from_file_location(
            "_build_compiled", ROOT / "tools" / "build_compiled.py"
        )
        assert spec is not None and spec.loader is not None
        builder = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(builder)
        missing = builder.missing_toolchain()
        if missing:
            self.app.display_warning(f"a pure-Python wheel: {missing}")
            return
        self._tmp = tempfile.TemporaryDirectory(prefix="citadels-wheel-")
        out = Path(self._tmp.name) / "_compiled"
        built = builder.build(ROOT / "src" / "citadels", out) == 0
        if not built or not (out / "manifest.json").exists():
            raise RuntimeError("building the compiled engine failed (CITADELS_PURE=1: skip it)")
        build_data["force_include"][str(out)] = "citadels/_compiled"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"compiled engine included ({sys.implementation.cache_tag})")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
