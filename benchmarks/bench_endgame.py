"""Benchmark of the endgame tables (notation.endgame), in one run.

    .venv/bin/python benchmarks/bench_endgame.py [--pieces 4] [--skip-dict]

1. Generation time and size per piece count: every material of 2, then 3 pieces (each count
   solved on top of the smaller ones), and with ``--pieces 4`` the whole 4-piece build
   (minutes; the figure in docs/benchmarks.md comes from ``python -m notation endgame build``).
2. The 4-piece material two kings against two (``KKvKK``, 246,016 index entries, its own
   colour flip) solved by our solver and by a straightforward dictionary-based
   retrograde solver (positions as dict keys, moves from ``Position.legal_moves``, values
   recomputed sweep after sweep until nothing changes), on the same kings-only tables below
   it; the values are checked equal and the ratio printed.
3. Probes per second: ``Endgames.value`` and ``Endgames.verdict`` (value plus a best move) on
   random positions of the built tables.

Times are CPU seconds of this process (``time.process_time``): the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping

from notation.endgame.material import Material, MaterialIndex, materials_needed, materials_up_to
from notation.endgame.probe import Endgames
from notation.endgame.solve import solve
from notation.position import Position
from notation.rules import Color, GameType

RULES = GameType.RUSSIAN.rules
COMPARED = Material.parse("KKvKK")


def generation(pieces: int) -> dict[Material, bytes | bytearray]:
    solved: dict[Material, bytes | bytearray] = {}
    for count in range(2, pieces + 1):
        wanted = [m for m in materials_up_to(count) if m.pieces == count]
        started = time.process_time()
        solve(RULES, materials_up_to(count), solved)
        seconds = time.process_time() - started
        size = sum(len(solved[m]) for m in wanted)
        print(f"generation {count} pieces: {len(wanted)} tables, {size:,} bytes, "
              f"{seconds:.1f} s CPU ({size / seconds:,.0f} positions/s)")
    return solved


def dictionary_solver(materials: list[Material]) -> dict[tuple[int, int, int, Color], int]:
    """Plain retrograde analysis over a dict: every position of ``materials`` with White to
    move and its colour flip with Black to move, successors from ``Position``, sweeps until no
    value changes.  Values are encoded as the tables encode them."""
    positions: dict[tuple[int, int, int, Color], list[tuple[int, int, int, Color] | None]] = {}
    flip = RULES.geometry.count - 1
    geometry = RULES.geometry

    def mirrored(mask: int) -> int:
        return geometry.mask(tuple(flip - s for s in geometry.squares_of_mask(mask)))

    for material in materials:
        for _, me, opp, kings in MaterialIndex(RULES, material).positions():
            for key in ((me, opp, kings, Color.WHITE),
                        (mirrored(opp), mirrored(me), mirrored(kings), Color.BLACK)):
                position = Position(RULES, key[0], key[1], key[2], key[3])
                children: list[tuple[int, int, int, Color] | None] = []
                for move in position.legal_moves():
                    after = position.play(move)
                    mover = after.white if after.turn is Color.WHITE else after.black
                    children.append(None if not mover else
                                    (after.white, after.black, after.kings, after.turn))
                positions[key] = children
    values: dict[tuple[int, int, int, Color], int] = {}
    changed = True
    while changed:
        changed = False
        for key, children in positions.items():
            best_win = 0
            worst_loss = 0
            unknown = False
            for child in children:
                value = 1 if child is None else values.get(child)
                if value is None:
                    unknown = True
                elif value & 1:
                    best_win = value + 1 if not best_win else min(best_win, value + 1)
                else:
                    worst_loss = max(worst_loss, value + 1)
            new = best_win or (0 if unknown else (worst_loss or 1))
            if new and values.get(key) != new:
                # A win found in a later sweep can only be shorter once every child is settled;
                # a sweep-by-sweep solver converges to the same fixed point.
                values[key] = new
                changed = True
    return values


def compare_with_dictionary(skip: bool) -> dict[Material, bytes | bytearray]:
    needed = materials_needed([COMPARED])
    below = [m for m in needed if m.pieces < 4]
    solved: dict[Material, bytes | bytearray] = {}
    solve(RULES, below, solved)
    started = time.process_time()
    solve(RULES, needed, solved)
    ours = time.process_time() - started
    print(f"{COMPARED.name}, ours: {ours:.1f} s CPU")
    if skip:
        return solved
    started = time.process_time()
    values = dictionary_solver(needed)
    theirs = time.process_time() - started
    index = MaterialIndex(RULES, COMPARED)
    table = solved[COMPARED]
    differing = sum(1 for i, me, opp, kings in index.positions()
                    if values.get((me, opp, kings, Color.WHITE), 0) != table[i])
    print(f"{COMPARED.name} and below, dictionary solver: {theirs:.1f} s CPU, {len(values):,} "
          f"decided positions, {differing} values differ from ours; ratio {theirs / ours:.1f}x "
          f"(ours on {COMPARED.name} alone)")
    return solved


def probes(tables: Mapping[Material, bytes | bytearray]) -> None:
    endgames = Endgames(RULES, tables)
    rng = random.Random(5)
    sample: list[Position] = []
    materials = list(tables)
    while len(sample) < 3000:
        material = rng.choice(materials)
        entries = list(MaterialIndex(RULES, material).positions())
        for _, me, opp, kings in rng.sample(entries, min(100, len(entries))):
            sample.append(Position(RULES, me, opp, kings, Color.WHITE))
    started = time.process_time()
    for position in sample:
        endgames.value(position)
    seconds = time.process_time() - started
    print(f"probes (value): {len(sample) / seconds:,.0f}/s")
    started = time.process_time()
    for position in sample[:1000]:
        endgames.verdict(position)
    seconds = time.process_time() - started
    print(f"probes (value + best move): {1000 / seconds:,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pieces", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--skip-dict", action="store_true")
    args = parser.parse_args()
    tables = generation(args.pieces)
    tables.update(compare_with_dictionary(args.skip_dict))
    probes(tables)


if __name__ == "__main__":
    main()
