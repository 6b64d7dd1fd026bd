"""Errors raised by the notation parsers; each is a ``ValueError`` carrying the offending input."""

from __future__ import annotations


class NotationError(ValueError):
    """Base class: ``text`` is the input that could not be used."""

    rule: str = ""

    def __init__(self, text: str, reason: str) -> None:
        cited = f" ({self.rule})" if self.rule else ""
        super().__init__(f"{reason}: {_excerpt(text)!r}{cited}")
        self.text = text
        self.reason = reason


class IllegibleMoveError(NotationError):
    """Text that cannot be read as a move at all (002 §4.2.5: records must be legible)."""

    rule = "002 §4.2.5"


class ShortNotationError(NotationError):
    """A move written in short notation where full notation is required (002 §4.2.2)."""

    rule = "002 §4.2.2"


class AmbiguousMoveError(NotationError):
    """Text that fits more than one legal move."""


class NoSuchMoveError(NotationError):
    """Readable text naming no legal move in the position (002 §4.2.10)."""

    rule = "002 §4.2.10"


class FenError(NotationError):
    """A FEN string that does not describe a position."""


class VariantError(NotationError):
    """A conditional variant whose wording cannot be read (002 §4.2.7)."""

    rule = "002 §4.2.7"


def _excerpt(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
