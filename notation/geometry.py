"""Board geometry: playing squares, their names and the diagonals through them.

A board is ``size`` x ``size`` with a playing (dark) square in White's lower-left corner, so
a1 is a playing square on the 8x8 Russian board, the 10x10 international board and the 7x7
Lasca board alike.  Geometry knows nothing about pieces or rules; the engine and the column
draughts engine both build on it.

Squares are dense indices ``0 .. count-1`` counted row by row from White's side, left to right
as White sees the board (a1 is 0).  The engine works on a *padded* bit layout (one ghost
column per row, so a diagonal shift never wraps around an edge); :meth:`Geometry.bit` and
:meth:`Geometry.square_of_bit` translate between the two.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cached_property

Square = int
"""A playing square as a dense index, 0 = a1, counted row by row from White's side."""


class Direction(enum.IntEnum):
    """The four diagonal directions, named from White's point of view."""

    NORTH_EAST = 0
    NORTH_WEST = 1
    SOUTH_EAST = 2
    SOUTH_WEST = 3

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]

    @property
    def is_north(self) -> bool:
        return self in (Direction.NORTH_EAST, Direction.NORTH_WEST)


_OPPOSITE = {
    Direction.NORTH_EAST: Direction.SOUTH_WEST,
    Direction.SOUTH_WEST: Direction.NORTH_EAST,
    Direction.NORTH_WEST: Direction.SOUTH_EAST,
    Direction.SOUTH_EAST: Direction.NORTH_WEST,
}
_DIRECTION_STEPS = {
    Direction.NORTH_EAST: (1, 1),
    Direction.NORTH_WEST: (1, -1),
    Direction.SOUTH_EAST: (-1, 1),
    Direction.SOUTH_WEST: (-1, -1),
}


class NumberingOrigin(enum.Enum):
    """Where square 1 of the numeric notation lies."""

    BLACK_SIDE = "black-side"
    """FMJD / PDN: 1 is the leftmost playing square of Black's back row as White sees it
    (b10 on 10x10, b8 on 8x8), numbering row by row towards White."""
    WHITE_SIDE = "white-side"
    """Lasca: 1 is a1, numbering row by row away from White (column-draughts digest §4)."""


class SquareStyle(enum.Enum):
    """How square names are written."""

    ALGEBRAIC = "algebraic"
    NUMERIC = "numeric"


