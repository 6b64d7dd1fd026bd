"""``.ics`` attachments for the dates a letter's reader must not miss (icalendar).

Each date is an all-day event: the rulebook counts calendar days in the tournament's time zone,
so a time of day would only invite a wrong conversion. The UID is derived from what the event is
about, so a later letter about the same deadline updates the reader's calendar entry instead of
adding a second one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from icalendar import Calendar, Event

from corrmail.mail.compose import Attachment

__all__ = ["CalendarDate", "calendar_attachment"]


@dataclass(frozen=True, slots=True)
class CalendarDate:
    uid: str
    summary: str
    first_day: dt.date
    last_day: dt.date | None = None
    description: str = ""


def calendar_attachment(
    dates: Sequence[CalendarDate], *, domain: str, filename: str = "dates.ics",
    stamp: dt.datetime | None = None,
) -> Attachment:
    """The ``.ics`` of ``dates``, stamped ``stamp`` (now by default).

    Written line by line as :mod:`icalendar` writes it (its escaping, its folding at 75
    octets, its order of properties: ``tests/mail/test_compose_policy.py`` compares the bytes)
    without building its object model, which cost 3 % of a relayed move letter; a stamp not
    in UTC is left to :mod:`icalendar`.
    """
    when = stamp or dt.datetime.now(dt.UTC)
    if when.utcoffset() != dt.timedelta(0):
        return Attachment(filename, _calendar(dates, domain, when), "text/calendar")
    stamped = when.strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{_text(_PRODID)}", "METHOD:PUBLISH"]
    for item in dates:
        last = (item.last_day or item.first_day) + dt.timedelta(days=1)
        lines += ["BEGIN:VEVENT", f"SUMMARY:{_text(item.summary)}",
                  f"DTSTART;VALUE=DATE:{item.first_day.strftime('%Y%m%d')}",
                  f"DTEND;VALUE=DATE:{last.strftime('%Y%m%d')}",
                  f"DTSTAMP:{stamped}", f"UID:{_text(f'{item.uid}@{domain}')}"]
        if item.description:
            lines.append(f"DESCRIPTION:{_text(item.description)}")
        lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    text = "".join(_folded(line) + "\r\n" for line in lines)
    return Attachment(filename, text.encode(), "text/calendar")


_PRODID = "-//corrmail//correspondence draughts//RU"


def _text(value: str) -> str:
    """An iCalendar TEXT value escaped (RFC 5545 §3.3.11) as :mod:`icalendar` escapes it."""
    return (value.replace(r"\N", "\n").replace("\\", "\\\\").replace(";", r"\;")
            .replace(",", r"\,").replace("\r\n", r"\n").replace("\n", r"\n")
            .replace("\r", r"\n"))


def _folded(line: str, limit: int = 75) -> str:
    """A content line folded at ``limit`` octets as :mod:`icalendar` folds it: never between a
    backslash (or caret) and the character it escapes."""
    if len(line) < limit and line.isascii():
        return line
    return _folded_long(line, limit)


@lru_cache(maxsize=1024)
def _folded_long(line: str, limit: int) -> str:
    """:func:`_folded` of a line that needs folding, kept: a reply deadline's summary is the
    same for every letter of a tournament, and folding it went character by character."""
    parts: list[str] = []
    chars: list[str] = []
    octets = 0
    for char in line:
        size = len(char.encode())
        if chars and octets + size >= limit:
            if len(chars) > 1 and chars[-1] in "\\^":
                carried = chars.pop()
                parts.append("".join(chars))
                chars, octets = [carried], len(carried.encode())
            else:
                parts.append("".join(chars))
                chars, octets = [], 0
        chars.append(char)
        octets += size
    if chars:
        parts.append("".join(chars))
    return "\r\n ".join(parts)


def _calendar(dates: Sequence[CalendarDate], domain: str, stamp: dt.datetime) -> bytes:
    """The calendar built by :mod:`icalendar` (a stamp in another time zone)."""
    calendar = Calendar()
    calendar.add("prodid", _PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    for item in dates:
        event = Event()
        event.add("uid", f"{item.uid}@{domain}")
        event.add("dtstamp", stamp)
        event.add("summary", item.summary)
        event.add("dtstart", item.first_day)
        # DTEND of an all-day event is exclusive (RFC 5545 §3.6.1).
        event.add("dtend", (item.last_day or item.first_day) + dt.timedelta(days=1))
        if item.description:
            event.add("description", item.description)
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    ical: bytes = calendar.to_ical()
    return ical
