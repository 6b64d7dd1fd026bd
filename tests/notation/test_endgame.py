"""Endgame tables: classical results of draughts literature, a brute-force search, the CLI.

The tables are built once per test session (both xdist workers share one directory, guarded by
a lock): every position of up to 3 pieces and, of the 4-piece materials, three kings against
one (``KKKvK`` and ``KvKKK``) — the material of Petrov's triangle.  The full 4-piece build is
the command ``python -m notation endgame build --pieces 4`` (docs/benchmarks.md); the tests of
its values at the end of this file are opt-in (``-m endgame_full``: they build every 4-piece
table, a minute or more of CPU, or reuse a build in ``CORRMAIL_ENDGAME_DIR``).
"""

from __future__ import annotations

import fcntl
import itertools
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from notation.__main__ import main
from notation.endgame.material import Material, MaterialIndex, materials_needed, materials_up_to
from notation.endgame.probe import Endgames, OutsideDatabaseError
from notation.endgame.solve import solve, verify
from notation.endgame.store import DamagedTableError, StoredTables, build_tables
from notation.endgame.values import Result, moves_of, plies_of, result_of
from notation.engine import Generator, generator_for
from notation.fen import format_fen, parse_fen
from notation.position import Piece, Position
from notation.rules import Color, GameType, RuleSet

RUSSIAN = GameType.RUSSIAN
INTERNATIONAL = GameType.INTERNATIONAL
RULES = RUSSIAN.rules
GEOMETRY = RULES.geometry
MAIN_ROAD = frozenset(GEOMETRY.parse_square(s) for s in "a1 b2 c3 d4 e5 f6 g7 h8".split())
THREE_KINGS = Material.parse("KKKvK")


@pytest.fixture(scope="session")
def tables_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = tmp_path_factory.getbasetemp().parent / "endgame-tables"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_tables(shared, RUSSIAN, 3)
        build_tables(shared, RUSSIAN, materials=[THREE_KINGS])
    return shared


@pytest.fixture(scope="session")
def endgames(tables_root: Path) -> Endgames:
    return Endgames(RULES, StoredTables(tables_root, RUSSIAN))


def kings(white: tuple[int, ...], black: tuple[int, ...], turn: Color) -> Position:
    pieces = {s: Piece(Color.WHITE, True) for s in white}
    pieces.update({s: Piece(Color.BLACK, True) for s in black})
    return Position.from_pieces(RULES, pieces, turn)


def three_against_one(turn: Color) -> Iterator[tuple[tuple[int, ...], int, Position]]:
    for white in itertools.combinations(GEOMETRY.squares, 3):
        for black in GEOMETRY.squares:
            if black not in white:
                yield white, black, kings(white, (black,), turn)


def play(position: Position, written: str) -> Position:
    """The position after the move written as ``c3-d4`` or ``b8:f4:h6`` (one legal move goes
    from its first square to its last)."""
    squares = written.replace(":", "-").split("-")
    origin, target = GEOMETRY.parse_square(squares[0]), GEOMETRY.parse_square(squares[-1])
    moves = [m for m in position.legal_moves() if (m.start, m.end) == (origin, target)]
    assert len(moves) == 1, (format_fen(position), written)
    return position.play(moves[0])


def probe(endgames: Endgames, fen: str) -> tuple[Result, int | None]:
    verdict = endgames.verdict(parse_fen(fen, RUSSIAN))
    return verdict.result, verdict.plies


# -- classical results ----------------------------------------------------------------------------