@dataclass(frozen=True)
class Geometry:
    """The playing squares of one board size and how they are named.

    ``files`` are the file letters from White's left.  The 10x10 board's files are ``a``–``j``
    by default; ``"abcdefghik"`` gives the older a–k without j.
    """

    size: int
    files: str
    numbering_origin: NumberingOrigin
    default_style: SquareStyle
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _numbers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.files) != self.size:
            raise ValueError(f"{self.size}x{self.size} board needs {self.size} file letters")
        names: list[str] = []
        coords: list[tuple[int, int]] = []
        for row in range(self.size):
            for col in range(self.size):
                if (row + col) % 2 == 0:
                    coords.append((row, col))
                    names.append(f"{self.files[col]}{row + 1}")
        per_row = [sum(1 for r, _ in coords if r == row) for row in range(self.size)]
        numbers: list[int] = []
        for row, col in coords:
            before = sum(1 for r, c in coords if r == row and c < col)
            if self.numbering_origin is NumberingOrigin.WHITE_SIDE:
                numbers.append(sum(per_row[:row]) + before + 1)
            else:
                numbers.append(sum(per_row[row + 1 :]) + before + 1)
        object.__setattr__(self, "_names", tuple(names))
        object.__setattr__(self, "_numbers", tuple(numbers))
        # Geometries key the parsers' caches; hashing enum fields on every lookup is slow.
        key = (self.size, self.files, self.numbering_origin.value, self.default_style.value)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    # -- squares --------------------------------------------------------------------------

    @property
    def count(self) -> int:
        """Number of playing squares."""
        return len(self._names)

    @property
    def squares(self) -> range:
        return range(self.count)

    @cached_property
    def _coords(self) -> tuple[tuple[int, int], ...]:
        return tuple(
            (row, col)
            for row in range(self.size)
            for col in range(self.size)
            if (row + col) % 2 == 0
        )

    @cached_property
    def _square_at(self) -> dict[tuple[int, int], Square]:
        return {coord: sq for sq, coord in enumerate(self._coords)}

    def row(self, square: Square) -> int:
        """Row from White's side, 0-based (rank minus one)."""
        return self._coords[square][0]

    def column(self, square: Square) -> int:
        """Column from White's left, 0-based."""
        return self._coords[square][1]

    def square_at(self, row: int, column: int) -> Square | None:
        """The playing square at (row, column), or None for a light square or off the board."""
        return self._square_at.get((row, column))

    def neighbour(self, square: Square, direction: Direction, distance: int = 1) -> Square | None:
        d_row, d_col = _DIRECTION_STEPS[direction]
        row, col = self._coords[square]
        return self.square_at(row + d_row * distance, col + d_col * distance)

    def ray(self, square: Square, direction: Direction) -> tuple[Square, ...]:
        """Squares along a diagonal from ``square`` (exclusive) to the edge."""
        return self._rays[square][direction]

    @cached_property
    def _rays(self) -> tuple[tuple[tuple[Square, ...], ...], ...]:
        rays = []
        for sq in self.squares:
            per_direction = []
            for direction in Direction:
                line: list[Square] = []
                distance = 1
                while (nxt := self.neighbour(sq, direction, distance)) is not None:
                    line.append(nxt)
                    distance += 1
                per_direction.append(tuple(line))
            rays.append(tuple(per_direction))
        return tuple(rays)

    # -- names ----------------------------------------------------------------------------

    def algebraic(self, square: Square) -> str:
        return self._names[square]

    def number(self, square: Square) -> int:
        return self._numbers[square]

    def name(self, square: Square, style: SquareStyle | None = None) -> str:
        style = style or self.default_style
        if style is SquareStyle.NUMERIC:
            return str(self._numbers[square])
        return self._names[square]

    @cached_property
    def _by_name(self) -> dict[str, Square]:
        table = {name: sq for sq, name in enumerate(self._names)}
        table.update({str(number): sq for sq, number in enumerate(self._numbers)})
        return table

    def parse_square(self, text: str) -> Square:
        """Square from ``c3`` or ``22`` (already normalised to lower-case Latin letters).

        Raises :class:`UnknownSquareError` (a ``ValueError``) for a light square or a name
        outside the board.
        """
        try:
            return self._by_name[text]
        except KeyError:
            raise UnknownSquareError(text, self) from None

    @cached_property
    def square_pattern(self) -> re.Pattern[str]:
        """Regex matching one square name in this geometry (algebraic or numeric)."""
        return re.compile(rf"[{self.files}](?:10|[1-9])|\d{{1,2}}")

    # -- padded bit layout used by the engine --------------------------------------------

    @property
    def padded_width(self) -> int:
        return self.size + 1

    def bit(self, square: Square) -> int:
        """Bit position of ``square`` in the engine's padded layout."""
        return self._bits[square]

    @property
    def bits(self) -> tuple[int, ...]:
        """The bit position of every square, in square order (:meth:`bit` of each)."""
        return self._bits

    @cached_property
    def _bits(self) -> tuple[int, ...]:
        return tuple(row * self.padded_width + col for row, col in self._coords)

    @cached_property
    def _square_by_bit(self) -> dict[int, Square]:
        return {self.bit(sq): sq for sq in self.squares}

    def square_of_bit(self, bit: int) -> Square:
        return self._square_by_bit[bit]

    def mask(self, squares: frozenset[Square] | set[Square] | tuple[Square, ...]) -> int:
        result = 0
        for sq in squares:
            result |= 1 << self.bit(sq)
        return result

    def squares_of_mask(self, mask: int) -> list[Square]:
        squares: list[Square] = []
        while mask:
            low = mask & -mask
            squares.append(self._square_by_bit[low.bit_length() - 1])
            mask ^= low
        return sorted(squares)

    def row_mask(self, row: int) -> int:
        return self.mask(tuple(sq for sq in self.squares if self.row(sq) == row))

    @cached_property
    def all_mask(self) -> int:
        return self.mask(tuple(self.squares))


class UnknownSquareError(ValueError):
    """A square name that does not denote a playing square of the board."""

    def __init__(self, text: str, geometry: Geometry) -> None:
        super().__init__(
            f"{text!r} is not a playing square of the {geometry.size}x{geometry.size} board"
        )
        self.text = text


BOARD_8X8 = Geometry(8, "abcdefgh", NumberingOrigin.BLACK_SIDE, SquareStyle.ALGEBRAIC)
BOARD_10X10 = Geometry(10, "abcdefghij", NumberingOrigin.BLACK_SIDE, SquareStyle.NUMERIC)
BOARD_10X10_OLD_FILES = Geometry(
    10, "abcdefghik", NumberingOrigin.BLACK_SIDE, SquareStyle.NUMERIC
)
"""The older 100-square algebraic naming, files a–k without j."""
BOARD_7X7 = Geometry(7, "abcdefg", NumberingOrigin.WHITE_SIDE, SquareStyle.NUMERIC)
