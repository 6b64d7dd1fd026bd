"""Column-draughts tests: make column_oracle.py and column_helpers.py importable by name."""

from __future__ import annotations

import sys
from pathlib import Path

# Plain modules next to the tests, named column_* so they cannot shadow another area's.
sys.path.insert(0, str(Path(__file__).parent))
