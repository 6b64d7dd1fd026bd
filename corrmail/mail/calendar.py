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


def calendar_attachment(
    dates: Sequence[CalendarDate], *, domain: str, filename: str = "dates.ics",
    stamp: dt.datetime | None = None,
) -> Attachment:
    calendar = Calendar()
    calendar.add("prodid", "-//corrmail//correspondence draughts//RU")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    for item in dates:
        event = Event()
        event.add("uid", f"{item.uid}@{domain}")
        event.add("dtstamp", stamp or dt.datetime.now(dt.UTC))
        event.add("summary", item.summary)
        event.add("dtstart", item.first_day)
        # DTEND of an all-day event is exclusive (RFC 5545 §3.6.1).
        event.add("dtend", (item.last_day or item.first_day) + dt.timedelta(days=1))
        if item.description:
            event.add("description", item.description)
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    return Attachment(filename, calendar.to_ical(), "text/calendar")
