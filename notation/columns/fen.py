"""FEN for column draughts: PDN FEN with stacks.

``W:Wa1,Kc3,d4=bW:Bb8,f6=wwb`` — the side to move, then each colour's columns, where a colour
lists the columns whose *top* piece is its own.  A lone man is written as its square, a lone
king with ``K`` as in PDN FEN, and a column of several pieces as ``square=pieces``, bottom to
top, ``w``/``b`` for men and ``W``/``B`` for kings (digest §6): ``d4=bW`` is a white king on a
black man.  Lasca squares are numbers 1–25 (``W:W1-11:B15-25``); numeric ranges are read for
lone men.  A position without stacks is therefore also a valid PDN FEN.
"""

from __future__ import annotations

from notation.columns.position import ColumnError, ColumnPosition, check_column_code
from notation.columns.rules import ColumnRules
from notation.errors import FenError
from notation.geometry import Geometry, Square, SquareStyle, UnknownSquareError
from notation.rules import Color, GameType


def format_column_fen(position: ColumnPosition, *, style: SquareStyle | None = None) -> str:
    geometry = position.geometry
    numeric = (style or geometry.default_style) is SquareStyle.NUMERIC
    fields = ["W" if position.turn is Color.WHITE else "B"]
    for letters, field_letter in (("wW", "W"), ("bB", "B")):
        squares = sorted(
            (sq for sq, code in enumerate(position.board) if code and code[-1] in letters),
            key=geometry.number if numeric else None,
        )
        items = [_item(geometry.name(sq, style), position.board[sq]) for sq in squares]
        fields.append(field_letter + ",".join(items))
    return ":".join(fields)


def _item(name: str, code: str) -> str:
    if len(code) > 1:
        return f"{name}={code}"
    return f"K{name}" if code.isupper() else name


def parse_column_fen(text: str, game: GameType | ColumnRules) -> ColumnPosition:
    """The position ``text`` describes; raises :class:`FenError` naming the first fault."""
    rules = ColumnRules.default(game) if isinstance(game, GameType) else game
    geometry = rules.geometry
    cleaned = "".join(text.split()).rstrip(".")
    if cleaned.startswith('[FEN"') and cleaned.endswith('"]'):
        cleaned = cleaned[5:-2]
    parts = cleaned.strip('"').split(":")
    if parts[0].upper() not in ("W", "B"):
        raise FenError(text, "FEN must start with the side to move, W or B")
    turn = Color.WHITE if parts[0].upper() == "W" else Color.BLACK
    board = [""] * geometry.count
    seen: set[str] = set()
    for part in parts[1:]:
        if not part:
            continue
        letter = part[0].upper()
        if letter not in ("W", "B") or letter in seen:
            raise FenError(text, f"colour field {part!r} must start with W or B, once each")
        seen.add(letter)
        color = Color.WHITE if letter == "W" else Color.BLACK
        for item in filter(None, part[1:].split(",")):
            for square, code in _read_item(text, item, color, geometry):
                if board[square]:
                    raise FenError(text, f"square {geometry.name(square)} is listed twice")
                board[square] = code
    return ColumnPosition(rules, tuple(board), turn)


def _read_item(text: str, item: str, color: Color, geometry: Geometry) -> list[tuple[Square, str]]:
    man = "w" if color is Color.WHITE else "b"
    name, sep, code = item.partition("=")
    if sep:
        if not code:
            raise FenError(text, f"column {item!r} lists no pieces")
        try:
            check_column_code(code)
        except ColumnError as error:
            raise FenError(text, str(error)) from None
        if code[-1].lower() != man:
            raise FenError(
                text, f"column {item!r} is listed under {color.value} but its top piece is not"
            )
        return [(_square(text, name.lower(), geometry), code)]
    if name[:1] in "Kk":
        return [(_square(text, name[1:].lower(), geometry), man.upper())]
    if "-" in name:
        low, _, high = name.partition("-")
        if not (low.isdigit() and high.isdigit()) or int(low) > int(high):
            raise FenError(text, f"bad range {name!r}")
        return [(_square(text, str(n), geometry), man) for n in range(int(low), int(high) + 1)]
    return [(_square(text, name.lower(), geometry), man)]


def _square(text: str, name: str, geometry: Geometry) -> Square:
    try:
        return geometry.parse_square(name)
    except UnknownSquareError as error:
        raise FenError(text, f"{error.text!r} is not a playing square") from None
