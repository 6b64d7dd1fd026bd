"""The game core: the only code that changes a game.

Every channel — a postcard a steward enters (:mod:`corrmail.postal`), an e-mail the server reads
(:mod:`corrmail.mail.correspondence`), a letter an official enters on the web, the referee's desk
and its effects (:mod:`corrmail.referee`), the daily sweep and the demo — calls these functions;
none of them inserts or updates letters, results, penalties, breaks, cases or a game's state
itself (``tests/test_game_core.py`` checks that). So a letter is judged the same way whatever
carried it (002 §4.2–§4.4), and a newcomer changes a rule's effect in one place.

* :mod:`~corrmail.games.append` — the ledger: a letter appended, a game locked for the append;
* :mod:`~corrmail.games.moves` — what 002 §4.2 requires of a letter's moves (:func:`check_moves`),
  draw offers, resignations, a result the board gives; writes nothing;
* :mod:`~corrmail.games.changes` — a checked letter stored with what follows
  (:func:`enter_letter`), results, penalties, breaks, suspending and resuming play;
* :mod:`~corrmail.games.cases` — case rows opened and moved on by the referee's desk, and the
  protest letters it files.
"""

from corrmail.games.append import (
    CorrectionSenderError,
    CorrectionTargetError,
    LedgerConflict,
    LedgerError,
    LetterInput,
    SenderNotInGameError,
    append_letter,
    load_locked_game,
    lock_game,
)
from corrmail.games.cases import (
    StoredCase,
    attach_case_text,
    file_protest_letter_row,
    insert_case,
    receive_protest_letter,
    store_transition,
)
from corrmail.games.changes import (
    VARIANT_REPLY_TEXT,
    BreakRefused,
    IllegalLedgerMove,
    RecordedBreak,
    charge_penalty,
    clear_result,
    enter_letter,
    enter_letter_as_written,
    grant_special_break,
    record_break,
    record_result,
    record_start_sheet_receipt,
    resume_play,
    revoke_penalties,
    revoke_special_break,
    suspend_play,
)
from corrmail.games.moves import (
    MoveCheck,
    board_result,
    check_moves,
    partner_offered_draw,
    resignation_result,
)

__all__ = [
    "VARIANT_REPLY_TEXT",
    "BreakRefused",
    "CorrectionSenderError",
    "CorrectionTargetError",
    "IllegalLedgerMove",
    "LedgerConflict",
    "LedgerError",
    "LetterInput",
    "MoveCheck",
    "RecordedBreak",
    "SenderNotInGameError",
    "StoredCase",
    "append_letter",
    "attach_case_text",
    "board_result",
    "charge_penalty",
    "check_moves",
    "clear_result",
    "enter_letter",
    "enter_letter_as_written",
    "file_protest_letter_row",
    "grant_special_break",
    "insert_case",
    "load_locked_game",
    "lock_game",
    "partner_offered_draw",
    "receive_protest_letter",
    "record_break",
    "record_result",
    "record_start_sheet_receipt",
    "resignation_result",
    "resume_play",
    "revoke_penalties",
    "revoke_special_break",
    "store_transition",
    "suspend_play",
]
