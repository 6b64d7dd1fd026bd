"""The time chart of one game (002 §4.3.6): think days of every letter, totals, overstep.

:func:`compute_chart` does by machine what a referee does by hand, and says why for each day:

* think time of a reply: days after the receipt up to the dispatch, break days excluded
  (002 §4.3.1, §4.4.2–§4.4.4); no day counts before a player's start (002 §4.3.2) or after the
  end-of-play date (002 §4.3.2);
* the partner's dispatch date is replaced by the postmark when the receiver corrects it in the
  reply (002 §4.3.1); a missing receipt date is estimated from the average transit (002 §4.3.3),
  counted from the day a forwarded letter was posted on (002 §4.1.1, :func:`estimated_receipt`);
* penalty days charged in a reply (002 §4.2.11, §4.3.3) or by the referee (002 §4.3.7), and the
  days a repeat was late (002 §4.3.4), join the offender's total;
* the first letter whose sender has used more days than the control allows for his counted
  moves is the overstep (002 §4.3.5).

Input that breaks a rule is reported in :attr:`TimeChart.errors` and the rest is still computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import compress, count
from operator import attrgetter
from typing import NamedTuple

from timekeeping.breaks import game_break_days
from timekeeping.control import LIMIT_TABLE_MOVES, TimeControl, TimeFraction
from timekeeping.daycount import NO_BREAKS, BreakCalendar
from timekeeping.deadlines import repeat_due
from timekeeping.errors import RuleNote, RuleViolation, rule_note, rule_violation
from timekeeping.ledger import (
    ERROR_REPORT_DAYS,
    PENALTY_DAYS,
    ErrorReport,
    Ledger,
    LetterEntry,
    Penalty,
)
from timekeeping.side import Side

# Module globals: a member looked up on the enum class costs several times more.
_WHITE, _BLACK = Side.WHITE, Side.BLACK
#: Stands for "no end-of-play date": later than any date.
_NO_END = date.max.toordinal()
# Messages on the common paths format dates with isoformat(): the same text as str(), but a date
# in an f-string goes through __format__ and costs twice as much, in every chart of an archive.
_NO_TIME = timedelta(0)
_REPEAT_SENT = attrgetter("repeat_sent")
_PENALTY_CHARGED = attrgetter("penalty_days_charged_to_partner")


class Charge(NamedTuple):
    """Days added to ``player``'s total besides think time: a penalty or a late repeat."""

    player: Side
    days: int
    rule: str
    reason: str
    after_letter: int


class ChartRow(NamedTuple):
    """One letter of the chart (a named tuple: a federation's archive has millions of rows).

    ``received`` is the receipt date the count starts from (``received_estimated`` when the
    letter omitted it), ``None`` for the opening letter; ``sent`` is the dispatch date used,
    which differs from ``declared_sent`` when the partner corrected it to the postmark. ``days``
    is the think time of this reply; ``charges`` the penalties and repeat delays added with this
    letter; ``white_total``/``black_total`` the totals standing after it. ``limit`` is the most
    the sender may have used after ``counted_moves`` moves.
    """

    letter: int
    sender: Side
    move: int
    counted_moves: int
    received: date | None
    received_estimated: bool
    sent: date
    declared_sent: date
    days: int
    charges: tuple[Charge, ...]
    white_total: int
    black_total: int
    limit: int
    moves_text: str = ""

    @property
    def totals(self) -> TimeFraction:
        return TimeFraction(self.white_total, self.black_total)

    @property
    def sender_total(self) -> int:
        return self.white_total if self.sender is _WHITE else self.black_total


@dataclass(frozen=True, slots=True)
class Overstep:
    """002 §4.3.5: ``player`` had used ``total`` days, more than ``limit``, at ``move``."""

    player: Side
    move: int
    letter: int
    total: int
    limit: int


