"""The clock of the player to move: days left and the last safe reply date (002 §4.3.5).

:func:`reply_clock` gives a :class:`ReplyClock` for the player who has the partner's move;
:func:`days_left` and :func:`last_safe_reply_date` are its two most asked questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from timekeeping.chart import (
    TimeChart,
    average_transit_days,
    compute_chart,
    effective_start,
    estimated_receipt,
)
from timekeeping.daycount import BreakCalendar
from timekeeping.errors import TimekeepingError
from timekeeping.ledger import Ledger
from timekeeping.side import Side


class NotToMoveError(TimekeepingError):
    """The player asked about is waiting for his partner's letter, not to move."""

    def __init__(self, player: Side) -> None:
        super().__init__(f"{player.value} is not to move: the last letter of the ledger is his own "
                         "or the partner has not opened the game")
        self.player = player


@dataclass(frozen=True, slots=True)
class ReplyClock:
    """The running clock of the player to move.

    ``counting_from`` is the last day not counted (the receipt of the partner's move, or the
    day before the player's own start); ``total`` the days already on his total; ``limit`` the
    most he may have used after his next move, which is his ``next_counted_moves``-th counted
    move (a move of his own accepted variant would not count, 002 §4.3.5, but the next reply is
    assumed to be an ordinary move).
    """

    player: Side
    counting_from: date
    total: int
    next_counted_moves: int
    limit: int
    end_date: date | None
    break_calendar: BreakCalendar

    def days_used(self, on: date) -> int:
        """Days a reply sent on ``on`` would add (002 §4.3.1, §4.3.2, §4.4.2)."""
        upper = on if self.end_date is None or on < self.end_date else self.end_date
        return self.break_calendar.counted_days(self.counting_from.toordinal(), upper.toordinal())

    def days_left(self, on: date) -> int:
        """Days still usable after replying on ``on``; negative once the limit is passed."""
        return self.limit - self.total - self.days_used(on)

    def last_safe_reply_date(self) -> date | None:
        """The last day on which a reply keeps the player within the limit.

        Break days after the budget runs out are still safe, so the answer is the day before the
        first day that would exceed the limit. No day after the end-of-play date counts
        (002 §4.3.2), so the answer is never later than that date. ``None`` when the player is
        already beyond the limit.
        """
        budget = self.limit - self.total
        if budget < 0:
            return None
        start = self.counting_from.toordinal()
        first_over = self.break_calendar.nth_counted_day(start, budget + 1)
        last_safe = date.fromordinal(first_over - 1)
        if self.end_date is not None and last_safe > self.end_date:
            return max(self.end_date, self.counting_from)
        return last_safe


def reply_clock(ledger: Ledger, player: Side, received: date | None = None,
                chart: TimeChart | None = None) -> ReplyClock:
    """The clock of ``player``, who is to move.

    ``received`` is the day the partner's last letter arrived; when not known yet it is
    estimated as the chart does (002 §4.3.3, :func:`estimated_receipt`): from the partner's
    dispatch — or from the day the steward posted it on, when the letter carries that day
    (``LetterEntry.forwarded_on``, 002 §4.1.1) — plus the average transit; a call's day is the
    receipt (002 §4.1.2). For the opening move the clock runs from the player's start
    (002 §4.3.2). Raises :class:`NotToMoveError` when ``player`` is waiting for his partner.
    """
    chart = chart if chart is not None else compute_chart(ledger)
    rows = chart.rows
    own_rows = [row for row in rows if row.sender is player]
    start_day = effective_start(ledger, player)
    if rows and rows[-1].sender is player.partner:
        if received is None:
            received = estimated_receipt(ledger.letters[rows[-1].letter - 1],
                                         average_transit_days(ledger))
        counting_from = max(received, start_day)
    elif not rows and player is Side.WHITE:
        counting_from = start_day
    else:
        raise NotToMoveError(player)
    next_counted = (own_rows[-1].counted_moves if own_rows else 0) + 1
    return ReplyClock(
        player=player,
        counting_from=counting_from,
        total=chart.total(player),
        next_counted_moves=next_counted,
        limit=ledger.control.limit(next_counted),
        end_date=ledger.end_date,
        break_calendar=chart.break_calendar,
    )


def days_left(ledger: Ledger, player: Side, on: date, received: date | None = None) -> int:
    """Days ``player`` (to move) may still use if he replies on ``on``; see :func:`reply_clock`."""
    return reply_clock(ledger, player, received).days_left(on)


def last_safe_reply_date(ledger: Ledger, player: Side, received: date | None = None) -> date | None:
    """The last day ``player`` (to move) can reply without overstepping; see :func:`reply_clock`."""
    return reply_clock(ledger, player, received).last_safe_reply_date()
