"""Today's date for the service, overridable with `CORRMAIL_TODAY` to replay a tournament, and
the one reading of a clock's days left that every page words the same way.
"""

from __future__ import annotations

import datetime as dt
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from timekeeping import Side

#: "Near overstep" means this many days left or fewer, never fewer than none: a negative number
#: of days left is an overstep (002 §4.3.5), worded as such. Read once, at start-up, from
#: ``CORRMAIL_NEAR_OVERSTEP_DAYS`` (default 5).
NEAR_OVERSTEP_DAYS = int(os.environ.get("CORRMAIL_NEAR_OVERSTEP_DAYS", "5"))


def is_near_overstep(days_left: int | None) -> bool:
    """Within :data:`NEAR_OVERSTEP_DAYS` of the limit, and not past it."""
    return days_left is not None and 0 <= days_left <= NEAR_OVERSTEP_DAYS


def days_over(days_left: int | None) -> int | None:
    """How many days past the limit the player to move is (002 §4.3.5), or None."""
    return -days_left if days_left is not None and days_left < 0 else None


#: The federation's own time zone: a new tournament's zone unless its director sets another,
#: and the clock of pages that list moments of many tournaments at once (the outbox), which
#: show every moment on it, the zone named once (``CORRMAIL_TIME_ZONE`` overrides it,
#: :class:`corrmail.config.Settings`).
FEDERATION_TIME_ZONE = "Europe/Moscow"


def today(override: dt.date | None, time_zone: str = "UTC") -> dt.date:
    """The calendar date in `time_zone` (rule deadlines count calendar days where the tournament is)."""
    if override is not None:
        return override
    return dt.datetime.now(ZoneInfo(time_zone)).date()


@dataclass(frozen=True)
class ClockReading(ABC):
    """A game's clock on ``today`` and what its figures mean, worded once for every page: the game
    page's clock (from the chart) and the dashboard's (from the stored state) differ only in where
    the overstep on the chart is read from.

    ``days_left`` and ``last_safe_date`` are the player to move's (002 §4.3.5);
    ``repeat_due`` the day the last move letter is repeated if unanswered (002 §4.3.4): after
    a repeat was sent (``repeated_on``), the day the next one is due, 30 days after it.
    """

    to_move: Side | None
    #: Each side's total in the letters so far (the time chart's last row, 002 §4.3.6).
    white_in_letters: int
    black_in_letters: int
    days_left: int | None
    last_safe_date: dt.date | None
    repeat_due: dt.date | None
    today: dt.date
    #: The most the player to move may have used after his next move (002 §4.3.5).
    limit: int | None = None
    #: The day the server last repeated the letter awaiting an answer (002 §4.3.4), if it has.
    repeated_on: dt.date | None = None

    @property
    def days_used_in_period(self) -> int | None:
        """Days of the current period's limit the player to move has used by today."""
        if self.limit is None or self.days_left is None:
            return None
        return self.limit - self.days_left

    def days_used(self, side: Side) -> int:
        """The days ``side`` has used by today (002 §4.3.6): his total in his letters and, when he
        owes the letter, the days his clock has run since he received the partner's move. The
        one figure of "days used" every page shows: the game page, the player's home, the
        dashboard, the claim page and the API (the claim is judged by it, 002 §4.3.5)."""
        running = self.days_used_in_period
        if side is self.to_move and running is not None:
            return running
        return self.white_in_letters if side is Side.WHITE else self.black_in_letters

    @property
    def white_used(self) -> int:
        return self.days_used(Side.WHITE)

    @property
    def black_used(self) -> int:
        return self.days_used(Side.BLACK)

    @property
    def days_over_limit(self) -> int | None:
        """How many days the player to move is past his limit by today (002 §4.3.5), or None."""
        return days_over(self.days_left)

    @property
    @abstractmethod
    def chart_shows_overstep(self) -> bool:
        """Whether the time chart shows an overstep: each kind of clock reads it from its
        source (the replayed chart, or the stored state's copy of it)."""

    @property
    def repeat_overdue(self) -> bool:
        """The last move letter waits past its repeat date (002 §4.3.4)."""
        return self.repeat_due is not None and self.today >= self.repeat_due

    @property
    def near_overstep(self) -> bool:
        return is_near_overstep(self.days_left)

    @property
    def overstepped(self) -> bool:
        """An overstep on the chart, or the player to move past his limit (002 §4.3.5)."""
        return self.chart_shows_overstep or days_over(self.days_left) is not None
