"""Column FEN, PDN export/import, SVG diagrams and the command line for column games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from column_helpers import BASHNI, LASCA, position

from notation.__main__ import main
from notation.columns.fen import format_column_fen, parse_column_fen
from notation.columns.rules import (
    ColumnRules,
    RuleOptionError,
    parse_rule_options,
    rule_option_choices,
)
from notation.errors import FenError
from notation.game_position import initial_position, position_fen, position_from_fen
from notation.letters import play_moves
from notation.pdn import PdnGame, read_pdn, write_pdn
from notation.position import Piece
from notation.rules import Color, GameType
from notation.svg import board_svg

# -- FEN -----------------------------------------------------------------------------------------


def test_fen_with_stacks_reads_bottom_to_top_and_writes_back() -> None:
    text = "B:Wa1,Kc3,d4=bW:Bb8,f6=wwb"
    start = parse_column_fen(text, BASHNI)
    d4 = start.geometry.parse_square("d4")
    assert start.column_at(d4) == (Piece(Color.BLACK), Piece(Color.WHITE, king=True))
    assert start.turn is Color.BLACK
    assert format_column_fen(start) == "B:Wa1,Kc3,d4=bW:Bf6=wwb,b8"
    assert parse_column_fen(format_column_fen(start), BASHNI) == start


def test_fen_of_a_lasca_position_is_numeric_and_accepts_ranges() -> None:
    start = parse_column_fen("W:W1-11:B15-25", LASCA)
    assert start == initial_position(LASCA)
    assert format_column_fen(start) == "W:W1,2,3,4,5,6,7,8,9,10,11:B15,16,17,18,19,20,21,22,23,24,25"
    assert position_fen(start) == format_column_fen(start)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("W:Wd4=wbw:B", "never alternating"),
        ("W:Wd4=bw,Kd4:B", "listed twice"),
        ("W:Wd4=wb:Bh8", "top piece"),
        ("W:Wd4=xw:Bh8", "w, b"),
        ("W:Wd4=:Bh8", "no pieces"),
        ("W:Wd5:Bh8", "not a playing square"),
        ("X:Wd4:Bh8", "side to move"),
        ("W:Wd4:Bh8:Ba1", "once each"),
        ("W:W12-3:Bh8", "bad range"),
    ],
)
def test_bad_fen_is_a_fen_error_naming_the_fault(text: str, reason: str) -> None:
    with pytest.raises(FenError, match=reason):
        parse_column_fen(text, BASHNI)


def test_position_from_fen_dispatches_on_the_game_type_and_takes_options() -> None:
    column = position_from_fen("W:Wc3:Bd4=bb,h8", BASHNI, {"rejump": "allowed"})
    assert column.legal_moves()[0].capture_order == (13, 13)
    with pytest.raises(RuleOptionError, match="russian has no rule options"):
        position_from_fen("W:Wc3:Bd4", GameType.RUSSIAN, {"rejump": "allowed"})


# -- rule options -------------------------------------------------------------------------------


def test_rule_options_defaults_and_errors() -> None:
    assert ColumnRules.of(BASHNI).options() == {
        "moves": "bashni", "rejump": "forbidden", "placement": "deferred", "king-landing": "continue",
        "numbering": "a1", "quiet-limit": "off",
    }
    assert ColumnRules.of(BASHNI, {"quiet-limit": "15"}).quiet_limit == 15
    assert rule_option_choices() == {
        "moves": "bashni|lasker", "rejump": "forbidden|allowed", "placement": "deferred|immediate",
        "king-landing": "continue|free", "numbering": "a1|g1", "quiet-limit": "off|N",
    }
    for bad in ("0", "-3", "many"):
        with pytest.raises(RuleOptionError, match="quiet-limit takes off\\|N"):
            ColumnRules.of(BASHNI, {"quiet-limit": bad})
    with pytest.raises(RuleOptionError, match="Lasca's 1-25 only"):
        ColumnRules.of(BASHNI, {"numbering": "g1"})
    assert ColumnRules.of(LASCA).options()["moves"] == "lasker"
    assert ColumnRules.of(LASCA, {"moves": "bashni"}).changed_options() == {"moves": "bashni"}
    assert parse_rule_options(["rejump=allowed", " placement = immediate "]) == {
        "rejump": "allowed", "placement": "immediate",
    }
    for bad in (["rejump"], ["=x"], ["rejump="]):
        with pytest.raises(RuleOptionError, match="NAME=VALUE"):
            parse_rule_options(bad)
    with pytest.raises(RuleOptionError, match="unknown rule option 'majority'"):
        ColumnRules.of(BASHNI, {"majority": "yes"})
    with pytest.raises(RuleOptionError, match="takes forbidden\\|allowed"):
        ColumnRules.of(BASHNI, {"rejump": "sometimes"})
    with pytest.raises(ValueError, match="not a column-draughts game type"):
        ColumnRules.default(GameType.RUSSIAN)


# -- PDN ------------------------------------------------------------------------------------------


def test_pdn_export_of_a_lasca_game_reads_back() -> None:
    game = play_moves(LASCA, ["9-13", "17:9", "5:13", "15-12", "9:15"])
    record = PdnGame(headers={"Event": "Lasca cup"}, game_type=LASCA, start=game.positions[0],
                     moves=list(game.moves), result="*")
    text = write_pdn(record)
    assert '[Rules "lasca"]' in text and "1. 9-13 17:9 2. 5:13 15-12 3. 9:15 *" in text
    (back,) = read_pdn(text)
    assert not back.errors and back.game_type is LASCA and back.moves == record.moves
    assert back.end == game.position


def test_pdn_export_keeps_stacks_options_and_short_notation() -> None:
    giveaway = GameType.COLUMN_RUSSIAN_GIVEAWAY
    start = position("W:WKc1:Bb2,Kc5,e5=wb,e3=bb", giveaway, rejump="allowed")
    (move, *_) = start.legal_moves()
    record = PdnGame(game_type=giveaway, start=start, moves=[move])
    text = write_pdn(record, short=True)
    assert '[Rules "bashni-reverse"]' in text
    assert '[RuleOptions "rejump=allowed"]' in text
    assert '[FEN "W:WKc1:Bb2,e3=bb,Kc5,e5=wb"]' in text
    (back,) = read_pdn(text)
    assert not back.errors and back.moves == [move]
    assert back.start == start


def test_pdn_with_an_unknown_rule_option_is_reported_not_raised() -> None:
    (game,) = read_pdn('[Rules "bashni"]\n[RuleOptions "rejump=never"]\n1. c3-d4 *\n')
    assert game.errors and "rejump" in game.errors[0].reason


# -- SVG ------------------------------------------------------------------------------------------


def test_svg_draws_every_piece_of_every_column() -> None:
    start = position("W:Wc3=bbBbW,e5,Kg7:Bb8=wB,d4=wwwb")
    svg = board_svg(start, last_move=start.legal_moves()[0])
    columns = dict(re.findall(r'data-square="(\w+)" data-column="(\w+)"', svg))
    assert columns == {"c3": "bbBbW", "e5": "w", "g7": "W", "b8": "wB", "d4": "wwwb"}
    # One disc per piece (13) and a ring for each of the four kings.
    assert svg.count("<ellipse") == 13 + 4
    assert "<title>c3: bbBbW (bottom to top)</title>" in svg
    assert 'class="last-move"' in svg


def test_svg_of_lasca_numbers_the_squares() -> None:
    svg = board_svg(initial_position(LASCA))
    assert all(f">{n}</text>" in svg for n in range(1, 26))
    assert svg.count('class="column') == 22


# -- command line -------------------------------------------------------------------------------


def test_cli_perft_and_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--type", "bashni", "--depth", "3"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["1 7", "2 49", "3 302"]
    assert main(["perft", "--type", "lasca-reverse", "--depth", "4"]) == 0
    assert capsys.readouterr().out.split() == ["1", "6", "2", "6", "3", "18", "4", "54"]
    assert main(["moves", "--type", "bashni", "--fen", "W:Wc3:Bd4=bb,h8",
                 "--rule-option", "rejump=allowed"]) == 0
    assert capsys.readouterr().out == "c3:e5:c3\n"
    assert main(["moves", "--type", "lasca", "--fen", "W:W16:B20,21",
                 "--rule-option", "moves=bashni"]) == 0
    assert capsys.readouterr().out == "16:24:18\n"


def test_cli_rejects_bad_options_and_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--type", "lasca", "--rule-option", "rejump=maybe"]) == 2
    assert "rejump" in capsys.readouterr().err
    assert main(["moves", "--type", "bashni", "--fen", "W:Wd4=wbw:B"]) == 2
    assert "never alternating" in capsys.readouterr().err


def test_cli_check_validates_column_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = play_moves(LASCA, ["9-13", "17:9", "5:13"])
    record = write_pdn(PdnGame(game_type=LASCA, start=good.positions[0], moves=list(good.moves)))
    bad = '[Rules "bashni"]\n1. c3-d4 f6-e5 2. d4-c5 *\n'
    untagged = "1. c3-d4 f6-g5 *\n"
    path = tmp_path / "games.pdn"
    path.write_text(record + "\n" + bad + "\n" + untagged, encoding="utf-8")
    assert main(["check", str(path), "--type", "bashni"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("game 2 move 2:") and "game 1" not in out and "game 3" not in out
