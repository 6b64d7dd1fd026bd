"""Due dates of 002 §4.3.4: the repeat of an unanswered move and the first-move query.

Thirty days "after" a date are counted like think time: break days do not run (002 §4.4.2
counts break time for nobody), so a move sent just before the partner's break is due for a
repeat 30 counted days later. Pass ``compute_chart(ledger).break_calendar`` as ``breaks``.
"""

from __future__ import annotations

from datetime import date

from timekeeping.daycount import NO_BREAKS, BreakCalendar
from timekeeping.ledger import LetterEntry

#: 002 §4.3.4: a move left unanswered is repeated (registered) after 30 days.
REPEAT_AFTER_DAYS = 30

#: 002 §4.3.4: the first move not received, a query is due 30 days after the start date.
FIRST_MOVE_QUERY_AFTER_DAYS = 30


def repeat_due(sent: date, breaks: BreakCalendar = NO_BREAKS) -> date:
    """002 §4.3.4: the day the repeat of a move sent on ``sent`` is due, by registered letter.

    A repeat sent later than this adds the days of delay to the repeater's time.
    """
    return date.fromordinal(breaks.nth_counted_day(sent.toordinal(), REPEAT_AFTER_DAYS))


def repeat_due_of(letter: LetterEntry, breaks: BreakCalendar = NO_BREAKS) -> date:
    """002 §4.3.4 for a letter of the ledger: 30 counted days after it left for the partner —
    its dispatch, or the day a third hand passed it on (``forwarded_on``: the steward of a mixed
    tournament posting or telephoning an e-mail move to a partner who plays by post,
    002 §4.1.1). The letter that can go astray is the one posted that day, and the partner's
    30 days of silence run from it (docs/rules/mail.md 21)."""
    return repeat_due(letter.forwarded_on or letter.sent, breaks)


def first_move_query_date(start_date: date, breaks: BreakCalendar = NO_BREAKS) -> date:
    """002 §4.3.4: the day a player who has not received the first move must query the partner."""
    return date.fromordinal(breaks.nth_counted_day(start_date.toordinal(), FIRST_MOVE_QUERY_AFTER_DAYS))
