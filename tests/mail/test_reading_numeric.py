"""Letters of 100-square draughts and Lasca read in their own notation (002 §4.1.4, §4.2.2,
§4.2.7), and the numbers of ordinary prose — dates, move numbers, time fractions, postal codes,
addresses, clock times, scores — never read as moves."""

from __future__ import annotations

import pytest

from corrmail.mail.content import Side, read_letter
from notation.geometry import BOARD_7X7, BOARD_8X8, BOARD_10X10


def moves(text: str, geometry=BOARD_10X10) -> list[tuple[str, int | None, str | None]]:  # type: ignore[no-untyped-def]
    return [(m.text, m.number, m.side.value if m.side else None)
            for m in read_letter(text, geometry).moves]


def test_numbered_international_moves_with_sides() -> None:
    assert moves("12... 19-23 13. 32-28") == [("19-23", 12, "black"), ("32-28", 13, "white")]


def test_captures_in_every_spelling() -> None:
    assert moves("19:28 19x28 19×28 47:24:8:17:6") == [
        ("19:28", None, None), ("19:28", None, None), ("19:28", None, None),
        ("47:24:8:17:6", None, None),
    ]


def test_algebraic_squares_on_the_100_square_board() -> None:
    assert moves("1. c3-d4 j6-i5") == [("c3-d4", 1, "white"), ("j6-i5", 1, "black")]


def test_numbers_are_not_moves_of_russian_draughts() -> None:
    """002 §4.2.2 writes Russian moves with algebraic squares: ``32-28`` there is no move."""
    assert moves("12. 32-28 19-23", BOARD_8X8) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ваше письмо от 10.10.97 получил 12.10.97.",
        "Даты: 10.03.2026 / 11.03.2026 / 12.03.2026",
        "с 10.10-25.10 меня не будет",
        "Время 12/7, у вас 14/11.",
        "Получено в 18:30, отправлено в 9:15.",
        "Отправил 9:15 мск.",
        "Мой индекс 630090, Новосибирск, ул. Ленина, д. 12-4, кв. 31.",
        "Тел. 8-903-123-45-67",
        "Счёт матча 2:0, в прошлом году 3-1.",
        "12. ",
        "Ход 12.",
        "Беру перерыв с 7-12 ноября.",
        "Я в отъезде 7-12 March.",
        "2026-03-10",
    ],
)
def test_prose_numbers_are_never_moves(text: str) -> None:
    assert moves(text) == []
    assert moves(text, BOARD_7X7) == []


def test_a_numbered_move_off_the_diagonals_is_kept_for_notation_to_judge() -> None:
    """«12. 32-29» is meant as a move: notation calls it impossible (002 §4.2.10), the reader
    must not drop it as if it were a date."""
    assert moves("12. 32-29") == [("32-29", 12, "white")]


def test_variants_in_numeric_notation() -> None:
    content = read_letter(
        "13. 32-28\n"
        "Если 13... 19-23, то 14. 28:19 14:23\n"
        "на 33-29 предлагаю 19-23 28:19 14:23\n"
        "\n"
        "Вариант А: 37-32 10-14\n"
        "Вариант Б:\n"
        "31-27 16-21\n",
        BOARD_10X10,
    )
    assert [m.text for m in content.moves] == ["32-28"]
    assert [(v.label, [m.text for m in v.moves]) for v in content.variants] == [
        (None, ["19-23", "28:19", "14:23"]),
        (None, ["33-29", "19-23", "28:19", "14:23"]),
        ("А", ["37-32", "10-14"]),
        ("Б", ["31-27", "16-21"]),
    ]


def test_a_variant_starting_with_a_move_is_not_labelled_by_its_square() -> None:
    content = read_letter("Вариант 1: 32-28 19-23", BOARD_10X10)
    [variant] = content.variants
    assert variant.label == "1" and [m.text for m in variant.moves] == ["32-28", "19-23"]


def test_lasca_letter() -> None:
    content = read_letter("1... 17:9 2. 5:13\nПредлагаю ничью.", BOARD_7X7)
    assert [(m.text, m.number, m.side) for m in content.moves] == [
        ("17:9", 1, Side.BLACK), ("5:13", 2, Side.WHITE)]
    assert content.draw_offer
    assert moves("9:17:25", BOARD_7X7) == [("9:17:25", None, None)]
    assert moves("32-28", BOARD_7X7) == []  # beyond Lasca's 25 squares


def test_draw_accept_and_resignation_with_numeric_moves() -> None:
    assert read_letter("19-23. Согласен на ничью.", BOARD_10X10).draw_accept
    content = read_letter("На 32-28 я сдаюсь.", BOARD_10X10)
    assert content.resignation


def test_a_lasca_capture_that_looks_like_a_time_is_a_move_without_time_words() -> None:
    assert moves("3. 9:15", BOARD_7X7) == [("9:15", 3, "white")]
    assert moves("Мой ход 9:15", BOARD_7X7) == [("9:15", None, None)]
