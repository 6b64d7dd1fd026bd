"""Letter-level behaviour on column games: 002 §4.2.2, §4.2.4, §4.2.7–4.2.14, §4.5.1.

The judge (notation.letters), variants (notation.variants), short notation and PDN are the
same code as for Russian draughts; these tests show they work on column positions, including
what is particular to columns (capture order, ownership by the top piece).
"""

from __future__ import annotations

import pytest
from column_helpers import BASHNI, LASCA, position

from notation.columns.position import ColumnPosition
from notation.full import format_full
from notation.game_position import initial_position
from notation.letters import (
    IllegibleMove,
    ImpossibleCause,
    ImpossibleMove,
    LegalMove,
    ReplaceReason,
    SenderMustReplace,
    SingleMoveSubstituted,
    forced_move,
    play_moves,
    read_move,
    read_moves,
)
from notation.move import Move
from notation.rules import GameType
from notation.short import format_short
from notation.variants import accept_variants, parse_variants


def test_initial_positions_of_every_column_type_come_from_the_common_entry_point() -> None:
    for game_type in (BASHNI, GameType.COLUMN_RUSSIAN_GIVEAWAY, LASCA,
                      GameType.COLUMN_INTERNATIONAL_GIVEAWAY):
        start = initial_position(game_type)
        assert isinstance(start, ColumnPosition) and start.game_type is game_type


def test_full_notation_is_read_on_both_boards() -> None:
    reading = read_move(initial_position(BASHNI), "c3-d4")
    assert isinstance(reading, LegalMove)
    game = play_moves(LASCA, ["9-13", "17:9", "5:13"])
    assert game.complete
    assert game.position == position("B:W1,2,3,4,6,7,8,9,10,11,13=bw:B15,16,18-25", LASCA)


def test_cyrillic_letters_and_x_are_read_as_in_russian_draughts() -> None:
    reading = read_move(position("W:Wc3:Bd4"), "с3хЕ5")
    assert isinstance(reading, LegalMove)
    assert format_full(position("W:Wc3:Bd4"), reading.move) == "c3:e5"


def test_short_notation_in_a_letter_is_an_impossible_move() -> None:
    reading = read_move(initial_position(BASHNI), "cd4")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.SHORT_NOTATION and reading.rule == "002 §4.2.2"


def test_impossible_move_of_a_column_with_a_single_move_is_substituted() -> None:
    # 002 §4.2.10: the column on a3 can only go to b4.
    reading = read_move(initial_position(BASHNI), "a3-b5")
    assert isinstance(reading, ImpossibleMove)
    assert isinstance(reading.resolution, SingleMoveSubstituted)
    assert format_full(initial_position(BASHNI), reading.resolution.move) == "a3-b4"


def test_impossible_move_of_a_column_with_several_moves_is_replaced_by_the_sender() -> None:
    reading = read_move(initial_position(BASHNI), "c3-c4")
    assert isinstance(reading, ImpossibleMove)
    assert reading.resolution == SenderMustReplace(ReplaceReason.SEVERAL_MOVES)


def test_a_column_topped_by_the_opponent_is_not_the_movers_even_with_own_pieces_below() -> None:
    # d4 holds a white man under a black man: it is Black's column (digest §1).
    reading = read_move(position("W:Wa1:Bd4=wb,h8"), "d4-e5")
    assert isinstance(reading, ImpossibleMove)
    assert reading.resolution == SenderMustReplace(ReplaceReason.OPPONENTS_PIECE)


def test_quiet_move_when_a_capture_is_compulsory() -> None:
    reading = read_move(position("W:Wc3,g3:Bd4"), "g3-h4")
    assert isinstance(reading, ImpossibleMove)
    assert reading.cause is ImpossibleCause.CAPTURE_OMITTED
    # g3 has no move while c3 must capture.
    assert reading.resolution == SenderMustReplace(ReplaceReason.NO_MOVE)


def test_capture_order_must_be_written_when_it_changes_the_columns() -> None:
    # The king goes round c1-a3-d6-f4 either way and back to c1: the two orders bury the
    # prisoners differently, so "c1:c1" names two moves and is impossible (002 §4.2.10).
    start = position("W:WKc1:Bb2,Kc5,e5=wb,e3=bb")
    ambiguous = read_move(start, "c1:c1")
    assert isinstance(ambiguous, ImpossibleMove) and ambiguous.cause is ImpossibleCause.AMBIGUOUS
    assert ambiguous.resolution == SenderMustReplace(ReplaceReason.SEVERAL_MOVES)
    # Enough landing squares to tell the order apart name one move; "c1:a3:c1" does not
    # (both ways pass a3, in a different place).
    for text in ("c1:a3:d6:f4:c1", "c1:a3:d6:c1", "c1:f4:d6:a3:c1", "c1:f4:d6:c1"):
        assert isinstance(read_move(start, text), LegalMove), text
    assert isinstance(read_move(start, "c1:a3:c1"), ImpossibleMove)
    clockwise = read_move(start, "c1:a3:d6:c1")
    anticlockwise = read_move(start, "c1:f4:d6:c1")
    assert isinstance(clockwise, LegalMove) and isinstance(anticlockwise, LegalMove)
    assert clockwise.move != anticlockwise.move


