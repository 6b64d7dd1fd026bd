"""SVG board diagrams with coordinates, for adjudication files and letters.

The board is drawn from White's side.  Algebraic boards get file letters and rank numbers in
the margin; numeric boards (10x10, Lasca) get each playing square's number in its corner.
The last move can be marked: its start and end squares shaded, its route drawn as a line.
"""

from __future__ import annotations

from functools import cache
from html import escape

from notation.columns.position import ColumnPosition
from notation.columns.svg import columns_svg
from notation.game_position import GamePosition
from notation.geometry import Geometry, Square, SquareStyle
from notation.move import Move
from notation.rules import Color

_LIGHT = "#f0d9b5"
_DARK = "#b58863"
_MARK = "#e8c547"


@cache
def _background(geometry: Geometry, square_size: int, style: SquareStyle
                ) -> tuple[tuple[tuple[Square | None, str, str], ...], tuple[str, ...]]:
    """What every diagram of a board draws before its pieces, made once per board: each square
    (row by row from White's side) as ``(square, its rect, its rect marked as the last move's)``,
    and the coordinate labels."""
    size = geometry.size
    margin = square_size // 2
    side = size * square_size + 2 * margin
    squares = []
    for row in range(size):
        for col in range(size):
            x = margin + col * square_size
            y = margin + (size - 1 - row) * square_size
            square = geometry.square_at(row, col)
            rect = '<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}"/>'.format
            squares.append((
                square,
                rect(x=x, y=y, size=square_size, fill=_LIGHT if square is None else _DARK),
                rect(x=x, y=y, size=square_size, fill=_LIGHT if square is None else _MARK),
            ))
    labels = []
    label_size = max(8, square_size // 4)
    if style is SquareStyle.ALGEBRAIC:
        for index in range(size):
            x = margin + index * square_size + square_size // 2
            y = margin + (size - index) * square_size - square_size // 2
            labels.append(
                f'<text x="{x}" y="{side - margin // 3}" font-size="{label_size}" '
                f'text-anchor="middle">{geometry.files[index]}</text>'
            )
            labels.append(
                f'<text x="{margin // 2}" y="{y + label_size // 3}" font-size="{label_size}" '
                f'text-anchor="middle">{index + 1}</text>'
            )
    else:
        for square in geometry.squares:
            x = margin + geometry.column(square) * square_size
            y = margin + (size - 1 - geometry.row(square)) * square_size
            labels.append(
                f'<text x="{x + 2}" y="{y + label_size}" font-size="{label_size}" '
                f'fill="#fff">{geometry.number(square)}</text>'
            )
    return tuple(squares), tuple(labels)


def board_svg(
    position: GamePosition,
    *,
    last_move: Move | None = None,
    square_size: int = 40,
    style: SquareStyle | None = None,
    title: str | None = None,
) -> str:
    """The position as a standalone SVG document."""
    geometry = position.geometry
    style = style or geometry.default_style
    size = geometry.size
    margin = square_size // 2
    side = size * square_size + 2 * margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side}" height="{side}" font-family="sans-serif">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    marked: set[Square] = {last_move.start, last_move.end} if last_move else set()

    def corner(square: Square) -> tuple[int, int]:
        x = margin + geometry.column(square) * square_size
        y = margin + (size - 1 - geometry.row(square)) * square_size
        return x, y

    squares, labels = _background(geometry, square_size, style)
    parts.extend([marked_rect if square in marked else rect
                  for square, rect, marked_rect in squares])
    parts.extend(labels)
    radius = square_size * 0.38
    # Column draughts: stacks are drawn by notation.columns.svg.
    if isinstance(position, ColumnPosition):
        parts.extend(columns_svg(position, corner, square_size))
    lone_pieces = {} if isinstance(position, ColumnPosition) else position.pieces()
    for square, piece in sorted(lone_pieces.items()):
        x, y = corner(square)
        cx, cy = x + square_size / 2, y + square_size / 2
        fill, stroke = ("#fff", "#000") if piece.color is Color.WHITE else ("#222", "#ddd")
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="2" class="{piece.color.value}{" king" if piece.king else ""}"/>'
        )
        if piece.king:
            parts.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius / 2:g}" fill="none" '
                f'stroke="{stroke}" stroke-width="2"/>'
            )
    if last_move and len(last_move.route) >= 2:
        points = " ".join(
            f"{corner(sq)[0] + square_size / 2:g},{corner(sq)[1] + square_size / 2:g}"
            for sq in last_move.route
        )
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="#d22" stroke-width="3" '
            f'stroke-opacity="0.8" class="last-move"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
