"""``endgame_full`` tests build every 4-piece endgame table (a minute or more of CPU): they run
only when asked for, with ``-m endgame_full``, and are skipped otherwise."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "endgame_full" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="builds every 4-piece endgame table: run with -m endgame_full")
    for item in items:
        if item.get_closest_marker("endgame_full"):
            item.add_marker(skip)
