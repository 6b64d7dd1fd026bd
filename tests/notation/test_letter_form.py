"""A letter's required elements (002 §4.2.3), forced moves found (§4.2.4) and a signed correction
(§4.2.5): docs/rules/notation.md, readings on the letter's form."""

from __future__ import annotations

import pytest

from notation.game_position import initial_position
from notation.letter_form import (
    CorrectionRefused,
    LetterElement,
    LetterIncomplete,
    WrittenCorrection,
    accept_correction,
    check_elements,
    elements_in_text,
    forced_plies,
    missing_elements,
    required_elements,
)
from notation.letters import LegalMove, read_move
from notation.rules import GameType

E = LetterElement

CARD = """Здравствуйте, Пётр Иванович!
Турнир ЧР-2026-ф. Ваш ход 1. c3-d4 получил. Мой ответ: 1... f6-g5.
Даты: 01.03.26, 05.03.26, 06.03.26. Время 2/1.
С уважением, Седов"""


def test_each_missing_element_is_named_in_the_rules_order() -> None:
    present = {E.GREETING, E.OWN_MOVE, E.TIME_TOTALS}
    assert missing_elements(present) == (
        E.TOURNAMENT_CODE, E.PARTNER_MOVES_REPEATED, E.THREE_DATES, E.RETURN_ADDRESS, E.SIGNATURE)
    with pytest.raises(LetterIncomplete) as raised:
        check_elements(present)
    assert raised.value.rule == "002 §4.2.3" and raised.value.code == "letter_elements_missing"
    assert raised.value.params == {
        "missing": "tournament_code, partner_moves_repeated, three_dates, return_address, signature"}
    assert "002 §4.2.3" in str(raised.value)
    check_elements(required_elements())  # a complete letter passes


def test_the_opening_letter_and_electronic_letters_ask_less() -> None:
    assert E.PARTNER_MOVES_REPEATED not in required_elements(opening=True)
    assert required_elements(by_post=False) == (
        E.GREETING, E.TOURNAMENT_CODE, E.PARTNER_MOVES_REPEATED, E.OWN_MOVE, E.TIME_TOTALS)


def test_what_the_text_of_a_card_shows_by_itself() -> None:
    assert elements_in_text(CARD, "ЧР-2026-Ф") == {E.GREETING, E.TOURNAMENT_CODE, E.TIME_TOTALS, E.THREE_DATES}
    bare = "1... f6-g5. 06.03.26"
    assert elements_in_text(bare, "ЧР-2026-Ф") == frozenset()
    # A date written with slashes is no time fraction.
    assert E.TIME_TOTALS not in elements_in_text("отправлено 10/10/97", "X")


def test_forced_moves_are_found() -> None:
    start = initial_position(GameType.RUSSIAN)
    moves = []
    position = start
    for text in ("c3-d4", "f6-e5", "d4:f6"):
        reading = read_move(position, text)
        assert isinstance(reading, LegalMove)
        moves.append(reading.move)
        position = position.play(reading.move)
    # White's capture d4:f6 is the only legal move: forced (002 §4.2.4); the opening moves are not.
    assert forced_plies(start, moves) == (False, False, True)


def test_a_correction_stands_only_struck_through_and_signed() -> None:
    assert accept_correction(WrittenCorrection("c3-d4", "c3-b4", signed=True)) == "c3-b4"
    for correction, code in ((WrittenCorrection("c3-d4", "c3-b4"), "unsigned"),
                             (WrittenCorrection("c3-d4", "c3-b4", signed=True, erased=True), "erased"),
                             (WrittenCorrection("c3-d4", "c3-b4", signed=True, struck_through=False),
                              "not_struck_through")):
        with pytest.raises(CorrectionRefused) as raised:
            accept_correction(correction)
        assert raised.value.code == code and raised.value.rule == "002 §4.2.5"