@dataclass(frozen=True, slots=True)
class TimeChart:
    """The computed chart of one game."""

    rows: tuple[ChartRow, ...]
    totals: TimeFraction
    overstep: Overstep | None
    errors: tuple[RuleViolation, ...]
    notes: tuple[RuleNote, ...]
    charges: tuple[Charge, ...]
    control: TimeControl
    break_calendar: BreakCalendar = field(compare=False, repr=False)

    def total(self, player: Side) -> int:
        return self.totals.white if player is _WHITE else self.totals.black


def effective_start(ledger: Ledger, player: Side) -> date:
    """The day a player's clock starts from (002 §4.3.2).

    A reply sent on this day costs nothing. A player who got the start sheet after the start
    date starts on the day after he got it.
    """
    received = ledger.start_sheet_received.get(player)
    if received is not None and received > ledger.start_date:
        return received + timedelta(days=1)
    return ledger.start_date


def compute_chart(ledger: Ledger) -> TimeChart:
    """Compute the time chart of ``ledger``; see the module docstring for the rules applied."""
    errors: list[RuleViolation] = []
    notes: list[RuleNote] = []
    intervals, break_errors, break_notes = game_break_days(ledger.breaks)
    errors.extend(break_errors)
    notes.extend(break_notes)
    calendar = BreakCalendar.from_intervals(intervals) if intervals else NO_BREAKS
    dates = _letter_dates(ledger.letters, errors, notes)
    penalties = ledger.penalties
    if ledger.error_reports:
        penalties = (*penalties, *_late_error_reports(ledger, calendar, errors))
    penalties_after = _referee_penalties(penalties, len(ledger.letters), errors)
    return _count(ledger, calendar, dates, penalties_after, errors, notes)


def _late_error_reports(ledger: Ledger, calendar: BreakCalendar,
                        errors: list[RuleViolation]) -> list[Penalty]:
    """002 §4.2.9: the days a report of the partner's error took beyond its 3 days, charged to
    the reporter before his reply (break days and days after the end of play excluded)."""
    late: list[Penalty] = []
    end = ledger.end_date.toordinal() if ledger.end_date is not None else _NO_END
    for report in ledger.error_reports:
        if not 1 <= report.letter <= len(ledger.letters) or (
                ledger.letters[report.letter - 1].sender is report.player):
            errors.append(rule_violation("002 §4.2.9", "error_report_wrong_letter", report.letter,
                                         side=report.player.value, letter_number=report.letter))
            continue
        if report.reported < report.received:
            errors.append(rule_violation("002 §4.2.9", "error_report_before_receipt",
                                         report.reported.isoformat(), report.letter,
                                         reported=report.reported, received=report.received))
            continue
        due = report.received + timedelta(days=ERROR_REPORT_DAYS)
        days = calendar.counted_days(due.toordinal(), min(report.reported.toordinal(), end))
        if days > 0:
            errors.append(rule_violation("002 §4.2.9", "error_report_late", report.reported.isoformat(),
                                         report.letter, side=report.player.value, reported=report.reported,
                                         due=due, days=days))
            late.append(Penalty(report.player, days, report.letter, "002 §4.2.9",
                                f"error of letter {report.letter} reported {report.reported.isoformat()}, "
                                f"due by {due.isoformat()}: {days} days late"))
    return late


def error_report_due(report: ErrorReport) -> date:
    """The last day to report the partner's error (002 §4.2.9): 3 days after the letter came."""
    return report.received + timedelta(days=ERROR_REPORT_DAYS)


class _LetterDates(NamedTuple):
    """The three dates of every letter (002 §4.3.1) as the count uses them."""

    answered: list[int]  # index of the partner's letter each letter answers, or -1
    sent: list[date]  # own dispatch, corrected to the postmark where the partner asked
    received: list[date | None]  # receipt, estimated where omitted
    estimated: list[bool]
    omission_number: list[int]  # the sender's how-many-th omitted date this letter is, or 0
    partner_dispatch: list[date | None]  # postmark, else the partner's declared dispatch
    transit: int | None  # average days in the post, rounded half up; None: no letter to go by


