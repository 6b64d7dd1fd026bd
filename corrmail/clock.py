"""Today's date for the service, overridable with `CORRMAIL_TODAY` to replay a tournament, and
the one reading of a clock's days left that every page words the same way.
"""

from __future__ import annotations

import datetime as dt
import os
from zoneinfo import ZoneInfo

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


def today(override: dt.date | None, time_zone: str = "UTC") -> dt.date:
    """The calendar date in `time_zone` (rule deadlines count calendar days where the tournament is)."""
    if override is not None:
        return override
    return dt.datetime.now(ZoneInfo(time_zone)).date()