def test_petrov_triangle_three_kings_holding_the_main_road_win(endgames: Endgames) -> None:
    """Petrov's triangle: three kings, one of them on the main road (a1–h8), beat a lone king
    off it — A. D. Petrov, «Руководство к изучению шашечной игры», St Petersburg 1827; the
    rules of Russian draughts give the stronger side 15 moves for it.

    Checked over every such position with the three kings to move in which the lone king
    attacks nothing: each is a win, and none needs more than 15 moves — at most 13 from the
    most awkward start, as the theory of the ending has it («Три дамки проти однієї»,
    jak.bono.odessa.ua/articles/trikutnik-petrovogo.php: «не більше 13-ти ходів»)."""
    longest = 0
    checked = 0
    for white, black, position in three_against_one(Color.WHITE):
        if black in MAIN_ROAD or not MAIN_ROAD.intersection(white):
            continue
        if kings(white, (black,), Color.BLACK).capture_compulsory():
            continue  # the lone king attacks a king: not the ending the theory describes
        byte = endgames.value(position)  # the value alone: no best move needed here
        assert result_of(byte) is Result.WIN, format_fen(position)
        plies = plies_of(byte)
        assert plies is not None
        longest = max(longest, moves_of(plies))
        checked += 1
    assert checked == 39600
    assert longest <= 15
    assert longest == 13  # the longest triangle hunt, in the winner's moves


def test_lone_king_on_the_main_road_draws_against_three_kings(endgames: Endgames) -> None:
    """A lone king holding the main road draws against three kings (Petrov 1827; the reason
    the rules treat the ending with the main road apart): every position with the lone king on
    a1–h8, the three kings off it and the lone king to move without a capture is a draw."""
    checked = 0
    for white, black, position in three_against_one(Color.BLACK):
        if black not in MAIN_ROAD or MAIN_ROAD.intersection(white):
            continue
        if position.capture_compulsory():
            continue
        assert result_of(endgames.value(position)) is Result.DRAW, format_fen(position)
        checked += 1
    assert checked == 13696
    # Forced to capture off the road, the lone king can lose: W:Kg1,Ke3,Kd6 B:Kd4 to move.
    assert probe(endgames, "B:WKg1,Ke3,Kd6:BKd4") == (Result.LOSS, 2)


def test_two_kings_do_not_beat_one(endgames: Endgames) -> None:
    """Two kings cannot force a win against one king (Petrov 1827: the triangle needs three);
    the only wins are immediate shots, at most 4 of the winner's moves, and with the lone king
    alone on the main road and not forced to capture it is always a draw."""
    table = endgames.tables[Material.parse("KKvK")]
    wins = [byte - 1 for byte in table if byte and not byte & 1]
    assert wins and max(wins) <= 7
    assert probe(endgames, "W:WKc1,Ke1:BKh8") == (Result.DRAW, None)
    assert probe(endgames, "W:WKc1,Ke1:BKd4") == (Result.DRAW, None)
    checked = 0
    for white in itertools.combinations(sorted(set(GEOMETRY.squares) - MAIN_ROAD), 2):
        for black in MAIN_ROAD:
            position = kings(white, (black,), Color.BLACK)
            if not position.capture_compulsory():
                assert endgames.verdict(position).result is Result.DRAW, format_fen(position)
                checked += 1
    assert checked > 1500


@pytest.mark.parametrize(
    ("fen", "result", "plies"),
    [
        # A king catches a man far from its crowning row.
        ("W:WKh2:Ba7", Result.WIN, 3),
        ("W:WKa1:Bc7", Result.WIN, 7),
        # The man crowns on the main road's corner and the king in the other corner, alone on
        # that diagonal, must step in front of it.
        ("B:WKh8:Bb2", Result.WIN, 3),
        # The man crowns off the king's diagonal: king against king, a draw.
        ("B:WKh8:Bc3", Result.DRAW, None),
        # The king stands where the man would cross: it takes at once.
        ("W:WKh8:Bc3", Result.WIN, 1),
    ],
)
def test_king_against_man(endgames: Endgames, fen: str, result: Result, plies: int | None) -> None:
    """King against man: the king wins unless the man reaches its crowning row safely, when it
    is king against king, a draw (Литвинович В., Негра Б., «Курс шашечной игры», 1977,
    the elementary endings)."""
    assert probe(endgames, fen) == (result, plies)


def test_king_against_two_men_stops_the_dangerous_one_first(endgames: Endgames) -> None:
    """White king g1 against black men b8 and e5, White to move: the king wins, beginning with
    1. g1-e3! to stop the more dangerous man; on 1... b8-a7 2. e3-c5 wins at once («Борьба
    дамок с простыми», draughts.narod.ru/articles/borbba_damok_s_prostymi.htm)."""
    position = parse_fen("W:WKg1:Bb8,e5", RUSSIAN)
    assert endgames.verdict(position).result is Result.WIN
    after = play(position, "g1-e3")
    assert result_of(endgames.value(after)) is Result.LOSS
    assert result_of(endgames.value(play(play(after, "b8-a7"), "e3-c5"))) is Result.LOSS


