"""Lexical reading of one written move: normalise the characters, split into square names.

This step knows the board's square names but not the position; deciding which legal move (if
any) the text names is :mod:`notation.full` and :mod:`notation.short`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from notation.errors import IllegibleMoveError, ShortNotationError
from notation.geometry import Geometry, UnknownSquareError

MAX_MOVE_LENGTH = 200
"""Longer text is not a move; 50 squares of a 10x10 capture fit easily."""

# 002 §4.2.2 asks players to write the letter «е» as «Е»: letters are read whatever their case,
# and the Cyrillic look-alikes of a, c, e (and х for the capture sign x) as their Latin twins.
_LOOK_ALIKES = str.maketrans(
    {
        "а": "a", "А": "a", "с": "c", "С": "c", "е": "e", "Е": "e", "х": "x", "Х": "x",
        "–": "-", "—": "-", "‒": "-", "−": "-", "‐": "-", "‑": "-", "×": "x",
    }
)


@dataclass(frozen=True)
class WrittenMove:
    """A move as written: square names in order and whether it is written as a capture."""

    text: str
    squares: tuple[str, ...]
    capture: bool
    mixed_separators: bool = False


@dataclass(frozen=True)
class WrittenShortMove:
    """Short notation (game records, 002 §4.5.1): origin file, destination square."""

    text: str
    origin_file: str
    destination: str
    capture: bool


def normalise(text: str) -> str:
    """Lower-case, Latin look-alikes, one kind of dash, ``x`` as ``:``, no inner spaces."""
    folded = text.strip().translate(_LOOK_ALIKES).lower()
    folded = re.sub(r"\s*([-:x])\s*", r"\1", folded)
    return folded.replace("x", ":")


def _square_re(geometry: Geometry) -> str:
    return rf"(?:[{geometry.files}](?:10|[1-9])|[1-9]\d?)"


@lru_cache(maxsize=8192)
def read_written(text: str, geometry: Geometry) -> WrittenMove | WrittenShortMove:
    """Split ``text`` into square names; raise :class:`IllegibleMoveError` if it is no move.

    Cached: game archives repeat the same few hundred move texts.
    """
    if len(text) > MAX_MOVE_LENGTH:
        raise IllegibleMoveError(text, f"longer than {MAX_MOVE_LENGTH} characters")
    folded = normalise(text)
    if not folded:
        raise IllegibleMoveError(text, "no move written")
    stray = sorted({ch for ch in folded if not (ch.isascii() and (ch.isalnum() or ch in "-:"))})
    if stray:
        raise IllegibleMoveError(text, f"unreadable characters {''.join(stray)!r}")
    square = _square_re(geometry)
    short = re.fullmatch(rf"([{geometry.files}])(:?)([{geometry.files}](?:10|[1-9]))", folded)
    if short:
        return WrittenShortMove(text, short.group(1), short.group(3), bool(short.group(2)))
    if not re.fullmatch(rf"{square}(?:[-:]{square})+", folded):
        raise IllegibleMoveError(text, "not squares joined by '-' or ':'")
    names = tuple(re.split(r"[-:]", folded))
    numeric = {name.isdigit() for name in names}
    if len(numeric) > 1:
        raise IllegibleMoveError(text, "mixes numeric and algebraic squares")
    separators = set(re.findall(r"[-:]", folded))
    return WrittenMove(text, names, ":" in separators, len(separators) > 1)


def read_full_only(text: str, geometry: Geometry) -> WrittenMove:
    """As :func:`read_written`, but short notation raises :class:`ShortNotationError`."""
    written = read_written(text, geometry)
    if isinstance(written, WrittenShortMove):
        raise ShortNotationError(text, "short notation is an impossible move in a letter")
    return written


def reads_as_move(text: str, geometry: Geometry) -> bool:
    """Whether ``text`` can be taken for a move on this board before any position is known.

    Letters mix moves with dates (``10-10-97``), clock times (``18:30``), scores (``2:0``) and
    house numbers; on numeric boards those are made of the same digits as moves. A token reads
    as a move when it is full notation whose squares are playing squares of ``geometry``, every
    step going along a diagonal to another square — the only way a piece travels. Whether the
    move is legal is for :mod:`notation.full` to judge against the position.
    """
    try:
        written = read_written(text, geometry)
    except IllegibleMoveError:
        return False
    if isinstance(written, WrittenShortMove):
        return False
    try:
        squares = [geometry.parse_square(name) for name in written.squares]
    except UnknownSquareError:
        return False
    for here, there in zip(squares, squares[1:], strict=False):
        rows = geometry.row(there) - geometry.row(here)
        columns = geometry.column(there) - geometry.column(here)
        if rows == 0 or abs(rows) != abs(columns):
            return False
    return True
