"""The directors' dashboard: every game of a tournament with its clock at a glance.

A fixed handful of queries for the whole tournament — games with players eagerly loaded, their
stored states (:mod:`corrmail.games.state`), then open cases — so a 500-game tournament is one
page load, never a query per game, and no letter is read: each game's clock is its stored
state's (totals, who owes the reply, the day his days count from and his limit) with the days
left counted to today over the game's break days by :mod:`timekeeping`'s own
:class:`~timekeeping.ReplyClock`. ``corrmail games verify`` checks the stored states against the
replay of every ledger (docs/benchmarks/dashboard.md).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session, joinedload, object_session
from sqlalchemy.orm.attributes import set_committed_value

from corrmail.clock import ClockReading
from corrmail.games.cases import StoredCase
from corrmail.games.page import read_clock
from corrmail.games.state import stored_state_rows
from corrmail.games.view import steward_forwards
from corrmail.letters.repeats import RepeatsOnRecord, repeats_on_record
from corrmail.models import (
    Break,
    Case,
    CaseType,
    Game,
    GameState,
    Participant,
    Tournament,
)
from corrmail.referee.open_cases import open_cases

__all__ = [
    "ATTENTION",
    "PAGE_SIZES",
    "DashboardFilter",
    "DashboardPage",
    "DashboardRow",
    "DashboardSort",
    "AnnouncedBreak",
    "PageOutOfRange",
    "announced_breaks",
    "awaits_forwarding",
    "dashboard_rows",
]


class DashboardFilter(enum.StrEnum):
    ALL = "all"
    OPEN = "open"
    OVERSTEPPED = "overstepped"
    NEAR_OVERSTEP = "near_overstep"
    REPEAT_OVERDUE = "repeat_overdue"
    RECORD_MISSING = "record_missing"
    CASES = "cases"
    #: An e-mail or web move waiting for the steward to post or phone it to his partner.
    TO_FORWARD = "to_forward"
    FINISHED = "finished"


class DashboardSort(enum.StrEnum):
    ROUND = "round"
    DAYS_LEFT = "days_left"
    DAYS_USED = "days_used"
    PLAYER = "player"


#: The filters of games that need a director's attention, counted above the table so that what
#: is not on the current page is not missed. The open cases are counted as cases, not games: as
#: many as the referee's queue lists, a case of no game (a sanction, a break) among them.
ATTENTION = (DashboardFilter.OVERSTEPPED, DashboardFilter.NEAR_OVERSTEP, DashboardFilter.REPEAT_OVERDUE,
             DashboardFilter.RECORD_MISSING, DashboardFilter.CASES, DashboardFilter.TO_FORWARD)

#: Rows a page may hold; ``None`` is every game on one page. The first is the default: the
#: page of a 500-game tournament renders in a fifth of the time of the whole table.
PAGE_SIZES: tuple[int | None, ...] = (100, 50, 200, None)


class PageOutOfRange(LookupError):
    def __init__(self, number: int, pages: int) -> None:
        super().__init__(f"no page {number}: the dashboard has {pages} page(s) of these games")
        self.number = number
        self.pages = pages


@dataclass(frozen=True)
class DashboardPage:
    """One page of the (filtered, sorted) rows; ``size`` ``None`` holds them all."""

    rows: Sequence[DashboardRow]
    number: int
    size: int | None
    total: int

    @property
    def pages(self) -> int:
        if self.size is None or self.total == 0:
            return 1
        return -(-self.total // self.size)

    @property
    def first(self) -> int:
        """The position (from 1) of the page's first row among all of them."""
        return 0 if self.total == 0 else (self.number - 1) * (self.size or 0) + 1

    @classmethod
    def of(cls, rows: Sequence[DashboardRow], number: int, size: int | None) -> DashboardPage:
        """Page ``number`` (from 1) of ``rows``; raises :class:`PageOutOfRange` past the last."""
        if size is not None and size < 1:
            raise ValueError(f"a page holds at least one row, not {size}")
        page = cls([], number, size, len(rows))
        if not 1 <= number <= page.pages:
            raise PageOutOfRange(number, page.pages)
        if size is None:
            return cls(rows, number, size, len(rows))
        start = (number - 1) * size
        return cls(rows[start:start + size], number, size, len(rows))


