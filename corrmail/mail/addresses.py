"""Addresses read from received headers, each header text parsed once per process.

``email.utils.getaddresses`` parses an address list character by character in Python, and the
intake read the same ``From`` twice a letter (the automation check, the sender) and the same
``To`` — a player's reply address, the same for every letter of his game — with each letter.
The parse is a function of the text alone, so it is kept (bounded; long, hostile values are
parsed each time and not kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from email.utils import getaddresses
from functools import lru_cache

__all__ = ["addresses_in"]

_LONGEST_KEPT = 998


def addresses_in(values: Sequence[str]) -> list[tuple[str, str]]:
    """``getaddresses(values)``: the (name, address) pairs of these header values."""
    key = tuple(values)
    if sum(len(value) for value in key) > _LONGEST_KEPT:
        return getaddresses(list(key))
    return list(_kept(key))


@lru_cache(maxsize=4096)
def _kept(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple(getaddresses(list(values)))
