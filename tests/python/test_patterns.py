"""The package's list of wait-state patterns is the analyzer's: docs/pattern-reference.md is generated
from its metric table (and checked by the docs_pattern_reference test)."""
import os
import re

from conftest import SOURCE
from waitscope.patterns import WAIT_STATE_PATTERNS


def test_the_patterns_are_the_pattern_references():
    with open(os.path.join(SOURCE, "docs", "pattern-reference.md"), encoding="utf-8") as f:
        listed = re.findall(r"^### .*\(`([a-z_0-9]*)`\)$", f.read(), re.M)
    assert list(WAIT_STATE_PATTERNS) == listed
