"""The referee's refusals in the reader's language.

``adjudication`` stays free of translations: an error that knows it may be shown to a person
(:class:`adjudication.CodedError`) carries a ``code`` and its values besides its English message.
Here each code has its msgid (translated by Flask-Babel when shown); an error without a known code
is shown in its English message, which names the rule, rather than hidden.
"""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

from adjudication import CodedError
from adjudication.errors import ImpossibleDates, WindowOpen

__all__ = ["DATE_ORDER_MESSAGES", "REFUSAL_MESSAGES", "refusal_reason"]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract``; it is translated when shown."""
    return text


#: The msgid of every coded refusal, by code; the values are named as the error's ``params``.
REFUSAL_MESSAGES: dict[str, str] = {
    "not_approved_on_complete_file": N_(
        "the claim's materials are complete (%(evidence)s): a claim may be left unapproved only "
        "when they are incomplete; confirm the overstep, or reject it and the claimant is charged "
        "6 days (002 §4.3.7)"),
    "protest_incomplete": N_(
        "a protest against an overstep gives its grounds and encloses the materials of "
        "002 §4.3.6; missing: %(missing)s (002 §4.3.8)"),
}


#: The msgid of each pair of dates a form can give in the wrong order (``ImpossibleDates.what``).
DATE_ORDER_MESSAGES: dict[str, str] = {
    "the notice received before the claim": N_("the notice received before the claim"),
    "a reply before the game ended": N_("a reply before the game ended"),
    "a record received before the game ended": N_("a record received before the game ended"),
    "an analysis received before it was sent": N_("an analysis received before it was sent"),
}

#: Values that list codes (materials, "grounds"), each named in the reader's words.
_LISTS = frozenset({"evidence", "missing"})
_GROUNDS = N_("grounds")


def refusal_reason(error: Exception, name: Callable[[str], str] = str) -> str:
    """``error`` worded for the reader: a known code in his language, anything else as it is.
    ``name`` gives the reader's name of a code a value lists (the materials of 002 §4.3.6)."""
    if isinstance(error, WindowOpen):
        from corrmail.referee.timing import waits_for

        return str(_("not yet: the decision waits for %(what)s until %(date)s (%(rule)s)",
                     what=waits_for(error), date=f"{error.due:%d.%m.%Y}", rule=error.rule))
    if isinstance(error, ImpossibleDates) and error.what in DATE_ORDER_MESSAGES:
        return str(_("%(what)s: %(later)s is before %(earlier)s (%(rule)s)",
                     what=_(DATE_ORDER_MESSAGES[error.what]), later=f"{error.later:%d.%m.%Y}",
                     earlier=f"{error.earlier:%d.%m.%Y}", rule=error.rule))
    if not isinstance(error, CodedError) or error.code not in REFUSAL_MESSAGES:
        return str(error)
    values: dict[str, str] = {}
    for key, value in error.params.items():
        if key in _LISTS:
            values[key] = ", ".join(_(_GROUNDS) if item == "grounds" else name(item)
                                    for item in str(value).split(", ") if item)
        else:
            values[key] = str(value)
    return str(_(REFUSAL_MESSAGES[error.code], **values))
