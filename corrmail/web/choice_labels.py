"""Readers' names for the referee's stored codes: the forms' options and the case pages' text.

The codes stay English in the database and in what a form posts; only the label a person reads
is translated. Wording follows the rulebook: sides and assessments of 002 §4.5.2, the materials
of 002 §4.3.6, the sanctions of 002 §4.1.9, the breaks of 002 §4.4.5.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from wtforms.fields.choices import SelectChoice

from adjudication import Assessment, BreakKind, Evidence, SanctionKind, Side
from corrmail.web.state_labels import reader_name

LABELS: dict[str, LazyString] = {
    # Sides (also a game case's parties) and a player's own assessment (002 §4.5.2).
    Side.WHITE.value: _l("white"),
    Side.BLACK.value: _l("black"),
    Assessment.WIN.value: _l("win"),
    Assessment.DRAW.value: _l("draw"),
    Assessment.LOSS.value: _l("loss"),
    # The materials of an overstep claim (002 §4.3.6).
    Evidence.OFFENDER_LETTERS.value: _l("letters and postcards received from the offender"),
    Evidence.REGISTERED_RECEIPTS.value: _l("receipts of the registered letters"),
    Evidence.GAME_RECORD.value: _l("game record with the claimant's reply move"),
    Evidence.TIME_CHART.value: _l("chart of think time"),
    Evidence.OVERSTEP_NOTICE.value: _l("registered notice of the overstep"),
    # Sanctions (002 §4.1.9).
    SanctionKind.WARNING.value: _l("warning"),
    SanctionKind.REPRIMAND.value: _l("reprimand"),
    SanctionKind.BULLETINS_WITHHELD.value: _l("current information withheld"),
    # Also a withdrawal plan's disposition of a game (002 §4.1.14).
    SanctionKind.FORFEIT.value: _l("game declared lost (− / +)"),
    SanctionKind.EXCLUSION_REQUEST.value: _l("request to exclude the player from the tournament"),
    # Breaks the ordinary rules do not give (002 §4.4.5).
    BreakKind.RETROACTIVE.value: _l("break announced after it began"),
    BreakKind.EXTRA.value: _l("additional break beyond the norm of §4.4.1"),
    # The breaks on record (002 §4.4.1, §4.4.5).
    "regular": _l("break within the norm of §4.4.1"),
    "special": _l("special break"),
    # Rulings of every case type and what they act on.
    "confirmed": _l("overstep confirmed"),
    "rejected": _l("claim rejected"),
    "not_approved": _l("not approved: materials incomplete"),
    "white_wins": _l("white wins"),
    "black_wins": _l("black wins"),
    "keep_results": _l("results kept"),
    "annul_results": _l("results annulled"),
    "imposed": _l("imposed"),
    "refused": _l("refused"),
    "granted": _l("granted"),
    "upheld": _l("upheld"),
    "dismissed": _l("dismissed"),
    "both_minus": _l("both lose (−/−)"),
    "result_stands": _l("the result stands"),
    "keep": _l("keep"),
    "annul": _l("annul"),
    "adjudicate": _l("adjudicate"),
    "finished": _l("finished"),
    "unfinished": _l("unfinished"),
    "not_started": _l("not started"),
    # Who must act (the queue's filter and a case's deadline).
    "players": _l("players"),
    "steward": _l("steward"),
    "referee": _l("referee"),
    "organizer": _l("organizer"),
}


def label(code: str | StrEnum) -> str:
    """The reader's name of ``code``; an unknown code is shown as it is rather than hidden."""
    return reader_name(LABELS, code)


def label_text(code: str) -> str:
    """The English name of ``code`` (its catalog message id), for renderers without a Flask
    request (the printable bulletins translate it with the same catalog, loaded outside Flask)."""
    found = LABELS.get(code)
    # A lazy string keeps its message id as its first argument.
    return str(found._args[0]) if found is not None and found._args else code


def choices(codes: Iterable[str | StrEnum]) -> list[SelectChoice]:
    """Options that post the codes and show their names. The labels stay lazy so a form
    declared at import reads in the language of each request."""
    out = []
    for code in codes:
        value = code.value if isinstance(code, StrEnum) else str(code)
        out.append(SelectChoice(value, LABELS.get(value, value)))
    return out
