"""Calendar dates as players write them, and arrival timestamps turned into calendar dates.

Every date in :mod:`timekeeping` is a plain :class:`datetime.date` in the tournament's time zone:
the rulebook counts calendar days (002 §4.3.1), never hours. Players write dates day first
(``10.10.97``, ``10.10.1997``, ``10.10``); ISO dates (``1997-10-10``) are accepted too.

The strict patterns below are used instead of ``dateutil.parser.parse``: that parser fills any
missing field from today's date and reads ``"10"`` or ``"Oct"`` as complete dates, which is the
opposite of what a referee needs.
"""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from zoneinfo import ZoneInfo

from timekeeping.errors import DateFormatError, NaiveDatetimeError

#: Two-digit years without a reference date: ``50``–``99`` are 1950–1999, ``00``–``49`` are
#: 2000–2049 (the rulebook's own example ``10.10.97`` is 1997).
TWO_DIGIT_YEAR_PIVOT = 50

#: A date written without a year names a day within half a year of the letter it is in.
MAX_DAYS_FROM_LETTER = 183

_DAY_FIRST = re.compile(r"(\d{1,2})[./](\d{1,2})(?:[./](\d{2}|\d{4}))?\s*(?:г\.?)?")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def parse_player_date(text: str, *, reference: date | None = None) -> date:
    """Read a date as a player writes it: ``10.10.97``, ``10.10.1997``, ``10.10`` or ISO.

    ``reference`` is the date of the letter the date was written in (its postmark or dispatch
    date). It supplies the year of ``10.10`` and the century of ``10.10.97``: of the candidate
    years, the one giving the date nearest to the reference is taken, because a date written in
    a letter refers to the weeks around it; a day-and-month more than half a year from the
    letter (``29.02`` written in March 2027) is rejected rather than moved to another year. Without a reference a two-digit year is windowed at
    :data:`TWO_DIGIT_YEAR_PIVOT` and a date without a year is rejected.

    >>> parse_player_date("10.10.97")
    datetime.date(1997, 10, 10)
    >>> parse_player_date("28.12", reference=date(2027, 1, 3))
    datetime.date(2026, 12, 28)

    Raises :class:`DateFormatError` for any other shape and for days that do not exist.
    """
    stripped = text.strip()
    iso = _ISO.fullmatch(stripped)
    if iso:
        return _make_date(text, int(iso[1]), int(iso[2]), int(iso[3]))
    day_first = _DAY_FIRST.fullmatch(stripped)
    if not day_first:
        raise DateFormatError(text, "write the day first: 10.10.97, 10.10.1997, 10.10 or 1997-10-10",
                              "day_first")
    day, month, year_text = int(day_first[1]), int(day_first[2]), day_first[3]
    if year_text is not None and len(year_text) == 4:
        return _make_date(text, int(year_text), month, day)
    if year_text is not None:
        two_digits = int(year_text)
        if reference is None:
            century = 1900 if two_digits >= TWO_DIGIT_YEAR_PIVOT else 2000
            return _make_date(text, century + two_digits, month, day)
        base = reference.year - reference.year % 100 + two_digits
        candidates = [base - 100, base, base + 100]
    else:
        if reference is None:
            raise DateFormatError(text, "the year is missing and there is no letter date to take it from",
                                  "year_missing")
        candidates = [reference.year - 1, reference.year, reference.year + 1]
    existing = [found for year in candidates if (found := _try_date(year, month, day)) is not None]
    if not existing:
        # Report the error the letter's own year gives (e.g. "day is out of range for month").
        return _make_date(text, candidates[1], month, day)
    nearest = min(existing, key=lambda candidate: abs((candidate - reference).days))
    if year_text is None and abs((nearest - reference).days) > MAX_DAYS_FROM_LETTER:
        raise DateFormatError(text, f"no such day within half a year of the letter's date {reference}",
                              "too_far", (("reference", reference),))
    return nearest


def _try_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _make_date(text: str, year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError as error:
        raise DateFormatError(text, f"no such day ({error})", "no_such_day") from error


def local_date(moment: datetime, zone: str | tzinfo) -> date:
    """The calendar date of ``moment`` in the tournament's time zone ``zone``.

    A letter arriving at 23:30 UTC on 1 March is received on 2 March in Moscow; the rulebook
    counts the Moscow day. Naive datetimes raise :class:`NaiveDatetimeError`.

    >>> local_date(datetime(2026, 3, 1, 23, 30, tzinfo=ZoneInfo("UTC")), "Europe/Moscow")
    datetime.date(2026, 3, 2)
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise NaiveDatetimeError(moment)
    target = ZoneInfo(zone) if isinstance(zone, str) else zone
    return moment.astimezone(target).date()


def format_chart_date(day: date) -> str:
    """``01.03``: the day and month, as in the sample chart of 002 §4.3.6."""
    return f"{day.day:02d}.{day.month:02d}"