def test_routes_with_the_same_result_are_one_move_and_may_be_written_by_their_ends() -> None:
    start = position("W:WKf6:Be5,b2")
    readings = [read_move(start, text) for text in ("f6:a1", "f6:d4:a1", "f6:c3:a1")]
    assert all(isinstance(r, LegalMove) for r in readings)
    assert len({r.move for r in readings if isinstance(r, LegalMove)}) == 1
    assert forced_move(start) is not None  # one capture: a forced move (002 §4.2.4)


def test_forced_move_detection() -> None:
    assert forced_move(position("B:W13:B16,17", LASCA)) is None
    only = forced_move(position("B:W12:B16", LASCA))
    assert only is not None and format_full(position("B:W12:B16", LASCA), only) == "16:8"
    assert forced_move(initial_position(BASHNI)) is None


def test_numbered_lines_with_a_wrong_number_warn() -> None:
    line = read_moves(initial_position(LASCA), "2. 9-13 17:9", expected_number=1)
    assert line.all_legal and len(line.moves) == 2
    assert [w.rule for w in line.warnings] == ["002 §4.2.14"]


def test_illegible_and_bad_input_never_raise() -> None:
    start = initial_position(LASCA)
    for text in ("", "z9-a1", "9-13-" * 2000, "九-十三", "9-13-17"):
        reading = read_move(start, text)
        assert isinstance(reading, IllegibleMove | ImpossibleMove), text
    off_board = read_move(start, "9-26")
    assert isinstance(off_board, ImpossibleMove)
    assert off_board.cause is ImpossibleCause.NOT_A_PLAYING_SQUARE


def test_conditional_variants_on_lasca_are_accepted_up_to_the_first_changed_move() -> None:
    # White played 1.9-13 and offers «если 1...17:9, то 2.5:13 15-12 3.9:15» (002 §4.2.7).
    after_first = play_moves(LASCA, ["9-13"]).position
    offer = parse_variants(after_first, "если 1...17:9, то 2.5:13 15-12 3.9:15")
    assert not offer.errors and [len(v.plies) for v in offer.variants] == [4]

    def written(accepted: tuple[Move, ...]) -> list[str]:
        texts, current = [], after_first
        for move in accepted:
            texts.append(format_full(current, move))
            current = current.play(move)
        return texts

    whole = accept_variants(after_first, offer, ["17:9", "15-12"])
    assert written(whole.accepted) == ["17:9", "5:13", "15-12", "9:15"]
    assert len(whole.proposer_replies) == 2 and whole.changed is None

    changed = accept_variants(after_first, offer, ["17:9", "16-12"])
    assert written(changed.accepted) == ["17:9", "5:13"]
    assert isinstance(changed.changed, LegalMove) and not changed.penalty

    impossible = accept_variants(after_first, offer, ["17:9", "15-14"])
    assert isinstance(impossible.changed, ImpossibleMove) and impossible.penalty  # §4.2.13


def test_a_variant_with_an_impossible_move_stands_up_to_it() -> None:
    after_first = play_moves(LASCA, ["9-13"]).position
    (variant,) = parse_variants(after_first, "если 1...17:9, то 2.5:13 16:12").variants
    assert len(variant.plies) == 2 and isinstance(variant.cut, ImpossibleMove)  # 002 §4.2.12


def test_short_notation_is_written_in_game_records() -> None:
    start = position("W:Wc3,g3:Bd4=wb,h8")
    (capture,) = start.legal_moves()
    assert format_short(start, capture) == "c:e5"
    start = initial_position(BASHNI)
    assert [format_short(start, m) for m in start.legal_moves()] == [
        "ab4", "cb4", "cd4", "ed4", "ef4", "gf4", "gh4"
    ]


@pytest.mark.parametrize("game_type", [BASHNI, GameType.COLUMN_RUSSIAN_GIVEAWAY, LASCA,
                                       GameType.COLUMN_INTERNATIONAL_GIVEAWAY])
def test_a_whole_game_is_played_through_letters_until_one_side_cannot_move(
    game_type: GameType,
) -> None:
    current = initial_position(game_type)
    texts: list[str] = []
    for _ in range(400):
        moves = current.legal_moves()
        if not moves:
            break
        move = moves[len(texts) * 7 % len(moves)]
        texts.append(format_full(current, move))
        current = current.play(move)
    game = play_moves(game_type, texts)
    assert game.complete and game.position == current
    outcome = current.outcome()
    assert outcome is not None
    assert outcome.loser_to_move is (not game_type.value.endswith("reverse"))


def test_playing_an_illegal_move_raises_illegal_move_error() -> None:
    from notation.columns import ColumnMove
    from notation.position import IllegalMoveError

    start = initial_position(BASHNI)
    with pytest.raises(IllegalMoveError, match="not a legal move for white"):
        start.play(ColumnMove(start=9, end=17))