def _letter_dates(letters: Sequence[LetterEntry], errors: list[RuleViolation],
                  notes: list[RuleNote]) -> _LetterDates:
    """Read the letters' dates in one pass, then settle postmarks and omitted receipts.

    One pass gathers what each later step needs — the letter answered, the partner's dispatch,
    the transit of every letter with both dates, the letters to look at again — because an
    archive's charts spend their time walking letters, and every extra walk costs as much as
    the counting itself.
    """
    out_of_turn: list[int] = []
    sent: list[date] = []
    received: list[date | None] = []
    partner_dispatch: list[date | None] = []
    to_settle: list[int] = []
    omitted: list[int] = []
    transit_sum = _NO_TIME
    transits = 0
    previous_sender: Side | None = None
    previous_by_phone = False  # the answered move was given by telephone: no transit (002 §4.1.2)
    supplied: dict[int, tuple[date, int]] = {}  # omitted receipt -> (date supplied, by letter)
    declared: date | None = None  # the answered letter's declared dispatch
    forwarded: date | None = None  # the day a third hand passed the answered letter on (002 §4.1.1)
    for index, letter in enumerate(letters):
        sender = letter.sender
        if sender is previous_sender:
            errors.append(rule_violation("002 §4.3.1", "letters_in_a_row", letter.move, index + 1,
                                         side=sender.value))
            out_of_turn.append(index)
            declared = forwarded = None
        postmark = letter.partner_sent_postmark
        dispatch = postmark or declared
        partner_dispatch.append(dispatch)
        if postmark is not None and postmark != declared and postmark != forwarded or (
                letter.corrects_partner):
            to_settle.append(index)
        day = letter.received
        received.append(day)
        if day is None:
            if index:  # the opening letter answers nothing: it has no receipt to omit
                omitted.append(index)
        elif not previous_by_phone:
            # The letter travelled from its postmark, else from the day it was forwarded.
            posted = postmark or forwarded or declared
            if posted is not None and day >= posted:
                transit_sum += day - posted
                transits += 1
        if letter.supplied_receipt is not None:
            _supply_receipt(letters, index, supplied, errors)
        declared = letter.sent
        forwarded = letter.forwarded_on
        sent.append(declared)
        previous_sender = sender
        previous_by_phone = letter.by_phone or letter.forwarded_by_phone
    answered = list(range(-1, len(letters) - 1))  # each letter answers the one before it ...
    for index in out_of_turn:  # ... unless both are from the same player
        answered[index] = -1
    _settle_postmarks(letters, answered, sent, to_settle, notes)
    transit = (2 * transit_sum.days + transits) // (2 * transits) if transits else None
    estimated = [False] * len(letters)
    omission_number = [0] * len(letters)
    if omitted:
        _estimate_receipts(letters, omitted, partner_dispatch, transit, received, estimated, omission_number,
                           errors, notes, supplied)
    return _LetterDates(answered, sent, received, estimated, omission_number, partner_dispatch, transit)


def _supply_receipt(letters: Sequence[LetterEntry], index: int, supplied: dict[int, tuple[date, int]],
                    errors: list[RuleViolation]) -> None:
    """002 §4.3.3: a letter supplies the receipt date its sender left out of his previous letter."""
    letter = letters[index]
    target = index - 2
    if target >= 1 and letters[target].sender is letter.sender and letters[target].received is None:
        assert letter.supplied_receipt is not None
        supplied[target] = (letter.supplied_receipt, index + 1)
        return
    errors.append(rule_violation("002 §4.3.3", "receipt_supplied_nothing_omitted",
                                 letter.supplied_receipt, index + 1))


