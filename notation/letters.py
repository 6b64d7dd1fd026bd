"""Moves as written in a letter, judged as a referee applying 002 §4.2 would.

:func:`read_move` never raises for anything a player can write: it returns a
:class:`LegalMove`, an :class:`ImpossibleMove` carrying its §4.2.10 resolution, or an
:class:`IllegibleMove`.  :func:`read_moves` reads a numbered line such as ``12. c3-d4 f6-g5``
or ``12... f6-g5``; a wrong move number is a warning naming the right one (002 §4.2.14).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from notation.errors import (
    AmbiguousMoveError,
    IllegibleMoveError,
    NoSuchMoveError,
)
from notation.full import resolve_written
from notation.game_position import GamePosition, initial_position
from notation.geometry import Square, UnknownSquareError
from notation.move import Move
from notation.rules import Color, GameType
from notation.written import MAX_MOVE_LENGTH, WrittenMove, WrittenShortMove, read_written


class ImpossibleCause(enum.Enum):
    """Why a readable move is impossible."""

    SHORT_NOTATION = "written in short notation (002 §4.2.2)"
    ILLEGAL = "contradicts the rules of the game (002 §4.2.10)"
    CAPTURE_OMITTED = "a capture is compulsory (002 §4.2.10)"
    AMBIGUOUS = "fits several legal moves (002 §4.2.10)"
    NOT_A_PLAYING_SQUARE = "names a square that is not a playing square (002 §4.2.10)"


class ReplaceReason(enum.Enum):
    """Why the sender, not the recipient, must replace an impossible move (002 §4.2.10)."""

    SEVERAL_MOVES = "the piece on the named square has several moves"
    NO_MOVE = "the piece on the named square has no move"
    EMPTY_SQUARE = "there is no piece on the named square"
    OPPONENTS_PIECE = "the piece on the named square is not the mover's"
    NO_START_SQUARE = "no start square is named"


@dataclass(frozen=True)
class SingleMoveSubstituted:
    """The named piece has exactly one legal move: the recipient names it and answers it."""

    move: Move
    rule: str = "002 §4.2.10"


@dataclass(frozen=True)
class SenderMustReplace:
    """The sender replaces the move; days for thinking and correction count against them."""

    reason: ReplaceReason
    rule: str = "002 §4.2.10"


Resolution = SingleMoveSubstituted | SenderMustReplace


@dataclass(frozen=True)
class NotationWarning:
    """Something the partner must point out, which does not stop play."""

    message: str
    rule: str


@dataclass(frozen=True)
class LegalMove:
    text: str
    move: Move
    warnings: tuple[NotationWarning, ...] = ()


@dataclass(frozen=True)
class ImpossibleMove:
    """A readable move that is impossible (002 §4.2.10), with its resolution."""

    text: str
    cause: ImpossibleCause
    resolution: Resolution
    start: Square | None = None

    @property
    def rule(self) -> str:
        return "002 §4.2.2" if self.cause is ImpossibleCause.SHORT_NOTATION else "002 §4.2.10"


@dataclass(frozen=True)
class IllegibleMove:
    """Text that cannot be read as a move (002 §4.2.5, §4.2.9)."""

    text: str
    reason: str
    rule: str = "002 §4.2.5"


MoveReading = LegalMove | ImpossibleMove | IllegibleMove


def resolve_impossible(position: GamePosition, start: Square | None) -> Resolution:
    """002 §4.2.10: the single move of the piece on ``start``, or a replacement by the sender."""
    if start is None:
        return SenderMustReplace(ReplaceReason.NO_START_SQUARE)
    piece = position.piece_at(start)
    if piece is None:
        return SenderMustReplace(ReplaceReason.EMPTY_SQUARE)
    if piece.color is not position.turn:
        return SenderMustReplace(ReplaceReason.OPPONENTS_PIECE)
    moves = position.moves_from(start)
    if len(moves) == 1:
        return SingleMoveSubstituted(moves[0])
    return SenderMustReplace(
        ReplaceReason.SEVERAL_MOVES if moves else ReplaceReason.NO_MOVE
    )


def _impossible(position: GamePosition, text: str, cause: ImpossibleCause, start: Square | None) -> ImpossibleMove:
    return ImpossibleMove(text, cause, resolve_impossible(position, start), start)


def read_move(position: GamePosition, text: str) -> MoveReading:
    """Judge one move written in a letter for ``position``; never raises."""
    geometry = position.geometry
    try:
        written = read_written(text, geometry)
    except IllegibleMoveError as error:
        return IllegibleMove(text, error.reason)
    if isinstance(written, WrittenShortMove):
        return _impossible(position, text, ImpossibleCause.SHORT_NOTATION, None)
    return _judge_full(position, written)


def legal_move_named(position: GamePosition, text: str) -> Move | None:
    """The move of ``position`` that ``text`` names when :func:`read_move` reads it as a
    :class:`LegalMove`, else None — without working out why it is not legal and what may
    replace it, which a caller only comparing the text with a known move does not need."""
    try:
        written = read_written(text, position.geometry)
        if isinstance(written, WrittenShortMove):
            return None
        position.geometry.parse_square(written.squares[0])
        return resolve_written(position, written).move
    except (IllegibleMoveError, UnknownSquareError, AmbiguousMoveError, NoSuchMoveError):
        return None


def _judge_full(position: GamePosition, written: WrittenMove) -> MoveReading:
    geometry = position.geometry
    text = written.text
    try:
        start: Square | None = geometry.parse_square(written.squares[0])
    except UnknownSquareError:
        return _impossible(position, text, ImpossibleCause.NOT_A_PLAYING_SQUARE, None)
    try:
        reading = resolve_written(position, written)
    except UnknownSquareError:
        return _impossible(position, text, ImpossibleCause.NOT_A_PLAYING_SQUARE, start)
    except AmbiguousMoveError:
        return _impossible(position, text, ImpossibleCause.AMBIGUOUS, start)
    except NoSuchMoveError:
        cause = ImpossibleCause.ILLEGAL
        if not written.capture and position.capture_compulsory():
            cause = ImpossibleCause.CAPTURE_OMITTED
        return _impossible(position, text, cause, start)
    warnings = tuple(NotationWarning(remark, "002 §4.2.2") for remark in reading.remarks)
    return LegalMove(text, reading.move, warnings)


# -- numbered lines ---------------------------------------------------------------------------

_NUMBER = re.compile(r"^\s*(\d{1,4})\s*(\.\.\.|…|\.)?\s*")


@dataclass(frozen=True)
class LineReading:
    """The moves of one numbered line, each judged; reading stops after a non-legal move."""

    readings: tuple[MoveReading, ...]
    warnings: tuple[NotationWarning, ...] = ()
    positions: tuple[GamePosition, ...] = field(default=(), repr=False)
    """Position after each legal move, in order."""

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(r.move for r in self.readings if isinstance(r, LegalMove))

    @property
    def all_legal(self) -> bool:
        return all(isinstance(r, LegalMove) for r in self.readings)


def move_number(plies_played: int, first_turn: Color = Color.WHITE) -> int:
    """The move number of the next move after ``plies_played`` plies from the start."""
    offset = 0 if first_turn is Color.WHITE else 1
    return (plies_played + offset) // 2 + 1


def read_moves(position: GamePosition, text: str, *, expected_number: int | None = None) -> LineReading:
    """Read ``12. c3-d4 f6-g5``, ``12... f6-g5`` or bare moves, each judged in turn.

    ``expected_number`` is the number the next move should carry; a different written number
    gives a :class:`NotationWarning` naming the right one (002 §4.2.14), never an error.
    """
    if len(text) > MAX_MOVE_LENGTH * 4:
        return LineReading((IllegibleMove(text, "line too long"),))
    warnings: list[NotationWarning] = []
    readings: list[MoveReading] = []
    positions: list[GamePosition] = []
    rest = text.strip()
    for token_group in _split_numbered(rest):
        number, dots, moves_text = token_group
        if number is not None and expected_number is not None:
            expected = expected_number
            if number != expected:
                warnings.append(
                    NotationWarning(f"move number {number} should be {expected}", "002 §4.2.14")
                )
        if dots == "..." and position.turn is Color.WHITE:
            warnings.append(NotationWarning("'...' marks a Black move but White is to move", "002 §4.2.14"))
        for move_text in moves_text:
            reading = read_move(position, move_text)
            readings.append(reading)
            if not isinstance(reading, LegalMove):
                return LineReading(tuple(readings), tuple(warnings), tuple(positions))
            position = position.play(reading.move)
            positions.append(position)
        if expected_number is not None and position.turn is Color.WHITE:
            expected_number += 1
    return LineReading(tuple(readings), tuple(warnings), tuple(positions))


def _split_numbered(text: str) -> list[tuple[int | None, str | None, list[str]]]:
    groups: list[tuple[int | None, str | None, list[str]]] = []
    for chunk in re.split(r"(?=(?:^|\s)\d{1,4}\s*(?:\.\.\.|…|\.))", text):
        chunk = chunk.strip()
        if not chunk:
            continue
        match = _NUMBER.match(chunk)
        number: int | None = None
        dots: str | None = None
        if match and match.group(2):
            number = int(match.group(1))
            dots = "..." if match.group(2) in ("...", "…") else "."
            chunk = chunk[match.end():]
        groups.append((number, dots, _move_tokens(chunk)))
    return groups


def _move_tokens(text: str) -> list[str]:
    # Spaces around separators belong to the move ("c3 - d4"); other spaces separate moves.
    joined = re.sub(r"\s*([-:xх–—])\s*", r"\1", text.strip())
    tokens = (token.strip(",;.!?()«»\"'") for token in joined.split())
    return [token for token in tokens if token]


# -- games ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedGame:
    """A sequence of moves played from a position; stops at the first non-legal move."""

    positions: tuple[GamePosition, ...]
    readings: tuple[MoveReading, ...]

    @property
    def position(self) -> GamePosition:
        return self.positions[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(r.move for r in self.readings if isinstance(r, LegalMove))

    @property
    def complete(self) -> bool:
        return all(isinstance(r, LegalMove) for r in self.readings)


def play_moves(
    game_type: GameType, moves: Sequence[str], start: GamePosition | None = None
) -> PlayedGame:
    """Play full-notation moves from the initial position (or ``start``)."""
    position = start or initial_position(game_type)
    positions = [position]
    readings: list[MoveReading] = []
    for text in moves:
        reading = read_move(position, text)
        readings.append(reading)
        if not isinstance(reading, LegalMove):
            break
        position = position.play(reading.move)
        positions.append(position)
    return PlayedGame(tuple(positions), tuple(readings))


def forced_move(position: GamePosition) -> Move | None:
    """002 §4.2.4: the move is forced when the side to move has exactly one legal move."""
    return position.forced_move()
