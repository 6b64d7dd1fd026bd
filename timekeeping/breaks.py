"""Breaks in play (002 §4.4): announcements, the one-break-a-year rule, and which days count.

A break is announced with the rulebook's phrase «беру перерыв с 10.10.97 по 25.10.97» and covers
both named days (002 §4.4.3: that one is 16 days). A player may take one break of at most 30 days
per calendar year, on the same dates in all his games (002 §4.4.1). In one game the break counts
from the day the partner was notified if the notice came late, and not at all if the partner was
never notified (002 §4.4.2). A referee may grant two different things (002 §4.4.5): count a break
announced after it began (``late_notice``: it counts in full, and it is still the player's one break
of the year, §4.4.1), or grant an additional break beyond the norms (``extra``: outside §4.4.1).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from timekeeping.dates import parse_player_date
from timekeeping.errors import (
    BreakAnnouncementError,
    DateFormatError,
    RuleNote,
    RuleViolation,
    rule_note,
    rule_violation,
)
from timekeeping.side import Side

#: 002 §4.4.1: a break lasts at most 30 days.
MAX_BREAK_DAYS = 30


class RefereeGrant(StrEnum):
    """What the referee granted about a break (002 §4.4.5); a break without one is ordinary."""

    LATE_NOTICE = "late_notice"
    """A break announced after it began, counted from its first day: still the player's break of
    the year, so the one-a-year and 30-day limits of 002 §4.4.1 apply to it."""
    EXTRA = "extra"
    """An additional break beyond the norms of 002 §4.4.1: outside the one-a-year and 30-day
    limits, and not compared with the player's breaks in his other games."""
    SUSPENSION = "suspension"
    """No break at all but the days play stood suspended until the referee's decision on an
    overstep claim (002 §4.3.6: «до решения судьи игра приостанавливается»): nobody's think
    time, in this game only, outside every limit of 002 §4.4.1."""


@dataclass(frozen=True, slots=True)
class Break:
    """A break taken by ``player``, ``first_day`` to ``last_day`` inclusive.

    ``notice_postmark`` is the postmark of the registered notice the partner of this game got;
    ``None`` means the partner was never notified. ``referee_grant`` says what the referee
    granted (002 §4.4.5): either kind counts in full whatever the notice; a ``late_notice`` break
    is still the player's break of the year (002 §4.4.1), an ``extra`` one is not.
    """

    player: Side
    first_day: date
    last_day: date
    notice_postmark: date | None = None
    referee_grant: RefereeGrant | None = None

    @property
    def days(self) -> int:
        """Length in days, both ends included (002 §4.4.3)."""
        return (self.last_day - self.first_day).days + 1

    @property
    def counts_in_full(self) -> bool:
        """The referee's grant puts the break on record from its first day, notice or not."""
        return self.referee_grant is not None

    @property
    def is_break_of_the_year(self) -> bool:
        """Subject to one break a calendar year of at most 30 days (002 §4.4.1)."""
        return self.referee_grant not in (RefereeGrant.EXTRA, RefereeGrant.SUSPENSION)

    def sort_key(self) -> tuple[date, date, date, str]:
        return (self.first_day, self.last_day, self.notice_postmark or date.min, self.referee_grant or "")


@dataclass(frozen=True, slots=True)
class BreakAnnouncement:
    """The dates of «беру перерыв с … по …»."""

    first_day: date
    last_day: date

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1


_DATE = r"(\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}(?:[./](?:\d{4}|\d{2}))?)"
_PHRASE = rf"беру\s+перерыв\s+с\s+{_DATE}\s*(?:г\.?)?\s+по\s+{_DATE}\s*(?:г\.?)?"
_ANNOUNCEMENT = re.compile(rf"[\s«\"']*{_PHRASE}[\s»\"'.!]*", re.IGNORECASE)
_ANNOUNCEMENT_IN_TEXT = re.compile(_PHRASE, re.IGNORECASE)


