"""Readers' names of the stored states of games and cases and of the case types, for text built
in Python (a refusal, an audit entry); the templates name them the same way (``_labels.html``,
``cases/_labels.html``). The codes stay English in the database; an unknown one reads as stored."""

from __future__ import annotations

from enum import Enum

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

__all__ = ["case_state", "case_type", "game_state", "reader_name"]

GAME_STATES: dict[str, LazyString] = {
    "not_started": _l("not started"),
    "in_play": _l("in play"),
    "suspended": _l("suspended"),
    "adjudication": _l("in adjudication"),
    "finished": _l("finished"),
}

CASE_TYPES: dict[str, LazyString] = {
    "overstep_claim": _l("overstep claim"),
    "adjudication": _l("adjudication"),
    "game_record": _l("game record"),
    "withdrawal": _l("withdrawal"),
    "sanction": _l("sanction"),
    "special_break": _l("special break"),
    "dispute": _l("dispute"),
    "protest": _l("protest"),
}

CASE_STATES: dict[str, LazyString] = {
    "awaiting_parties": _l("awaiting the parties"),
    "awaiting_decision": _l("awaiting a decision"),
    "decided": _l("decided"),
    "under_protest": _l("under protest"),
    "closed": _l("closed"),
}


def reader_name(names: dict[str, LazyString], code: object, otherwise: str | None = None) -> str:
    """The reader's name of ``code`` (a stored code or an enum member) in ``names``; one without
    a name reads as ``otherwise``, else as stored rather than hidden. Every table of names on the
    pages is read through here."""
    value = code.value if isinstance(code, Enum) else str(code)
    found = names.get(value)
    if found is not None:
        return str(found)
    return value if otherwise is None else otherwise


def game_state(code: object) -> str:
    return reader_name(GAME_STATES, code)


def case_type(code: object) -> str:
    return reader_name(CASE_TYPES, code)


def case_state(code: object) -> str:
    return reader_name(CASE_STATES, code)