def _settle_postmarks(letters: Sequence[LetterEntry], answered: Sequence[int], sent: list[date],
                      to_settle: Sequence[int], notes: list[RuleNote]) -> None:
    """Correct ``sent`` to the postmark where the reply asks for it (002 §4.3.1).

    ``to_settle`` are the letters whose postmark differs from the declared date or that ask for
    a correction. A correction changes only the date of the letter answered, whose own postmark
    is on record, so the partner's dispatch dates read before stay right.
    """
    for index in to_settle:
        letter = letters[index]
        postmark = letter.partner_sent_postmark
        target = answered[index]
        # A repeat (002 §4.3.4) carries its own postmark: the repeat date is not a discrepancy.
        if (postmark is None or target < 0 or postmark == letters[target].sent
                or postmark == letters[target].repeat_sent):
            if letter.corrects_partner:
                notes.append(rule_note("002 §4.3.1", "postmark_matches", index + 1))
            continue
        declared = letters[target].sent
        forwarded = letters[target].forwarded_on
        if forwarded is not None:
            # The letter received was the forwarder's: its postmark says when he posted it, not
            # when the sender sent his move, so it corrects nothing (docs/rules/mail.md 21).
            if postmark != forwarded:
                notes.append(rule_note("002 §4.3.1", "forwarded_postmark_differs", target + 1,
                                       postmark=postmark, forwarded=forwarded, reply=index + 1))
            continue
        if letter.corrects_partner:
            sent[target] = postmark
            notes.append(rule_note("002 §4.3.1", "dispatch_corrected", target + 1,
                                   side=letters[target].sender.value, declared=declared,
                                   postmark=postmark))
        else:
            notes.append(rule_note("002 §4.3.1", "postmark_not_corrected", target + 1,
                                   postmark=postmark, declared=declared, reply=index + 1))


def _estimate_receipts(letters: Sequence[LetterEntry], omitted: Sequence[int],
                       partner_dispatch: Sequence[date | None], transit: int | None,
                       received: list[date | None], estimated: list[bool], omission_number: list[int],
                       errors: list[RuleViolation], notes: list[RuleNote],
                       supplied: dict[int, tuple[date, int]] | None = None) -> None:
    """Complete the receipt dates the ``omitted`` letters left out (002 §4.3.3).

    A missing receipt is estimated from the average transit of every letter of the game whose
    dispatch and receipt are both known, rounded half up to whole days. With no such letter the
    transit is taken as 0 days: the receipt is put on the partner's dispatch date, the only date
    on record, so that omitting a date never shortens the omitter's time. ``omission_number``
    counts each player's omissions: the first earns a notice only (002 §4.3.3). A date the
    omitter ``supplied`` in his next letter is used instead of an estimate; the omission stays.
    """
    omissions = [0, 0]  # white, black
    for index in omitted:
        sender = letters[index].sender
        slot = 0 if sender is _WHITE else 1
        omissions[slot] += 1
        omission_number[index] = omissions[slot]
        if omissions[slot] == 1:
            notes.append(rule_note("002 §4.3.3", "first_omission", index + 1, side=sender.value))
        if supplied and index in supplied:
            day, by_letter = supplied[index]
            received[index] = day
            notes.append(rule_note("002 §4.3.3", "receipt_supplied_later", index + 1, supplied=day,
                                   by=by_letter))
            continue
        dispatch = partner_dispatch[index]
        if dispatch is None:
            errors.append(rule_violation("002 §4.3.3", "receipt_not_estimable", None, index + 1))
            received[index] = letters[index].sent
            continue
        answered = letters[index - 1]
        from_partner = answered.sender is not sender
        # A move given by telephone was heard the day of the call (002 §4.1.2, §4.3.1).
        heard_at_once = from_partner and (answered.by_phone or answered.forwarded_by_phone)
        if from_partner and letters[index].partner_sent_postmark is None:
            guess = estimated_receipt(answered, transit)
        else:
            guess = dispatch + timedelta(days=0 if heard_at_once else transit or 0)
        guess = min(guess, letters[index].sent)
        received[index] = guess
        estimated[index] = True
        if heard_at_once:
            notes.append(rule_note("002 §4.3.3", "receipt_phone_call", index + 1, estimate=guess))
        elif transit is not None:
            notes.append(rule_note("002 §4.3.3", "receipt_estimated", index + 1, estimate=guess,
                                   transit=transit))
        else:
            notes.append(rule_note("002 §4.3.3", "receipt_estimated_no_transit", index + 1,
                                   estimate=guess))


