"""The time chart of one game (002 §4.3.6): think days of every letter, totals, overstep.

:func:`compute_chart` does by machine what a referee does by hand, and says why for each day:

* think time of a reply: days after the receipt up to the dispatch, break days excluded
  (002 §4.3.1, §4.4.2–§4.4.4); no day counts before a player's start (002 §4.3.2) or after the
  end-of-play date (002 §4.3.2);
* the partner's dispatch date is replaced by the postmark when the receiver corrects it in the
  reply (002 §4.3.1); a missing receipt date is estimated from the average transit (002 §4.3.3);
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

from timekeeping.breaks import game_break_days
from timekeeping.control import TimeControl, TimeFraction
from timekeeping.daycount import BreakCalendar
from timekeeping.errors import RuleNote, RuleViolation
from timekeeping.ledger import PENALTY_DAYS, Ledger, LetterEntry, Penalty
from timekeeping.side import Side

#: 002 §4.3.4: a move left unanswered is repeated (registered) after 30 days.
REPEAT_AFTER_DAYS = 30

_WHITE = Side.WHITE


@dataclass(frozen=True, slots=True)
class Charge:
    """Days added to ``player``'s total besides think time: a penalty or a late repeat."""

    player: Side
    days: int
    rule: str
    reason: str
    after_letter: int


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One letter of the chart.

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
    #: Average transit of the game's letters (002 §4.3.3); ``None`` with no letter on record.
    average_transit_days: int | None = None

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
    calendar = BreakCalendar.from_intervals(intervals)
    letters = ledger.letters
    answered = _answered_letters(letters, errors)
    sent = _dispatch_dates(letters, answered, notes)
    received, estimated, transit = _receipt_dates(letters, answered, sent, errors, notes)
    penalties_after = _referee_penalties(ledger.penalties, len(letters), errors)
    return _count(ledger, calendar, answered, sent, received, estimated, transit, penalties_after,
                  errors, notes)


def _answered_letters(letters: Sequence[LetterEntry], errors: list[RuleViolation]) -> list[int]:
    """For each letter, the index of the partner's letter it answers, or -1."""
    answered = [-1] * len(letters)
    for index in range(1, len(letters)):
        if letters[index].sender is letters[index - 1].sender:
            errors.append(RuleViolation(
                "002 §4.3.1", f"two letters in a row from {letters[index].sender.value}: each letter "
                "answers the partner's", letters[index].move, index + 1))
        else:
            answered[index] = index - 1
    return answered


def _dispatch_dates(letters: Sequence[LetterEntry], answered: Sequence[int],
                    notes: list[RuleNote]) -> list[date]:
    """Each letter's dispatch date after the partner's postmark corrections (002 §4.3.1)."""
    sent = [letter.sent for letter in letters]
    for index, letter in enumerate(letters):
        postmark = letter.partner_sent_postmark
        target = answered[index]
        # A repeat (002 §4.3.4) carries its own postmark: the repeat date is not a discrepancy.
        if postmark is None or target < 0 or postmark in (letters[target].sent, letters[target].repeat_sent):
            if letter.corrects_partner:
                notes.append(RuleNote("002 §4.3.1", "nothing to correct: the postmark is missing or "
                                      "matches the declared dispatch date", index + 1))
            continue
        declared = letters[target].sent
        if letter.corrects_partner:
            sent[target] = postmark
            notes.append(RuleNote(
                "002 §4.3.1", f"{letters[target].sender.value}'s dispatch corrected from the declared "
                f"{declared} to the postmark {postmark}", target + 1))
        else:
            notes.append(RuleNote(
                "002 §4.3.1", f"postmark {postmark} differs from the declared {declared} but was not "
                f"corrected in the reply (letter {index + 1}): the declared date stands", target + 1))
    return sent


def _partner_dispatch_dates(letters: Sequence[LetterEntry], answered: Sequence[int],
                           sent: Sequence[date]) -> list[date | None]:
    """The first of the three dates of each letter: the postmark, else the partner's declared
    (or corrected) dispatch date (002 §4.3.1)."""
    return [
        letter.partner_sent_postmark or (sent[answered[index]] if answered[index] >= 0 else None)
        for index, letter in enumerate(letters)
    ]


def _average_transit_days(letters: Sequence[LetterEntry], partner_dispatch: Sequence[date | None]) -> int | None:
    """Average days between a dispatch and its receipt over the letters with both dates,
    rounded half up; ``None`` when no letter has both (002 §4.3.3)."""
    transits = [
        (letter.received - dispatch).days
        for letter, dispatch in zip(letters, partner_dispatch, strict=True)
        if letter.received is not None and dispatch is not None and letter.received >= dispatch
    ]
    if not transits:
        return None
    return (2 * sum(transits) + len(transits)) // (2 * len(transits))


