"""Helpers for the column-draughts tests: the test-only oracle and move listings."""

from __future__ import annotations

import sys
from pathlib import Path

# The oracle (column_oracle.py) is a plain module next to the tests, not part of the package.
sys.path.insert(0, str(Path(__file__).parent))
