"""Settings of the whole test suite."""

from __future__ import annotations

import os

# The command line speaks the language of the environment (issue 11): the tests that expect
# English must get English on a machine set to another language. Tests of the language choice
# pass their own environment.
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
os.environ["LANGUAGE"] = "en"
