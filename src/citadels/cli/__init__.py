"""The ``citadels`` command line (typer + rich); :func:`main` is its entry point."""

from citadels.cli.app import app, main

__all__ = ["app", "main"]
