"""FEN, PDN and SVG."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from notation.errors import FenError
from notation.fen import format_fen, parse_fen
from notation.geometry import SquareStyle
from notation.letters import play_moves
from notation.pdn import PdnGame, iter_pdn, read_pdn, write_pdn
from notation.playouts import random_game, random_positions
from notation.position import Piece, Position
from notation.rules import Color, GameType
from notation.svg import board_svg

# -- FEN --------------------------------------------------------------------------------------

DRAUGHTS = [GameType.RUSSIAN, GameType.GIVEAWAY, GameType.INTERNATIONAL]


def test_initial_fens() -> None:
    assert format_fen(Position.initial(GameType.RUSSIAN)) == (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    )
    assert format_fen(Position.initial(GameType.INTERNATIONAL)) == (
        "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
    )


def test_kings_ranges_and_side_to_move() -> None:
    position = parse_fen("B:WKa1,c3:Bh8.", GameType.RUSSIAN)
    assert position.turn is Color.BLACK
    geometry = position.geometry
    assert position.piece_at(geometry.parse_square("a1")) == Piece(Color.WHITE, king=True)
    assert position.piece_at(geometry.parse_square("h8")) == Piece(Color.BLACK)
    assert parse_fen("W:W31-50:B1-20", GameType.INTERNATIONAL) == Position.initial(GameType.INTERNATIONAL)
    assert parse_fen('[FEN "W:W31-50:B1-20"]', GameType.INTERNATIONAL).turn is Color.WHITE


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_fen_round_trip(game_type: GameType) -> None:
    for position in random_positions(game_type, 200, seed=17):
        assert parse_fen(format_fen(position), game_type) == position
        algebraic = format_fen(position, style=SquareStyle.ALGEBRAIC)
        assert parse_fen(algebraic, game_type) == position


@pytest.mark.parametrize(
    "text",
    ["", "X:Wa1:Bb8", "W:Wa1:Wb8", "W:Wa1:Ba1", "W:Wa2:Bb8", "W:Wz9:Bb8", "W:W50-31:B1", "W:Qa1"],
)
def test_bad_fen_is_a_typed_error(text: str) -> None:
    with pytest.raises(FenError) as raised:
        parse_fen(text, GameType.RUSSIAN)
    assert raised.value.text == text


# -- PDN --------------------------------------------------------------------------------------

RECORD = """[Event "Чемпионат по переписке"]
[White "Иванов"]
[Black "Петров"]
[Result "2-0"]
[GameType "25"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 {forced} d6:b4 4. a3:c5 2-0

[GameType "25"]
[Result "*"]
1.cd4 fg5 2.dc5 b:d4 3.e:c5 *

[GameType "25"]
1. c3-d4 f6-g5 2. d4-e5 d6-c5 *

[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 (2... 13x24) 3. 33-28 $1 *

[GameType "25"]
[Rules "giveaway"]
1. c3-d4 *

[GameType "21"]
1. 11-15 *
"""


def test_lenient_reader_collects_errors_per_game() -> None:
    games = read_pdn(RECORD)
    assert len(games) == 6
    first, second, third, fourth, fifth, sixth = games
    assert first.errors == [] and len(first.moves) == 7 and first.result == "2-0"
    assert first.headers["White"] == "Иванов"
    assert first.comments == {5: "forced"}
    assert second.errors == [] and second.moves == first.moves[:5]
    assert [(e.game_number, e.move_number) for e in third.errors] == [(3, 2)]
    assert len(third.moves) == 3
    assert fourth.game_type is GameType.INTERNATIONAL and fourth.errors == [] and len(fourth.moves) == 5
    assert fifth.game_type is GameType.GIVEAWAY and fifth.errors == []
    assert sixth.errors and "GameType" in sixth.errors[0].reason


@pytest.mark.parametrize("short", [False, True])
def test_write_then_read_gives_the_same_game(short: bool) -> None:
    rng = random.Random(23)
    for game_type in DRAUGHTS:
        for _ in range(5):
            game = PdnGame(
                headers={"Event": 'Cup "A"', "White": "W", "Black": "B"},
                game_type=game_type,
                start=Position.initial(game_type),
                moves=random_game(game_type, rng, max_plies=80),
                comments={0: "start", 3: "a note"},
                result="*",
            )
            (again,) = read_pdn(write_pdn(game, short=short))
            assert again.errors == []
            assert again.game_type is game_type
            assert again.moves == game.moves
            assert again.headers["Event"] == 'Cup "A"'
            assert again.comments == game.comments


def test_written_pdn_carries_fen_for_a_set_up_position() -> None:
    start = parse_fen("B:WKa1:Bh8", GameType.RUSSIAN)
    game = PdnGame(game_type=GameType.RUSSIAN, start=start, moves=[start.legal_moves()[0]])
    text = write_pdn(game)
    assert '[FEN "B:WKa1:Bh8"]' in text and "1..." in text
    (again,) = read_pdn(text)
    assert again.start == start and again.moves == game.moves


def test_pdn_without_game_type_uses_the_default() -> None:
    (game,) = read_pdn("1. 32-28 *", default=GameType.INTERNATIONAL)
    assert game.errors == [] and game.game_type is GameType.INTERNATIONAL


def test_bad_fen_header_is_collected() -> None:
    (game,) = read_pdn('[GameType "25"]\n[FEN "W:Wz9"]\n1. c3-d4 *')
    assert game.errors and game.errors[0].move_number is None


# -- SVG --------------------------------------------------------------------------------------


def test_svg_diagram_has_pieces_coordinates_and_last_move() -> None:
    game = play_moves(GameType.RUSSIAN, ["c3-d4", "f6-g5", "d4-c5", "b6:d4"])
    last = game.moves[-1]
    svg = board_svg(game.position, last_move=last, title="after 2...b6:d4")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    circles = root.findall(f"{ns}circle")
    assert len(circles) == len(game.position.pieces())
    texts = {t.text for t in root.findall(f"{ns}text")}
    assert set("abcdefgh") <= texts and {"1", "8"} <= texts
    assert root.find(f"{ns}polyline") is not None
    assert root.find(f"{ns}title").text == "after 2...b6:d4"  # type: ignore[union-attr]


def test_svg_numbers_the_international_board_and_marks_kings() -> None:
    position = parse_fen("W:WK46:B5", GameType.INTERNATIONAL)
    root = ET.fromstring(board_svg(position))
    ns = "{http://www.w3.org/2000/svg}"
    texts = {t.text for t in root.findall(f"{ns}text")}
    assert {str(n) for n in range(1, 51)} <= texts
    assert any("king" in (c.get("class") or "") for c in root.findall(f"{ns}circle"))


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_svg_shades_exactly_the_last_moves_squares_diagram_after_diagram(game_type: GameType) -> None:
    """The board drawn under the pieces is made once per board and size; each diagram still
    shades its own last move's start and end and nothing else, whatever the diagram before."""
    rng = random.Random(11)
    ns = "{http://www.w3.org/2000/svg}"
    for _ in range(6):
        moves = random_game(game_type, rng, max_plies=rng.randint(1, 30))
        position = Position.initial(game_type)
        for move in moves:
            position = position.play(move)
        last = moves[-1] if moves else None
        for size in (40, 24):
            root = ET.fromstring(board_svg(position, last_move=last, square_size=size))
            rects = root.findall(f"{ns}rect")
            geometry = position.geometry
            assert len(rects) == geometry.size ** 2
            margin = size // 2
            shaded = set()
            for rect in rects:
                col = (int(rect.get("x") or 0) - margin) // size
                row = geometry.size - 1 - (int(rect.get("y") or 0) - margin) // size
                square = geometry.square_at(row, col)
                if rect.get("fill") == "#e8c547":
                    shaded.add(square)
                else:
                    assert rect.get("fill") == ("#f0d9b5" if square is None else "#b58863")
            assert shaded == ({last.start, last.end} if last else set())


@pytest.mark.parametrize("game_type", DRAUGHTS)
def test_pieces_are_each_squares_piece(game_type: GameType) -> None:
    """A position's pieces, read off its bitboards in one pass, are what :meth:`piece_at`
    finds square by square: men and kings of both colours, in square order."""
    rng = random.Random(29)
    kings = 0
    for _ in range(40):
        moves = random_game(game_type, rng, max_plies=rng.randint(0, 120))
        position = Position.initial(game_type)
        for move in moves:
            position = position.play(move)
            found = position.pieces()
            expected = {square: piece for square in position.geometry.squares
                        if (piece := position.piece_at(square)) is not None}
            assert found == expected
            assert list(found) == sorted(found)
            kings += sum(piece.king for piece in found.values())
    assert kings  # the playouts crowned some


def test_annotations_and_nags_after_moves_are_skipped() -> None:
    (game,) = read_pdn('[GameType "25"]\n1. c3-d4! f6-g5?! $2 2. g3-h4 ; a line comment\n*')
    assert game.errors == [] and len(game.moves) == 3


def test_iter_pdn_yields_the_games_read_pdn_returns() -> None:
    streamed = list(iter_pdn(RECORD))
    assert [g.moves for g in streamed] == [g.moves for g in read_pdn(RECORD)]
    assert [bool(g.errors) for g in streamed] == [False, False, True, False, False, True]