def estimated_receipt(letter: LetterEntry, transit: int | None) -> date:
    """The day the partner is taken to have received ``letter`` while he has not said when
    (002 §4.3.3: "берется из расчета среднего пробега"): the day it left for him plus
    ``transit``, the game's average days in the post (:func:`average_transit_days`; none on
    record: 0).

    It left for him on its dispatch, or — when a third hand passed it on, the steward of a
    mixed tournament posting an e-mail or web move to a partner who plays by post
    (002 §4.1.1) — on the day that hand posted it (``forwarded_on``): the days it waited for
    the steward are not the partner's. A move given or forwarded by telephone is heard the day
    of the call (002 §4.1.2, §4.3.1): no transit. The clock of the player to move
    (:func:`timekeeping.reply_clock`) and the chart's estimate of an omitted receipt both count
    from this day.
    """
    if letter.forwarded_on is not None:
        if letter.forwarded_by_phone:
            return letter.forwarded_on
        return letter.forwarded_on + timedelta(days=transit or 0)
    if letter.by_phone:
        return letter.sent
    return letter.sent + timedelta(days=transit or 0)


def average_transit_days(ledger: Ledger) -> int | None:
    """Average days a letter of this game took in the post, rounded half up; ``None`` when no
    letter has both its partner's dispatch and its receipt on record (002 §4.3.3)."""
    return _letter_dates(ledger.letters, [], []).transit


def _referee_penalties(penalties: Sequence[Penalty], letter_count: int,
                       errors: list[RuleViolation]) -> dict[int, list[Penalty]]:
    by_letter: dict[int, list[Penalty]] = {}
    for penalty in penalties:
        if not 0 <= penalty.after_letter <= letter_count:
            errors.append(rule_violation(penalty.rule, "penalty_after_last_letter", penalty.after_letter,
                                         after=penalty.after_letter, letters=letter_count))
            continue
        by_letter.setdefault(penalty.after_letter, []).append(penalty)
    return by_letter


