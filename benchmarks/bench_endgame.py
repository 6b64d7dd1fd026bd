"""Benchmark of the endgame tables (notation.endgame), in one run.

    .venv/bin/python benchmarks/bench_endgame.py [--type russian|international] [--pieces 3]
                                                 [--compare 3|MATERIAL] [--tables DIR] [--skip-dict]

1. Generation time and size per piece count: every material of 2, then 3 pieces (each count
   solved on top of the smaller ones; ``--pieces 4`` adds the whole 4-piece build, minutes),
   and the verification pass of each count (every value against its successors, the move
   generator run afresh).
2. Our solver against a straightforward dictionary-based retrograde solver (positions as dict
   keys, moves from ``Position.legal_moves``, values recomputed sweep after sweep until nothing
   changes), both from nothing to the end on the same materials: ``--compare 3`` (default)
   every material of up to 3 pieces, ``--compare KKvKK`` a 4-piece material and every
   material it needs.  Every value is checked equal and the ratio printed.
3. Probes per second: ``Endgames.value`` and ``Endgames.verdict`` (value plus a best move) on
   random positions of the largest tables at hand — the tables of ``--tables DIR`` (a
   directory written by ``python -m notation endgame build``) if given, else those of 1.

Times are CPU seconds of this process (``time.process_time``): the machine is shared.
``--type`` chooses the rules (Russian by default).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from pathlib import Path

from notation.endgame.material import Material, MaterialIndex, materials_needed, materials_up_to
from notation.endgame.probe import Endgames
from notation.endgame.solve import solve, verify
from notation.endgame.store import StoredTables
from notation.position import Position
from notation.rules import Color, GameType

GAME_TYPE = GameType.RUSSIAN
RULES = GAME_TYPE.rules

Key = tuple[int, int, int, Color]


def generation(pieces: int) -> dict[Material, bytes | bytearray]:
    solved: dict[Material, bytes | bytearray] = {}
    for count in range(2, pieces + 1):
        wanted = [m for m in materials_up_to(count) if m.pieces == count]
        started = time.process_time()
        solve(RULES, materials_up_to(count), solved)
        seconds = time.process_time() - started
        size = sum(len(solved[m]) for m in wanted)
        started = time.process_time()
        faults = verify(RULES, solved, wanted)
        checked = time.process_time() - started
        print(f"generation {count} pieces: {len(wanted)} tables, {size:,} bytes, "
              f"{seconds:.1f} s CPU ({size / seconds:,.0f} positions/s); "
              f"verification {checked:.1f} s CPU, {len(faults)} inconsistent")
    return solved


def dictionary_solver(materials: list[Material]) -> dict[Key, int]:
    """Plain retrograde analysis over a dict: every position of ``materials`` with White to
    move and its colour flip with Black to move, successors from ``Position``, sweeps until no
    value changes.  Values are encoded as the tables encode them."""
    positions: dict[Key, list[Key | None]] = {}
    flip = RULES.geometry.count - 1
    geometry = RULES.geometry

    def mirrored(mask: int) -> int:
        return geometry.mask(tuple(flip - s for s in geometry.squares_of_mask(mask)))

    for material in materials:
        for _, me, opp, kings in MaterialIndex(RULES, material).positions():
            for key in ((me, opp, kings, Color.WHITE),
                        (mirrored(opp), mirrored(me), mirrored(kings), Color.BLACK)):
                position = Position(RULES, key[0], key[1], key[2], key[3])
                children: list[Key | None] = []
                for move in position.legal_moves():
                    after = position.play(move)
                    mover = after.white if after.turn is Color.WHITE else after.black
                    children.append(None if not mover else
                                    (after.white, after.black, after.kings, after.turn))
                positions[key] = children
    values: dict[Key, int] = {}
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


def compare_with_dictionary(what: str) -> None:
    if what.isdigit():
        materials = materials_up_to(int(what))
        label = f"every material of up to {what} pieces"
    else:
        materials = materials_needed([Material.parse(what)])
        label = f"{what} and every material it needs"
    entries = sum(MaterialIndex(RULES, m).size for m in materials)
    solved: dict[Material, bytes | bytearray] = {}
    started = time.process_time()
    solve(RULES, materials, solved)
    ours = time.process_time() - started
    print(f"comparison on {label} ({len(materials)} tables, {entries:,} entries):")
    print(f"  ours: {ours:.2f} s CPU")
    started = time.process_time()
    values = dictionary_solver(materials)
    theirs = time.process_time() - started
    differing = 0
    compared = 0
    for material in materials:
        table = solved[material]
        for i, me, opp, kings in MaterialIndex(RULES, material).positions():
            compared += 1
            differing += values.get((me, opp, kings, Color.WHITE), 0) != table[i]
    print(f"  dictionary solver: {theirs:.2f} s CPU, {len(values):,} decided positions "
          f"(both sides to move), {compared:,} positions compared, {differing} values differ")
    print(f"  ratio: the dictionary solver takes {theirs / ours:.1f}x our time")


def probes(tables: Mapping[Material, bytes | bytearray]) -> None:
    endgames = Endgames(RULES, tables)
    rng = random.Random(5)
    largest = max(m.pieces for m in tables)
    materials = [m for m in tables if m.pieces == largest]
    sample: list[Position] = []
    groups = {m: [group.masks for group in MaterialIndex(RULES, m).groups] for m in materials}
    while len(sample) < 3000:  # random index entries, overlaps drawn again
        kings, men, their_kings, their_men = (rng.choice(g) for g in groups[rng.choice(materials)])
        if (kings & men) | ((kings | men) & their_kings) | ((kings | men | their_kings) & their_men):
            continue
        sample.append(Position(RULES, kings | men, their_kings | their_men, kings | their_kings,
                               Color.WHITE))
    for material in materials:
        tables[material]  # read (and its checksum checked) before the timing
    started = time.process_time()
    for position in sample:
        endgames.value(position)
    seconds = time.process_time() - started
    print(f"probes (value), {len(sample)} positions of {largest} pieces: "
          f"{len(sample) / seconds:,.0f}/s")
    started = time.process_time()
    for position in sample[:1000]:
        endgames.verdict(position)
    seconds = time.process_time() - started
    print(f"probes (value + best move): {1000 / seconds:,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--type", default="russian", choices=("russian", "international"))
    parser.add_argument("--pieces", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--compare", default="3",
                        help="the dictionary solver's set: a piece count or a material")
    parser.add_argument("--skip-dict", action="store_true")
    parser.add_argument("--tables", type=Path, help="probe the tables built in this directory")
    args = parser.parse_args()
    global GAME_TYPE, RULES
    GAME_TYPE = GameType(args.type)
    RULES = GAME_TYPE.rules
    print(f"game type: {GAME_TYPE.value}")
    tables: Mapping[Material, bytes | bytearray] = generation(args.pieces)
    if not args.skip_dict:
        compare_with_dictionary(args.compare)
    if args.tables:
        tables = StoredTables(args.tables, GAME_TYPE)
    probes(tables)


if __name__ == "__main__":
    main()