def test_king_and_man_against_king_is_no_general_win(endgames: Endgames) -> None:
    """King and man against king is a draw in general (Литвинович, Негра 1977): most positions
    of the material are draws, the wins are shots."""
    table = endgames.tables[Material.parse("KMvK")]
    index = MaterialIndex(RULES, Material.parse("KMvK"))
    valid = [table[i] for i, *_ in index.positions()]
    assert sum(1 for byte in valid if not byte) > 0.7 * len(valid)


# -- against a brute-force search -----------------------------------------------------------------


Memo = dict[tuple[int, int, int, int, int], "tuple[str, int] | None"]


def brute(position: Position, depth: int, memo: Memo) -> tuple[str, int] | None:
    """Plain minimax with the move generator, ``depth`` plies: ``("win"|"loss", plies)`` when
    the end of the game is forced within the depth (shortest win, longest loss), else None.

    It walks the generator's raw moves (masks, as ``Position`` keeps them) rather than
    ``Position`` objects: the same moves, several times faster, which is what keeps a
    7-ply search over many positions affordable in the default run."""
    me, opp = position.white, position.black
    side = 0
    if position.turn is Color.BLACK:
        me, opp, side = opp, me, 1
    return _brute(generator_for(position.rules), me, opp, position.kings, side, depth, memo)


def _brute(
    generator: Generator, me: int, opp: int, kings: int, side: int, depth: int, memo: Memo
) -> tuple[str, int] | None:
    key = (me, opp, kings, side, depth)
    if key in memo:
        return memo[key]
    moves = generator.legal_moves(me, opp, kings, side) if me else []
    found: tuple[str, int] | None
    if not moves:
        found = ("loss", 0)
    elif depth == 0:
        found = None
    else:
        best_win: int | None = None
        slowest_loss = 0
        open_child = False
        for after in {generator.apply(me, opp, kings, move) for move in moves}:
            new_me, new_opp, new_kings = after
            child = _brute(generator, new_opp, new_me, new_kings, 1 - side, depth - 1, memo)
            if child is None:
                open_child = True
            elif child[0] == "loss":
                best_win = child[1] + 1 if best_win is None else min(best_win, child[1] + 1)
            else:
                slowest_loss = max(slowest_loss, child[1] + 1)
        if best_win is not None:
            found = ("win", best_win)
        elif open_child:
            found = None
        else:
            found = ("loss", slowest_loss)
    memo[key] = found
    return found


def random_position(
    rng: random.Random, material: Material, turn: Color, rules: RuleSet = RULES
) -> Position:
    geometry = rules.geometry
    squares = list(geometry.squares)
    rng.shuffle(squares)
    pieces: dict[int, Piece] = {}
    mover, other = turn, turn.opponent
    for color, count, king in ((mover, material.kings, True), (mover, material.men, False),
                               (other, material.their_kings, True), (other, material.their_men, False)):
        crown_row = geometry.size - 1 if color is Color.WHITE else 0
        for _ in range(count):
            square = next(s for s in squares if s not in pieces
                          and (king or geometry.row(s) != crown_row))
            pieces[square] = Piece(color, king)
    return Position.from_pieces(rules, pieces, turn)


def check_against_brute(
    endgames: Endgames, position: Position, depth: int, memo: Memo | None = None
) -> bool:
    verdict = endgames.verdict(position)
    found = brute(position, depth, {} if memo is None else memo)
    if found is None:
        # Inconclusive: nothing forced within the depth, so no short win or loss either.
        assert verdict.plies is None or verdict.plies > depth, (format_fen(position), verdict)
        return False
    assert (verdict.result.value, verdict.plies) == found, format_fen(position)
    return True


