"""Worked positions for every rule point of the column-draughts digest, under each reading.

Each test names the digest point; positions are column FEN (docs/columns.md): ``d4=bW`` is a
white king on a black man, bottom to top.  The expected moves are worked out by hand.
"""

from __future__ import annotations

import pytest
from column_helpers import BASHNI, LASCA, moves, position

from notation.columns import (
    ColumnPosition,
    DrawReason,
    draw_claim,
    quiet_king_moves,
    repetitions,
)
from notation.full import parse_full
from notation.position import Piece
from notation.rules import Color, GameType

# -- digest §1: column mechanics ---------------------------------------------------------------


def test_capture_takes_only_the_top_piece_and_puts_it_under_the_capturer() -> None:
    assert moves("W:Wc3=bw:Bd4=wwb") == {"c3:e5": "B:Wd4=ww,e5=bbw:B"}


def test_several_prisoners_go_under_in_capture_order_first_directly_under_the_capturer() -> None:
    # The king can go round the rectangle c1-a3-d6-f4 either way; the two orders bury the
    # prisoners differently, so they are two moves with the same start and end (digest §6).
    assert moves("W:WKc1:Bb2,Kc5,e5=wb,e3=bb") == {
        "c1:a3:d6:f4:c1": "B:Wc1=bbBbW,e5:Be3",
        "c1:f4:d6:a3:c1": "B:Wc1=bBbbW,e5:Be3",
        "c1:a3:d6:f4:d2": "B:Wd2=bbBbW,e5:Be3",
    }


def test_change_of_ownership_the_released_remainder_belongs_to_its_new_top() -> None:
    after = position("W:Wc3:Bd4=wwb").play(position("W:Wc3:Bd4=wwb").legal_moves()[0])
    assert after.column_at(after.geometry.parse_square("d4")) == (Piece(Color.WHITE),) * 2
    assert after.piece_at(after.geometry.parse_square("d4")) == Piece(Color.WHITE)


def test_released_king_is_a_king_again_and_flies() -> None:
    after_capture = moves("B:Wd4=Bw,h2:Be5")
    assert after_capture == {"e5:c3": "W:Wh2:Bc3=wb,Kd4"}
    # Black to move with the released king on d4: it moves as a flying king.
    flying = moves("B:Wh2:Bc3=wb,Kd4")
    assert {"d4-e5", "d4-f6", "d4-g7", "d4-h8", "d4-a7", "d4-e3", "d4-f2", "d4-g1"} <= set(flying)


def test_prisoners_keep_their_rank_and_promotion_crowns_only_the_top_piece() -> None:
    assert moves("W:Wg7=bw:Bc7") == {"g7-f8": "B:Wf8=bW:Bc7", "g7-h8": "B:Wh8=bW:Bc7"}
    start = position("W:Wg7=bw:Bc7")
    after = start.play(start.legal_moves()[0])
    assert after.column_at(after.geometry.parse_square("f8")) == (
        Piece(Color.BLACK), Piece(Color.WHITE, king=True),
    )


def test_a_column_never_jumps_its_own_and_never_two_occupied_squares_in_a_row() -> None:
    # c3 may not jump its own column d4; the king cannot jump c3 with b2 behind it.
    assert moves("W:Wc3,d4=bw:Bh8") == {
        "c3-b4": "B:Wb4,d4=bw:Bh8",
        "d4-c5": "B:Wc3,c5=bw:Bh8",
        "d4-e5": "B:Wc3,e5=bw:Bh8",
    }
    assert "e5:a1" not in moves("W:WKe5:Bc3,b2=wb")
    assert not position("W:WKe5:Bc3,b2=wb").capture_compulsory()
    assert moves("W:WKa1:Bc3,d4,h8") == {"a1-b2": "B:WKb2:Bc3,d4,h8"}


