"""What a game's page and the directors' dashboard read off a game: its clock, its moves in full
and short notation, and the geometry of the time-chart plot.

Every number comes from :mod:`timekeeping` (the chart, the reply clock, the repeat date) or
:mod:`notation` (positions, notations); this module only lays them out for the templates.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row
from sqlalchemy.orm import object_session

from corrmail.clock import NEAR_OVERSTEP_DAYS, ClockReading
from corrmail.games.chart_notes import chart_side
from corrmail.games.state import StoredClock, StoredGameState, stored_break_calendar
from corrmail.games.view import GameView
from corrmail.models import Break, Game, GameState
from notation.full import format_full
from notation.game_position import GamePosition
from notation.letters import LegalMove, read_move
from notation.move import Move
from notation.pdn import PdnGame, write_pdn
from notation.rules import GameType as BoardType
from notation.short import format_short
from notation.svg import board_svg
from timekeeping import NotToMoveError, Side, TimeChart, compute_chart, repeat_due_of, reply_clock

__all__ = [
    "NEAR_OVERSTEP_DAYS",
    "ChartPlot",
    "GameClock",
    "MoveRow",
    "PlotPoint",
    "board_at",
    "breaks_in_force",
    "chart_plot",
    "game_clock",
    "read_clock",
    "game_pdn",
    "inline_svg",
    "move_rows",
]

if TYPE_CHECKING:
    from corrmail.letters.repeats import RepeatsOnRecord

_OPEN = (GameState.NOT_STARTED, GameState.IN_PLAY)


@dataclass(frozen=True, kw_only=True)
class GameClock(ClockReading):
    """The clock of a game as of ``today``, with the time chart it was read from."""

    chart: TimeChart

    @property
    def chart_shows_overstep(self) -> bool:
        return self.chart.overstep is not None


def game_clock(view: GameView, today: dt.date, *, as_it_stood: bool = False) -> GameClock:
    """The clock of ``view``'s game on ``today``; no player is to move in a closed game, nor in
    one suspended until the referee's decision (002 §4.3.6). ``as_it_stood`` reads a suspended
    game's clock as it stood when play stopped (the referee's desk passes the day of the claim):
    the figures an overstep claim is judged by."""
    ledger = view.ledger()
    chart = compute_chart(ledger)
    game = view.game
    to_move: Side | None = None
    left: int | None = None
    safe: dt.date | None = None
    limit: int | None = None
    if game.state in _OPEN or (as_it_stood and game.state is GameState.SUSPENDED):
        mover = chart.rows[-1].sender.partner if chart.rows else Side.WHITE
        try:
            clock = reply_clock(ledger, mover, view.relayed_to_mover(), chart=chart)
        except NotToMoveError:
            pass
        else:
            to_move = mover
            left = clock.days_left(today)
            safe = clock.last_safe_reply_date()
            limit = clock.limit
    due = repeated_on = None
    if to_move is not None and chart.rows:
        from corrmail.letters.repeats import repeats_on_record

        due = repeat_due_of(ledger.letters[-1], chart.break_calendar)
        session = object_session(game)
        if session is not None:
            # Once the server repeated the move, the next repeat is due 30 days later (002 §4.3.4).
            repeats = repeats_on_record(session, tournament_id=game.tournament_id, game_id=game.id)
            repeated_on = repeats.last_sent(game.id, due)
            due = repeats.next_due(game.id, due, chart.break_calendar)
    return GameClock(to_move, chart.totals.white, chart.totals.black, left, safe, due, today,
                     limit, repeated_on, chart=chart)


def read_clock(game: Game, state: StoredGameState | Row[Any] | None, today: dt.date, *,
               repeats: RepeatsOnRecord | None = None) -> ClockReading:
    """The clock every page shows for ``game`` on ``today``: the game page's header, the
    player's home, the directors' dashboard and the API all read it here, so one game reads the
    same figures on each (days used with the running days of the side that owes the letter,
    days left, the overstep, the repeat date after the repeats on record, 002 §4.3.4–4.3.6).

    Read off the stored state when there is one (``state``), else the ledger replayed. Raises
    ValueError when the ledger's dates cannot be charted. ``repeats``: the tournament's repeats
    on record, read once for a page of many games; read for this game when not given.
    """
    if state is None:
        return game_clock(GameView(game), today)
    stored = StoredClock.of(state, today)
    if stored is None:
        raise ValueError(state.clock_problem)
    if stored.repeat_due is None:
        return stored
    if repeats is None:
        from corrmail.letters.repeats import repeats_on_record

        session = object_session(game)
        if session is None:
            return stored
        repeats = repeats_on_record(session, tournament_id=game.tournament_id, game_id=game.id)
    # Once the server repeated the move, the next repeat is due 30 days later (002 §4.3.4).
    repeated_on = repeats.last_sent(game.id, stored.repeat_due)
    if repeated_on is None:
        return stored
    return dataclasses.replace(
        stored, repeated_on=repeated_on,
        repeat_due=repeats.next_due(game.id, stored.repeat_due, stored_break_calendar(state)))


def breaks_in_force(game: Game, today: dt.date) -> list[Break]:
    """The players' breaks covering ``today`` (002 §4.4)."""
    return [item for participant in (game.white, game.black) for item in participant.breaks
            if item.start_date <= today <= item.end_date]


