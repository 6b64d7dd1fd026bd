"""The time chart's notes, rule errors and sides in the reader's language.

``timekeeping`` stays free of translations: each :class:`~timekeeping.RuleNote` and
:class:`~timekeeping.RuleViolation` carries a code and its values besides its English message.
Here each code has its msgid (marked with :func:`N_`, translated by Flask-Babel when shown; the
Russian is in ``corrmail/translations``), the side is named in the reader's words and dates
are written ``dd.mm.yyyy`` like every date of the pages. A code these tables do not know (a note
or an error a newer ``timekeeping`` added) is shown in its English message rather than hidden.
"""

from __future__ import annotations

import datetime as dt

from flask_babel import gettext as _

from timekeeping import DateFormatError, RuleNote, RuleViolation, Side

__all__ = ["DATE_ERROR_MESSAGES", "N_", "NOTE_MESSAGES", "VIOLATION_MESSAGES", "chart_error",
           "chart_note", "chart_side", "date_error", "note_message", "violation_message"]


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
    "forwarded_postmark_differs": N_("the reply (letter %(reply)s) gives %(postmark)s as the "
                                     "postmark, but the letter was forwarded on %(forwarded)s: a "
                                     "forwarding's postmark corrects nothing, the sender's "
                                     "dispatch stands"),
    "received_after_end": N_("received on or after the end of play: no further time; only a draw "
                             "acceptance or a resignation may follow"),
    "first_omission": N_("%(side)s: first omission of a date: a notice only, no penalty"),
    "receipt_supplied_later": N_("receipt date omitted, supplied as %(supplied)s in letter "
                                 "%(by)s; the omission stays on record"),
    "receipt_estimated": N_("receipt date missing, estimated as %(estimate)s (average transit "
                            "%(transit)s days)"),
    "receipt_estimated_no_transit": N_("receipt date missing, estimated as %(estimate)s (no "
                                       "transit on record: 0 days)"),
    "receipt_phone_call": N_("receipt date missing: the move was given by telephone, so it was "
                             "heard the day of the call, %(estimate)s"),
    "break_not_notified": N_("%(side)s: break %(first)s–%(last)s not counted: the partner was "
                             "never notified"),
    "break_notified_after_end": N_("%(side)s: break %(first)s–%(last)s not counted: notified on "
                                   "%(notified)s, after it ended"),
    "break_notified_late": N_("%(side)s: break notified late: counted from the notice's postmark "
                              "%(notified)s, not from %(first)s"),
    "break_late_notice_counted": N_("%(side)s: break %(first)s–%(last)s announced after it began, "
                                    "counted by the referee from its first day: still the break "
                                    "of the year"),
    "break_extra_granted": N_("%(side)s: extra break %(first)s–%(last)s granted by the referee "
                              "beyond the norms of 002 §4.4.1"),
    "play_suspended": N_("play suspended %(first)s–%(last)s until the referee's decision on an "
                         "overstep claim: nobody's think time (002 §4.3.6)"),
}