def _count(ledger: Ledger, calendar: BreakCalendar, dates: _LetterDates, penalties_after: dict[int, list[Penalty]],
           errors: list[RuleViolation], notes: list[RuleNote]) -> TimeChart:
    """Walk the letters once: check their dates and numbering, count the days, keep the totals.

    This is the hot loop when a federation's archive is recomputed, so per-side state lives in
    two-slot lists indexed 0 (white) / 1 (black) rather than in dicts keyed by the enum, and the
    rare cases (errors, notes, charges) are handled out of line.
    """
    letters = ledger.letters
    answered = dates.answered
    omission_number = dates.omission_number
    sent = dates.sent
    counted_days = calendar.counted_days
    breaks = bool(calendar)  # without breaks a reply's days are plain subtraction: no call needed
    end = ledger.end_date.toordinal() if ledger.end_date is not None else _NO_END
    starts = (effective_start(ledger, _WHITE).toordinal(), effective_start(ledger, _BLACK).toordinal())
    limits = ledger.control.limit_table()
    totals = [0, 0]
    last_move = [0, 0]
    last_uncounted = [0, 0]
    all_charges = [_apply_referee_penalty(penalty, totals) for penalty in penalties_after.get(0, ())]
    # The few letters that add days besides think time, found in C rather than tested one by one.
    charging = {*compress(count(1), map(_REPEAT_SENT, letters)),
                *compress(count(1), map(_PENALTY_CHARGED, letters)), *penalties_after}
    rows: list[ChartRow] = []
    overstep: Overstep | None = None
    append_row = rows.append
    new_row = tuple.__new__  # skips the keyword handling of the named tuple's generated __new__
    for number, letter, sent_day, upper, received_day, was_estimated, dispatch in zip(
            count(1), letters, sent, map(date.toordinal, sent), dates.received, dates.estimated,
            dates.partner_dispatch, strict=False):
        slot = 0 if letter.sender is _WHITE else 1
        lower = starts[slot]
        if received_day is not None:
            received_ordinal = received_day.toordinal()
            if received_ordinal > upper or received_ordinal >= end:
                _report_receipt_after(received_day, sent_day, number, received_ordinal >= end, errors, notes)
            if dispatch is not None and received_day < dispatch:
                errors.append(rule_violation("002 §4.3.1", "received_before_dispatch", received_day.isoformat(),
                                             number, received=received_day, dispatch=dispatch))
            if received_ordinal > lower:
                lower = received_ordinal
        if upper > end:
            upper = end
        days = (counted_days(lower, upper) if breaks else upper - lower) if upper > lower else 0
        total = totals[slot] = totals[slot] + days

        move = letter.move
        uncounted = letter.uncounted_moves
        if (move <= last_move[slot] or uncounted > move or uncounted < last_uncounted[slot]
                or letter.forced_moves and uncounted > last_uncounted[slot]):
            uncounted = _report_numbering(letter, number, last_move[slot], last_uncounted[slot], errors)
        last_move[slot] = move
        last_uncounted[slot] = uncounted
        counted_moves = move - uncounted
        limit = limits[counted_moves] if counted_moves < LIMIT_TABLE_MOVES else ledger.control.limit(counted_moves)
        if total > limit and overstep is None:
            overstep = Overstep(letter.sender, move, number, total, limit)

        charges: tuple[Charge, ...] = ()
        if number in charging:
            charges = _charges_with(letter, number, sent_day, answered[number - 1], omission_number, calendar,
                                    end, penalties_after, totals, errors)
            all_charges.extend(charges)
        append_row(new_row(ChartRow, (
            number, letter.sender, move, counted_moves, received_day, was_estimated, sent_day,
            letter.sent, days, charges, totals[0], totals[1], limit, letter.moves_text,
        )))
    return TimeChart(
        rows=tuple(rows),
        totals=TimeFraction(totals[0], totals[1]),
        overstep=overstep,
        errors=tuple(errors),
        notes=tuple(notes),
        charges=tuple(all_charges),
        control=ledger.control,
        break_calendar=calendar,
    )


def _report_receipt_after(received: date, sent: date, number: int, after_end: bool,
                          errors: list[RuleViolation], notes: list[RuleNote]) -> None:
    """A reply sent before its receipt (002 §4.3.1); a move received at the end of play (002 §4.3.2)."""
    if sent < received:
        errors.append(rule_violation("002 §4.3.1", "sent_before_received", sent.isoformat(), number,
                                     sent=sent, received=received))
    if after_end:
        notes.append(rule_note("002 §4.3.2", "received_after_end", number))


def _report_numbering(letter: LetterEntry, number: int, last_move: int, last_uncounted: int,
                      errors: list[RuleViolation]) -> int:
    """Move numbers go forward (002 §4.2.14); uncounted variant moves never decrease nor exceed
    the move number (002 §4.3.5). Returns the uncounted moves to use."""
    if letter.move <= last_move:
        errors.append(rule_violation("002 §4.2.14", "move_backwards", letter.move, number,
                                     side=letter.sender.value, move=letter.move, last=last_move))
    uncounted = letter.uncounted_moves
    if uncounted > letter.move or uncounted < last_uncounted:
        errors.append(rule_violation("002 §4.3.5", "uncounted_moves", uncounted, number, move=letter.move))
        uncounted = min(max(uncounted, last_uncounted), letter.move)
    # 002 §4.3.5 with §4.2.4: a forced move inside an accepted variant still counts.
    may_skip = max(letter.move - max(last_move, 0) - letter.forced_moves, 0)
    if letter.forced_moves and uncounted - last_uncounted > may_skip:
        errors.append(rule_violation("002 §4.3.5", "forced_move_uncounted", uncounted, number,
                                     forced=letter.forced_moves, move=letter.move))
        uncounted = last_uncounted + may_skip
    return uncounted


