"""Deadline arithmetic in calendar days and months, on the tournament's own calendar.

Every period in section 4 of the rules is counted the way Russian law counts periods (Civil Code
articles 191–192), which is how referees count them: a period "within N days from" an event starts
on the day after the event, so its last day is ``event + N``; a period of one month ends on the same
day number of the next month, or on that month's last day when it has no such day. Days are
calendar days: the rules count think time in calendar days too, and nothing in section 4 moves a
deadline off a weekend or holiday. See docs/rules/adjudication.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from adjudication.errors import NaiveTimestamp

PROTEST_DAYS = 10
"""002 §4.1.12, §4.3.8, §4.5.6: a protest is sent within ten days of receiving the decision."""

ANALYSIS_DAYS = 10
"""002 §4.5.2: unfinished games go to the referee within ten days after the end-of-play date."""

GAME_RECORD_DAYS = 15
"""002 §4.5.1: a finished game's record reaches the steward within fifteen days."""

PENALTY_DAYS = 6
"""002 §4.3.7: penalty days for a claim of overstep the referee finds unfounded."""

BAN_YEARS = 3
"""002 §4.1.14: the longest ban for quitting a tournament without a good reason."""

KEEP_CORRESPONDENCE_MONTHS = 1
"""002 §4.1.13: players keep the tournament's correspondence a month after getting its results."""


def correspondence_kept_until(results_received_on: date) -> date:
    """The last day a player must still keep every letter of the tournament and hand it to the
    referee on demand (002 §4.1.13): one month after he received the final results, counted as
    every month period here is (the same day number of the next month, or its last day)."""
    return results_received_on + relativedelta(months=KEEP_CORRESPONDENCE_MONTHS)


def local_date(moment: datetime, time_zone: str | ZoneInfo) -> date:
    """The calendar date of an aware timestamp in the tournament's time zone.

    A letter that reaches the server at 23:30 UTC on 10 March is dated 11 March in Moscow: the
    rules count days on the players' calendar, not the server's.

    >>> from datetime import timezone
    >>> local_date(datetime(2025, 3, 10, 23, 30, tzinfo=timezone.utc), "Europe/Moscow")
    datetime.date(2025, 3, 11)
    """
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise NaiveTimestamp(moment)
    zone = time_zone if isinstance(time_zone, ZoneInfo) else ZoneInfo(time_zone)
    return moment.astimezone(zone).date()


def days_after(start: date, days: int) -> date:
    """The last day of a period of ``days`` calendar days counted from the day after ``start``."""
    return start + timedelta(days=days)


def month_after(start: date) -> date:
    """The last day of a one-month period starting the day after ``start`` (002 §4.5.5).

    31 January → 28 (or 29) February; 30 April → 30 May; 29 February 2028 → 29 March 2028.
    """
    return start + relativedelta(months=1)


def years_after(start: date, years: int) -> date:
    """The same day ``years`` later; 29 February falls back to 28 February (002 §4.1.14)."""
    return start + relativedelta(years=years)


class Awaiting(StrEnum):
    """Who must act by a deadline."""

    PLAYERS = "players"
    STEWARD = "steward"
    REFEREE = "referee"
    ORGANIZER = "organizer"


@dataclass(frozen=True)
class Deadline:
    """The next date that matters in a case: what is due, from whom, by which rule."""

    due: date
    awaiting: Awaiting
    what: str
    rule: str

    def is_overdue(self, today: date) -> bool:
        """True from the day after ``due``: the due day itself is still in time."""
        return today > self.due

    def days_left(self, today: date) -> int:
        """Days remaining including none for the due day; negative once overdue."""
        return (self.due - today).days
