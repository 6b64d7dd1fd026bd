"""Errors raised for malformed input, and rule findings collected while a chart is computed.

Findings are named tuples: a federation's archive produces hundreds of thousands of them.

Malformed input (a date nobody can read, a ledger field of the wrong type, a player who is not
white or black) raises a narrow :class:`ValueError` subclass carrying the offending input.
Input that is well formed but breaks a rule (a reply sent before the letter it answers was
received, a second break in one year) does not stop the computation: it becomes a
:class:`RuleViolation` in :attr:`timekeeping.TimeChart.errors`, naming the rule and the value,
so a referee sees every problem and still gets the rest of the chart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

#: A value a note or a violation carries: a side (``"white"``), a date, a number of days or a
#: letter.
NoteValue = str | int | date


class TimekeepingError(ValueError):
    """Base class of every input error raised by :mod:`timekeeping`."""


class DateFormatError(TimekeepingError):
    """A date as a player wrote it cannot be read, or names a day that does not exist.

    ``code`` says which (``day_first``, ``year_missing``, ``too_far``, ``no_such_day``) and
    ``params`` its values (``too_far``: the letter's date as ``reference``), for a reader who words
    the error in his own language; ``reason`` is the English.
    """

    def __init__(self, text: str, reason: str, code: str = "",
                 params: tuple[tuple[str, NoteValue], ...] = ()) -> None:
        super().__init__(f"cannot read the date {text!r}: {reason}")
        self.text = text
        self.reason = reason
        self.code = code
        self.params = params


class NaiveDatetimeError(TimekeepingError):
    """An arrival timestamp without a time zone: its calendar date would be a guess."""

    def __init__(self, moment: object) -> None:
        super().__init__(
            f"the timestamp {moment!r} has no time zone; attach one before converting it to "
            "the tournament's calendar date"
        )
        self.moment = moment


class TimeFractionError(TimekeepingError):
    """A time fraction not written white/black in whole days (002 §4.3.1), e.g. ``12/7``."""

    def __init__(self, text: str) -> None:
        super().__init__(f"002 §4.3.1: the time is written as a fraction white/black, e.g. 12/7; got {text!r}")
        self.text = text


class TimeControlError(TimekeepingError):
    """A time control without at least one day and one move per period."""

    def __init__(self, days: int, moves: int) -> None:
        super().__init__(f"a time control needs at least 1 day and 1 move per period, got {days}/{moves}")
        self.days = days
        self.moves = moves


class BreakAnnouncementError(TimekeepingError):
    """A break announcement not worded as 002 §4.4.3 prescribes («беру перерыв с … по …»)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"002 §4.4.3: {reason}: {text!r}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True, slots=True)
class LedgerProblem:
    """One malformed field of a ledger: where it is (``letters[2].sent``), what is wrong."""

    path: str
    message: str
    value: object = None

    def __str__(self) -> str:
        return f"{self.path}: {self.message} (got {self.value!r})"


class LedgerFormatError(TimekeepingError):
    """A ledger that cannot be read; carries every problem found, not only the first."""

    def __init__(self, problems: list[LedgerProblem]) -> None:
        lines = "\n".join(f"  {problem}" for problem in problems)
        super().__init__(f"the ledger has {len(problems)} malformed field(s):\n{lines}")
        self.problems = tuple(problems)


#: The English text of every rule violation, by code; like :data:`NOTE_TEXTS`, ``message`` is
#: this text filled in and a reader in another language words ``code`` and ``params`` himself
#: (``corrmail/games/chart_notes.py``), so a new violation needs its code here and there.
VIOLATION_TEXTS: dict[str, str] = {
    # 002 §4.3.1
    "letters_in_a_row": "two letters in a row from {side}: each letter answers the partner's",
    "received_before_dispatch": "received {received}, before the partner's dispatch on {dispatch}",
    "sent_before_received": "sent {sent} before the letter it answers was received on {received}",
    # 002 §4.2.14
    "move_backwards": "move number goes backwards: {side}'s move {move} after move {last}",
    # 002 §4.3.5
    "uncounted_moves": "uncounted variant moves must not decrease nor exceed the move number {move}",
    # 002 §4.3.3
    "receipt_not_estimable": "receipt date missing and the partner's dispatch date unknown: no time "
                             "can be estimated",
    "omission_penalty_no_omission": "penalty for an omitted date refused: the answered letter "
                                    "omitted no date",
    "omission_penalty_first": "penalty for an omitted date refused: a first omission earns a notice "
                              "only",
    "receipt_supplied_nothing_omitted": "a receipt date supplied, but the sender's previous letter "
                                        "omitted none",
    # 002 §4.2.9
    "error_report_late": "{side} reported the partner's error on {reported}, after the 3 days "
                         "(due by {due}): {days} days counted as his",
    "error_report_before_receipt": "error reported on {reported}, before the letter arrived on "
                                   "{received}",
    "error_report_wrong_letter": "{side} reported an error of letter {letter_number}, which is no "
                                 "letter of the partner's",
    # 002 §4.3.5 with §4.2.4
    "forced_move_uncounted": "{forced} forced move(s) in the letter of move {move} left uncounted: "
                             "a forced move counts even inside an accepted variant",
    # 002 §4.3.4
    "repeat_before_letter": "repeat sent {repeat}, before the letter itself on {sent}",
    # 002 §4.2.11 and the rule the penalty was charged under
    "penalty_amount": "a penalty is {penalty} days once per letter, whatever the number of errors; "
                      "charged {charged}, applied as {penalty}",
    "penalty_answers_nothing": "penalty charged, but this letter answers no letter of the partner; "
                               "not applied",
    "penalty_after_last_letter": "penalty after letter {after}, but the ledger has {letters} "
                                 "letters; not applied",
    "penalty_right_lost": "penalty charged for letter {charged_for}, but this letter answers letter "
                          "{answered}: the right is lost when not used in the very next reply; not "
                          "applied",
    "penalty_without_reason": "penalty charged without saying what it is for; not applied",
    # 002 §4.4.3
    "break_ends_before_start": "break of {side} ends before it begins",
    # 002 §4.4.1
    "second_break_in_year": "second break of {side} in {year}: one break per calendar year; not "
                            "counted",
    "break_too_long": "break of {side} lasts {days} days, at most {most}; counted for its first "
                      "{most}",
    "break_not_in_every_game": "break {first}..{last} must be taken on the same dates in all games; "
                               "missing in {missing}",
    "break_joins_another": "break of {side} {first}..{last} overlaps or continues the break "
                           "{other_first}..{other_last}: one break lasts at most {most} days; not "
                           "counted",
    # 002 §4.4.2
    "break_announced_after_end": "break of {side} {first}..{last} announced on {announced}, after it "
                                 "ended: the notice comes before the break; not granted",
    # 002 §4.4.1, §4.4.2: the same break announced twice
    "break_already_announced": "break of {side} {first}..{last} is already announced: it holds in all "
                               "games",
}


def _filled(text: str, params: dict[str, NoteValue]) -> str:
    # Dates ISO, as everywhere in timekeeping's messages.
    return text.format(**{key: value.isoformat() if isinstance(value, date) else value
                          for key, value in params.items()})


class RuleViolation(NamedTuple):
    """Input that breaks a rule: the rule (``002 §4.4.1``), what is wrong, the offending value.

    ``letter`` is the 1-based ledger position of the letter concerned, or ``None`` when the
    finding concerns the game as a whole (a break, a referee's penalty). ``code`` (a key of
    :data:`VIOLATION_TEXTS`) and ``params`` say the same as ``message`` as data, for a reader who
    words it in his own language; build one with :func:`rule_violation`. A violation of
    :func:`~timekeeping.validate_player_breaks` also carries the game's key as ``game``.
    """

    rule: str
    message: str
    value: object = None
    letter: int | None = None
    code: str = ""
    params: tuple[tuple[str, NoteValue], ...] = ()

    def __str__(self) -> str:
        where = f"letter {self.letter}: " if self.letter is not None else ""
        return f"{self.rule}: {where}{self.message} ({self.value!r})"

    @property
    def values(self) -> dict[str, NoteValue]:
        """``params`` as a dict: ``{"side": "white", "move": 7}``."""
        return dict(self.params)


def rule_violation(rule: str, code: str, value: object = None, letter: int | None = None,
                   **params: NoteValue) -> RuleViolation:
    """The violation ``code`` of :data:`VIOLATION_TEXTS`, its English message filled in from
    ``params``; ``value`` is the offending input as before (``RuleViolation.value``)."""
    return RuleViolation(rule, _filled(VIOLATION_TEXTS[code], params), value, letter, code,
                         tuple(sorted(params.items())))

#: The English text of every note, by code. ``message`` is this text filled in; a reader in
#: another language gets ``code`` and ``params`` and words them himself (the service translates
#: them, see ``corrmail/games/chart_notes.py``), so a new note needs its code here and there.
NOTE_TEXTS: dict[str, str] = {
    # 002 §4.3.1
    "postmark_matches": "nothing to correct: the postmark is missing or matches the declared "
                        "dispatch date",
    "dispatch_corrected": "{side}'s dispatch corrected from the declared {declared} to the postmark "
                          "{postmark}",
    "postmark_not_corrected": "postmark {postmark} differs from the declared {declared} but was not "
                              "corrected in the reply (letter {reply}): the declared date stands",
    # 002 §4.3.1 with §4.1.1: a letter a third hand (the steward) forwarded bears his postmark
    "forwarded_postmark_differs": "the reply (letter {reply}) gives {postmark} as the postmark, "
                                  "but the letter was forwarded on {forwarded}: a forwarding's "
                                  "postmark corrects nothing, the sender's dispatch stands",
    # 002 §4.3.2
    "received_after_end": "received on or after the end of play: no further time; only a draw "
                          "acceptance or a resignation may follow",
    # 002 §4.3.3
    "first_omission": "first omission of a date by {side}: a notice only, no penalty",
    "receipt_supplied_later": "receipt date omitted, supplied as {supplied} in letter {by}; the "
                              "omission stays on record",
    "receipt_estimated": "receipt date missing, estimated as {estimate} (average transit {transit} "
                         "days)",
    "receipt_estimated_no_transit": "receipt date missing, estimated as {estimate} (no transit on "
                                    "record: 0 days)",
    # 002 §4.3.3 with §4.1.2: a move given by telephone is heard the day of the call
    "receipt_phone_call": "receipt date missing: the move was given by telephone, so it was heard "
                          "the day of the call, {estimate}",
    # 002 §4.4.2
    "break_not_notified": "break of {side} {first}..{last} not counted: the partner was never "
                          "notified",
    "break_notified_after_end": "break of {side} {first}..{last} not counted: notified on "
                                "{notified}, after it ended",
    "break_notified_late": "break of {side} notified late: counted from the notice's postmark "
                           "{notified}, not from {first}",
    # 002 §4.4.5
    "break_late_notice_counted": "break of {side} {first}..{last} announced after it began, counted "
                                 "by the referee from its first day: still the break of the year",
    "break_extra_granted": "extra break of {side} {first}..{last} granted by the referee beyond the "
                           "norms of 002 §4.4.1",
    # 002 §4.3.6
    "play_suspended": "play suspended {first}..{last} until the referee's decision on an overstep "
                      "claim: nobody's think time",
}


class RuleNote(NamedTuple):
    """A rule applied in a way a referee should see (an estimated date, a first omission).

    ``code`` (a key of :data:`NOTE_TEXTS`) and ``params`` say the same as ``message`` as data,
    for a reader who words it in his own language; build one with :func:`rule_note`.
    """

    rule: str
    message: str
    letter: int | None = None
    code: str = ""
    params: tuple[tuple[str, NoteValue], ...] = ()

    def __str__(self) -> str:
        where = f"letter {self.letter}: " if self.letter is not None else ""
        return f"{self.rule}: {where}{self.message}"

    @property
    def values(self) -> dict[str, NoteValue]:
        """``params`` as a dict: ``{"side": "white", "first": date(2026, 3, 1)}``."""
        return dict(self.params)


def rule_note(rule: str, code: str, letter: int | None = None, **params: NoteValue) -> RuleNote:
    """The note ``code`` of :data:`NOTE_TEXTS`, its English message filled in from ``params``
    (dates written ISO, as everywhere in :mod:`timekeeping`'s messages)."""
    return RuleNote(rule, _filled(NOTE_TEXTS[code], params), letter, code, tuple(sorted(params.items())))