def _charges_with(letter: LetterEntry, number: int, sent_day: date, target: int, omission_number: Sequence[int],
                  calendar: BreakCalendar, end: int, penalties_after: dict[int, list[Penalty]],
                  totals: list[int], errors: list[RuleViolation]) -> tuple[Charge, ...]:
    """Days added with this letter besides think time, applied to ``totals``."""
    charges: list[Charge] = []
    if letter.repeat_sent is not None:
        delay = _repeat_delay(letter, sent_day, calendar, end, number, errors)
        if delay is not None:
            charges.append(delay)
    if letter.penalty_days_charged_to_partner:
        penalty = _partner_penalty(letter, target, omission_number, number, errors)
        if penalty is not None:
            charges.append(penalty)
    for charge in charges:
        totals[0 if charge.player is _WHITE else 1] += charge.days
    if number in penalties_after:
        charges.extend(_apply_referee_penalty(penalty, totals) for penalty in penalties_after[number])
    return tuple(charges)


def _repeat_delay(letter: LetterEntry, sent_day: date, calendar: BreakCalendar, end: int,
                  number: int, errors: list[RuleViolation]) -> Charge | None:
    assert letter.repeat_sent is not None
    if letter.repeat_sent < sent_day:
        errors.append(rule_violation("002 §4.3.4", "repeat_before_letter", letter.repeat_sent.isoformat(),
                                     number, repeat=letter.repeat_sent, sent=sent_day))
        return None
    due_day = repeat_due(sent_day, calendar)
    due = due_day.toordinal()
    repeat = letter.repeat_sent.toordinal()
    if repeat > end:
        repeat = end
    delay = calendar.counted_days(due, repeat)
    if delay <= 0:
        return None
    return Charge(letter.sender, delay, "002 §4.3.4",
                  f"repeat sent {letter.repeat_sent.isoformat()}, due {due_day.isoformat()}: {delay} days late",
                  number)


def _partner_penalty(letter: LetterEntry, target: int, omission_number: Sequence[int], number: int,
                     errors: list[RuleViolation]) -> Charge | None:
    charged = letter.penalty_days_charged_to_partner
    offender = letter.sender.partner
    if target < 0:
        errors.append(rule_violation(letter.penalty_rule, "penalty_answers_nothing", charged, number))
        return None
    if letter.penalty_for_letter is not None and letter.penalty_for_letter != target + 1:
        errors.append(rule_violation(letter.penalty_rule, "penalty_right_lost", charged, number,
                                     charged_for=letter.penalty_for_letter, answered=target + 1))
        return None
    if letter.penalty_reason is not None and not letter.penalty_reason.strip():
        errors.append(rule_violation(letter.penalty_rule, "penalty_without_reason", charged, number))
        return None
    if "4.3.3" in letter.penalty_rule and omission_number[target] < 2:
        code = "omission_penalty_no_omission" if omission_number[target] == 0 else "omission_penalty_first"
        errors.append(rule_violation("002 §4.3.3", code, charged, number))
        return None
    if charged != PENALTY_DAYS:
        errors.append(rule_violation("002 §4.2.11", "penalty_amount", charged, number,
                                     penalty=PENALTY_DAYS, charged=charged))
    reason = f": {letter.penalty_reason.strip()}" if letter.penalty_reason else ""
    return Charge(offender, PENALTY_DAYS, letter.penalty_rule,
                  f"charged by {letter.sender.value} for letter {target + 1}{reason}", number)


def _apply_referee_penalty(penalty: Penalty, totals: list[int]) -> Charge:
    totals[0 if penalty.player is _WHITE else 1] += penalty.days
    return Charge(penalty.player, penalty.days, penalty.rule, penalty.reason or "imposed by the referee",
                  penalty.after_letter)
