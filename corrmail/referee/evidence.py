"""What the referee sees on a case page: the letters, the time chart (table and plot), the board
and the players' analyses side by side.

The chart is `timekeeping`'s, recomputed from the letters ledger; the board is `notation`'s,
replayed from the same ledger. Nothing here is stored: the evidence is always the archive as it
now reads (corrections included, 002 §4.2.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from flask_babel import gettext as _

from adjudication import Adjudication, Evidence, Side, Submission
from corrmail.games.page import inline_svg
from corrmail.games.view import GameView, UnsupportedGameType
from corrmail.letters.recipients import plays_by_email
from corrmail.models import Game
from corrmail.referee.results import outcome_of
from notation.game_position import GamePosition, position_from_fen
from notation.letters import LegalMove, read_move
from notation.rules import Color
from notation.short import format_short
from notation.svg import board_svg
from timekeeping import TimeChart

__all__ = ["GameEvidence", "PositionReading", "SidePieces", "analyses_side_by_side",
           "board_diagram", "chart_svg", "game_evidence", "game_record_text", "position_reading"]


@dataclass(frozen=True)
class GameEvidence:
    """The evidence of one game; ``problem`` says why a part could not be computed."""

    board_svg: str | None
    chart: TimeChart | None
    chart_svg: str | None
    problem: str = ""


def board_diagram(game: Game) -> str | None:
    """The current position as SVG (every game type, column stacks included), or ``None`` when
    the game's ledger cannot be replayed."""
    try:
        position = GameView(game).position
    except (UnsupportedGameType, ValueError):
        return None
    return _diagram(game, position)


def _diagram(game: Game, position: GamePosition) -> str:
    return board_svg(position, title=f"{game.white.player.name} — {game.black.player.name}")


@dataclass(frozen=True)
class SidePieces:
    """One side's pieces by square name, in the board's own naming: its men, then its kings
    (in column draughts, the columns it commands: the top piece owns the column)."""

    men: tuple[str, ...]
    kings: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.men) + len(self.kings)


@dataclass(frozen=True)
class PositionReading:
    """A position as a referee reads it: the diagram, whose move it is and each side's pieces,
    with the FEN it was read from."""

    svg: str
    to_move: str
    """``white`` or ``black``."""
    white: SidePieces
    black: SidePieces
    fen: str


def position_reading(game: Game, fen: str) -> PositionReading | None:
    """The position ``fen`` of ``game`` (an adjudication's end-of-play diagram, 002 §4.5.2) drawn
    as the case materials draw the position now (:func:`board_diagram`); ``None`` when the FEN does not read for the game's type."""
    try:
        view = GameView(game)
        position = position_from_fen(fen, view.board_type,
                                     game.tournament.rule_options or None)
    except ValueError:  # no rules engine for the type, a bad option or a FEN that does not read
        return None
    pieces = sorted(position.pieces().items())
    name = position.geometry.name

    def side(colour: Color) -> SidePieces:
        return SidePieces(
            men=tuple(name(square) for square, piece in pieces
                      if piece.color is colour and not piece.king),
            kings=tuple(name(square) for square, piece in pieces
                        if piece.color is colour and piece.king),
        )

    return PositionReading(
        svg=inline_svg(_diagram(game, position)),
        to_move=position.turn.value,
        white=side(Color.WHITE),
        black=side(Color.BLACK),
        fen=fen,
    )


def game_record_text(game: Game) -> str:
    """The game record in short notation (002 §4.5.1): ``1. cd4 fg5 2. … 1-0``."""
    view = GameView(game)
    words: list[str] = []
    for index, ply in enumerate(view.plies):
        position = view.positions[index]
        reading = read_move(position, ply)
        if not isinstance(reading, LegalMove):  # the ledger only holds legal moves
            raise ValueError(f"game {game.id}: ply {index + 1} {ply!r} is not legal")
        text = format_short(position, reading.move)
        words.append(f"{index // 2 + 1}. {text}" if index % 2 == 0 else text)
    outcome = outcome_of(game)
    return f"{' '.join(words)} {outcome.symbol if outcome is not None else '*'}".strip()


def game_evidence(game: Game) -> GameEvidence:
    problems: list[str] = []
    try:
        chart: TimeChart | None = GameView(game).chart()
    except (UnsupportedGameType, ValueError) as error:
        chart = None
        problems.append(str(error))
    return GameEvidence(
        board_svg=board_diagram(game),
        chart=chart,
        chart_svg=chart_svg(chart) if chart is not None and chart.rows else None,
        problem="; ".join(problems),
    )


