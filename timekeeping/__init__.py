"""Think time, overstep, breaks and penalties of correspondence draughts games.

The date arithmetic a referee does by hand under ``002 §4.2.9–§4.2.11``, ``§4.3`` and ``§4.4``
of the rulebook, as plain typed functions on dataclasses::

    from timekeeping import compute_chart, read_ledger
    chart = compute_chart(read_ledger("game.json"))
    chart.totals, chart.overstep, chart.errors

See ``docs/timekeeping.md`` for the API and ``docs/ledger.md`` for the ledger's JSON form.
"""

from timekeeping.breaks import (
    MAX_BREAK_DAYS,
    Break,
    BreakAnnouncement,
    RefereeGrant,
    check_break_limits,
    find_break_announcements,
    game_break_days,
    judge_announcement,
    parse_break_announcement,
    validate_player_breaks,
)
from timekeeping.chart import (
    Charge,
    ChartRow,
    Overstep,
    TimeChart,
    average_transit_days,
    compute_chart,
    effective_start,
    error_report_due,
    estimated_receipt,
)
from timekeeping.clock import (
    NotToMoveError,
    ReplyClock,
    days_left,
    last_safe_reply_date,
    reply_clock,
)
from timekeeping.control import LIMIT_TABLE_MOVES, TimeControl, TimeFraction
from timekeeping.dates import format_chart_date, local_date, parse_player_date
from timekeeping.daycount import NO_BREAKS, BreakCalendar, think_days
from timekeeping.deadlines import (
    FIRST_MOVE_QUERY_AFTER_DAYS,
    REPEAT_AFTER_DAYS,
    first_move_query_date,
    repeat_due,
    repeat_due_of,
)
from timekeeping.errors import (
    NOTE_TEXTS,
    VIOLATION_TEXTS,
    BreakAnnouncementError,
    DateFormatError,
    LedgerFormatError,
    LedgerProblem,
    NaiveDatetimeError,
    NoteValue,
    RuleNote,
    RuleViolation,
    TimeControlError,
    TimeFractionError,
    TimekeepingError,
    rule_note,
    rule_violation,
)
from timekeeping.ledger import (
    ERROR_REPORT_DAYS,
    PENALTY_DAYS,
    ErrorReport,
    Ledger,
    LetterEntry,
    Penalty,
    ledger_from_dict,
    ledger_to_dict,
    read_ledger,
)
from timekeeping.phone import phone_reply
from timekeeping.render import chart_to_dict, chart_to_text
from timekeeping.side import Side

__all__ = [
    "FIRST_MOVE_QUERY_AFTER_DAYS", "LIMIT_TABLE_MOVES", "MAX_BREAK_DAYS", "NO_BREAKS", "PENALTY_DAYS", "REPEAT_AFTER_DAYS",
    "ERROR_REPORT_DAYS", "ErrorReport", "error_report_due",
    "Break", "BreakAnnouncement", "RefereeGrant", "BreakAnnouncementError", "BreakCalendar", "Charge", "ChartRow",
    "DateFormatError", "Ledger", "LedgerFormatError", "LedgerProblem", "LetterEntry",
    "NaiveDatetimeError", "NOTE_TEXTS", "NoteValue", "NotToMoveError", "Overstep", "Penalty", "ReplyClock", "RuleNote",
    "RuleViolation", "Side", "TimeChart", "TimeControl", "TimeControlError", "TimeFraction", "TimeFractionError", "TimekeepingError",
    "VIOLATION_TEXTS",
    "average_transit_days", "chart_to_dict", "chart_to_text", "check_break_limits", "compute_chart", "days_left",
    "effective_start", "estimated_receipt", "find_break_announcements", "first_move_query_date",
    "format_chart_date", "game_break_days", "judge_announcement", "last_safe_reply_date",
    "ledger_from_dict", "ledger_to_dict", "local_date", "parse_break_announcement",
    "parse_player_date", "phone_reply", "read_ledger", "repeat_due", "repeat_due_of", "reply_clock",
    "rule_note", "rule_violation",
    "think_days", "validate_player_breaks",
]
