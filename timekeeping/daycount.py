"""Counting think days: calendar days after one date up to another, break days left out.

002 §4.3.1: a reply sent the day the move was received costs nothing, so the days counted for a
reply received on ``received`` and sent on ``sent`` are the days ``d`` with
``received < d <= sent``. 002 §4.4.2: break days are counted for nobody, so they are removed.
002 §4.4.3 gives the three worked examples (break 10.10–25.10.97):

>>> autumn = BreakCalendar.from_intervals([(date(1997, 10, 10), date(1997, 10, 25))])
>>> think_days(date(1997, 10, 8), date(1997, 10, 27), autumn)   # 27 - 8 - 16
3
>>> think_days(date(1997, 10, 8), date(1997, 10, 20), autumn)   # 9 - 8
1
>>> think_days(date(1997, 10, 10), date(1997, 10, 26), autumn)  # 26 - 25
1

Days are handled as proleptic ordinals (:meth:`datetime.date.toordinal`) so that a federation's
archive of charts can be recomputed in seconds.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from datetime import date
from itertools import accumulate


class BreakCalendar:
    """The break days of one game: disjoint day intervals with a prefix sum for fast counting.

    Overlapping or adjacent intervals (both players' breaks) are merged, so a day in two breaks
    is removed once.
    """

    __slots__ = ("_firsts", "_lasts", "_days_before")

    def __init__(self, intervals: Iterable[tuple[int, int]] = ()) -> None:
        merged: list[list[int]] = []
        for first, last in sorted(intervals):
            if last < first:
                continue
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self._firsts = [first for first, _ in merged]
        self._lasts = [last for _, last in merged]
        # _days_before[i]: break days in the intervals before interval i.
        self._days_before = [0, *accumulate(last - first + 1 for first, last in merged)]

    @classmethod
    def from_intervals(cls, intervals: Iterable[tuple[date, date]]) -> BreakCalendar:
        """Build from ``(first_day, last_day)`` pairs, both days inclusive (002 §4.4.3)."""
        return cls((first.toordinal(), last.toordinal()) for first, last in intervals)

    def __bool__(self) -> bool:
        return bool(self._firsts)

    def __contains__(self, day: date) -> bool:
        ordinal = day.toordinal()
        index = bisect_right(self._firsts, ordinal) - 1
        return index >= 0 and ordinal <= self._lasts[index]

    def intervals(self) -> list[tuple[date, date]]:
        """The merged break intervals, in order."""
        return [
            (date.fromordinal(first), date.fromordinal(last))
            for first, last in zip(self._firsts, self._lasts, strict=True)
        ]

    def days_through(self, ordinal: int) -> int:
        """Break days on or before the day ``ordinal``."""
        index = bisect_right(self._firsts, ordinal) - 1
        if index < 0:
            return 0
        return self._days_before[index] + min(ordinal, self._lasts[index]) - self._firsts[index] + 1

    def counted_days(self, after: int, through: int) -> int:
        """Days ``d`` with ``after < d <= through`` that are not break days (ordinals)."""
        if through <= after:
            return 0
        firsts = self._firsts
        # Most replies touch no break: answer those without a search.
        if not firsts or through < firsts[0] or after >= self._lasts[-1]:
            return through - after
        return through - after - self.days_through(through) + self.days_through(after)

    def nth_counted_day(self, after: int, count: int) -> int:
        """The ordinal of the ``count``-th non-break day after ``after`` (``count >= 1``)."""
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        day = after + count
        # counted_days(after, day + k) <= counted_days(after, day) + k, so each step lands on or
        # before the answer and the loop ends exactly on it.
        while (counted := self.counted_days(after, day)) < count:
            day += count - counted
        return day


NO_BREAKS = BreakCalendar()


def think_days(received: date, sent: date, breaks: BreakCalendar = NO_BREAKS) -> int:
    """Think time of one reply: days after ``received`` up to ``sent``, break days excluded.

    A reply sent before it was received counts 0 here; :func:`timekeeping.compute_chart`
    reports such a letter as an error.
    """
    return breaks.counted_days(received.toordinal(), sent.toordinal())