@dataclass(frozen=True)
class DashboardRow:
    game: Game
    clock: ClockReading | None
    to_move: Participant | None
    open_cases: tuple[Case, ...]
    #: 002 §4.5.1: the 15 days for the game record have passed without it.
    record_missing: bool
    problem: str = ""
    #: The partner's last move came by e-mail or on the web, the player to move plays by post
    #: or telephone, and the steward has not recorded forwarding it (002 §4.1.1); his own card
    #: will state the day he received it (002 §4.3.1).
    to_forward: bool = False

    @property
    def days_left(self) -> int | None:
        return self.clock.days_left if self.clock else None

    @property
    def most_used(self) -> int:
        return max(self.clock.white_used, self.clock.black_used) if self.clock else 0

    @property
    def in_adjudication(self) -> bool:
        return self.game.state is GameState.ADJUDICATION or any(
            case.case_type is CaseType.ADJUDICATION for case in self.open_cases)

    def matches(self, wanted: DashboardFilter) -> bool:
        # Only the wanted test is evaluated: the page asks six of them of each of 500 rows.
        return _FILTERS[wanted](self)


_FILTERS: dict[DashboardFilter, Callable[[DashboardRow], bool]] = {
    DashboardFilter.ALL: lambda row: True,
    DashboardFilter.OPEN: lambda row: row.game.state is not GameState.FINISHED,
    DashboardFilter.OVERSTEPPED: lambda row: bool(row.clock and row.clock.overstepped),
    DashboardFilter.NEAR_OVERSTEP: lambda row: bool(row.clock and row.clock.near_overstep),
    DashboardFilter.REPEAT_OVERDUE: lambda row: bool(row.clock and row.clock.repeat_overdue),
    DashboardFilter.RECORD_MISSING: lambda row: row.record_missing,
    DashboardFilter.CASES: lambda row: bool(row.open_cases),
    DashboardFilter.TO_FORWARD: lambda row: row.to_forward,
    DashboardFilter.FINISHED: lambda row: row.game.state is GameState.FINISHED,
}


def _load_games(session: Session, tournament: Tournament) -> Sequence[Game]:
    """The games with both players set from the tournament's participants, read once (one
    query with their names) rather than looked up for White and for Black of every game."""
    games = session.scalars(
        select(Game).where(Game.tournament_id == tournament.id)
        .order_by(Game.round, Game.board, Game.id)
    ).all()
    players = {participant.id: participant for participant in session.scalars(
        select(Participant).where(Participant.id.in_(
            select(Game.white_id).where(Game.tournament_id == tournament.id).union(
                select(Game.black_id).where(Game.tournament_id == tournament.id))))
        .options(joinedload(Participant.player, innerjoin=True)))}
    for game in games:
        set_committed_value(game, "white", players[game.white_id])
        set_committed_value(game, "black", players[game.black_id])
    return games


def dashboard_rows(
    session: Session,
    tournament: Tournament,
    today: dt.date,
    *,
    wanted: DashboardFilter = DashboardFilter.ALL,
    sort: DashboardSort = DashboardSort.ROUND,
    opened: Sequence[StoredCase] | None = None,
) -> list[DashboardRow]:
    """The games' rows; ``opened``: the tournament's open cases on ``today`` when the caller
    has read them already (:func:`~corrmail.referee.open_cases.open_cases`)."""
    games = _load_games(session, tournament)
    if object_session(tournament) is session:
        for game in games:
            # Every game is the tournament's (the query's filter): set it rather than have each
            # game's ledger fire a lazy load that would only find it in the identity map.
            set_committed_value(game, "tournament", tournament)
    states = stored_state_rows(session, tournament.id)
    cases: dict[int, list[Case]] = defaultdict(list)
    # Open as the referee's queue reads it (corrmail.referee.open_cases): a decided case no one
    # may protest any more is not an open case of its game.
    for stored in open_cases(session, tournament.id, today) if opened is None else opened:
        if stored.row.game_id is not None:
            cases[stored.row.game_id].append(stored.row)
    repeats = repeats_on_record(session, tournament_id=tournament.id)
    rows = [_row(game, states.get(game.id), cases[game.id], today, repeats) for game in games]
    rows = [row for row in rows if row.matches(wanted)]
    return sorted(rows, key=_SORT_KEYS[sort])


