"""Every note and rule error `timekeeping` can write has its wording here, with the same values,
in Russian too."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from corrmail.bulletins.render import _translations
from corrmail.games.chart_notes import (
    DATE_ERROR_MESSAGES,
    NOTE_MESSAGES,
    VIOLATION_MESSAGES,
    chart_error,
    chart_note,
    chart_side,
    date_error,
    note_message,
    violation_message,
)
from timekeeping import (
    NOTE_TEXTS,
    VIOLATION_TEXTS,
    Break,
    DateFormatError,
    RuleNote,
    RuleViolation,
    Side,
    parse_player_date,
    rule_note,
    rule_violation,
    validate_player_breaks,
)


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


def test_every_timekeeping_violation_has_a_message() -> None:
    assert set(VIOLATION_MESSAGES) == set(VIOLATION_TEXTS)


@pytest.mark.parametrize("code", sorted(VIOLATION_TEXTS))
def test_violation_message_takes_its_values_in_both_languages(code: str) -> None:
    wanted = _names(VIOLATION_TEXTS[code], r"\{(\w+)\}")
    # The msgid is the English itself, so an English page reads as the command line.
    assert VIOLATION_MESSAGES[code] == re.sub(r"\{(\w+)\}", r"%(\1)s", VIOLATION_TEXTS[code])
    russian = _translations("ru").gettext(VIOLATION_MESSAGES[code])
    assert russian != VIOLATION_MESSAGES[code]
    assert _names(russian, r"%\((\w+)\)s") == wanted


def test_sides_and_the_game_prefix_are_translated() -> None:
    catalog = _translations("ru")
    assert (catalog.gettext("white"), catalog.gettext("black")) == ("белые", "чёрные")
    assert catalog.gettext("game %(game)s") == "партия %(game)s"


def test_outside_a_request_the_violation_reads_as_the_command_line_but_dates_as_on_the_pages() -> None:
    error = rule_violation("002 §4.3.1", "sent_before_received", "2026-02-03", 2,
                           sent=dt.date(2026, 2, 3), received=dt.date(2026, 2, 5))
    assert violation_message(error) == ("sent 03.02.2026 before the letter it answers was "
                                        "received on 05.02.2026")
    in_a_row = rule_violation("002 §4.3.1", "letters_in_a_row", 2, 2, side="white")
    assert chart_error(in_a_row) == str(in_a_row)
    assert chart_side(Side.BLACK) == "black" and chart_side("white") == "white"


def test_a_player_breaks_violation_keeps_its_game() -> None:
    [second] = validate_player_breaks({"A": [
        Break(Side.WHITE, dt.date(2026, 3, 1), dt.date(2026, 3, 2), dt.date(2026, 3, 1)),
        Break(Side.WHITE, dt.date(2026, 5, 1), dt.date(2026, 5, 3), dt.date(2026, 5, 1))]})
    assert violation_message(second) == second.message == (
        "game A: second break of white in 2026: one break per calendar year; not counted")


def test_a_violation_without_a_known_code_keeps_its_english_message() -> None:
    error = RuleViolation("002 §4.3.1", "something a newer timekeeping says", 5, 2)
    assert chart_error(error) == "002 §4.3.1: letter 2: something a newer timekeeping says (5)"
    assert chart_side("nobody") == "nobody"


@pytest.mark.parametrize(("text", "reference", "code"), [
    ("2026/02/01", None, "day_first"),
    ("10.10", None, "year_missing"),
    ("29.02", dt.date(2028, 9, 1), "too_far"),
    ("31.02.2026", None, "no_such_day"),
])
def test_every_unreadable_date_has_a_message_in_both_languages(
        text: str, reference: dt.date | None, code: str) -> None:
    """A date a player wrote that cannot be read (002 §4.3.1): timekeeping's code is worded here."""
    with pytest.raises(DateFormatError) as raised:
        parse_player_date(text, reference=reference)
    assert raised.value.code == code
    english = date_error(raised.value)
    assert english.startswith(f"cannot read the date {text!r}: ")
    wanted = {"text", *(key for key, _ in raised.value.params)}
    assert _names(DATE_ERROR_MESSAGES[code], r"%\((\w+)\)s") == wanted
    russian = _translations("ru").gettext(DATE_ERROR_MESSAGES[code])
    assert russian.startswith("не удаётся прочесть дату %(text)s: ")
    assert _names(russian, r"%\((\w+)\)s") == wanted


def test_the_dates_codes_are_the_ones_worded() -> None:
    assert set(DATE_ERROR_MESSAGES) == {"day_first", "year_missing", "too_far", "no_such_day"}
    assert date_error(DateFormatError("x", "a reason of a newer timekeeping")) == (
        "cannot read the date 'x': a reason of a newer timekeeping")
