"""The directors' dashboard: every game of a tournament with its clock at a glance.

A fixed handful of queries for the whole tournament — games with players and breaks eagerly
loaded, the letters as plain rows, then penalties and open cases in one query each — so a
500-game tournament is one page load, never a query per game. The clock of each game is
:mod:`timekeeping`'s (:func:`corrmail.game_page.game_clock`), from the same ledger a game's page
reads.

The letters are the bulk (about ten a game): they are read as tuples of the columns the time
chart needs, without ORM objects or the identity map, which made loading them the costliest
part of the page (docs/benchmarks/dashboard.md).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, cast

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from corrmail.game_page import GameClock, game_clock
from corrmail.ledger import effective_letters
from corrmail.mail.game_view import GameView, UnsupportedGameType, round_start_dates
from corrmail.models import Case, CaseType, Game, GameState, Letter, Participant, Tournament
from corrmail.models import Penalty as PenaltyRow

__all__ = [
    "ATTENTION",
    "PAGE_SIZES",
    "DashboardFilter",
    "DashboardPage",
    "DashboardRow",
    "DashboardSort",
    "PageOutOfRange",
    "dashboard_rows",
]


class DashboardFilter(enum.StrEnum):
    ALL = "all"
    OPEN = "open"
    NEAR_OVERSTEP = "near_overstep"
    REPEAT_OVERDUE = "repeat_overdue"
    RECORD_MISSING = "record_missing"
    CASES = "cases"
    FINISHED = "finished"


class DashboardSort(enum.StrEnum):
    ROUND = "round"
    DAYS_LEFT = "days_left"
    DAYS_USED = "days_used"
    PLAYER = "player"


class _LetterRow(NamedTuple):
    """The columns of a letter that :meth:`GameView.ledger` and
    :func:`corrmail.ledger.effective_letters` read — and nothing else of it is read here."""

    id: int
    game_id: int
    sender_id: int | None
    sent: dt.date | None
    received: dt.date | None
    partner_sent: dt.date | None
    moves_text: str
    corrects_letter_id: int | None


letters_table = Letter.__table__
games_table = Game.__table__
# Table columns, not mapped attributes: a Core select skips the ORM's per-row loading.
_LETTER_COLUMNS = tuple(Letter.__table__.c[name] for name in _LetterRow._fields)


@dataclass
class _PrefetchedView(GameView):
    """A game view whose letters, penalties and round start were loaded with every other
    game's."""

    letter_rows: list[_LetterRow] = field(default_factory=list)
    penalties: list[PenaltyRow] = field(default_factory=list)
    round_starts: dict[int, dt.date] = field(default_factory=dict)

    @cached_property
    def letters(self) -> list[Letter]:
        # Only the time chart reads this view (game_clock → ledger), and it reads only the
        # columns of _LetterRow; the board and variants (which read more) are never asked for.
        return cast("list[Letter]", effective_letters(self.letter_rows))

    def game_penalties(self) -> list[PenaltyRow]:
        return self.penalties

    def clock_start(self) -> dt.date:
        return self.round_starts.get(self.game.round, self.game.tournament.start_date)


#: The filters of games that need a director's attention, counted above the table so that what
#: is not on the current page is not missed.
ATTENTION = (DashboardFilter.NEAR_OVERSTEP, DashboardFilter.REPEAT_OVERDUE,
             DashboardFilter.RECORD_MISSING, DashboardFilter.CASES)

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
    clock: GameClock | None
    to_move: Participant | None
    open_cases: tuple[Case, ...]
    #: 002 §4.5.1: the 15 days for the game record have passed without it.
    record_missing: bool
    problem: str = ""

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
        clock = self.clock
        return {
            DashboardFilter.ALL: True,
            DashboardFilter.OPEN: self.game.state is not GameState.FINISHED,
            DashboardFilter.NEAR_OVERSTEP: bool(clock and clock.near_overstep),
            DashboardFilter.REPEAT_OVERDUE: bool(clock and clock.repeat_overdue),
            DashboardFilter.RECORD_MISSING: self.record_missing,
            DashboardFilter.CASES: bool(self.open_cases),
            DashboardFilter.FINISHED: self.game.state is GameState.FINISHED,
        }[wanted]