@dataclass(frozen=True)
class MoveRow:
    """One move number: White's and Black's plies in full and short notation, with their ply
    index (the ``?ply=`` of the board after them)."""

    number: int
    white_full: str = ""
    white_short: str = ""
    white_ply: int | None = None
    black_full: str = ""
    black_short: str = ""
    black_ply: int | None = None


def _moves(view: GameView) -> list[tuple[GamePosition, Move]]:
    played: list[tuple[GamePosition, Move]] = []
    for position, text in zip(view.positions, view.plies, strict=False):
        reading = read_move(position, text)
        if not isinstance(reading, LegalMove):
            raise ValueError(f"game {view.game.id}: ledger move {text!r} is illegal")
        played.append((position, reading.move))
    return played


def move_rows(view: GameView) -> list[MoveRow]:
    rows: dict[int, MoveRow] = {}
    first_black = view.positions[0].turn.name == "BLACK"
    for index, (position, move) in enumerate(_moves(view)):
        ply = index + (1 if first_black else 0)
        number = ply // 2 + 1
        row = rows.get(number, MoveRow(number))
        full, short = format_full(position, move), format_short(position, move)
        if ply % 2 == 0:
            row = MoveRow(number, full, short, index + 1)
        else:
            row = MoveRow(number, row.white_full, row.white_short, row.white_ply, full, short,
                          index + 1)
        rows[number] = row
    return list(rows.values())


def board_at(view: GameView, ply: int | None) -> tuple[str, int]:
    """The SVG diagram after ``ply`` plies (the last position when None or out of range)."""
    moves = _moves(view)
    last = len(moves)
    shown = last if ply is None or not 0 <= ply <= last else ply
    position = view.positions[shown]
    last_move = moves[shown - 1][1] if shown else None
    return board_svg(position, last_move=last_move), shown


def inline_svg(svg: str) -> str:
    """The diagram without its XML declaration, to be placed inline in a page."""
    return svg[svg.index("<svg"):] if "<svg" in svg else svg


def game_pdn(view: GameView) -> str:
    """The game as PDN (full notation, as written in the letters)."""
    game = view.game
    tournament = game.tournament
    result = {"white_win": "1-0", "black_win": "0-1", "draw": "1/2-1/2"}.get(
        str(game.result) if game.result else "", "*")
    moves = _moves(view)
    record = PdnGame(
        headers={"Event": f"{tournament.code} {tournament.title}", "Round": str(game.round),
                 "White": game.white.player.name, "Black": game.black.player.name,
                 "Date": tournament.start_date.strftime("%Y.%m.%d")},
        game_type=BoardType[tournament.game_type.name],
        start=view.positions[0],
        moves=[move for _, move in moves],
        result=result,
    )
    return write_pdn(record)


@dataclass(frozen=True)
class PlotPoint:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class ChartPlot:
    """The time-chart plot of 002 §4.3.6 in SVG user units: each side's total days after each
    of his letters against his move number, and the limit line of the time control."""

    width: int
    height: int
    left: int
    bottom: int
    white: tuple[PlotPoint, ...]
    black: tuple[PlotPoint, ...]
    limit: tuple[PlotPoint, ...]
    x_ticks: tuple[PlotPoint, ...]
    y_ticks: tuple[PlotPoint, ...]

    @staticmethod
    def polyline(points: tuple[PlotPoint, ...]) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in points)


def chart_plot(chart: TimeChart, *, width: int = 560, height: int = 280) -> ChartPlot:
    # Room below the axis for its labels and the legend.
    left, right, top, bottom = 44, 12, 12, height - 44
    moves = max([row.counted_moves for row in chart.rows] + [10])
    max_moves = ((moves + 9) // 10) * 10
    days = max([row.white_total for row in chart.rows] + [row.black_total for row in chart.rows]
               + [chart.control.limit(max_moves)])
    x_scale = (width - left - right) / max_moves
    y_scale = (bottom - top) / max(days, 1)

    def point(move: int, total: int, label: str) -> PlotPoint:
        return PlotPoint(left + move * x_scale, bottom - total * y_scale, label)

    series: dict[Side, list[PlotPoint]] = {Side.WHITE: [point(0, 0, "")],
                                           Side.BLACK: [point(0, 0, "")]}
    for row in chart.rows:
        total = row.white_total if row.sender is Side.WHITE else row.black_total
        series[row.sender].append(point(row.counted_moves, total,
                                        f"{chart_side(row.sender)} {row.move}: {total}"))
    limit = tuple(point(m, chart.control.limit(m), "") for m in range(0, max_moves + 1))
    step = max(chart.control.moves, 10)
    x_ticks = tuple(point(m, 0, str(m)) for m in range(0, max_moves + 1, step))
    y_step = 10 if days <= 100 else max(chart.control.days, 10)
    y_ticks = tuple(point(0, d, str(d)) for d in range(0, days + 1, y_step))
    return ChartPlot(width, height, left, bottom, tuple(series[Side.WHITE]),
                     tuple(series[Side.BLACK]), limit, x_ticks, y_ticks)