def _receipt_dates(letters: Sequence[LetterEntry], answered: Sequence[int], sent: Sequence[date],
                   errors: list[RuleViolation], notes: list[RuleNote]
                   ) -> tuple[list[date | None], list[bool], int | None]:
    """Receipt dates, a missing one estimated from the average transit (002 §4.3.3).

    The average is over every letter of the game whose dispatch and receipt are both known,
    rounded half up to whole days. With no such letter the transit is taken as 0 days: the
    receipt is put on the partner's dispatch date, the only date on record, so that omitting
    a date never shortens the omitter's time.
    """
    partner_dispatch = _partner_dispatch_dates(letters, answered, sent)
    transit = _average_transit_days(letters, partner_dispatch)
    average = transit or 0
    received: list[date | None] = [letter.received for letter in letters]
    estimated = [False] * len(letters)
    for index, letter in enumerate(letters):
        if letter.received is not None or (index == 0 and answered[index] < 0):
            continue
        dispatch = partner_dispatch[index]
        if dispatch is None:
            errors.append(RuleViolation("002 §4.3.3", "receipt date missing and the partner's dispatch "
                                        "date unknown: no time can be estimated", None, index + 1))
            received[index] = letter.sent
            continue
        guess = min(dispatch + timedelta(days=average), letter.sent)
        received[index] = guess
        estimated[index] = True
        source = f"average transit {average} days" if transit is not None else "no transit on record: 0 days"
        notes.append(RuleNote("002 §4.3.3", f"receipt date missing, estimated as {guess} ({source})", index + 1))
    return received, estimated, transit


def _referee_penalties(penalties: Sequence[Penalty], letter_count: int,
                       errors: list[RuleViolation]) -> dict[int, list[Penalty]]:
    by_letter: dict[int, list[Penalty]] = {}
    for penalty in penalties:
        if not 0 <= penalty.after_letter <= letter_count:
            errors.append(RuleViolation(
                penalty.rule, f"penalty after letter {penalty.after_letter}, but the ledger has "
                f"{letter_count} letters; not applied", penalty.after_letter))
            continue
        by_letter.setdefault(penalty.after_letter, []).append(penalty)
    return by_letter


def _count(ledger: Ledger, calendar: BreakCalendar, answered: Sequence[int], sent: Sequence[date],
           received: Sequence[date | None], estimated: Sequence[bool], transit: int | None,
           penalties_after: dict[int, list[Penalty]], errors: list[RuleViolation],
           notes: list[RuleNote]) -> TimeChart:
    letters = ledger.letters
    control = ledger.control
    counted_days = calendar.counted_days
    end = ledger.end_date.toordinal() if ledger.end_date is not None else None
    white_start = effective_start(ledger, Side.WHITE).toordinal()
    black_start = effective_start(ledger, Side.BLACK).toordinal()
    all_charges: list[Charge] = []
    totals = {Side.WHITE: 0, Side.BLACK: 0}
    for penalty in penalties_after.get(0, ()):
        all_charges.append(_apply_referee_penalty(penalty, totals))
    last_move = {Side.WHITE: 0, Side.BLACK: 0}
    last_uncounted = {Side.WHITE: 0, Side.BLACK: 0}
    omissions = {Side.WHITE: 0, Side.BLACK: 0}
    omission_number = [0] * len(letters)
    rows: list[ChartRow] = []
    overstep: Overstep | None = None
    for index, letter in enumerate(letters):
        number = index + 1
        sender = letter.sender
        sent_day = sent[index]
        sent_ordinal = sent_day.toordinal()
        received_day = received[index]
        start = white_start if sender is _WHITE else black_start
        if received_day is None:
            lower = start
        else:
            lower = received_day.toordinal()
            if lower < start:
                lower = start
            if sent_day < received_day:
                errors.append(RuleViolation("002 §4.3.1", f"sent {sent_day} before the letter it "
                                            f"answers was received on {received_day}",
                                            sent_day.isoformat(), number))
            if end is not None and received_day.toordinal() >= end:
                notes.append(RuleNote("002 §4.3.2", "received on or after the end of play: no further "
                                      "time; only a draw acceptance or a resignation may follow", number))
            target = answered[index]
            dispatch = letter.partner_sent_postmark or (sent[target] if target >= 0 else None)
            if dispatch is not None and received_day < dispatch:
                errors.append(RuleViolation("002 §4.3.1", f"received {received_day}, before the "
                                            f"partner's dispatch on {dispatch}",
                                            received_day.isoformat(), number))
        upper = sent_ordinal if end is None or sent_ordinal < end else end
        days = counted_days(lower, upper) if upper > lower else 0
        totals[sender] += days

        if letter.move <= last_move[sender]:
            errors.append(RuleViolation("002 §4.2.14", f"move number goes backwards: {sender.value}'s "
                                        f"move {letter.move} after move {last_move[sender]}",
                                        letter.move, number))
        last_move[sender] = letter.move
        uncounted = letter.uncounted_moves
        if uncounted > letter.move or uncounted < last_uncounted[sender]:
            errors.append(RuleViolation("002 §4.3.5", f"uncounted variant moves must not decrease nor "
                                        f"exceed the move number {letter.move}", uncounted, number))
            uncounted = min(max(uncounted, last_uncounted[sender]), letter.move)
        last_uncounted[sender] = uncounted
        counted_moves = letter.move - uncounted
        limit = control.limit(counted_moves)
        if overstep is None and totals[sender] > limit:
            overstep = Overstep(sender, letter.move, number, totals[sender], limit)

        if letter.received is None and index > 0:
            omissions[sender] += 1
            omission_number[index] = omissions[sender]
            if omissions[sender] == 1:
                notes.append(RuleNote("002 §4.3.3", f"first omission of a date by {sender.value}: "
                                      "a notice only, no penalty", number))

        charges: list[Charge] = []
        if letter.repeat_sent is not None:
            charge = _repeat_delay(letter, sent_day, calendar, end, number, errors)
            if charge is not None:
                charges.append(charge)
                totals[sender] += charge.days
        if letter.penalty_days_charged_to_partner:
            charge = _partner_penalty(letter, answered[index], omission_number, number, errors)
            if charge is not None:
                charges.append(charge)
                totals[charge.player] += charge.days
        for penalty in penalties_after.get(number, ()):
            charges.append(_apply_referee_penalty(penalty, totals))
        all_charges.extend(charges)

        rows.append(ChartRow(
            number, sender, letter.move, counted_moves, received_day, estimated[index], sent_day,
            letter.sent, days, tuple(charges), totals[Side.WHITE], totals[Side.BLACK], limit,
            letter.moves_text,
        ))
    return TimeChart(
        rows=tuple(rows),
        totals=TimeFraction(totals[Side.WHITE], totals[Side.BLACK]),
        overstep=overstep,
        errors=tuple(errors),
        notes=tuple(notes),
        charges=tuple(all_charges),
        control=control,
        break_calendar=calendar,
        average_transit_days=transit,
    )