def _load_games(session: Session, tournament: Tournament) -> Sequence[Game]:
    participant = (selectinload(Participant.player), selectinload(Participant.breaks))
    return session.scalars(
        select(Game).where(Game.tournament_id == tournament.id)
        .options(
            selectinload(Game.white).options(*participant),
            selectinload(Game.black).options(*participant),
        )
        .order_by(Game.round, Game.board, Game.id)
    ).all()


def dashboard_rows(
    session: Session,
    tournament: Tournament,
    today: dt.date,
    *,
    wanted: DashboardFilter = DashboardFilter.ALL,
    sort: DashboardSort = DashboardSort.ROUND,
) -> list[DashboardRow]:
    games = _load_games(session, tournament)
    if object_session(tournament) is session:
        for game in games:
            # Every game is the tournament's (the query's filter): set it rather than have each
            # game's ledger fire a lazy load that would only find it in the identity map.
            set_committed_value(game, "tournament", tournament)
    letters: dict[int, list[_LetterRow]] = defaultdict(list)
    for row in session.execute(
        select(*_LETTER_COLUMNS).join(games_table, games_table.c.id == letters_table.c.game_id)
        .where(games_table.c.tournament_id == tournament.id)
        .order_by(letters_table.c.game_id, letters_table.c.sequence)
    ):
        letter = _LetterRow._make(row)
        letters[letter.game_id].append(letter)
    penalties: dict[int, list[PenaltyRow]] = defaultdict(list)
    for penalty in session.scalars(
        select(PenaltyRow).join(Game, Game.id == PenaltyRow.game_id)
        .where(Game.tournament_id == tournament.id).order_by(PenaltyRow.id)
    ):
        penalties[penalty.game_id].append(penalty)
    cases: dict[int, list[Case]] = defaultdict(list)
    for case in session.scalars(
        select(Case).where(Case.tournament_id == tournament.id, Case.closed_at.is_(None),
                           Case.game_id.is_not(None)).order_by(Case.id)
    ):
        assert case.game_id is not None
        cases[case.game_id].append(case)
    round_starts = round_start_dates(session, tournament)
    rows = [_row(game, letters[game.id], penalties[game.id], cases[game.id], round_starts, today)
            for game in games]
    rows = [row for row in rows if row.matches(wanted)]
    return sorted(rows, key=_SORT_KEYS[sort])


def _row(
    game: Game,
    letters: list[_LetterRow],
    penalties: list[PenaltyRow],
    cases: list[Case],
    round_starts: dict[int, dt.date],
    today: dt.date,
) -> DashboardRow:
    record_missing = any(
        case.case_type is CaseType.GAME_RECORD and case.deadline is not None
        and case.deadline < today for case in cases)
    try:
        clock = game_clock(_PrefetchedView(game, letters, penalties, round_starts), today)
    except (UnsupportedGameType, ValueError) as error:
        return DashboardRow(game, None, None, tuple(cases), record_missing, str(error))
    to_move = None
    if clock.to_move is not None:
        to_move = game.white if clock.to_move.value == "white" else game.black
    return DashboardRow(game, clock, to_move, tuple(cases), record_missing)


_NEVER = 10**9
_SORT_KEYS = {
    DashboardSort.ROUND: lambda row: (row.game.round, row.game.board or 0, row.game.id),
    DashboardSort.DAYS_LEFT: lambda row: (
        row.days_left if row.days_left is not None else _NEVER, row.game.id),
    DashboardSort.DAYS_USED: lambda row: (-row.most_used, row.game.id),
    DashboardSort.PLAYER: lambda row: (row.game.white.player.name, row.game.black.player.name),
}