#: The msgid of every violation of ``timekeeping.VIOLATION_TEXTS``, by code: the English text
#: itself with ``%(name)s`` for ``{name}``, so that an English page reads as the command line does.
VIOLATION_MESSAGES: dict[str, str] = {
    "letters_in_a_row": N_("two letters in a row from %(side)s: each letter answers the partner's"),
    "received_before_dispatch": N_("received %(received)s, before the partner's dispatch on "
                                   "%(dispatch)s"),
    "sent_before_received": N_("sent %(sent)s before the letter it answers was received on "
                               "%(received)s"),
    "move_backwards": N_("move number goes backwards: %(side)s's move %(move)s after move "
                         "%(last)s"),
    "uncounted_moves": N_("uncounted variant moves must not decrease nor exceed the move number "
                          "%(move)s"),
    "receipt_not_estimable": N_("receipt date missing and the partner's dispatch date unknown: no "
                                "time can be estimated"),
    "omission_penalty_no_omission": N_("penalty for an omitted date refused: the answered letter "
                                       "omitted no date"),
    "omission_penalty_first": N_("penalty for an omitted date refused: a first omission earns a "
                                 "notice only"),
    "receipt_supplied_nothing_omitted": N_("a receipt date supplied, but the sender's previous "
                                           "letter omitted none"),
    "error_report_late": N_("%(side)s reported the partner's error on %(reported)s, after the 3 "
                            "days (due by %(due)s): %(days)s days counted as his"),
    "error_report_before_receipt": N_("error reported on %(reported)s, before the letter arrived "
                                      "on %(received)s"),
    "error_report_wrong_letter": N_("%(side)s reported an error of letter %(letter_number)s, which "
                                    "is no letter of the partner's"),
    "forced_move_uncounted": N_("%(forced)s forced move(s) in the letter of move %(move)s left "
                                "uncounted: a forced move counts even inside an accepted variant"),
    "penalty_right_lost": N_("penalty charged for letter %(charged_for)s, but this letter answers "
                             "letter %(answered)s: the right is lost when not used in the very "
                             "next reply; not applied"),
    "penalty_without_reason": N_("penalty charged without saying what it is for; not applied"),
    "repeat_before_letter": N_("repeat sent %(repeat)s, before the letter itself on %(sent)s"),
    "penalty_amount": N_("a penalty is %(penalty)s days once per letter, whatever the number of "
                         "errors; charged %(charged)s, applied as %(penalty)s"),
    "penalty_answers_nothing": N_("penalty charged, but this letter answers no letter of the "
                                  "partner; not applied"),
    "penalty_after_last_letter": N_("penalty after letter %(after)s, but the ledger has "
                                    "%(letters)s letters; not applied"),
    "break_ends_before_start": N_("break of %(side)s ends before it begins"),
    "second_break_in_year": N_("second break of %(side)s in %(year)s: one break per calendar "
                               "year; not counted"),
    "break_too_long": N_("break of %(side)s lasts %(days)s days, at most %(most)s; counted for its "
                         "first %(most)s"),
    "break_not_in_every_game": N_("break %(first)s..%(last)s must be taken on the same dates in "
                                  "all games; missing in %(missing)s"),
    "break_joins_another": N_("break of %(side)s %(first)s..%(last)s overlaps or continues the "
                              "break %(other_first)s..%(other_last)s: one break lasts at most "
                              "%(most)s days; not counted"),
    "break_announced_after_end": N_("break of %(side)s %(first)s..%(last)s announced on "
                                    "%(announced)s, after it ended: the notice comes before the "
                                    "break; not granted"),
    "break_already_announced": N_("break of %(side)s %(first)s..%(last)s is already announced: it "
                                  "holds in all games"),
}

#: The msgid of every ``timekeeping.DateFormatError`` code: a date a player wrote that cannot be
#: read (002 §4.3.1), quoted as ``%(text)s``.
DATE_ERROR_MESSAGES: dict[str, str] = {
    "day_first": N_("cannot read the date %(text)s: write the day first: 10.10.97, 10.10.1997, "
                    "10.10 or 1997-10-10"),
    "year_missing": N_("cannot read the date %(text)s: the year is missing and there is no letter "
                       "date to take it from"),
    "too_far": N_("cannot read the date %(text)s: no such day within half a year of the letter's "
                  "date %(reference)s"),
    "no_such_day": N_("cannot read the date %(text)s: no such day"),
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


def date_error(error: DateFormatError) -> str:
    """Why a date a player wrote cannot be read, in the reader's language; an error without a
    known code keeps its English."""
    msgid = DATE_ERROR_MESSAGES.get(error.code)
    if msgid is None:
        return str(error)
    return str(_(msgid, text=repr(error.text),
                 **{key: _shown(key, value) for key, value in error.params}))


def chart_side(side: Side | str) -> str:
    """A side as the chart names it (the From column, an overstep): ``белые``, ``чёрные``."""
    value = side.value if isinstance(side, Side) else side
    return str(_(_SIDES[value])) if value in _SIDES else value


def violation_message(error: RuleViolation) -> str:
    """What the rule error says, in the reader's language (without its rule, letter and value).

    A violation of one player's breaks across his games (``validate_player_breaks``) carries the
    game's key besides its code's values; it leads the message as in the English.
    """
    msgid = VIOLATION_MESSAGES.get(error.code)
    if msgid is None:
        return error.message
    values = error.values
    game = values.pop("game", None)
    text = str(_(msgid, **{key: _shown(key, value) for key, value in values.items()}))
    return text if game is None else _("game %(game)s", game=str(game)) + ": " + text


def chart_error(error: RuleViolation) -> str:
    """The rule error as listed under the chart: ``002 §4.3.1: письмо 3: … (5)``, its offending
    value last as the command line writes it."""
    where = _("letter %(number)s", number=error.letter) + ": " if error.letter is not None else ""
    return f"{error.rule}: {where}{violation_message(error)} ({error.value!r})"


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
