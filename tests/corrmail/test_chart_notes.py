"""Every note `timekeeping` can write has its wording here, with the same values, in Russian too."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from corrmail.bulletins.render import _translations
from corrmail.chart_notes import NOTE_MESSAGES, chart_note, note_message
from timekeeping import NOTE_TEXTS, RuleNote, rule_note


def _names(text: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, text))


def test_every_timekeeping_note_has_a_message() -> None:
    assert set(NOTE_MESSAGES) == set(NOTE_TEXTS)


@pytest.mark.parametrize("code", sorted(NOTE_TEXTS))
def test_message_takes_the_notes_values_in_both_languages(code: str) -> None:
    wanted = _names(NOTE_TEXTS[code], r"\{(\w+)\}")
    assert _names(NOTE_MESSAGES[code], r"%\((\w+)\)s") == wanted
    russian = _translations("ru").gettext(NOTE_MESSAGES[code])
    assert russian != NOTE_MESSAGES[code]
    assert _names(russian, r"%\((\w+)\)s") == wanted


def test_outside_a_request_the_note_reads_in_english_with_dates_as_on_the_pages() -> None:
    """Postal entry also runs from the command line: no application, no translation."""
    note = rule_note("002 §4.4.2", "break_notified_late", None, side="black",
                     notified=dt.date(2026, 3, 4), first=dt.date(2026, 3, 1))
    assert note_message(note) == ("black: break notified late: counted from the notice's postmark "
                                  "04.03.2026, not from 01.03.2026")
    assert chart_note(rule_note("002 §4.3.2", "received_after_end", 7)).startswith(
        "002 §4.3.2: letter 7: received on or after the end of play")


def test_a_note_without_a_known_code_keeps_its_english_message() -> None:
    note = RuleNote("002 §4.3.1", "something a newer timekeeping says", 2)
    assert chart_note(note) == "002 §4.3.1: letter 2: something a newer timekeeping says"
