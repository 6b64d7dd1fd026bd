"""Body extraction and content reading, rule by rule."""

from __future__ import annotations

from corrmail.mail.body import html_to_text, strip_quotes_and_signature
from corrmail.mail.content import normalize_move_text, read_letter
from timekeeping import Side


def test_quoted_lines_and_attribution_are_dropped_wherever_they_are() -> None:
    text = "Мой ход 8. c3-d4\n\nВ чт, 12 мар. Турнир пишет:\n> 7... h6-g5\n>> старое\nконец"
    assert strip_quotes_and_signature(text) == "Мой ход 8. c3-d4\n\nконец"


def test_signature_delimiter_ends_the_text() -> None:
    assert strip_quotes_and_signature("8. c3-d4\n-- \nИван\n9. a3-b4") == "8. c3-d4"


def test_outlook_header_block_ends_the_text() -> None:
    text = "8. c3-d4\n\nFrom: Turnir\nSent: Thursday\nTo: Ivan\n\n7... h6-g5"
    assert strip_quotes_and_signature(text) == "8. c3-d4"


def test_a_from_line_alone_is_not_a_header_block() -> None:
    assert strip_quotes_and_signature("От: Ивана\n8. c3-d4") == "От: Ивана\n8. c3-d4"


def test_html_quotes_become_quote_lines_and_signatures_vanish() -> None:
    html = (
        "<p>8. c3-d4</p><div class='gmail_signature'>Иван</div>"
        "<blockquote>7... h6-g5</blockquote><script>x()</script>"
    )
    assert html_to_text(html) == "8. c3-d4\n\n> 7... h6-g5"


def test_move_numbers_give_sides() -> None:
    content = read_letter("7... h6-g5 8. c3-d4 d6-c5 9. b2-c3")
    assert [(m.text, m.number, m.side) for m in content.moves] == [
        ("h6-g5", 7, Side.BLACK),
        ("c3-d4", 8, Side.WHITE),
        ("d6-c5", 8, Side.BLACK),
        ("c3-d4".replace("c3-d4", "b2-c3"), 9, Side.WHITE),
    ]
    assert [m.text for m in content.moves_of(Side.BLACK)] == ["h6-g5", "d6-c5"]


def test_unnumbered_move_has_no_side() -> None:
    [move] = read_letter("Мой ход c3-d4").moves
    assert move.number is None and move.side is None


def test_normalize_move_text() -> None:
    assert normalize_move_text("С3 - D4") == "c3-d4"
    assert normalize_move_text("e3xc5") == "e3:c5"
    assert normalize_move_text("c1×e3×g5") == "c1:e3:g5"


def test_dates_and_fractions_are_not_moves() -> None:
    content = read_letter("Даты 10.03.2026 / 11.03.2026. Время 14/11. Тел. 8-900-123-45-67")
    assert content.moves == () and content.is_empty


def test_empty_variant_is_reported() -> None:
    content = read_letter("Вариант А:\n\n8. c3-d4")
    assert [issue.rule for issue in content.issues] == ["002 §4.2.7"]
    assert [m.text for m in content.moves] == ["c3-d4"]
    assert content.variants == ()


def test_declining_a_draw_is_not_accepting_it() -> None:
    content = read_letter("Ничью не принимаю.")
    assert content.draw_decline and not content.draw_accept and not content.draw_offer


def test_accept_without_label() -> None:
    content = read_letter("Принимаю ваш вариант.")
    assert content.accepts_variant and content.accepted_variant_label is None