def chart_svg(chart: TimeChart, *, width: int = 560, height: int = 220) -> str:
    """Both players' day totals after each letter against the limit (002 §4.3.1, §4.3.5).

    A step plot: x is the letter number, y the days used; the dashed line is the most a player
    may have used after the moves counted so far. An overstep is the point above the line.
    """
    rows = chart.rows
    margin = 36
    top = max([row.limit for row in rows] + [row.white_total for row in rows]
              + [row.black_total for row in rows] + [1])
    span_x = max(len(rows), 1)

    def x(index: int) -> float:
        return margin + (width - 2 * margin) * index / span_x

    def y(days: int) -> float:
        return height - margin - (height - 2 * margin) * days / top

    def path(values: list[int]) -> str:
        points = [f"{x(0):.1f},{y(0):.1f}"]
        for index, value in enumerate(values, start=1):
            points.append(f"{x(index):.1f},{y(value):.1f}")
        return " ".join(points)

    white = [row.white_total for row in rows]
    black = [row.black_total for row in rows]
    limit = [row.limit for row in rows]
    # Its name for a screen reader, in the reader's language like the legend.
    name = escape(_("time chart"), {'"': "&quot;"})
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{name}">',
        f"<title>{name}</title>",
        f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" '
        f'y2="{height - margin}" stroke="#444"/>',
        f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="#444"/>',
        f'<text x="4" y="{margin}" font-size="11">{top}</text>',
        f'<text x="4" y="{height - margin}" font-size="11">0</text>',
        f'<polyline fill="none" stroke="#999" stroke-dasharray="4 3" points="{path(limit)}"/>',
        f'<polyline fill="none" stroke="#1f6feb" stroke-width="2" points="{path(white)}"/>',
        f'<polyline fill="none" stroke="#222" stroke-width="2" points="{path(black)}"/>',
    ]
    if chart.overstep is not None:
        over = chart.overstep
        index = next((i for i, row in enumerate(rows, 1) if row.letter == over.letter), len(rows))
        parts.append(
            f'<circle cx="{x(index):.1f}" cy="{y(over.total):.1f}" r="5" fill="#d1242f">'
            f"<title>{escape(_('White') if over.player.value == 'white' else _('Black'))}: "
            f"{over.total} &gt; {over.limit}</title></circle>"
        )
    legend_y = height - 8
    # The legend in the reader's language (the same words as the game page's plot).
    parts.extend([
        f'<text x="{margin}" y="{legend_y}" font-size="11" fill="#1f6feb">'
        f'{escape(_("White"))}</text>',
        f'<text x="{margin + 70}" y="{legend_y}" font-size="11" fill="#222">'
        f'{escape(_("Black"))}</text>',
        f'<text x="{margin + 140}" y="{legend_y}" font-size="11" fill="#999">'
        f'{escape(_("limit"))}</text>',
        "</svg>",
    ])
    return "".join(parts)


@dataclass(frozen=True)
class AnalysisPair:
    white: Submission | None
    black: Submission | None
    white_in_time: bool
    black_in_time: bool


def analyses_side_by_side(case: Adjudication) -> AnalysisPair:
    return AnalysisPair(
        case.submission(Side.WHITE),
        case.submission(Side.BLACK),
        case.sent_in_time(Side.WHITE),
        case.sent_in_time(Side.BLACK),
    )


def server_held_evidence(game: Game, claimant: Side, *, notice_sent: bool) -> frozenset[Evidence]:
    """The materials of an overstep claim (002 §4.3.6) the server itself holds for ``game``.

    The ledger is the record of the game: the server writes the game record with the held reply
    and recomputes the time chart from the letters' dates, so these two are always present. The
    offender's letters are present when they reached the claimant through the server (he plays
    by e-mail or on the web) or every one of them is in the ledger with its dispatch date (postcards
    entered with their dates). The notice of the overstep is present when the server sent it.
    Registered-mail receipts of a postal game are paper the server never holds (002 §4.3.4): the
    referee records those himself (docs/rules/referee.md)."""
    held = {Evidence.GAME_RECORD, Evidence.TIME_CHART}
    offender = game.black if claimant is Side.WHITE else game.white
    letters = [letter for letter in game.letters if letter.sender_id == offender.id]
    if plays_by_email(offender) or all(letter.sent is not None for letter in letters):
        held.add(Evidence.OFFENDER_LETTERS)
    if notice_sent:
        held.add(Evidence.OVERSTEP_NOTICE)
    return frozenset(held)
