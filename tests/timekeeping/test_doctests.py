"""The examples in the docstrings are run, so the documentation cannot drift from the code."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from timekeeping import breaks, control, dates, daycount


@pytest.mark.parametrize("module", [breaks, control, dates, daycount], ids=lambda module: module.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0