def test_no_legal_move_loses_in_the_direct_form_and_wins_in_the_reverse_form() -> None:
    # All of White's pieces are prisoners: White, to move, has no column of its own.
    for game, winner, loser_to_move in (
        (GameType.COLUMN_RUSSIAN, Color.BLACK, True),
        (GameType.COLUMN_RUSSIAN_GIVEAWAY, Color.WHITE, False),
        (GameType.COLUMN_INTERNATIONAL, Color.BLACK, True),
        (GameType.COLUMN_INTERNATIONAL_GIVEAWAY, Color.WHITE, False),
    ):
        fen = "W:W:Bc3=wb" if game in (BASHNI, GameType.COLUMN_RUSSIAN_GIVEAWAY) else "W:W:B9=wb"
        outcome = position(fen, game).outcome()
        assert outcome is not None
        assert (outcome.winner, outcome.loser_to_move) == (winner, loser_to_move)


def test_blocked_columns_have_no_move() -> None:
    outcome = position("W:Wa1:Bb2=bb,c3").outcome()
    assert outcome is not None and outcome.winner is Color.BLACK


# -- digest §2: Bashni moves and captures --------------------------------------------------------


def test_bashni_men_move_forward_only_and_kings_fly() -> None:
    assert set(moves("W:Wc3:Bh8")) == {"c3-b4", "c3-d4"}
    assert set(moves("B:Wa1:Bc3")) == {"c3-b2", "c3-d2"}
    assert set(moves("W:WKc3:Bh8")) == {
        "c3-a1", "c3-b2", "c3-d2", "c3-e1", "c3-b4", "c3-a5", "c3-d4", "c3-e5", "c3-f6", "c3-g7",
    }


def test_bashni_capture_is_compulsory_with_free_choice_and_men_capture_backwards() -> None:
    # The short capture is allowed beside the longer one: no majority rule (digest §2).
    assert moves("W:Wd4,a1:Bc5,e3,Ke5,g7") == {
        "d4:b6": "B:Wa1,b6=bw:Be3,Ke5,g7",
        "d4:f2": "B:Wa1,f2=bw:Bc5,Ke5,g7",
        "d4:f6:h8": "B:Wa1,h8=bBW:Be3,c5",
    }


def test_bashni_sequence_must_be_completed() -> None:
    assert set(moves("W:Wc3:Bd4,f6")) == {"c3:e5:g7"}


def test_king_landing_rule_default_and_free_option() -> None:
    assert set(moves("W:WKa1:Bc3,f4")) == {"a1:e5:g3", "a1:e5:h2"}
    assert set(moves("W:WKa1:Bc3,f4", king_landing="free")) == {
        "a1:e5:g3", "a1:e5:h2", "a1:d4", "a1:f6", "a1:g7", "a1:h8",
    }


def test_promotion_mid_capture_continues_as_a_flying_king_in_bashni() -> None:
    assert moves("W:Wb6:Bc7=wb,Kf6") == {
        "b6:d8:g5": "B:Wg5=BbW,c7:B",
        "b6:d8:h4": "B:Wh4=BbW,c7:B",
    }


def test_rejump_forbidden_by_default_allowed_as_an_option() -> None:
    # Digest §9 Q1.  The man may go back over d4 only when re-jumping is allowed.
    assert moves("W:Wc3:Bd4=bb,h8") == {"c3:e5": "B:We5=bw:Bd4,h8"}
    for placement in ("deferred", "immediate"):
        assert moves("W:Wc3:Bd4=bb,h8", rejump="allowed", placement=placement) == {
            "c3:e5:c3": "B:Wc3=bbw:Bh8"
        }


def test_placement_deferred_blocks_until_the_move_ends_immediate_frees_the_square() -> None:
    # Digest §9 Q2: d6 is jumped first; under deferred placement it still stands, so the king
    # cannot come back across it to reach g3; under immediate placement it can.
    assert moves("W:WKe5:Bg3,d6") == {
        "e5:h2": "B:Wh2=bW:Bd6",
        "e5:c7": "B:Wc7=bW:Bg3",
        "e5:b8": "B:Wb8=bW:Bg3",
    }
    assert moves("W:WKe5:Bg3,d6", placement="immediate") == {
        "e5:c7:h2": "B:Wh2=bbW:B",
        "e5:h2:c7": "B:Wc7=bbW:B",
        "e5:h2:b8": "B:Wb8=bbW:B",
    }