def test_up_to_three_pieces_agree_with_brute_force(endgames: Endgames) -> None:
    """Random positions of 2 and 3 pieces (men and kings, either side to move): where a
    7-ply minimax is conclusive it gives the tables' value and distance exactly."""
    rng = random.Random(23)
    conclusive = 0
    small = materials_up_to(3)
    for _ in range(150):
        material = rng.choice(small)
        position = random_position(rng, material, rng.choice((Color.WHITE, Color.BLACK)))
        depth = 7 if material.kings <= 1 and material.their_kings <= 1 else 5
        conclusive += check_against_brute(endgames, position, depth)
    assert conclusive >= 40


def test_four_pieces_agree_with_brute_force(endgames: Endgames) -> None:
    """Random three-kings-against-one positions, and ones the tables call short wins and
    losses, against a 3-ply minimax."""
    rng = random.Random(4)
    table = endgames.tables[THREE_KINGS]
    index = MaterialIndex(RULES, THREE_KINGS)
    short = [p for p in index.positions() if 0 < table[p[0]] <= 4]
    conclusive = 0
    for _ in range(25):
        position = random_position(rng, rng.choice([THREE_KINGS, THREE_KINGS.flipped()]),
                                   rng.choice((Color.WHITE, Color.BLACK)))
        conclusive += check_against_brute(endgames, position, 3)
    for _, me, opp, all_kings in rng.sample(short, 25):
        position = Position(RULES, me, opp, all_kings, Color.WHITE)
        conclusive += check_against_brute(endgames, position, 3)
    assert conclusive >= 25


# -- building, storing, probing -------------------------------------------------------------------


def test_every_value_agrees_with_its_successors(endgames: Endgames) -> None:
    assert verify(RULES, endgames.tables, materials_up_to(3)) == []


def test_a_corrupted_value_is_caught_by_verification(tables_root: Path) -> None:
    tables = dict(StoredTables(tables_root, RUSSIAN).items())
    damaged = bytearray(tables[Material.parse("KKvK")])
    at = next(i for i, *_ in MaterialIndex(RULES, Material.parse("KKvK")).positions() if damaged[i])
    damaged[at] = 0
    tables[Material.parse("KKvK")] = damaged
    faults = verify(RULES, tables, [Material.parse("KKvK")])
    assert [(f.index, f.stored) for f in faults] == [(at, 0)]


def test_builds_are_reproducible(tables_root: Path, tmp_path: Path) -> None:
    build_tables(tmp_path, RUSSIAN, 2)
    again = StoredTables(tmp_path, RUSSIAN)
    shared = StoredTables(tables_root, RUSSIAN)
    assert again.pieces == 2 and shared.pieces == 3
    for material in again:
        assert again[material] == shared[material]
    assert again.entries == {m: shared.entries[m] for m in again.entries}  # sizes, SHA-256


def test_selected_material_builds_only_what_it_needs() -> None:
    needed = {m.name for m in materials_needed([THREE_KINGS])}
    assert needed == {"KvK", "KKvK", "KvKK", "KKKvK", "KvKKK"}
    solved: dict[Material, bytes | bytearray] = {}
    solve(RULES, materials_needed([Material.parse("KvK")]), solved)
    assert list(solved) == [Material.parse("KvK")]


def test_damaged_table_is_refused(tables_root: Path, tmp_path: Path) -> None:
    build_tables(tmp_path, RUSSIAN, 2)
    (tmp_path / "russian" / "KvK.bin").write_bytes(b"\0" * 1024)
    with pytest.raises(DamagedTableError, match="checksum"):
        StoredTables(tmp_path, RUSSIAN)[Material.parse("KvK")]


def test_outside_the_database(endgames: Endgames) -> None:
    with pytest.raises(OutsideDatabaseError) as error:
        endgames.verdict(parse_fen("W:Wa1,c1,e1:Bh8,f8", RUSSIAN))
    assert error.value.reason == OutsideDatabaseError.TOO_MANY_PIECES
    with pytest.raises(OutsideDatabaseError) as error:
        endgames.verdict(parse_fen("W:Wa1,c1:Bh8,f8", RUSSIAN))
    assert error.value.reason == OutsideDatabaseError.NOT_BUILT
    with pytest.raises(OutsideDatabaseError) as error:
        endgames.verdict(parse_fen("W:Wb8:Bh2", RUSSIAN))
    assert error.value.reason == OutsideDatabaseError.MAN_ON_LAST_ROW
    with pytest.raises(OutsideDatabaseError) as error:
        endgames.verdict(parse_fen("W:WKa1:B", RUSSIAN))
    assert error.value.reason == OutsideDatabaseError.GAME_OVER
    assert endgames.value(parse_fen("B:WKa1:B", RUSSIAN)) == 1  # no piece to move: lost


