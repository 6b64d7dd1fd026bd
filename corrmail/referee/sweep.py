"""The referee's part of the daily sweep: at the end-of-play date every unfinished game of a
running tournament gets its adjudication case and both players their letter (002 §4.5.2); every
game finished over the board gets its game-record case (002 §4.5.1); in e-mail games the server
opens the overstep claims it sees itself (002 §4.3.6).

Idempotent: a tournament already in its adjudication stage, or a game that has its case, is left
alone, so the sweep may run any number of times a day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.clock import today as service_today
from corrmail.letters.write import LetterWriter
from corrmail.models import Tournament, TournamentStatus
from corrmail.referee.desk import Desk, Done

__all__ = [
    "close_settled_cases",
    "daily_sweep",
    "detect_oversteps",
    "open_due_adjudications",
    "open_due_game_records",
]


def open_due_adjudications(
    session: Session,
    writer: LetterWriter,
    *,
    today: dt.date | None = None,
    today_in: Callable[[str], dt.date] | None = None,
) -> dict[str, list[Done]]:
    """Open the adjudication cases of every running tournament whose end date has come.

    ``today`` fixes the date for all tournaments (``CORRMAIL_TODAY``, the CLI's ``--today``);
    otherwise each tournament's own calendar date in its time zone is used. Returns the cases
    opened, by tournament code; the caller commits.
    """
    local = today_in or (lambda zone: service_today(today, zone))
    opened: dict[str, list[Done]] = {}
    running = session.scalars(
        select(Tournament).where(Tournament.status == TournamentStatus.RUNNING)
        .order_by(Tournament.id)
    ).all()
    for tournament in running:
        on = local(tournament.time_zone)
        if on < tournament.end_date:
            continue
        opened[tournament.code] = Desk(session, writer, on=on).open_adjudications(tournament)
    return opened


def _each_tournament(
    session: Session,
    writer: LetterWriter,
    today: dt.date | None,
    statuses: tuple[TournamentStatus, ...] | None,
    action: Callable[[Desk, Tournament], list[Done]],
) -> dict[str, list[Done]]:
    """``action`` at the desk of each tournament in ``statuses`` (all when ``None``), on its own
    date; the cases it produced, by tournament code (tournaments with none left out)."""
    query = select(Tournament).order_by(Tournament.id)
    if statuses is not None:
        query = query.where(Tournament.status.in_(statuses))
    produced: dict[str, list[Done]] = {}
    for tournament in session.scalars(query).all():
        on = service_today(today, tournament.time_zone)
        done = action(Desk(session, writer, on=on), tournament)
        if done:
            produced[tournament.code] = done
    return produced


def open_due_game_records(
    session: Session, writer: LetterWriter, *, today: dt.date | None = None
) -> dict[str, list[Done]]:
    """Open the game-record cases of games finished over the board (002 §4.5.1), in every
    tournament still running or in adjudication; an e-mail game's record is written at once."""
    return _each_tournament(session, writer, today,
                            (TournamentStatus.RUNNING, TournamentStatus.ADJUDICATION),
                            lambda desk, tournament: desk.open_game_records(tournament))


def close_settled_cases(
    session: Session, writer: LetterWriter, *, today: dt.date | None = None
) -> dict[str, list[Done]]:
    """Make final every decided case whose protest windows have passed (002 §4.1.12)."""
    return _each_tournament(session, writer, today, None,
                            lambda desk, tournament: desk.close_settled(tournament))


def detect_oversteps(
    session: Session, writer: LetterWriter, *, today: dt.date | None = None
) -> dict[str, list[Done]]:
    """Open the overstep claims the server sees itself in e-mail games of running tournaments."""
    return _each_tournament(session, writer, today, (TournamentStatus.RUNNING,),
                            lambda desk, tournament: desk.detect_oversteps(tournament))


def daily_sweep(
    session: Session, writer: LetterWriter, *, today: dt.date | None = None
) -> dict[str, dict[str, list[Done]]]:
    """The referee's daily work the server does itself: oversteps seen in e-mail games,
    adjudications at the end date, record cases for finished games, decisions made final.
    Idempotent; the caller commits."""
    return {
        "oversteps detected": detect_oversteps(session, writer, today=today),
        "adjudications opened": open_due_adjudications(session, writer, today=today),
        "game records opened": open_due_game_records(session, writer, today=today),
        "cases closed": close_settled_cases(session, writer, today=today),
    }
