"""The daily job, ``corrmail sweep --today DATE``.

One pass over every running tournament, each part done by the code that owns it:

* the clocks are recomputed by :mod:`timekeeping` for every open game
  (:func:`corrmail.tournaments.dashboard.dashboard_rows`): postal games near or past an overstep are
  reported for the steward, who forwards the partner's claim (002 §4.3.6);
* oversteps the server sees in e-mail games open their claims, adjudications open at the
  end-of-play date (002 §4.5.2), game records of finished games are asked for (002 §4.5.1) and
  settled decisions made final — the referee's sweep (:func:`corrmail.referee.sweep.daily_sweep`);
* repeats of moves unanswered for 30 days (002 §4.3.4), first-move queries and the end-of-play
  letters go out by e-mail — the mail layer's calendar (:class:`corrmail.letters.scheduled.Schedule`);
  a repeat or query for a player who plays by post goes to the steward, who posts it.

Every part is idempotent (a case is opened once per game, a letter is sent once per subject, a
repeat once per wait on record, :mod:`corrmail.letters.repeats`),
so the sweep may run any number of times a day; running it twice changes nothing the second
time. The caller commits.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.clock import today as service_today
from corrmail.letters.scheduled import Schedule, ScheduleReport
from corrmail.letters.write import LetterWriter
from corrmail.models import Tournament, TournamentStatus
from corrmail.referee.sweep import daily_sweep
from corrmail.tournaments.dashboard import DashboardFilter, dashboard_rows

__all__ = ["ClockFlag", "SweepReport", "sweep"]


@dataclass(frozen=True)
class ClockFlag:
    """A game whose player to move is near (or past) his limit on the sweep's day."""

    tournament: str
    game_id: int
    player: str
    days_left: int

    @property
    def overstepped(self) -> bool:
        return self.days_left < 0


@dataclass
class SweepReport:
    clocks: int = 0
    flags: list[ClockFlag] = field(default_factory=list)
    cases: dict[str, dict[str, int]] = field(default_factory=dict)
    mail: ScheduleReport = field(default_factory=ScheduleReport)

    def lines(self) -> list[str]:
        out = [f"clocks recomputed: {self.clocks} game(s)"]
        for flag in self.flags:
            what = "overstepped (002 §4.3.5)" if flag.overstepped else "near overstep"
            out.append(f"{flag.tournament}: game {flag.game_id}: {flag.player} {what}, "
                       f"{flag.days_left} day(s) left")
        for what, by_code in self.cases.items():
            for code, count in by_code.items():
                out.append(f"{code}: {what}: {count}")
        mail = self.mail
        out.append(f"letters: {mail.repeats} repeat(s) (002 §4.3.4), {mail.first_move_queries} "
                   f"first-move quer(ies), {mail.end_of_play} end-of-play letter(s)")
        return out


def sweep(
    session: Session,
    *,
    case_writer: LetterWriter,
    mail_writer: LetterWriter,
    today: dt.date | None = None,
) -> SweepReport:
    """Run the daily job as of ``today`` (default: each tournament's own date)."""
    report = SweepReport()
    running = session.scalars(
        select(Tournament).where(Tournament.status == TournamentStatus.RUNNING)
        .order_by(Tournament.id)
    ).all()
    for tournament in running:
        on = service_today(today, tournament.time_zone)
        rows = dashboard_rows(session, tournament, on, wanted=DashboardFilter.OPEN)
        report.clocks += len(rows)
        for row in rows:
            # Near the limit, or past it (an overstep is no longer "near": 002 §4.3.5).
            if (row.clock is not None and row.to_move is not None and row.days_left is not None
                    and (row.clock.near_overstep or row.days_left < 0)):
                report.flags.append(ClockFlag(tournament.code, row.game.id,
                                              row.to_move.player.name, row.days_left))
    report.cases = {
        what: {code: len(done) for code, done in by_code.items()}
        for what, by_code in daily_sweep(session, case_writer, today=today).items()
    }
    now: dt.date | dt.datetime = today if today is not None else dt.datetime.now(dt.UTC)
    report.mail = Schedule(mail_writer).run(session, now)
    return report