def _row(
    game: Game, state: Row[Any] | None, cases: list[Case], today: dt.date,
    repeats: RepeatsOnRecord,
) -> DashboardRow:
    record_missing = any(
        case.case_type is CaseType.GAME_RECORD and case.deadline is not None
        and case.deadline < today for case in cases)
    if state is None:
        return DashboardRow(game, None, None, tuple(cases), record_missing,
                            f"game {game.id} has no stored state: run corrmail games rebuild")
    try:
        clock = read_clock(game, state, today, repeats=repeats)
    except ValueError:
        return DashboardRow(game, None, None, tuple(cases), record_missing, state.clock_problem)
    to_move = None
    if clock.to_move is not None:
        to_move = game.white if clock.to_move.value == "white" else game.black
    return DashboardRow(game, clock, to_move, tuple(cases), record_missing,
                        to_forward=awaits_forwarding(state.last_move_channel, to_move,
                                                     state.forwarded_on))


def awaits_forwarding(last_move_channel: str | None, to_move: Participant | None,
                      forwarded_on: dt.date | None) -> bool:
    """Whether the last move still waits for the steward to post or telephone it: it came by
    e-mail or on the web, the player to move plays by post or telephone (002 §4.1.1,
    :func:`corrmail.games.view.steward_forwards`), and no forwarding of it is on record. The
    dashboard's count and the game page's notice both ask this."""
    return forwarded_on is None and steward_forwards(last_move_channel, to_move)


_NEVER = 10**9
_SORT_KEYS = {
    DashboardSort.ROUND: lambda row: (row.game.round, row.game.board or 0, row.game.id),
    DashboardSort.DAYS_LEFT: lambda row: (
        row.days_left if row.days_left is not None else _NEVER, row.game.id),
    DashboardSort.DAYS_USED: lambda row: (-row.most_used, row.game.id),
    DashboardSort.PLAYER: lambda row: (row.game.white.player.name, row.game.black.player.name),
}


@dataclass(frozen=True)
class AnnouncedBreak:
    """A player's break as the steward must know it (002 §4.4.2, «и старосте»): its dates as
    they stand, the day it was announced, the day it counts from, whether it is on now."""

    player: str
    first_day: dt.date
    last_day: dt.date
    announced_on: dt.date | None
    kind: str
    in_force: bool

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    @property
    def counts_from(self) -> dt.date:
        """Announced after it began, it counts from the announcement (002 §4.4.2)."""
        if self.announced_on is None or self.kind != "regular":
            return self.first_day
        return max(self.first_day, self.announced_on)


#: How long a break that is over stays on the dashboard: a steward who looks in once a month
#: still sees it.
BREAKS_SHOWN_AFTER_END = dt.timedelta(days=30)


def announced_breaks(session: Session, tournament: Tournament,
                     today: dt.date) -> list[AnnouncedBreak]:
    """The tournament's breaks not yet over, or over within the last 30 days, newest
    announcement first: the steward without e-mail learns of them here, and the one with it
    keeps them at hand (002 §4.4.2)."""
    rows = session.execute(
        select(Break, Participant).join(Participant, Break.participant_id == Participant.id)
        .where(Participant.tournament_id == tournament.id,
               Break.end_date >= today - BREAKS_SHOWN_AFTER_END)
        .options(joinedload(Participant.player, innerjoin=True))
    ).all()
    found = [AnnouncedBreak(participant.player.name, item.start_date, item.end_date,
                            item.announced_on, item.kind.value,
                            item.start_date <= today <= item.end_date)
             for item, participant in rows]
    return sorted(found, key=lambda line: (line.announced_on or line.first_day, line.first_day,
                                           line.player), reverse=True)
