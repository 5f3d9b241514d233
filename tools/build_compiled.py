"""Build the mypyc-compiled engine into ``src/citadels/_compiled/`` (see docs/api.md,
"The compiled engine").

Run by ``make install`` (and by the wheel's build hook, ``hatch_build.py``) with the project's
interpreter; mypy (which ships mypyc) and setuptools must be importable. Without a C compiler
or the interpreter's headers it builds nothing, removes any earlier build, and says so: the
pure-Python engine then runs. The modules and the source hash come from
``citadels/compiled.py``, read by path (the package itself is not imported, so a stale build
can never take part in its own rebuild)::

    python tools/build_compiled.py [--package src/citadels] [--out DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_compiled(package: Path) -> ModuleType:
    """``citadels/compiled.py`` of ``package`` as a standalone module."""
    spec = importlib.util.spec_from_file_location("_citadels_compiled", package / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def missing_toolchain() -> str:
    """What is missing to compile C extensions here, or "" when nothing is."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    compiler = os.environ.get("CC", compiler).split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers ({include}/Python.h; install python3-dev)"
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as exc:
        return f"no {exc.name} (install the compiled extra: pip install -e '.[compiled]')"
    return ""


def compile_into(package: Path, compiled: ModuleType, staging: Path, work: Path) -> None:
    """Compile ``compiled.MODULES`` of ``package`` with mypyc; the extension modules land in
    ``staging`` laid out as the build directory (``engine/rules.<suffix>``, …)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    paths = [str(package / m) for m in compiled.MODULES]
    previous = Path.cwd()
    # mypy reads its configuration (strict, python_version) from the project's pyproject.
    os.chdir(package.parent.parent if (package.parent.parent / "pyproject.toml").exists() else ROOT)
    try:
        # One C file per module, compiled by as many compiler processes as there are cores:
        # about half the time of one big file on two cores. No debug information (smaller).
        # The C compiler's -O1: a third less compile time than -O3 (26 s of CPU against 40 s
        # for the 21 modules) and the same speed in `citadels bench` (classic: 1,342-1,458
        # games/s at -O1, 1,406-1,463 at -O3, on the same machine).
        extensions = mypycify(
            paths,
            opt_level="1",
            debug_level="0",
            multi_file=True,
            group_name=compiled.GROUP,
            target_dir=str(work / "c"),
        )
        dist = Distribution({"name": "citadels-compiled", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")
        cmd.build_temp = str(work / "temp")
        cmd.parallel = os.cpu_count() or 1
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(previous)
    suffix = compiled.extension_suffix()
    lib = work / "lib"
    for module in compiled.MODULES:
        stem = module.removesuffix(".py")
        target = staging / f"{stem}{suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(lib / "citadels" / f"{stem}{suffix}", target)
    shared = f"{compiled.GROUP}__mypyc{suffix}"
    shutil.copy2(lib / shared, staging / shared)


def build(package: Path, out: Path | None = None) -> int:
    """Build the compiled engine of ``package`` into ``out`` (default: its ``_compiled``)."""
    compiled = load_compiled(package)
    out = out or package / "_compiled"
    missing = missing_toolchain()
    if missing:
        shutil.rmtree(out, ignore_errors=True)
        print(f"compiled engine not built: {missing}; the pure-Python engine will run")
        return 0
    before = compiled.digest(package)
    if out == package / "_compiled" and not compiled.check(package, honour_env=False):
        (out / "manifest.json").touch()
        print(f"compiled engine up to date: {out}")
        return 0
    with tempfile.TemporaryDirectory(prefix="citadels-mypyc-") as tmp:
        staging = Path(tmp) / "staging"
        staging.mkdir()
        compile_into(package, compiled, staging, Path(tmp))
        if compiled.digest(package) != before:
            print("the sources changed during the build; run it again", file=sys.stderr)
            return 1
        manifest = {
            "digest": before,
            "suffix": compiled.extension_suffix(),
            "python": sys.version.split()[0],
            "modules": list(compiled.MODULES),
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(staging, out)
    print(f"compiled engine built: {len(compiled.MODULES)} modules in {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--package", type=Path, default=ROOT / "src" / "citadels")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--sources", action="store_true", help="list the sources the build depends on"
    )
    args = parser.parse_args(argv)
    if args.sources:
        compiled = load_compiled(args.package.resolve())
        print(" ".join(f"{args.package}/{m}" for m in (*compiled.MODULES, *compiled.DEPENDENCIES)))
        return 0
    return build(args.package.resolve(), args.out)


if __name__ == "__main__":
    raise SystemExit(main())