def parse_break_announcement(text: str, *, reference: date | None = None) -> BreakAnnouncement:
    """Read a break announcement worded as 002 §4.4.3 prescribes.

    >>> parse_break_announcement("беру перерыв с 10.10.97 по 25.10.97").days
    16

    ``reference`` (the letter's date) supplies a missing year of the first day; the last day
    takes the year nearest the first day, so ``с 25.12 по 10.01`` ends in the next year. Any other wording (``отпуск``, ``перерыв от … до …``) raises
    :class:`BreakAnnouncementError`: the rulebook says no other words are to be used.
    """
    match = _ANNOUNCEMENT.fullmatch(text)
    if not match:
        raise BreakAnnouncementError(text, "a break is announced only as «беру перерыв с ДД.ММ.ГГ по ДД.ММ.ГГ»")
    return _announcement_from(match, text, reference)


def find_break_announcements(text: str, *, reference: date | None = None) -> list[BreakAnnouncement]:
    """Every announcement in the rulebook's phrase inside a letter's text, in order."""
    return [_announcement_from(match, text, reference) for match in _ANNOUNCEMENT_IN_TEXT.finditer(text)]


def _announcement_from(match: re.Match[str], text: str, reference: date | None) -> BreakAnnouncement:
    try:
        first = parse_player_date(match[1], reference=reference)
        last = parse_player_date(match[2], reference=first)
    except DateFormatError as error:
        raise BreakAnnouncementError(text, error.reason) from error
    if last < first:
        raise BreakAnnouncementError(text, f"the last day {last} is before the first day {first}")
    return BreakAnnouncement(first, last)


def check_break_limits(breaks: Iterable[Break]) -> tuple[list[Break], list[RuleViolation]]:
    """Apply 002 §4.4.1 to the breaks of one player: one a calendar year, at most 30 days.

    Returns the breaks that stand and the violations. Breaks are taken in date order, so the
    result does not depend on the order they were listed in: the earliest break of a year stands
    and a later one that year is refused. A break longer than 30 days stands for its first 30
    days: the player did announce a break and his partners relied on it, but no more than the
    rule allows. A break is reckoned to the year of its first day. A break that shares a day
    with a standing break, or begins the day after one ends, is refused: together they would be
    one break longer than the rule allows (a break of December running on into January past its
    30 days). An extra break granted by the referee (002 §4.4.5) is outside these limits; a
    late-announced break the referee counted is not: it is the player's break of the year like
    any other.
    """
    standing: list[Break] = []
    violations: list[RuleViolation] = []
    years_taken: set[int] = set()
    for brk in sorted(breaks, key=Break.sort_key):
        if brk.last_day < brk.first_day:
            violations.append(rule_violation(
                "002 §4.4.3", "break_ends_before_start", f"{brk.first_day}..{brk.last_day}",
                side=brk.player.value))
            continue
        if not brk.is_break_of_the_year:
            standing.append(brk)
            continue
        if brk.first_day.year in years_taken:
            violations.append(rule_violation(
                "002 §4.4.1", "second_break_in_year", f"{brk.first_day}..{brk.last_day}",
                side=brk.player.value, year=brk.first_day.year))
            continue
        stands, too_long = _at_most_thirty_days(brk)
        joined = _joined(standing, stands)
        if joined is not None:
            violations.append(_joins_violation(stands, joined))
            continue
        years_taken.add(brk.first_day.year)
        if too_long is not None:
            violations.append(too_long)
        standing.append(stands)
    return standing, violations


