"""Conditional variants: wording (002 §4.2.7), cut at a bad move (§4.2.12), acceptance (§4.2.13)."""

from __future__ import annotations

import pytest

from notation.full import format_full
from notation.letters import IllegibleMove, ImpossibleMove, LegalMove, play_moves
from notation.position import Position
from notation.rules import GameType
from notation.variants import VariantOffer, accept_variants, parse_variants

# White has sent 1.c3-d4; Black (the partner) is to move; White proposes variants.
AFTER_C3_D4 = play_moves(GameType.RUSSIAN, ["c3-d4"]).position


def lines(position: Position, offer: VariantOffer) -> list[tuple[str | None, list[str]]]:
    result = []
    for variant in offer.variants:
        texts = []
        for move in variant.plies:
            texts.append(format_full(position, move))
            position = position.play(move)
        position = AFTER_C3_D4
        result.append((variant.label, texts))
    return result


@pytest.mark.parametrize(
    "text",
    [
        "если 1...f6-g5, то 2.g3-h4",
        "Если 1...f6-g5 то 2.g3-h4.",
        "на 1...f6-g5 предлагаю 2.g3-h4",
        "на f6-g5 предлагаю g3-h4",
        "НА 1...F6-G5 ПРЕДЛАГАЮ 2.G3-H4",
        "предлагаю вариант 1...f6-g5 2.g3-h4",
        "if 1...f6-g5 then 2.g3-h4",
        "on 1...f6-g5 I propose 2.g3-h4",
        "I propose the variant 1...f6-g5 2.g3-h4",
        "Мой ход 1.c3-d4. Если 1...f6-g5, то 2.g3-h4. С уважением",
    ],
)
def test_each_wording_gives_the_same_line(text: str) -> None:
    offer = parse_variants(AFTER_C3_D4, text, next_move_number=1)
    assert offer.errors == ()
    assert lines(AFTER_C3_D4, offer) == [(None, ["f6-g5", "g3-h4"])]
    assert offer.variants[0].cut is None


def test_longer_line_alternates_partner_and_proposer() -> None:
    offer = parse_variants(AFTER_C3_D4, "на 1...f6-e5 предлагаю 2.d4:f6 g7:e5 3.b2-c3")
    assert lines(AFTER_C3_D4, offer) == [(None, ["f6-e5", "d4:f6", "g7:e5", "b2-c3"])]


def test_labelled_variants() -> None:
    text = (
        "Вариант А: если 1...f6-g5, то 2.g3-h4. "
        "Вариант Б: на 1...f6-e5 предлагаю 2.d4:f6 g7:e5 3.b2-c3. "
        "variant C: 1...b6-a5 2.g3-f4"
    )
    offer = parse_variants(AFTER_C3_D4, text)
    assert [label for label, _ in lines(AFTER_C3_D4, offer)] == ["А", "Б", "C"]
    assert len(offer.tree().root) == 3


def test_variant_stops_at_an_impossible_move_without_penalty() -> None:
    offer = parse_variants(AFTER_C3_D4, "если 1...f6-g5, то 2.d4-d5 g5-h4")
    (variant,) = offer.variants
    assert len(variant.plies) == 1
    assert isinstance(variant.cut, ImpossibleMove)


def test_variant_stops_at_an_illegible_move() -> None:
    offer = parse_variants(AFTER_C3_D4, "если 1...f6-g5, то 2.g3-h4 h6-z9")
    (variant,) = offer.variants
    assert len(variant.plies) == 2
    assert isinstance(variant.cut, IllegibleMove)


def test_unreadable_wording_is_a_typed_error() -> None:
    offer = parse_variants(AFTER_C3_D4, "если 1...f6-g5 2.g3-h4")
    assert offer.variants == ()
    (error,) = offer.errors
    assert "002 §4.2.7" in str(error)


def test_wrong_numbers_in_a_variant_are_warnings() -> None:
    offer = parse_variants(AFTER_C3_D4, "если 5...f6-g5, то 6.g3-h4", next_move_number=1)
    (variant,) = offer.variants
    assert len(variant.plies) == 2
    assert [w.message for w in variant.warnings] == [
        "move number 5 should be 1",
        "move number 6 should be 2",
    ]


OFFER = (
    "Вариант А: на 1...f6-e5 предлагаю 2.d4:f6 g7:e5 3.b2-c3. "
    "Вариант Б: если 1...f6-g5, то 2.g3-h4 g5-f4 3.e3:g5 h6:f4"
)


def test_whole_variant_accepted() -> None:
    offer = parse_variants(AFTER_C3_D4, OFFER)
    acceptance = accept_variants(AFTER_C3_D4, offer, ["f6-e5", "g7:e5", "h6-g5"])
    assert [format_full(AFTER_C3_D4, m) for m in acceptance.accepted[:1]] == ["f6-e5"]
    assert len(acceptance.accepted) == 4
    assert len(acceptance.proposer_replies) == 2
    assert acceptance.changed is None
    assert isinstance(acceptance.next_move, LegalMove)
    assert not acceptance.penalty


def test_variant_accepted_up_to_the_first_changed_move() -> None:
    offer = parse_variants(AFTER_C3_D4, OFFER)
    acceptance = accept_variants(AFTER_C3_D4, offer, ["f6-g5", "b6-a5"])
    assert len(acceptance.accepted) == 2  # 1...f6-g5 2.g3-h4
    assert len(acceptance.proposer_replies) == 1
    assert isinstance(acceptance.changed, LegalMove)
    assert not acceptance.penalty


def test_changed_move_that_is_impossible_carries_the_penalty() -> None:
    offer = parse_variants(AFTER_C3_D4, OFFER)
    acceptance = accept_variants(AFTER_C3_D4, offer, ["f6-e5", "h6-g5"])
    assert len(acceptance.accepted) == 2
    assert isinstance(acceptance.changed, ImpossibleMove)
    assert acceptance.penalty


def test_first_move_off_all_variants() -> None:
    offer = parse_variants(AFTER_C3_D4, OFFER)
    acceptance = accept_variants(AFTER_C3_D4, offer, ["b6-a5"])
    assert acceptance.accepted == () and acceptance.proposer_replies == ()
    assert isinstance(acceptance.changed, LegalMove)


def test_conflicting_variants_are_reported() -> None:
    offer = parse_variants(
        AFTER_C3_D4, "Вариант А: если 1...f6-g5, то 2.g3-h4. Вариант Б: если 1...f6-g5, то 2.g3-f4"
    )
    assert offer.tree().conflicts == ["Б"]