def test_king_turns_after_a_capture_and_must_complete_it() -> None:
    assert moves("W:WKe1:Bd2,b4") == {"e1:c3:a5": "B:Wa5=bbW:B"}


# -- digest §4: Lasca ----------------------------------------------------------------------------


def test_lasca_numbering_and_start() -> None:
    start = position("W:W1-11:B15-25", LASCA)
    assert start == position("W:W1,2,3,4,5,6,7,8,9,10,11:B15,16,17,18,19,20,21,22,23,24,25", LASCA)
    assert set(moves("W:W1-11:B15-25", LASCA)) == {"8-12", "9-12", "9-13", "10-13", "10-14", "11-14"}
    # Digest §4: 16:8 and 16:10 are Black's two jumps from 16.
    assert set(moves("B:W12,13:B16", LASCA)) == {"16:8", "16:10"}


def test_lasca_numbering_from_a1_by_default_from_g1_as_an_option() -> None:
    # Digest §9 Q4: the same capture a3:c5 is 8:16 with 1 = a1 and 11:17 with 1 = g1.
    assert moves("W:Wa3:Bb4,g7", LASCA) == {"8:16": "B:W16=bw:B25"}
    assert moves("W:Wa3:Bb4,g7", LASCA, numbering="g1") == {"11:17": "B:W17=bw:B22"}
    g1 = position("W:W1-11:B15-25", LASCA, numbering="g1").geometry
    assert [g1.algebraic(g1.parse_square(n)) for n in ("1", "4", "5", "11", "25")] == [
        "g1", "a1", "f2", "a3", "a7",
    ]


def test_lasca_soldiers_capture_forward_only_under_lasker() -> None:
    # Black soldier on 9 could take 13 backwards only under the Bashni-on-7x7 reading.
    assert set(moves("B:W13,1:B9", LASCA)) == {"9-5", "9-6"}
    assert set(moves("B:W13,1:B9", LASCA, moves="bashni")) == {"9:17"}


def test_lasca_officers_step_one_square_in_any_direction() -> None:
    assert set(moves("W:WK13:B25", LASCA)) == {"13-9", "13-10", "13-16", "13-17"}
    assert set(moves("W:WK13:B25", LASCA, moves="bashni")) == {
        "13-9", "13-5", "13-1", "13-10", "13-7", "13-4", "13-16", "13-19", "13-22", "13-17",
        "13-21",
    }


def test_lasca_promotion_ends_the_move_under_lasker_continues_under_bashni_rules() -> None:
    assert moves("W:W16:B20,21", LASCA) == {"16:24": "B:W24=bW:B21"}
    assert moves("W:W16:B20,21", LASCA, moves="bashni") == {"16:24:18": "B:W18=bbW:B"}


def test_lasca_no_column_is_jumped_twice_and_officer_takes_a_three_piece_column_once() -> None:
    assert moves("W:WK13:B17=bbb", LASCA) == {"13:21": "B:W21=bW:B17=bb"}
    assert moves("W:WK13:B17=bbb", LASCA, rejump="allowed") == {
        "13:21:13:21": "B:W21=bbbW:B"
    }


# -- digest §2 "Result", §9 Q5: draws -----------------------------------------------------------


def test_threefold_repetition_is_counted_with_the_same_side_to_move() -> None:
    history, played = [position("W:WKa3:BKh6")], []
    for text in ("a3-b4", "h6-g7", "b4-a3", "g7-h6") * 2:
        played.append(parse_full(history[-1], text))
        history.append(history[-1].play(played[-1]))
    assert repetitions(history) == 3
    assert repetitions(history[:-1]) == 2
    assert repetitions([]) == 0
    assert draw_claim(history, played) is DrawReason.REPETITION
    assert draw_claim(history[:-1], played[:-1]) is None  # no move-count limit by default


