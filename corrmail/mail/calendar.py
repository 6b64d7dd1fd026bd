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


#: A stamp no letter is written with: the kept calendars carry it in place of the real one.
_STAMP_MARK = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
_STAMP_LINE = b"\r\nDTSTAMP:19000101T000000Z\r\n"
_KEPT: dict[tuple[tuple[CalendarDate, ...], str], bytes] = {}


def calendar_attachment(
    dates: Sequence[CalendarDate], *, domain: str, filename: str = "dates.ics",
    stamp: dt.datetime | None = None,
) -> Attachment:
    """The ``.ics`` of ``dates``, stamped ``stamp`` (now by default).

    A calendar of the same dates is built by :mod:`icalendar` once and kept: a later one
    only gets its own stamp in the one ``DTSTAMP`` line — the same bytes, without building
    the calendar again for every move letter.
    """
    when = stamp or dt.datetime.now(dt.UTC)
    if when.utcoffset() != dt.timedelta(0):
        return Attachment(filename, _calendar(dates, domain, when), "text/calendar")
    key = (tuple(dates), domain)
    kept = _KEPT.get(key)
    if kept is None:
        kept = _calendar(dates, domain, _STAMP_MARK)
        if kept.count(_STAMP_LINE) != len(dates):  # pragma: no cover - icalendar's own layout
            return Attachment(filename, _calendar(dates, domain, when), "text/calendar")
        if len(_KEPT) >= 1024:
            _KEPT.clear()
        _KEPT[key] = kept
    line = b"\r\nDTSTAMP:" + when.strftime("%Y%m%dT%H%M%SZ").encode() + b"\r\n"
    return Attachment(filename, kept.replace(_STAMP_LINE, line), "text/calendar")


def _calendar(dates: Sequence[CalendarDate], domain: str, stamp: dt.datetime) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//corrmail//correspondence draughts//RU")
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
