"""Today's date for the service, overridable with `CORRMAIL_TODAY` to replay a tournament."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo


def today(override: dt.date | None, time_zone: str = "UTC") -> dt.date:
    """The calendar date in `time_zone` (rule deadlines count calendar days where the tournament is)."""
    if override is not None:
        return override
    return dt.datetime.now(ZoneInfo(time_zone)).date()
