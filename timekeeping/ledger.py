"""One game's ledger: the dates of every letter, the breaks and the referee's penalties.

The dataclasses map one to one onto the JSON ledger documented in ``docs/ledger.md``; only the
letter's ``from`` key is spelled ``sender`` here, ``from`` being a Python keyword.
:func:`ledger_from_dict` reads the JSON form, collecting every malformed field before raising
:class:`LedgerFormatError`; :func:`ledger_to_dict` writes it back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from timekeeping.breaks import Break, RefereeGrant
from timekeeping.control import TimeControl
from timekeeping.dates import parse_player_date
from timekeeping.errors import DateFormatError, LedgerFormatError, LedgerProblem
from timekeeping.side import Side

#: 002 §4.2.11, §4.3.3, §4.3.7: a penalty is 6 days.
PENALTY_DAYS = 6


@dataclass(frozen=True, slots=True)
class LetterEntry:
    """One letter carrying a move, with the three dates of 002 §4.3.1.

    ``move`` is the sender's move number after the letter. ``partner_sent_postmark`` is the
    postmark on the letter being answered (for a registered letter, the date on its post-office
    receipt); ``received`` is when it arrived (``None``: not stated, estimated per 002 §4.3.3);
    ``sent`` is this letter's own dispatch date (for a registered letter, its receipt date).
    ``corrects_partner`` says this letter corrects the partner's time to the postmark.
    ``uncounted_moves`` counts the sender's moves so far that reached the board through his own
    accepted variants and were not forced (002 §4.3.5). ``penalty_days_charged_to_partner`` is
    a penalty this letter charges for the letter it answers, under ``penalty_rule``.
    ``repeat_sent`` is the date this letter was repeated after getting no answer (002 §4.3.4).
    ``by_phone`` says the move was given by telephone (002 §4.1.2): ``sent`` is the day of the
    call, and the partner's receipt is that same day — a call is not a letter in the post, so it
    does not enter the average transit of 002 §4.3.3.
    """

    sender: Side
    move: int
    sent: date
    received: date | None = None
    partner_sent_postmark: date | None = None
    corrects_partner: bool = False
    uncounted_moves: int = 0
    penalty_days_charged_to_partner: int = 0
    penalty_rule: str = "002 §4.2.11"
    repeat_sent: date | None = None
    moves_text: str = ""
    by_phone: bool = False
    penalty_reason: str | None = None
    penalty_for_letter: int | None = None
    supplied_receipt: date | None = None
    forced_moves: int = 0
    forwarded_on: date | None = None
    forwarded_by_phone: bool = False


# The fields above after ``by_phone``, documented here to keep the list of fields readable:
#
# ``penalty_reason`` — what the penalty this letter charges is for (002 §4.2.11 "с указанием, за
#     что именно"). ``None``: not on record (a ledger older than the field); ``""``: recorded
#     without a reason, and the charge is refused.
# ``penalty_for_letter`` — the 1-based letter the charge is for, when the record names it; a
#     charge for any letter but the one this letter answers comes later than the very next reply
#     and is refused: "если такое начисление не сделано в ответном письме, то в дальнейшем это
#     право теряется" (002 §4.2.11, §4.3.3).
# ``supplied_receipt`` — the receipt date the sender left out of his previous letter, supplied
#     now as 002 §4.3.3 requires ("в очередном ответе должен указать … неуказанные даты
#     предыдущего письма"): the count uses it, and the omission stays on record.
# ``forced_moves`` — how many of the sender's moves in this letter were forced (002 §4.2.4: the
#     only capture or the only legal move), as ``notation`` found them; a forced move counts for
#     the overstep even inside an accepted variant (002 §4.3.5).
# ``forwarded_on`` — the day a third hand passed this letter on to the partner: the steward of a
#     mixed tournament posts (its postmark) or telephones an e-mail or web move to a partner who
#     plays by post or telephone (002 §4.1.1); ``forwarded_by_phone`` when he telephoned it. The
#     partner's receipt, while he has not stated it, is estimated from that day, not from
#     ``sent`` (:func:`timekeeping.estimated_receipt`, 002 §4.3.3; a call is heard the day it is
#     made, 002 §4.1.2); his first date equal to it is the forwarder's postmark, not a
#     discrepancy, and a differing one corrects nothing: ``sent`` is the sender's own dispatch
#     (002 §4.3.1); the repeat of 002 §4.3.4 is due 30 days after it
#     (:func:`timekeeping.repeat_due_of`).


@dataclass(frozen=True, slots=True)
class Penalty:
    """Days a referee adds to ``player``'s total after the ``after_letter``-th letter.

    ``after_letter`` counts letters from 1 in ledger order; 0 means before the first letter.
    The typical case is 002 §4.3.7: 6 days for a false overstep claim.
    """

    player: Side
    days: int
    after_letter: int
    rule: str = "002 §4.3.7"
    reason: str = ""


#: 002 §4.2.9: a player reports a partner's error within 3 days, which are not his think time.
ERROR_REPORT_DAYS = 3


@dataclass(frozen=True, slots=True)
class ErrorReport:
    """``player`` told his partner that letter ``letter`` (1-based) did not repeat the moves, or
    repeated them wrongly or illegibly (002 §4.2.9), by a notice sent on ``reported``; the letter
    had arrived on ``received``. Up to 3 days are his to report in and count for nobody; the days
    after them up to the report are his think time (the game stopped because of his delay, not
    the partner's error)."""

    player: Side
    letter: int
    received: date
    reported: date


@dataclass(frozen=True, slots=True)
class Ledger:
    """Everything needed to compute one game's time chart."""

    start_date: date
    end_date: date | None = None
    control: TimeControl = field(default_factory=TimeControl)
    start_sheet_received: Mapping[Side, date] = field(default_factory=dict)
    breaks: tuple[Break, ...] = ()
    letters: tuple[LetterEntry, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    players: Mapping[Side, str] = field(default_factory=dict)
    error_reports: tuple[ErrorReport, ...] = ()


_T = TypeVar("_T")

_LEDGER_KEYS = {"start_date", "end_date", "control", "start_sheet_received", "breaks", "letters",
                "penalties", "players", "error_reports"}
_ERROR_REPORT_KEYS = {"player", "letter", "received", "reported"}
_LETTER_KEYS = {"from", "move", "sent", "received", "partner_sent_postmark", "corrects_partner",
                "uncounted_moves", "penalty_days_charged_to_partner", "penalty_rule",
                "repeat_sent", "moves", "by_phone", "penalty_reason", "penalty_for_letter",
                "supplied_receipt", "forced_moves", "forwarded_on", "forwarded_by_phone"}
#: ``granted_by_referee`` is the older boolean form of ``referee_grant``; ``true`` reads as
#: ``late_notice``, the grant that keeps the break the player's break of the year (002 §4.4.1),
#: so an old ledger never frees a player from that rule by being read.
_BREAK_KEYS = {"player", "first_day", "last_day", "notice_postmark", "referee_grant", "granted_by_referee"}
_PENALTY_KEYS = {"player", "days", "after_letter", "rule", "reason"}


class _Reader:
    """Reads JSON values into typed fields, recording every problem with its path."""

    def __init__(self) -> None:
        self.problems: list[LedgerProblem] = []

    def problem(self, path: str, message: str, value: object) -> None:
        self.problems.append(LedgerProblem(path, message, value))

    def mapping(self, value: object, path: str, keys: set[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.problem(path, "expected an object", value)
            return {}
        for key in sorted(set(value) - keys):
            self.problem(f"{path}.{key}" if path else key, "unknown field", value[key])
        return value

    def items(self, value: object, path: str) -> list[object]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(path, "expected a list", value)
            return []
        return value

    def required(self, data: Mapping[str, Any], key: str, path: str,
                 read: Callable[[object, str], _T | None]) -> _T | None:
        if data.get(key) is None:
            self.problem(path, "required", None)
            return None
        return read(data[key], path)

    def date(self, value: object, path: str) -> date | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(path, "expected a date string such as 2026-02-01", value)
            return None
        try:
            return parse_player_date(value)
        except DateFormatError as error:
            self.problem(path, error.reason, value)
            return None

    def side(self, value: object, path: str) -> Side | None:
        try:
            return Side(value)
        except ValueError:
            self.problem(path, "unknown player: expected 'white' or 'black'", value)
            return None

    def integer(self, value: object, path: str, minimum: int = 0) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, "expected a whole number", value)
            return None
        if value < minimum:
            self.problem(path, f"must be at least {minimum}", value)
            return None
        return value

    def boolean(self, value: object, path: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            self.problem(path, "expected true or false", value)
            return False
        return value

    def text(self, value: object, path: str, default: str) -> str:
        if value is None:
            return default
        if not isinstance(value, str):
            self.problem(path, "expected a string", value)
            return default
        return value

    def per_side(self, value: object, path: str, read: Callable[[object, str], _T | None]) -> dict[Side, _T]:
        if value is None:
            return {}
        result: dict[Side, _T] = {}
        for key, item in self.mapping(value, path, {"white", "black"}).items():
            if key in ("white", "black"):
                parsed = read(item, f"{path}.{key}")
                if parsed is not None:
                    result[Side(key)] = parsed
        return result


def ledger_from_dict(data: Mapping[str, Any]) -> Ledger:
    """Build a :class:`Ledger` from its JSON form; raise :class:`LedgerFormatError` listing
    every malformed field (unknown player, unreadable date, unknown key, wrong type)."""
    reader = _Reader()
    root = reader.mapping(data, "", _LEDGER_KEYS)
    start_date = reader.required(root, "start_date", "start_date", reader.date)
    end_date = reader.date(root.get("end_date"), "end_date")
    control = _read_control(reader, root.get("control"))
    letters = [_read_letter(reader, item, f"letters[{index}]")
               for index, item in enumerate(reader.items(root.get("letters"), "letters"))]
    breaks = [_read_break(reader, item, f"breaks[{index}]")
              for index, item in enumerate(reader.items(root.get("breaks"), "breaks"))]
    penalties = [_read_penalty(reader, item, f"penalties[{index}]")
                 for index, item in enumerate(reader.items(root.get("penalties"), "penalties"))]
    reports = [_read_error_report(reader, item, f"error_reports[{index}]")
               for index, item in enumerate(reader.items(root.get("error_reports"), "error_reports"))]
    sheets = reader.per_side(root.get("start_sheet_received"), "start_sheet_received", reader.date)
    players = reader.per_side(root.get("players"), "players",
                              lambda value, path: reader.text(value, path, "") or None)
    if reader.problems or start_date is None:
        raise LedgerFormatError(reader.problems)
    return Ledger(
        start_date=start_date,
        end_date=end_date,
        control=control,
        start_sheet_received=sheets,
        breaks=tuple(brk for brk in breaks if brk is not None),
        letters=tuple(letter for letter in letters if letter is not None),
        penalties=tuple(penalty for penalty in penalties if penalty is not None),
        players=players,
        error_reports=tuple(report for report in reports if report is not None),
    )


def _read_error_report(reader: _Reader, value: object, path: str) -> ErrorReport | None:
    data = reader.mapping(value, path, _ERROR_REPORT_KEYS)
    player = reader.required(data, "player", f"{path}.player", reader.side)
    letter = reader.required(data, "letter", f"{path}.letter", lambda v, p: reader.integer(v, p, minimum=1))
    received = reader.required(data, "received", f"{path}.received", reader.date)
    reported = reader.required(data, "reported", f"{path}.reported", reader.date)
    if player is None or letter is None or received is None or reported is None:
        return None
    return ErrorReport(player, letter, received, reported)


def _read_control(reader: _Reader, value: object) -> TimeControl:
    if value is None:
        return TimeControl()
    data = reader.mapping(value, "control", {"days", "moves"})
    days = reader.integer(data.get("days", 50), "control.days", minimum=1)
    moves = reader.integer(data.get("moves", 10), "control.moves", minimum=1)
    return TimeControl(days or 50, moves or 10)


def _read_letter(reader: _Reader, value: object, path: str) -> LetterEntry | None:
    data = reader.mapping(value, path, _LETTER_KEYS)
    sender = reader.required(data, "from", f"{path}.from", reader.side)
    move = reader.required(data, "move", f"{path}.move", lambda v, p: reader.integer(v, p, minimum=1))
    sent = reader.required(data, "sent", f"{path}.sent", reader.date)
    received = reader.date(data.get("received"), f"{path}.received")
    postmark = reader.date(data.get("partner_sent_postmark"), f"{path}.partner_sent_postmark")
    corrects = reader.boolean(data.get("corrects_partner"), f"{path}.corrects_partner")
    uncounted = reader.integer(data.get("uncounted_moves", 0), f"{path}.uncounted_moves")
    penalty = reader.integer(data.get("penalty_days_charged_to_partner", 0),
                             f"{path}.penalty_days_charged_to_partner")
    penalty_rule = reader.text(data.get("penalty_rule"), f"{path}.penalty_rule", "002 §4.2.11")
    repeat_sent = reader.date(data.get("repeat_sent"), f"{path}.repeat_sent")
    moves_text = reader.text(data.get("moves"), f"{path}.moves", "")
    by_phone = reader.boolean(data.get("by_phone"), f"{path}.by_phone")
    reason = None if data.get("penalty_reason") is None else reader.text(
        data.get("penalty_reason"), f"{path}.penalty_reason", "")
    penalty_for = None if data.get("penalty_for_letter") is None else reader.integer(
        data.get("penalty_for_letter"), f"{path}.penalty_for_letter", minimum=1)
    supplied = reader.date(data.get("supplied_receipt"), f"{path}.supplied_receipt")
    forced = reader.integer(data.get("forced_moves", 0), f"{path}.forced_moves")
    forwarded_on = reader.date(data.get("forwarded_on"), f"{path}.forwarded_on")
    forwarded_by_phone = reader.boolean(data.get("forwarded_by_phone"),
                                        f"{path}.forwarded_by_phone")
    if forwarded_by_phone and forwarded_on is None:
        reader.problem(f"{path}.forwarded_by_phone", "needs forwarded_on, the day of the call",
                       True)
    if sender is None or move is None or sent is None:
        return None
    return LetterEntry(sender, move, sent, received, postmark, corrects, uncounted or 0,
                       penalty or 0, penalty_rule, repeat_sent, moves_text, by_phone, reason,
                       penalty_for, supplied, forced or 0, forwarded_on, forwarded_by_phone)


def _read_break(reader: _Reader, value: object, path: str) -> Break | None:
    data = reader.mapping(value, path, _BREAK_KEYS)
    player = reader.required(data, "player", f"{path}.player", reader.side)
    first_day = reader.required(data, "first_day", f"{path}.first_day", reader.date)
    last_day = reader.required(data, "last_day", f"{path}.last_day", reader.date)
    notice = reader.date(data.get("notice_postmark"), f"{path}.notice_postmark")
    grant = _read_grant(reader, data, path)
    if player is None or first_day is None or last_day is None:
        return None
    return Break(player, first_day, last_day, notice, grant)


def _read_grant(reader: _Reader, data: Mapping[str, Any], path: str) -> RefereeGrant | None:
    old = reader.boolean(data.get("granted_by_referee"), f"{path}.granted_by_referee")
    value = data.get("referee_grant")
    if value is None:
        return RefereeGrant.LATE_NOTICE if old else None
    try:
        grant = RefereeGrant(value)
    except ValueError:
        reader.problem(f"{path}.referee_grant", "expected 'late_notice', 'extra', 'suspension' or null", value)
        return None
    if "granted_by_referee" in data and data["granted_by_referee"] is False:
        reader.problem(f"{path}.granted_by_referee", "contradicts referee_grant", False)
    return grant


def _read_penalty(reader: _Reader, value: object, path: str) -> Penalty | None:
    data = reader.mapping(value, path, _PENALTY_KEYS)
    player = reader.required(data, "player", f"{path}.player", reader.side)
    days = reader.required(data, "days", f"{path}.days", lambda v, p: reader.integer(v, p, minimum=1))
    after = reader.required(data, "after_letter", f"{path}.after_letter", reader.integer)
    rule = reader.text(data.get("rule"), f"{path}.rule", "002 §4.3.7")
    reason = reader.text(data.get("reason"), f"{path}.reason", "")
    if player is None or days is None or after is None:
        return None
    return Penalty(player, days, after, rule, reason)


def read_ledger(path: str | Path) -> Ledger:
    """Read a ledger JSON file (UTF-8)."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, Mapping):
        raise LedgerFormatError([LedgerProblem("", "expected a JSON object", type(data).__name__)])
    return ledger_from_dict(data)


def ledger_to_dict(ledger: Ledger) -> dict[str, Any]:
    """The JSON form of ``ledger``; ``ledger_from_dict(ledger_to_dict(x)) == x``."""

    def iso(day: date | None) -> str | None:
        return None if day is None else day.isoformat()

    result: dict[str, Any] = {
        "start_date": iso(ledger.start_date),
        "end_date": iso(ledger.end_date),
        "control": {"days": ledger.control.days, "moves": ledger.control.moves},
        "start_sheet_received": {side.value: iso(day) for side, day in ledger.start_sheet_received.items()},
        "breaks": [
            {"player": brk.player.value, "first_day": iso(brk.first_day), "last_day": iso(brk.last_day),
             "notice_postmark": iso(brk.notice_postmark),
             "referee_grant": None if brk.referee_grant is None else brk.referee_grant.value}
            for brk in ledger.breaks
        ],
        "letters": [
            {"from": letter.sender.value, "move": letter.move, "sent": iso(letter.sent),
             "received": iso(letter.received), "partner_sent_postmark": iso(letter.partner_sent_postmark),
             "corrects_partner": letter.corrects_partner, "uncounted_moves": letter.uncounted_moves,
             "penalty_days_charged_to_partner": letter.penalty_days_charged_to_partner,
             "penalty_rule": letter.penalty_rule, "repeat_sent": iso(letter.repeat_sent),
             "moves": letter.moves_text, **_optional_letter_keys(letter, iso)}
            for letter in ledger.letters
        ],
        "penalties": [
            {"player": penalty.player.value, "days": penalty.days, "after_letter": penalty.after_letter,
             "rule": penalty.rule, "reason": penalty.reason}
            for penalty in ledger.penalties
        ],
        "players": {side.value: name for side, name in ledger.players.items()},
    }
    if ledger.error_reports:
        result["error_reports"] = [
            {"player": report.player.value, "letter": report.letter, "received": iso(report.received),
             "reported": iso(report.reported)}
            for report in ledger.error_reports
        ]
    return result


def _optional_letter_keys(letter: LetterEntry, iso: Callable[[date | None], str | None]) -> dict[str, Any]:
    """The newer keys of a letter, written only when they say something, so that a ledger
    without them reads and writes as before."""
    keys: dict[str, Any] = {}
    if letter.by_phone:
        keys["by_phone"] = True
    if letter.penalty_reason is not None:
        keys["penalty_reason"] = letter.penalty_reason
    if letter.penalty_for_letter is not None:
        keys["penalty_for_letter"] = letter.penalty_for_letter
    if letter.supplied_receipt is not None:
        keys["supplied_receipt"] = iso(letter.supplied_receipt)
    if letter.forced_moves:
        keys["forced_moves"] = letter.forced_moves
    if letter.forwarded_on is not None:
        keys["forwarded_on"] = iso(letter.forwarded_on)
    if letter.forwarded_by_phone:
        keys["forwarded_by_phone"] = True
    return keys

