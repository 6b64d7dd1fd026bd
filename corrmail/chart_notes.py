"""The time chart's notes in the reader's language.

``timekeeping`` stays free of translations: each :class:`~timekeeping.RuleNote` carries a code
and its values besides its English message. Here each code has its msgid (marked with
:func:`N_`, translated by Flask-Babel when shown; the Russian is in
``corrmail/timechart_catalog``), the side is named in the reader's words and dates are written
``dd.mm.yyyy`` like every date of the pages. A code this table does not know (a note a newer
``timekeeping`` added) is shown in its English message rather than hidden.
"""

from __future__ import annotations

import datetime as dt

from flask_babel import gettext as _

from timekeeping import RuleNote

__all__ = ["N_", "NOTE_MESSAGES", "chart_note", "note_message"]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract`` (a default keyword); it is translated when shown."""
    return text


#: The msgid of every note of ``timekeeping.NOTE_TEXTS``, by code; the values are named as the
#: note's ``params``. The side leads where a note has one, so that it stays in the nominative.
NOTE_MESSAGES: dict[str, str] = {
    "postmark_matches": N_("nothing to correct: the postmark is missing or matches the declared "
                           "dispatch date"),
    "dispatch_corrected": N_("%(side)s: dispatch corrected from the declared %(declared)s to the "
                             "postmark %(postmark)s"),
    "postmark_not_corrected": N_("postmark %(postmark)s differs from the declared %(declared)s but "
                                 "was not corrected in the reply (letter %(reply)s): the declared "
                                 "date stands"),
    "received_after_end": N_("received on or after the end of play: no further time; only a draw "
                             "acceptance or a resignation may follow"),
    "first_omission": N_("%(side)s: first omission of a date: a notice only, no penalty"),
    "receipt_estimated": N_("receipt date missing, estimated as %(estimate)s (average transit "
                            "%(transit)s days)"),
    "receipt_estimated_no_transit": N_("receipt date missing, estimated as %(estimate)s (no "
                                       "transit on record: 0 days)"),
    "break_not_notified": N_("%(side)s: break %(first)s–%(last)s not counted: the partner was "
                             "never notified"),
    "break_notified_after_end": N_("%(side)s: break %(first)s–%(last)s not counted: notified on "
                                   "%(notified)s, after it ended"),
    "break_notified_late": N_("%(side)s: break notified late: counted from the notice's postmark "
                              "%(notified)s, not from %(first)s"),
}

_SIDES = {"white": N_("white"), "black": N_("black")}


def _shown(key: str, value: object) -> str:
    if isinstance(value, dt.date):
        # As the pages' short_date writes it, without needing an application (postal entry runs
        # from the command line too; gettext then answers in English).
        return value.strftime("%d.%m.%Y")
    if key == "side" and isinstance(value, str) and value in _SIDES:
        return str(_(_SIDES[value]))
    return str(value)


def note_message(note: RuleNote) -> str:
    """What the note says, in the reader's language (without its rule and letter)."""
    msgid = NOTE_MESSAGES.get(note.code)
    if msgid is None:
        return note.message
    return str(_(msgid, **{key: _shown(key, value) for key, value in note.params}))


def chart_note(note: RuleNote) -> str:
    """The note as listed under the chart: ``002 §4.3.3: письмо 4: …``."""
    where = _("letter %(number)s", number=note.letter) + ": " if note.letter is not None else ""
    return f"{note.rule}: {where}{note_message(note)}"