def repeat_due_ordinal(sent: int, calendar: BreakCalendar) -> int:
    """002 §4.3.4: the day 30 counted days after the dispatch; break days do not run."""
    return calendar.nth_counted_day(sent, REPEAT_AFTER_DAYS)


def _repeat_delay(letter: LetterEntry, sent_day: date, calendar: BreakCalendar, end: int | None,
                  number: int, errors: list[RuleViolation]) -> Charge | None:
    assert letter.repeat_sent is not None
    if letter.repeat_sent < sent_day:
        errors.append(RuleViolation("002 §4.3.4", f"repeat sent {letter.repeat_sent}, before the letter "
                                    f"itself on {sent_day}", letter.repeat_sent.isoformat(), number))
        return None
    due = repeat_due_ordinal(sent_day.toordinal(), calendar)
    repeat = letter.repeat_sent.toordinal()
    if end is not None and repeat > end:
        repeat = end
    delay = calendar.counted_days(due, repeat)
    if delay <= 0:
        return None
    return Charge(letter.sender, delay, "002 §4.3.4",
                  f"repeat sent {letter.repeat_sent}, due {date.fromordinal(due)}: {delay} days late",
                  number)


def _partner_penalty(letter: LetterEntry, target: int, omission_number: Sequence[int], number: int,
                     errors: list[RuleViolation]) -> Charge | None:
    charged = letter.penalty_days_charged_to_partner
    offender = letter.sender.partner
    if target < 0:
        errors.append(RuleViolation(letter.penalty_rule, "penalty charged, but this letter answers no "
                                    "letter of the partner; not applied", charged, number))
        return None
    if "4.3.3" in letter.penalty_rule and omission_number[target] < 2:
        reason = ("the answered letter omitted no date" if omission_number[target] == 0
                  else "a first omission earns a notice only")
        errors.append(RuleViolation("002 §4.3.3", f"penalty for an omitted date refused: {reason}",
                                    charged, number))
        return None
    if charged != PENALTY_DAYS:
        errors.append(RuleViolation(
            "002 §4.2.11", f"a penalty is {PENALTY_DAYS} days once per letter, whatever the number of "
            f"errors; charged {charged}, applied as {PENALTY_DAYS}", charged, number))
    return Charge(offender, PENALTY_DAYS, letter.penalty_rule,
                  f"charged by {letter.sender.value} for letter {target + 1}", number)


def _apply_referee_penalty(penalty: Penalty, totals: dict[Side, int]) -> Charge:
    totals[penalty.player] += penalty.days
    return Charge(penalty.player, penalty.days, penalty.rule, penalty.reason or "imposed by the referee",
                  penalty.after_letter)