def judge_announcement(taken: Iterable[Break], new: Break, *,
                       announced_on: date) -> tuple[Break | None, list[RuleViolation]]:
    """A new announcement «беру перерыв с … по …» of ``new``'s player judged against the breaks
    he has already taken (``taken``, which stand as they were judged when announced).

    Returns the break as it stands — ``None`` when refused — and the violations: refused when
    it ends before it begins (002 §4.4.3); when it repeats a break already announced (it holds
    in all games, 002 §4.4.1–§4.4.2); when it ended before it was announced (002 §4.4.2: the
    notice comes «до его начала»; a notice after its end counts in no game, so no break is
    granted and none is used up); when its year already has a break, whichever of the two comes
    first in the calendar (002 §4.4.1: the break taken stands, the later announcement does not
    displace it); when it shares a day with a standing break or begins the day after one ends
    (one break of more than 30 days, 002 §4.4.1). One over 30 days stands for its first 30
    (``break_too_long``, reported). An extra break granted by the referee (002 §4.4.5) is
    outside the limits of 002 §4.4.1.
    """
    if new.last_day < new.first_day:
        return None, [rule_violation("002 §4.4.3", "break_ends_before_start",
                                     f"{new.first_day}..{new.last_day}", side=new.player.value)]
    if not new.is_break_of_the_year:
        return new, []
    standing = [brk for brk in check_break_limits(taken)[0] if brk.is_break_of_the_year]
    stands, too_long = _at_most_thirty_days(new)
    span = f"{new.first_day}..{new.last_day}"
    if any((brk.first_day, brk.last_day) == (stands.first_day, stands.last_day) for brk in standing):
        return None, [rule_violation("002 §4.4.2", "break_already_announced", span,
                                     side=new.player.value, first=stands.first_day,
                                     last=stands.last_day)]
    refusals: list[RuleViolation] = []
    if announced_on > stands.last_day:
        # ``written_last``: a break over 30 days is judged by its first 30 (002 §4.4.1), so it
        # may be over before the day the player wrote as its last; the refusal says so.
        refusals.append(rule_violation("002 §4.4.2", "break_announced_after_end", span,
                                       side=new.player.value, first=stands.first_day,
                                       last=stands.last_day, announced=announced_on,
                                       written_last=new.last_day, most=MAX_BREAK_DAYS))
    if any(brk.first_day.year == new.first_day.year for brk in standing):
        refusals.append(rule_violation("002 §4.4.1", "second_break_in_year", span,
                                       side=new.player.value, year=new.first_day.year))
    joined = _joined(standing, stands)
    if joined is not None:
        refusals.append(_joins_violation(stands, joined))
    if refusals:
        return None, refusals
    return stands, [too_long] if too_long is not None else []


def _at_most_thirty_days(brk: Break) -> tuple[Break, RuleViolation | None]:
    """``brk`` cut to its first 30 days (002 §4.4.1), with the violation when it was longer."""
    if brk.days <= MAX_BREAK_DAYS:
        return brk, None
    return (Break(brk.player, brk.first_day, brk.first_day + timedelta(days=MAX_BREAK_DAYS - 1),
                  brk.notice_postmark, brk.referee_grant),
            rule_violation("002 §4.4.1", "break_too_long", f"{brk.first_day}..{brk.last_day}",
                           side=brk.player.value, days=brk.days, most=MAX_BREAK_DAYS))


def _joined(standing: Iterable[Break], brk: Break) -> Break | None:
    """The first standing break of the year that ``brk`` shares a day with or continues."""
    day = timedelta(days=1)
    return next((other for other in sorted(standing, key=Break.sort_key)
                 if other.is_break_of_the_year
                 and other.first_day - day <= brk.last_day and brk.first_day <= other.last_day + day),
                None)


def _joins_violation(brk: Break, other: Break) -> RuleViolation:
    return rule_violation("002 §4.4.1", "break_joins_another", f"{brk.first_day}..{brk.last_day}",
                          side=brk.player.value, first=brk.first_day, last=brk.last_day,
                          other_first=other.first_day, other_last=other.last_day,
                          most=MAX_BREAK_DAYS)


