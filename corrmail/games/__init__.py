"""The game core: the only code that changes a game.

Every channel — a postcard a steward enters (:mod:`corrmail.play.postcards`), an e-mail the server reads
(:mod:`corrmail.mail.correspondence`), a letter an official enters on the web, the referee's desk
and its effects (:mod:`corrmail.referee`), the daily sweep and the demo — calls these functions;
none of them inserts or updates letters, results, penalties, breaks, cases or a game's state
itself (``tests/test_game_core.py`` checks that). So a letter is judged the same way whatever
carried it (002 §4.2–§4.4), and a newcomer changes a rule's effect in one place.

* :mod:`~corrmail.games.append` — the ledger: a letter appended, a game locked for the append;
* :mod:`~corrmail.games.moves` — what 002 §4.2 requires of a letter's moves (:func:`check_moves`),
  draw offers, resignations, a result the board gives; writes nothing;
* :mod:`~corrmail.games.changes` — a checked letter stored with what follows
  (:func:`enter_letter`), results, penalties, breaks, suspending and resuming play, the
  steward's forwarding of an e-mail move to a postal partner (:func:`record_forwarding`);
* :mod:`~corrmail.games.cases` — case rows opened and moved on by the referee's desk, and the
  protest letters it files.
"""

import importlib
from typing import TYPE_CHECKING, Any

# The public names, each loaded from its module on first use (PEP 562): importing one
# module of the core (the stored state, which the models register) must not import the rest,
# which reads the models and the mail layer's game view in turn.
_WHERE = {
    "BreakRefused": "changes",
    "BreakVerdict": "changes",
    "CorrectionSenderError": "append",
    "CorrectionTargetError": "append",
    "FORWARDING_CHANNELS": "changes",
    "ForwardingRefused": "changes",
    "IllegalLedgerMove": "changes",
    "LedgerConflict": "append",
    "LedgerError": "append",
    "LetterErrorRefused": "changes",
    "LetterInput": "append",
    "PARTNER_CHARGE_RULES": "changes",
    "MoveCheck": "moves",
    "RecordedBreak": "changes",
    "SenderNotInGameError": "append",
    "StoredCase": "cases",
    "VARIANT_REPLY_TEXT": "changes",
    "append_letter": "append",
    "attach_case_text": "cases",
    "board_result": "moves",
    "charge_letter_penalty": "changes",
    "charge_penalty": "changes",
    "check_moves": "moves",
    "clear_result": "changes",
    "enter_letter": "changes",
    "enter_letter_as_written": "changes",
    "file_protest_letter_row": "cases",
    "grant_special_break": "changes",
    "insert_case": "cases",
    "load_locked_game": "append",
    "lock_game": "append",
    "partner_offered_draw": "moves",
    "lapsed_draw_offer": "moves",
    "receive_protest_letter": "cases",
    "judge_break": "changes",
    "record_break": "changes",
    "record_error_report": "changes",
    "record_forwarding": "changes",
    "record_result": "changes",
    "record_start_sheet_receipt": "changes",
    "resignation_result": "moves",
    "resume_play": "changes",
    "revoke_penalties": "changes",
    "revoke_special_break": "changes",
    "store_transition": "cases",
    "supplied_receipt_problem": "changes",
    "suspend_play": "changes",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
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
        FORWARDING_CHANNELS,
        PARTNER_CHARGE_RULES,
        VARIANT_REPLY_TEXT,
        BreakRefused,
        BreakVerdict,
        ForwardingRefused,
        IllegalLedgerMove,
        LetterErrorRefused,
        RecordedBreak,
        charge_letter_penalty,
        charge_penalty,
        clear_result,
        enter_letter,
        enter_letter_as_written,
        grant_special_break,
        judge_break,
        record_break,
        record_error_report,
        record_forwarding,
        record_result,
        record_start_sheet_receipt,
        resume_play,
        revoke_penalties,
        revoke_special_break,
        supplied_receipt_problem,
        suspend_play,
    )
    from corrmail.games.moves import (
        MoveCheck,
        board_result,
        check_moves,
        lapsed_draw_offer,
        partner_offered_draw,
        resignation_result,
    )


__all__ = [
    "FORWARDING_CHANNELS",
    "PARTNER_CHARGE_RULES",
    "VARIANT_REPLY_TEXT",
    "BreakRefused",
    "BreakVerdict",
    "CorrectionSenderError",
    "CorrectionTargetError",
    "ForwardingRefused",
    "IllegalLedgerMove",
    "LedgerConflict",
    "LedgerError",
    "LetterErrorRefused",
    "LetterInput",
    "MoveCheck",
    "RecordedBreak",
    "SenderNotInGameError",
    "StoredCase",
    "append_letter",
    "attach_case_text",
    "board_result",
    "charge_letter_penalty",
    "charge_penalty",
    "check_moves",
    "clear_result",
    "enter_letter",
    "enter_letter_as_written",
    "file_protest_letter_row",
    "grant_special_break",
    "insert_case",
    "judge_break",
    "load_locked_game",
    "lock_game",
    "partner_offered_draw",
    "lapsed_draw_offer",
    "receive_protest_letter",
    "record_break",
    "record_error_report",
    "record_forwarding",
    "record_result",
    "record_start_sheet_receipt",
    "resignation_result",
    "resume_play",
    "revoke_penalties",
    "revoke_special_break",
    "store_transition",
    "supplied_receipt_problem",
    "suspend_play",
]