def test_quiet_limit_option_counts_king_moves_without_capture() -> None:
    # quiet-limit=1: one king move each without a capture allows the claim; a man move resets.
    start = position("W:WKa3,c1:BKh6", quiet_limit="1")
    history, played = [start], []
    for text in ("a3-b4", "h6-g7", "c1-d2", "g7-h6"):
        move = parse_full(history[-1], text)
        played.append(move)
        history.append(history[-1].play(move))
    assert quiet_king_moves(history[:3], played[:2]) == 2
    assert draw_claim(history[:3], played[:2]) is DrawReason.QUIET_LIMIT
    assert quiet_king_moves(history, played) == 1  # c1-d2 was a man's move
    assert draw_claim(history, played) is None
    assert draw_claim(
        [position("W:WKa3:BKh6").play(parse_full(position("W:WKa3:BKh6"), "a3-b4"))], []
    ) is None


def test_a_malformed_board_is_refused_citing_the_digest() -> None:
    import pytest

    from notation.columns import ColumnError, ColumnRules

    rules = ColumnRules.default(BASHNI)
    with pytest.raises(ColumnError, match="digest §1"):
        ColumnPosition(rules, ("wbw",) + ("",) * 31)
    with pytest.raises(ValueError, match="32 playing squares"):
        ColumnPosition(rules, ("",) * 25)


# -- the same positions under every option --------------------------------------------------------
# Options change only what docs/rules/columns.md says they change: ownership, release and the
# order of prisoners are the same under every reading; promotion differs with `moves`.

BASHNI_OPTIONS = [
    {}, {"rejump": "allowed"}, {"placement": "immediate"}, {"king_landing": "free"},
    {"rejump": "allowed", "placement": "immediate"},
]


@pytest.mark.parametrize("options", BASHNI_OPTIONS + [{"moves": "lasker"}])
def test_change_of_ownership_under_every_option(options: dict[str, str]) -> None:
    assert moves("W:Wc3:Bd4=wwb", **options) == {"c3:e5": "B:Wd4=ww,e5=bw:B"}


@pytest.mark.parametrize("options", BASHNI_OPTIONS + [{"moves": "lasker"}])
def test_released_king_under_every_option(options: dict[str, str]) -> None:
    assert moves("B:Wd4=Bw,h2:Be5", **options) == {"e5:c3": "W:Wh2:Bc3=wb,Kd4"}
    released = {m for m in moves("B:Wh2:Bc3=wb,Kd4", **options) if m.startswith("d4")}
    if options.get("moves") == "lasker":
        assert released == {"d4-c5", "d4-e5", "d4-e3"}  # an officer steps one square
    else:
        assert {"d4-h8", "d4-a7", "d4-g1"} <= released  # a flying king


@pytest.mark.parametrize("options", BASHNI_OPTIONS + [{"moves": "lasker"}])
def test_promotion_mid_capture_under_every_option(options: dict[str, str]) -> None:
    expected = (
        {"b6:d8": "B:Wc7,d8=bW:BKf6"}  # Lasker's movement: promotion ends the move
        if options.get("moves") == "lasker"
        else {"b6:d8:g5": "B:Wg5=BbW,c7:B", "b6:d8:h4": "B:Wh4=BbW,c7:B"}
    )
    assert moves("W:Wb6:Bc7=wb,Kf6", **options) == expected


@pytest.mark.parametrize(
    "options",
    [{}, {"rejump": "allowed"}, {"placement": "immediate"}, {"king_landing": "free"},
     {"moves": "bashni"}],
)
def test_lasca_ownership_and_release_under_every_option(options: dict[str, str]) -> None:
    # White 9 takes the black top of 13, releasing a white officer: 13 is White's again.
    assert moves("W:W9:B13=Wb,25", LASCA, **options) == {"9:17": "B:WK13,17=bw:B25"}
