"""Benchmark of the column-draughts engine (notation.columns), in one run.

    .venv/bin/python benchmarks/bench_columns.py [--quick]

1. Perft from the initial position: Bashni and Lasca with the engine, and the test-only oracle
   (tests/notation/columns/column_oracle.py, a naive generator that copies the board at every
   jump) on the same positions to the depth it finishes quickly; the ratio engine/oracle is
   quoted.  Russian draughts on the bitboard engine (notation.engine) is shown beside Bashni:
   the same tree until the first capture, so the ratio is the price of stacks.
2. Letters: judging every legal move of positions from random Bashni and Lasca games, written in
   full notation, with notation.letters.read_move.
3. PDN: writing and reading back 200 random games of each column type.

Times are CPU seconds of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from notation.columns.position import ColumnPosition
from notation.full import format_full
from notation.letters import LegalMove, read_move
from notation.pdn import PdnGame, read_pdn, write_pdn
from notation.position import Position
from notation.rules import GameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "notation" / "columns"))
import column_oracle as oracle  # noqa: E402

BASHNI, LASCA = GameType.COLUMN_RUSSIAN, GameType.COLUMN_INTERNATIONAL


def timed(work: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    result = work()
    return result, time.process_time() - start


def perft_table(quick: bool) -> None:
    print("perft from the initial position (distinct moves / every route, CPU s, leaves/s)")
    for game_type, depth in ((BASHNI, 6 if quick else 8), (LASCA, 10 if quick else 13)):
        start = ColumnPosition.initial(game_type)
        for d in range(1, depth + 1):
            count, seconds = timed(lambda d=d, s=start: s.perft(d))
            routes = start.perft(d, distinct=False) if d <= depth - 1 else None
            rate = f"{count / seconds:,.0f}/s" if seconds > 0.05 else "-"
            shown = f" routes {routes}" if routes is not None and routes != count else ""
            print(f"  {game_type.value:6} {d:2} {count:>10}{shown}  {seconds:7.2f}s  {rate}")


def versus_oracle(quick: bool) -> None:
    print("engine against the oracle, same positions")
    for game_type, rules, size, depth in ((BASHNI, oracle.BASHNI, 8, 5 if quick else 6),
                                          (LASCA, oracle.LASCA, 7, 10 if quick else 11)):
        ours, our_time = timed(lambda g=game_type, d=depth: ColumnPosition.initial(g).perft(d))
        theirs, their_time = timed(
            lambda r=rules, s=size, d=depth: oracle.perft(r, oracle.initial(s), "w", d)
        )
        assert ours == theirs, (game_type, ours, theirs)
        print(f"  {game_type.value:6} depth {depth}: {ours} leaves; engine {our_time:.2f}s, "
              f"oracle {their_time:.2f}s, engine {their_time / our_time:.1f}x faster")
    depth = 6 if quick else 7
    bashni, bashni_time = timed(lambda: ColumnPosition.initial(BASHNI).perft(depth))
    russian, russian_time = timed(lambda: Position.initial(GameType.RUSSIAN).perft(depth))
    print(f"  bashni depth {depth} {bashni} in {bashni_time:.2f}s vs Russian (bitboards) "
          f"{russian} in {russian_time:.2f}s: ratio {bashni_time / russian_time:.1f}")


def random_positions(game_type: GameType, count: int, seed: int) -> list[ColumnPosition]:
    rng = random.Random(seed)
    positions: list[ColumnPosition] = []
    while len(positions) < count:
        position = ColumnPosition.initial(game_type)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves or len(positions) >= count:
                break
            position = position.play(rng.choice(moves))
            positions.append(position)
    return positions


def letters(quick: bool) -> None:
    print("letters: read_move on every legal move of random positions")
    for game_type in (BASHNI, LASCA):
        positions = random_positions(game_type, 200 if quick else 1000, seed=1)
        texts = [(p, format_full(p, m)) for p in positions for m in p.legal_moves()]
        fresh = [(ColumnPosition(p.rules, p.board, p.turn), t) for p, t in texts]

        def judge(items: list[tuple[ColumnPosition, str]] = fresh) -> int:
            return sum(isinstance(read_move(p, t), LegalMove) for p, t in items)

        legal, seconds = timed(judge)
        assert legal == len(texts)
        print(f"  {game_type.value:6} {legal} moves in {seconds:.2f}s: {legal / seconds:,.0f} moves/s")


def pdn(quick: bool) -> None:
    print("PDN: write and read back random games")
    rng = random.Random(2)
    for game_type in (BASHNI, GameType.COLUMN_RUSSIAN_GIVEAWAY, LASCA,
                      GameType.COLUMN_INTERNATIONAL_GIVEAWAY):
        games = []
        for _ in range(40 if quick else 200):
            position = ColumnPosition.initial(game_type)
            moves = []
            for _ in range(120):
                legal = position.legal_moves()
                if not legal:
                    break
                moves.append(rng.choice(legal))
                position = position.play(moves[-1])
            games.append(PdnGame(game_type=game_type, start=ColumnPosition.initial(game_type),
                                 moves=moves))
        text, write_time = timed(lambda gs=games: len("\n".join(write_pdn(g) for g in gs)))
        archive = "\n".join(write_pdn(g) for g in games)
        read, read_time = timed(lambda a=archive: sum(not g.errors for g in read_pdn(a)))
        assert read == len(games)
        plies = sum(len(g.moves) for g in games)
        print(f"  {game_type.value:14} {len(games)} games, {plies} plies: write {write_time:.2f}s,"
              f" read and check {read_time:.2f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shallower, for a smoke test")
    quick = parser.parse_args().quick
    perft_table(quick)
    versus_oracle(quick)
    letters(quick)
    pdn(quick)


if __name__ == "__main__":
    main()