def test_line_of_best_play_ends_the_game(endgames: Endgames) -> None:
    position = parse_fen("W:WKa1,Kc3,Kg1:BKh2", RUSSIAN)
    verdict = endgames.verdict(position)
    assert verdict.result is Result.WIN and verdict.plies is not None
    line = endgames.line(position)
    assert len(line) == verdict.plies
    for move in line:
        position = position.play(move)
    assert position.outcome() is not None and position.outcome().winner is Color.WHITE  # type: ignore[union-attr]


def test_probe_cli(tables_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = str(tables_root)
    assert main(["endgame", "probe", "--type", "russian", "-d", directory,
                 "--fen", "W:WKa1,Kc3:BKh8"]) == 0
    out = capsys.readouterr().out
    assert out == "win in 3 plies (2 moves) best a1-b2\n"
    assert main(["endgame", "probe", "-d", directory, "--fen", "B:WKh8:Bc3", "--line", "4"]) == 0
    first, line = capsys.readouterr().out.splitlines()
    assert first.split()[0] == "draw" and line.startswith("line c3-")
    assert main(["endgame", "probe", "-d", directory, "--fen", "W:Wa1,c1,e1:Bh8,f8"]) == 2
    assert capsys.readouterr().out.startswith("outside the database: 5 pieces")
    assert main(["endgame", "probe", "-d", directory, "--fen", "W:Wz9"]) == 2
    with pytest.raises(SystemExit):
        main(["endgame", "probe", "--type", "giveaway", "--fen", "W:Wa1:Bh8"])
    assert "endgame tables exist for russian" in capsys.readouterr().err


def test_build_cli_with_verification(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["endgame", "build", "--type", "russian", "--pieces", "2", "-o", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "verified: every value agrees with its successors" in err
    assert "100%" in err
    assert main(["endgame", "verify", "-d", str(tmp_path)]) == 0
    assert main(["endgame", "build", "--material", "KXvK", "-o", str(tmp_path)]) == 2


def test_international_tables_agree_with_brute_force(tmp_path: Path) -> None:
    """International draughts (10×10, flying kings, men capturing backwards, the majority
    rule, a man crowned only where its move ends): every 2-piece table verified, and random
    positions against a 7-ply minimax."""
    build_tables(tmp_path, INTERNATIONAL, 2)
    stored = StoredTables(tmp_path, INTERNATIONAL)
    assert verify(INTERNATIONAL.rules, stored) == []
    endgames = Endgames(INTERNATIONAL.rules, stored)
    rng = random.Random(10)
    conclusive = 0
    memo: Memo = {}
    for _ in range(60):
        material = rng.choice(materials_up_to(2))
        turn = rng.choice((Color.WHITE, Color.BLACK))
        position = random_position(rng, material, turn, INTERNATIONAL.rules)
        conclusive += check_against_brute(endgames, position, 7, memo)
    assert conclusive >= 15


# -- every 4-piece table (opt-in: -m endgame_full) -------------------------------------------------

FOUR = [m for m in materials_up_to(4) if m.pieces == 4]


@pytest.fixture(scope="session")
def full_endgames(tmp_path_factory: pytest.TempPathFactory) -> Endgames:
    """Every table of up to 4 pieces: those in ``CORRMAIL_ENDGAME_DIR`` if it holds them
    (checksums checked), the missing ones built there; else built once for the session."""
    configured = os.environ.get("CORRMAIL_ENDGAME_DIR")
    root = Path(configured) if configured else tmp_path_factory.getbasetemp().parent / "endgame-4"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".russian.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_tables(root, RUSSIAN, 4)
    return Endgames(RULES, StoredTables(root, RUSSIAN))


@pytest.mark.endgame_full
def test_sargin_position_wins_with_white_to_move_and_draws_with_black(
    full_endgames: Endgames,
) -> None:
    """Sargin's position: white king h2 and men b4, c3 cut off on the lower double diagonal
    by the black king g1.  White to move wins, beginning 1. b4-a5; Black to move draws
    (Д. И. Саргин, 1891; «Позиция Саргина», Russian Wikipedia; kombinashki.ru/okon_page3.php)."""
    white = parse_fen("W:WKh2,b4,c3:BKg1", RUSSIAN)
    assert full_endgames.verdict(white).result is Result.WIN
    assert result_of(full_endgames.value(play(white, "b4-a5"))) is Result.LOSS
    # The book's 1... g1-a7 2. h2-g1 a7-b8 3. c3-d4: the men walk through.
    line = play(play(play(play(play(white, "b4-a5"), "g1-a7"), "h2-g1"), "a7-b8"), "c3-d4")
    assert result_of(full_endgames.value(line)) is Result.LOSS
    assert full_endgames.verdict(parse_fen("B:WKh2,b4,c3:BKg1", RUSSIAN)).result is Result.DRAW


@pytest.mark.endgame_full
def test_king_cuts_off_three_men_on_the_upper_double_diagonal(full_endgames: Endgames) -> None:
    """A king holding the upper double diagonal (h2-b8) against three men beats them: white
    king h2, black men f6, g5, h4, White to move — 1. h2-b8 f6-e5 2. b8:f4:h6 h4-g3
    3. h6-e3 g3-h2 4. e3-g1, and the last man cannot move («О силе дамки»,
    shashkinn.ru/uroki-shashek/o-sile-damki/)."""
    position = parse_fen("W:WKh2:Bf6,g5,h4", RUSSIAN)
    assert full_endgames.verdict(position).result is Result.WIN
    for written in "h2-b8 f6-e5 b8:f4:h6 h4-g3 h6-e3 g3-h2 e3-g1".split():
        expected = Result.WIN if position.turn is Color.WHITE else Result.LOSS
        assert result_of(full_endgames.value(position)) is expected, format_fen(position)
        position = play(position, written)
    assert full_endgames.value(position) == 1  # Black to move and no move: lost


@pytest.mark.endgame_full
def test_every_four_piece_material_agrees_with_brute_force(full_endgames: Endgames) -> None:
    """Of every 4-piece material, random positions (either side to move) against a minimax of
    5 plies (3 with kings on both sides), and positions the tables call wins or losses within
    that depth, which the minimax must find exactly."""
    rng = random.Random(44)
    conclusive = 0
    memo: Memo = {}
    for material in FOUR:
        depth = 3 if material.kings and material.their_kings else 5
        for _ in range(6):
            position = random_position(rng, material, rng.choice((Color.WHITE, Color.BLACK)))
            conclusive += check_against_brute(full_endgames, position, depth, memo)
        table = full_endgames.tables[material]
        short = [p for p in MaterialIndex(RULES, material).positions() if 0 < table[p[0]] <= depth + 1]
        for _, me, opp, all_kings in rng.sample(short, min(4, len(short))):
            position = Position(RULES, me, opp, all_kings, Color.WHITE)
            assert check_against_brute(full_endgames, position, depth, memo), format_fen(position)
            conclusive += 1
    assert conclusive >= 100


@pytest.mark.endgame_full
def test_the_referees_line_holds_the_longest_four_piece_ending(full_endgames: Endgames) -> None:
    """The referee's page shows the line of best play to the end: the longest 4-piece value
    (a man against three men, lost in 86 plies) must fit its limit."""
    from corrmail.referee.endgame import LINE_LIMIT

    longest = max(max(full_endgames.tables[m]) - 1 for m in FOUR)
    assert longest == 86
    assert longest <= LINE_LIMIT


@pytest.mark.endgame_full
def test_every_four_piece_value_agrees_with_its_successors(full_endgames: Endgames) -> None:
    assert verify(RULES, full_endgames.tables, FOUR) == []


@pytest.fixture(scope="session")
def full_international(tmp_path_factory: pytest.TempPathFactory) -> Endgames:
    """Every international table of up to 4 pieces, found or built as :func:`full_endgames`
    does (a build from nothing is some ten minutes of CPU)."""
    configured = os.environ.get("CORRMAIL_ENDGAME_DIR")
    root = Path(configured) if configured else tmp_path_factory.getbasetemp().parent / "endgame-4"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".international.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_tables(root, INTERNATIONAL, 4)
    return Endgames(INTERNATIONAL.rules, StoredTables(root, INTERNATIONAL))


@pytest.mark.endgame_full
def test_international_three_kings_do_not_catch_a_lone_king(full_international: Endgames) -> None:
    """On 100 squares three kings cannot catch a lone king with correct play, even holding the
    main road («Окончания в международных шашках», kombinashki.ru/okonchanija-mezhdunarodnyh-
    shashkah.php) — where on 64 squares they always do (Petrov's triangle, above).

    With the lone king to move off the main road (a1-j10, 46-5), one of the three kings on
    it and no capture forced on the lone king, it holds: draws are more than 97 % (on 64
    squares, all but 40 of 39,600 are lost).  With the three kings to move, their wins are
    shots on a badly placed lone king, none longer than 15 plies (8 moves; the triangle's hunt
    on 64 squares takes up to 13 moves).  On the main road the lone king never loses."""
    rules = INTERNATIONAL.rules
    geometry = rules.geometry
    generator = generator_for(rules)
    road = geometry.mask(tuple(s for s in geometry.squares if geometry.row(s) == geometry.column(s)))
    alone = Material.parse("KvKKK")
    table = full_international.tables[alone]
    held = {Result.WIN: 0, Result.DRAW: 0, Result.LOSS: 0}
    on_road = {Result.WIN: 0, Result.DRAW: 0, Result.LOSS: 0}
    for i, me, opp, kings_ in MaterialIndex(rules, alone).positions():
        if generator.captures(me, opp, kings_, 0):
            continue
        if opp & road and not me & road:
            held[result_of(table[i])] += 1
        elif me & road and not opp & road:
            on_road[result_of(table[i])] += 1
    assert held[Result.WIN] == 0
    assert held[Result.DRAW] > 0.97 * (held[Result.DRAW] + held[Result.LOSS])
    assert on_road[Result.LOSS] == 0 and on_road[Result.DRAW] > 0
    three = Material.parse("KKKvK")
    table = full_international.tables[three]
    wins = [table[i] - 1 for i, me, opp, _ in MaterialIndex(rules, three).positions()
            if me & road and not opp & road and table[i] and not table[i] & 1]
    assert wins and max(wins) <= 15


@pytest.mark.endgame_full
def test_international_four_pieces_agree_with_brute_force(full_international: Endgames) -> None:
    """Random international positions of every 4-piece material against a 3-ply minimax, and
    positions the tables call wins or losses within 3 plies, which it must find exactly."""
    rules = INTERNATIONAL.rules
    rng = random.Random(100)
    conclusive = 0
    memo: Memo = {}
    for material in FOUR:
        for _ in range(4):
            position = random_position(rng, material, rng.choice((Color.WHITE, Color.BLACK)), rules)
            conclusive += check_against_brute(full_international, position, 3, memo)
        table = full_international.tables[material]
        index = MaterialIndex(rules, material)
        groups = [group.masks for group in index.groups]
        found = 0
        for _ in range(200_000):  # random entries until three short values
            if found == 3:
                break
            kings_, men, their_kings, their_men = (rng.choice(g) for g in groups)
            mine = kings_ | men
            if (kings_ & men) or (mine & their_kings) or ((mine | their_kings) & their_men):
                continue
            if not 0 < table[index.index(kings_, men, their_kings, their_men)] <= 4:
                continue
            position = Position(rules, mine, their_kings | their_men, kings_ | their_kings,
                                Color.WHITE)
            assert check_against_brute(full_international, position, 3, memo), format_fen(position)
            found += 1
            conclusive += 1
    assert conclusive >= 75
