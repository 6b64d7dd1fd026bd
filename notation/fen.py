"""PDN FEN: ``W:Wa1,c1,Kd4:Bb8,f8`` (algebraic on 8x8) or ``B:W31-50:B1-20`` (numeric on 10x10).

The first field is the side to move; each colour field lists its squares, ``K`` marking a king.
Numeric ranges (``31-50``) are read; a trailing ``.`` is ignored; the square style is detected
per square, so algebraic FEN is read on 10x10 as well.
"""

from __future__ import annotations

from notation.errors import FenError
from notation.geometry import Geometry, Square, SquareStyle, UnknownSquareError
from notation.position import Piece, Position
from notation.rules import Color, GameType, RuleSet


def format_fen(position: Position, *, style: SquareStyle | None = None) -> str:
    geometry = position.geometry
    numeric = (style or geometry.default_style) is SquareStyle.NUMERIC
    pieces = position.pieces()
    fields = ["W" if position.turn is Color.WHITE else "B"]
    for color, letter in ((Color.WHITE, "W"), (Color.BLACK, "B")):
        squares = sorted(
            (sq for sq, piece in pieces.items() if piece.color is color),
            key=geometry.number if numeric else None,
        )
        names = [("K" if pieces[sq].king else "") + geometry.name(sq, style) for sq in squares]
        fields.append(letter + ",".join(names))
    return ":".join(fields)


def parse_fen(text: str, game: GameType | RuleSet) -> Position:
    """The position ``text`` describes; raises :class:`FenError` naming the first fault."""
    rules = game.rules if isinstance(game, GameType) else game
    geometry = rules.geometry
    cleaned = "".join(text.split()).rstrip(".")
    if cleaned.startswith('[FEN"') and cleaned.endswith('"]'):
        cleaned = cleaned[5:-2]
    cleaned = cleaned.strip('"')
    parts = cleaned.split(":")
    if not parts or parts[0].upper() not in ("W", "B"):
        raise FenError(text, "FEN must start with the side to move, W or B")
    turn = Color.WHITE if parts[0].upper() == "W" else Color.BLACK
    pieces: dict[Square, Piece] = {}
    seen_colors: set[str] = set()
    for part in parts[1:]:
        if not part:
            continue
        color_letter = part[0].upper()
        if color_letter not in ("W", "B"):
            raise FenError(text, f"colour field {part!r} must start with W or B")
        if color_letter in seen_colors:
            raise FenError(text, f"colour {color_letter} listed twice")
        seen_colors.add(color_letter)
        color = Color.WHITE if color_letter == "W" else Color.BLACK
        for item in filter(None, part[1:].split(",")):
            king = item[0] in "Kk"
            name = item[1:] if king else item
            for square in _expand(text, name.lower(), geometry):
                if square in pieces:
                    raise FenError(text, f"square {geometry.name(square)} is listed twice")
                pieces[square] = Piece(color, king)
    return Position.from_pieces(rules, pieces, turn)


def _expand(text: str, name: str, geometry: Geometry) -> list[Square]:
    try:
        if "-" in name:
            low, high = name.split("-", 1)
            if not (low.isdigit() and high.isdigit()) or int(low) > int(high):
                raise FenError(text, f"bad range {name!r}")
            return [geometry.parse_square(str(n)) for n in range(int(low), int(high) + 1)]
        return [geometry.parse_square(name)]
    except UnknownSquareError as error:
        raise FenError(text, f"{error.text!r} is not a playing square") from None

