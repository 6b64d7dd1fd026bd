"""Readers' names for the kinds of letters in the outbox (``invitation``, ``repeat``,
``case.overstep.confirmed``): the codes stay English in the database; the outbox viewer shows
these names, each kind its own.

A decision's letters (``case.<template>``) take the names the audit log gives them; the papers
(``bulletin``, ``final_report``, ``steward_report``) are named as on their pages."""

from __future__ import annotations

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

from corrmail.web.audit_labels import LETTERS

__all__ = ["CASE_LETTER_PREFIX", "OUTBOX_KINDS", "outbox_kind"]

CASE_LETTER_PREFIX = "case."
"""A decision's letter is filed under ``case.`` and its template (corrmail.referee.case_letters)."""

OUTBOX_KINDS: dict[str, LazyString] = {
    # Accounts: both carry a set-password link and are never opened in the viewer.
    "invitation": _l("Invitation: set your password"),
    "password_reset": _l("Password reset"),
    # Play by e-mail (corrmail.mail.correspondence).
    "move": _l("Move to the partner"),
    "move_receipt": _l("Receipt of a move"),
    "notice": _l("Notice to the player"),
    "error_notice": _l("Error in a letter: play stopped"),
    "game_over": _l("Game over"),
    "break_notice": _l("Notice of a break"),
    "break_confirmed": _l("Break recorded"),
    "break_refused": _l("Break refused"),
    "break_shortened": _l("Break shortened"),
    "protest": _l("Protest forwarded to the referee"),
    "refusal": _l("Letter refused"),
    # Scheduled letters (corrmail.letters.scheduled) and round sheets.
    "repeat": _l("Repeat of an unanswered move"),
    "first_move_query": _l("Query for the first move"),
    "end_of_play": _l("End of play: game to adjudication"),
    "digest": _l("Weekly digest of games"),
    "start_sheet": _l("Start sheet"),
    "round_sheet": _l("Round sheet"),
    "player_sheet": _l("Player's sheet"),
    # The papers (corrmail.bulletins), named as on their pages.
    "bulletin": _l("Bulletin"),
    "final_report": _l("Final report"),
    "steward_report": _l("Steward's report to the referee"),
}


# A decision's letter, by the name the audit log gives it.
OUTBOX_KINDS.update({CASE_LETTER_PREFIX + template: _l("Decision: %(letter)s", letter=name)
                     for template, name in LETTERS.items()})


def outbox_kind(kind: str) -> str:
    """The reader's name of a letter's kind; a kind without one is shown as stored."""
    return str(OUTBOX_KINDS.get(kind, kind))
