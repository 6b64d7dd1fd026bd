"""Columns in SVG diagrams: each stack drawn as a pile of discs, bottom to top.

:func:`notation.svg.board_svg` calls :func:`columns_svg` for column positions.  A lone piece
looks as on any other board; a column of several shows every piece as a flattened disc, the
bottom one lowest, the top piece (the owner) last and whole, kings ringed, with the column's
height in the corner and its full content, bottom to top, in a tooltip (``<title>``).
"""

from __future__ import annotations

from collections.abc import Callable

from notation.columns.position import ColumnPosition
from notation.geometry import Square
from notation.position import Piece
from notation.rules import Color

_FILL = {Color.WHITE: ("#fff", "#000"), Color.BLACK: ("#222", "#ddd")}


def columns_svg(
    position: ColumnPosition, corner: Callable[[Square], tuple[int, int]], square_size: int
) -> list[str]:
    """SVG elements for every column of ``position``; ``corner`` gives a square's top-left."""
    parts: list[str] = []
    for square, column in sorted(position.columns().items()):
        x, y = corner(square)
        name = position.geometry.name(square)
        parts.extend(_column(name, column, x, y, square_size))
    return parts


def _column(name: str, column: tuple[Piece, ...], x: int, y: int, size: int) -> list[str]:
    cx = x + size / 2
    radius = size * 0.38
    symbols = "".join(piece.symbol for piece in column)
    top = column[-1]
    classes = f"column {top.color.value}{' king' if top.king else ''}"
    parts = [f'<g class="{classes}" data-square="{name}" data-column="{symbols}">',
             f"<title>{name}: {symbols} (bottom to top)</title>"]
    if len(column) == 1:
        parts.extend(_disc(top, cx, y + size / 2, radius, radius))
    else:
        ry = radius * 0.45
        room = size * 0.84 - 2 * ry
        step = min(ry * 0.9, room / (len(column) - 1))
        bottom = y + size * 0.92 - ry
        for index, piece in enumerate(column):
            parts.extend(_disc(piece, cx, bottom - index * step, radius, ry))
        parts.append(
            f'<text x="{x + size - 2}" y="{y + size - 2}" font-size="{max(8, size // 4)}" '
            f'text-anchor="end" fill="#e8c547" class="height">{len(column)}</text>'
        )
    parts.append("</g>")
    return parts


def _disc(piece: Piece, cx: float, cy: float, rx: float, ry: float) -> list[str]:
    fill, stroke = _FILL[piece.color]
    kind = f"{piece.color.value}{' king' if piece.king else ''}"
    parts = [
        f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{rx:g}" ry="{ry:g}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2" class="{kind}"/>'
    ]
    if piece.king:
        parts.append(
            f'<ellipse cx="{cx:g}" cy="{cy:g}" rx="{rx / 2:g}" ry="{ry / 2:g}" fill="none" '
            f'stroke="{stroke}" stroke-width="2"/>'
        )
    return parts