def days_in_game(brk: Break) -> tuple[tuple[date, date] | None, RuleNote | None]:
    """The days of ``brk`` that count in the game whose partner got the notice (002 §4.4.2).

    Late notice: the break counts from the notice's postmark day. No notice: not at all. A
    break the referee granted (002 §4.4.5) counts in full, and the note says which grant it was.
    """
    if brk.referee_grant is RefereeGrant.LATE_NOTICE:
        return (brk.first_day, brk.last_day), rule_note(
            "002 §4.4.5", "break_late_notice_counted", side=brk.player.value, first=brk.first_day,
            last=brk.last_day)
    if brk.referee_grant is RefereeGrant.SUSPENSION:
        return (brk.first_day, brk.last_day), rule_note(
            "002 §4.3.6", "play_suspended", side=brk.player.value, first=brk.first_day,
            last=brk.last_day)
    if brk.referee_grant is RefereeGrant.EXTRA:
        return (brk.first_day, brk.last_day), rule_note(
            "002 §4.4.5", "break_extra_granted", side=brk.player.value, first=brk.first_day,
            last=brk.last_day)
    if brk.notice_postmark is None:
        return None, rule_note("002 §4.4.2", "break_not_notified", side=brk.player.value,
                               first=brk.first_day, last=brk.last_day)
    if brk.notice_postmark <= brk.first_day:
        return (brk.first_day, brk.last_day), None
    if brk.notice_postmark > brk.last_day:
        return None, rule_note("002 §4.4.2", "break_notified_after_end", side=brk.player.value,
                               first=brk.first_day, last=brk.last_day, notified=brk.notice_postmark)
    return (brk.notice_postmark, brk.last_day), rule_note(
        "002 §4.4.2", "break_notified_late", side=brk.player.value, notified=brk.notice_postmark,
        first=brk.first_day)


def game_break_days(breaks: Collection[Break]) -> tuple[list[tuple[date, date]], list[RuleViolation], list[RuleNote]]:
    """The break intervals that count in one game, with the violations and notes behind them."""
    intervals: list[tuple[date, date]] = []
    violations: list[RuleViolation] = []
    notes: list[RuleNote] = []
    if not breaks:
        return intervals, violations, notes
    by_player: dict[Side, list[Break]] = {}
    for brk in breaks:
        by_player.setdefault(brk.player, []).append(brk)
    for player in Side:
        standing, refused = check_break_limits(by_player.get(player, ()))
        violations.extend(refused)
        for brk in standing:
            interval, note = days_in_game(brk)
            if interval is not None:
                intervals.append(interval)
            if note is not None:
                notes.append(note)
    return intervals, violations, notes


def validate_player_breaks(breaks_by_game: Mapping[str, Sequence[Break]]) -> list[RuleViolation]:
    """Check one player's breaks across all his unfinished games (002 §4.4.1).

    ``breaks_by_game`` maps a game's key (any label the caller uses) to that player's breaks
    in the game. Each game's breaks must keep the one-a-year and 30-day limits, and every game
    must carry the same break dates ("в один и тот же срок и одновременно во всех партиях").
    Extra breaks granted by the referee are left out of the comparison: they are beyond the
    norms; a late-announced break the referee counted is the break of the year and is compared.
    """
    violations: list[RuleViolation] = []
    dates_by_game: dict[str, frozenset[tuple[date, date]]] = {}
    for game, breaks in breaks_by_game.items():
        _, refused = check_break_limits(breaks)
        violations.extend(
            violation._replace(message=f"game {game}: {violation.message}",
                               params=tuple(sorted((*violation.params, ("game", game)))))
            for violation in refused
        )
        dates_by_game[game] = frozenset(
            (brk.first_day, brk.last_day) for brk in breaks if brk.is_break_of_the_year
        )
    every_date = frozenset().union(*dates_by_game.values()) if dates_by_game else frozenset()
    for first, last in sorted(every_date):
        missing = sorted(game for game, dates in dates_by_game.items() if (first, last) not in dates)
        if missing:
            violations.append(rule_violation(
                "002 §4.4.1", "break_not_in_every_game", f"{first}..{last}",
                first=first, last=last, missing=", ".join(missing)))
    return violations
