"""Retrograde analysis: the value of every position of a set of materials.

Captures come from :mod:`notation.engine` (the same generator that judges letters), so the
tables follow whatever rules the :class:`~notation.rules.RuleSet` has: for Russian draughts men
capture backwards, kings fly, capture is compulsory with free choice among captures, and a man
reaching the last row during a capture goes on capturing as a king.  Quiet moves, under rules
with flying kings, the solver walks on the masks itself (:class:`_Board`); :func:`verify` takes
every move from the generator, so each build checks that walk against it.

Values are one byte per position (:mod:`notation.endgame.values`): 0 a draw, else the number of
plies to the end of the game plus one, the end being the side to move left without a legal
move.  Odd plies are wins for the side to move, even plies losses.

A material and its colour flip (``KKvK`` and ``KvKK``) are solved together: a quiet move that
promotes nothing leads from one to the other, every capture to fewer pieces and every promotion
to fewer men, which are solved before (:func:`~notation.endgame.material.materials_up_to`).
The pair's positions get their successors from the move generator once; the moves inside the
pair are kept as arrays of indices, inverted into predecessor lists, and the values spread
backwards ply by ply from the known ones — losses in 0 (no move), and the values the moves
out of the pair reach.  What no ply reaches is a draw.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass

from notation.endgame.material import Material, MaterialIndex, materials_up_to
from notation.endgame.values import DRAW, LONGEST
from notation.engine import Generator, RawMove, generator_for, single_bits
from notation.rules import RuleSet

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called now and then during a long stage."""

_NO_EXIT = 0xFFFF
_REPORT_EVERY = 8192


def _quiet(stage: str, done: int, total: int) -> None:
    pass


class MissingTableError(LookupError):
    """A move leads to a material that is neither being solved nor solved before."""

    def __init__(self, material: Material) -> None:
        super().__init__(f"the table {material.name} is needed first")
        self.material = material


Children = list[tuple[int, int, int, int]]


def after_capture(me: int, opp: int, kings: int, move: RawMove) -> tuple[int, int, int]:
    """The masks ``(me, opp, kings)`` after a capture: the captured pieces gone, and the piece
    a king at its target if it was one or crowned on the way (Russian rules crown during a
    capture). The solver's hot loop and :func:`children` both read a capture through this."""
    origin, target, captured = move.origin, move.target, move.captured
    if kings & origin or move.promotes:
        new_kings = (kings & ~origin & ~captured) | target
    else:
        new_kings = kings & ~captured
    return (me ^ origin) | target, opp & ~captured, new_kings


def children(generator: Generator, me: int, opp: int, kings: int) -> Children:
    """Distinct positions after each legal move of the side moving up the board, as the side
    then to move sees them: masks ``(kings, men, their_kings, their_men)`` as they stand on the
    board (to be half-turned).  Empty ``kings`` and ``men`` mean the last piece was taken.
    """
    out: Children = []
    captures = generator.captures(me, opp, kings, 0)
    if not captures:
        their_kings = opp & kings
        their_men = opp ^ their_kings
        for new_me, new_kings in generator.quiet_successors(me, opp, kings, 0):
            my_kings = new_me & new_kings
            out.append((their_kings, their_men, my_kings, new_me ^ my_kings))
        return out
    seen: set[tuple[int, int, int]] = set()
    for move in captures:
        key = after_capture(me, opp, kings, move)
        new_me, new_opp, new_kings = key
        # Two routes of a man to the same square over the same pieces differ if only one
        # crowned on the way: both positions are successors.
        if key in seen:
            continue
        seen.add(key)
        their_kings = new_opp & new_kings
        my_kings = new_me & new_kings
        out.append((their_kings, new_opp ^ their_kings, my_kings, new_me ^ my_kings))
    return out


_Target = tuple[
    dict[int, int], dict[int, int], dict[int, int], dict[int, int], int, int, int, int,
    "bytes | bytearray | None",
]
"""How to find a successor of one material: the four groups' half-turned rank tables, the
three radices, the offset in the pair being solved (-1 for a material solved before) and the
table of a material solved before."""


def _target(index: MaterialIndex, offset: int, table: bytes | bytearray | None) -> _Target:
    g = index.groups
    r = index.radix
    return (
        g[0].mirrored_rank, g[1].mirrored_rank, g[2].mirrored_rank, g[3].mirrored_rank,
        r[0], r[1], r[2], offset, table,
    )


class _Lookup:
    """Material by piece counts, for the successors of the pair being solved."""

    def __init__(self, rules: RuleSet, solved: Mapping[Material, bytes | bytearray]) -> None:
        self.rules = rules
        self.solved = solved
        self.indexes: dict[Material, MaterialIndex] = {}
        self.targets: dict[tuple[int, int, int, int], _Target] = {}

    def index(self, material: Material) -> MaterialIndex:
        found = self.indexes.get(material)
        if found is None:
            found = self.indexes[material] = MaterialIndex(self.rules, material)
        return found

    def target(self, counts: tuple[int, int, int, int]) -> _Target:
        found = self.targets.get(counts)
        if found is None:
            material = Material(*counts)
            table = self.solved.get(material)
            if table is None:
                raise MissingTableError(material)
            found = self.targets[counts] = _target(self.index(material), -1, table)
        return found


def solve(
    rules: RuleSet,
    materials: Iterable[Material],
    solved: MutableMapping[Material, bytes | bytearray],
    progress: Progress = _quiet,
) -> None:
    """Solve every material of ``materials`` not in ``solved`` yet, adding its table.

    ``materials`` must hold what they depend on, in solving order
    (:func:`~notation.endgame.material.materials_needed` gives that); tables already in
    ``solved`` are used as they are.
    """
    lookup = _Lookup(rules, solved)
    for material in materials:
        if material in solved:
            continue
        pair = [material] if material.flipped() == material else [material, material.flipped()]
        for name, table in zip(pair, _solve_pair(rules, pair, lookup, progress), strict=True):
            solved[name] = table


def solve_up_to(
    rules: RuleSet, pieces: int, progress: Progress = _quiet
) -> dict[Material, bytes | bytearray]:
    """Tables of every material of at most ``pieces`` pieces."""
    solved: dict[Material, bytes | bytearray] = {}
    solve(rules, materials_up_to(pieces), solved, progress)
    return solved


def _solve_pair(
    rules: RuleSet, pair: list[Material], lookup: _Lookup, progress: Progress
) -> list[bytearray]:
    generator = generator_for(rules)
    indexes = [lookup.index(material) for material in pair]
    offsets = [0, indexes[0].size]
    total = sum(index.size for index in indexes)
    targets = lookup.targets
    for material, index, offset in zip(pair, indexes, offsets, strict=False):
        counts = (material.kings, material.men, material.their_kings, material.their_men)
        targets[counts] = _target(index, offset, None)

    valid = bytearray(total)
    exit_win = array("H", [_NO_EXIT]) * total
    loss_at = array("H", [0]) * total
    exit_draw = bytearray(total)
    inside = array("H", [0]) * total
    start = array("I", [0]) * total
    edges = array("I")
    board = _board_for(rules)
    stage = f"{'+'.join(m.name for m in pair)}: moves"
    progress(stage, 0, total)
    for material, index, offset in zip(pair, indexes, offsets, strict=False):
        if board is None:
            _forward_generic(generator, index, offset, lookup, valid, exit_win, loss_at,
                             exit_draw, inside, start, edges, stage, total, progress)
        else:
            _forward(generator, board, material, index, offset, lookup, valid, exit_win,
                     loss_at, exit_draw, inside, start, edges, stage, total, progress)
    for material in pair:
        del targets[(material.kings, material.men, material.their_kings, material.their_men)]
    progress(stage, total, total)

    # Predecessor lists: the inverse of the edges, as one array sliced by pred_start.
    pred_start = array("I", [0]) * (total + 1)
    for j in edges:
        pred_start[j + 1] += 1
    for i in range(total):
        pred_start[i + 1] += pred_start[i]
    fill = array("I", pred_start)
    preds = array("I", [0]) * len(edges)
    for i in range(total):
        if inside[i]:
            s = start[i]
            for j in edges[s : s + inside[i]]:
                preds[fill[j]] = i
                fill[j] += 1
    del fill, edges

    # Plies to the end, spread backwards level by level.  A position is a win at ply n when
    # some move reaches a loss at n-1 (found when that loss is settled, or at once through a
    # move out of the pair); a loss when every move reaches a win, at one more than the
    # slowest of them.  Levels are settled in increasing order, so the first value a position
    # gets is its shortest win or longest loss.
    values = bytearray(total)
    levels: dict[int, list[int]] = {}
    for i in range(total):
        if not valid[i]:
            continue
        if exit_win[i] != _NO_EXIT:
            levels.setdefault(exit_win[i], []).append(i)
        elif not inside[i] and not exit_draw[i]:
            levels.setdefault(loss_at[i] or 1, []).append(i)
    stage = f"{'+'.join(m.name for m in pair)}: values"
    settled = 0
    level = 1
    while levels:
        batch = levels.pop(level, None)
        if batch is not None:
            if level > LONGEST:
                raise OverflowError(f"{pair[0].name}: a value needs more than {LONGEST - 1} plies")
            if level & 1:  # losses: every parent has a win one ply longer
                parent_wins = levels.setdefault(level + 1, [])
                for i in batch:
                    if values[i]:
                        continue
                    values[i] = level
                    settled += 1
                    for q in preds[pred_start[i] : pred_start[i + 1]]:
                        if not values[q]:
                            parent_wins.append(q)
            else:  # wins: a parent whose last open move this was loses one ply later
                for i in batch:
                    if values[i]:
                        continue
                    values[i] = level
                    settled += 1
                    for q in preds[pred_start[i] : pred_start[i + 1]]:
                        if values[q]:
                            continue
                        inside[q] -= 1
                        if not inside[q] and exit_win[q] == _NO_EXIT and not exit_draw[q]:
                            levels.setdefault(max(level + 1, loss_at[q]), []).append(q)
            progress(stage, settled, total)
        level += 1
    progress(stage, total, total)
    return [values[offset : offset + index.size] for index, offset in zip(indexes, offsets, strict=False)]


class _Board:
    """What the solver's own walk over quiet moves needs of the board, computed once per rule
    set: per king square its rays as masks, and the shifts of men's steps.

    The walk serves positions without a capture (57 % of those of ``MMvKM`` and what it
    needs): whether a capture exists is decided by the first jumps alone (a first jump always
    completes a route), and the captures themselves come from the move generator.  ``verify``
    judges every value with the move generator alone, so the walk is checked against it on
    every build.
    """

    def __init__(self, generator: Generator) -> None:
        self.valid = generator.valid
        self.ne, self.nw = generator.ne, generator.nw
        self.promotion_row = generator.promotion_row[0]
        self.backwards = generator.men_capture_backwards
        # Rays by direction NE, NW (towards higher bits), SE, SW; the step along each.
        steps = (generator.ne, generator.nw, generator.nw, generator.ne)
        self.rays: dict[int, tuple[tuple[int, bool, int], ...]] = {}
        for square, rays in generator.rays.items():
            found = []
            for direction, line in rays:
                mask = 0
                for bit in line:
                    mask |= bit
                found.append((mask, direction < 2, steps[direction]))
            self.rays[square] = tuple(found)


def _board_for(rules: RuleSet) -> _Board | None:
    """The walk is written for flying kings (Russian, international); other rules take the
    generator's path."""
    return _Board(generator_for(rules)) if rules.flying_kings else None


def _forward(
    generator: Generator, board: _Board, material: Material, index: MaterialIndex, offset: int,
    lookup: _Lookup, valid: bytearray, exit_win: array[int], loss_at: array[int],
    exit_draw: bytearray, inside: array[int], start: array[int], edges: array[int],
    stage: str, total: int, progress: Progress,
) -> None:
    """The moves of every position of ``material`` (at ``offset`` in the pair): quiet moves
    inside the pair as edges, the best value the moves out of it reach (captures, promotions).

    Positions are walked group by group as :meth:`MaterialIndex.positions` does; the index of
    a successor by a quiet move is the sum of the parts its unchanged groups give, so each
    move costs one rank lookup."""
    targets = lookup.targets
    flipped = material.flipped()
    m0, m1, m2, m3, r0, r1, r2, to, _ = targets[
        (flipped.kings, flipped.men, flipped.their_kings, flipped.their_men)
    ]
    if material.men:  # a man crowned by a quiet move: one king more, one man fewer
        p0, p1, p2, p3, q0, q1, q2, _, crowned = lookup.target(
            (material.their_kings, material.their_men, material.kings + 1, material.men - 1)
        )
    valid_mask = board.valid
    ne, nw = board.ne, board.nw
    promotion_row = board.promotion_row
    backwards = board.backwards
    rays = board.rays
    captures = generator.captures
    append = edges.append
    g0, g1, g2, g3 = (group.masks for group in index.groups)
    n2, n3 = len(g2), len(g3)
    i = offset - 1
    done = 0
    for my_kings in g0:
        king_list = [(k, my_kings ^ k, rays[k]) for k in single_bits(my_kings)]
        kpart = m2[my_kings] * r2
        for my_men in g1:
            if my_kings & my_men:
                i += n2 * n3
                continue
            me = my_kings | my_men
            mpart = m3[my_men]
            for opp_kings in g2:
                if me & opp_kings:
                    i += n3
                    continue
                taken = me | opp_kings
                kings = my_kings | opp_kings
                base_kings = m0[opp_kings] * r0 + to
                for opp_men in g3:
                    i += 1
                    if taken & opp_men:
                        continue
                    valid[i] = 1
                    first = len(edges)
                    start[i] = first
                    done += 1
                    if not done & 8191:
                        progress(stage, i, total)
                    opp = opp_kings | opp_men
                    occupied = me | opp
                    empty = valid_mask & ~occupied
                    capture = False
                    if my_men:
                        jumpers = (((empty >> ne) & opp) >> ne) | (((empty >> nw) & opp) >> nw)
                        if backwards:
                            jumpers |= (((empty << ne) & opp) << ne) | (((empty << nw) & opp) << nw)
                        capture = bool(jumpers & my_men)
                    if not capture:
                        for _, _, king_rays in king_list:
                            for ray, up, step in king_rays:
                                blockers = occupied & ray
                                if blockers:
                                    if up:
                                        blocker = blockers & -blockers
                                        beyond = blocker << step
                                    else:
                                        blocker = 1 << (blockers.bit_length() - 1)
                                        beyond = blocker >> step
                                    if blocker & opp and beyond & ray and not beyond & occupied:
                                        capture = True
                                        break
                            if capture:
                                break
                    best = _NO_EXIT
                    slowest = 0
                    draw = 0
                    if capture:
                        seen: set[tuple[int, int, int]] = set()
                        for move in captures(me, opp, kings, 0):
                            key = after_capture(me, opp, kings, move)
                            new_me, new_opp, new_kings = key
                            if not new_opp:
                                best = 2  # the last piece taken: a win in 1 ply
                                continue
                            if key in seen:
                                continue
                            seen.add(key)
                            their_kings = new_opp & new_kings
                            their_men = new_opp ^ their_kings
                            mine = new_me & new_kings
                            counts = (
                                their_kings.bit_count(), their_men.bit_count(),
                                mine.bit_count(), (new_me ^ mine).bit_count(),
                            )
                            t0, t1, t2, t3, s0, s1, s2, at, table = (
                                targets.get(counts) or lookup.target(counts)
                            )
                            j = t0[their_kings] * s0 + t1[their_men] * s1 + t2[mine] * s2 + t3[new_me ^ mine]
                            if at >= 0:
                                append(at + j)
                                continue
                            value = table[j]  # type: ignore[index]
                            if not value:
                                draw = 1
                            elif value & 1:
                                if value + 1 < best:
                                    best = value + 1
                            elif value + 1 > slowest:
                                slowest = value + 1
                    else:
                        base = base_kings + m1[opp_men] * r1
                        if my_men:
                            men_base = base + kpart
                            for shift in (ne, nw):
                                steps = (my_men << shift) & empty
                                while steps:
                                    target = steps & -steps
                                    steps ^= target
                                    origin = target >> shift
                                    if target & promotion_row:
                                        value = crowned[  # type: ignore[index]
                                            p0[opp_kings] * q0 + p1[opp_men] * q1
                                            + p2[my_kings | target] * q2 + p3[my_men ^ origin]
                                        ]
                                        if not value:
                                            draw = 1
                                        elif value & 1:
                                            if value + 1 < best:
                                                best = value + 1
                                        elif value + 1 > slowest:
                                            slowest = value + 1
                                    else:
                                        append(men_base + m3[my_men ^ origin ^ target])
                        kings_base = base + mpart
                        for _, others, king_rays in king_list:
                            for ray, up, _ in king_rays:
                                blockers = occupied & ray
                                if not blockers:
                                    free = ray
                                elif up:
                                    free = ray & ((blockers & -blockers) - 1)
                                else:
                                    free = ray & -(1 << blockers.bit_length())
                                while free:
                                    target = free & -free
                                    free ^= target
                                    append(kings_base + m2[others | target] * r2)
                    inside[i] = len(edges) - first
                    if best != _NO_EXIT:
                        exit_win[i] = best
                    if slowest:
                        loss_at[i] = slowest
                    if draw:
                        exit_draw[i] = 1


def _forward_generic(
    generator: Generator, index: MaterialIndex, offset: int, lookup: _Lookup,
    valid: bytearray, exit_win: array[int], loss_at: array[int], exit_draw: bytearray,
    inside: array[int], start: array[int], edges: array[int], stage: str, total: int,
    progress: Progress,
) -> None:
    """:func:`_forward` for any rules, every successor from the move generator."""
    targets = lookup.targets
    done = 0
    for position, me, opp, kings in index.positions():
        i = offset + position
        valid[i] = 1
        start[i] = len(edges)
        done += 1
        if not done % _REPORT_EVERY:
            progress(stage, i, total)
        for their_kings, their_men, my_kings, my_men in children(generator, me, opp, kings):
            if not (their_kings or their_men):
                exit_win[i] = 2  # the last piece taken: a win in 1 ply
                continue
            counts = (
                their_kings.bit_count(), their_men.bit_count(),
                my_kings.bit_count(), my_men.bit_count(),
            )
            target = targets.get(counts) or lookup.target(counts)
            g0, g1, g2, g3, r0, r1, r2, to, table = target
            j = g0[their_kings] * r0 + g1[their_men] * r1 + g2[my_kings] * r2 + g3[my_men]
            if to >= 0:
                edges.append(to + j)
                continue
            value = table[j]  # type: ignore[index]
            if not value:
                exit_draw[i] = 1
            elif value & 1:  # the other side loses: a win one ply later
                if value + 1 < exit_win[i]:
                    exit_win[i] = value + 1
            elif value + 1 > loss_at[i]:  # the other side wins
                loss_at[i] = value + 1
        inside[i] = len(edges) - start[i]


@dataclass(frozen=True)
class Inconsistency:
    """A stored value that its successors contradict."""

    material: Material
    index: int
    stored: int
    expected: int


def verify(
    rules: RuleSet,
    tables: Mapping[Material, bytes | bytearray],
    materials: Iterable[Material] | None = None,
    progress: Progress = _quiet,
    limit: int = 20,
) -> list[Inconsistency]:
    """Check every position of ``materials`` (all of ``tables`` by default) against the values
    its moves lead to, with the move generator run afresh: a win in n plies needs a move to a
    loss in n-1 and none faster, a loss in n every move to a win and the slowest in n-1, a draw
    no move to a loss and some move to a draw.  Returns the first ``limit`` inconsistencies."""
    generator = generator_for(rules)
    lookup = _Lookup(rules, tables)
    found: list[Inconsistency] = []
    chosen = list(tables) if materials is None else list(materials)
    for material in chosen:
        table = tables[material]
        index = lookup.index(material)
        stage = f"{material.name}: verify"
        for done, (position, me, opp, kings) in enumerate(index.positions()):
            if not done % _REPORT_EVERY:
                progress(stage, position, index.size)
            best_win = 0
            worst_loss = 0
            draw = False
            for their_kings, their_men, my_kings, my_men in children(generator, me, opp, kings):
                if not (their_kings or their_men):
                    value = 1
                else:
                    g0, g1, g2, g3, r0, r1, r2, _, table_after = lookup.target((
                        their_kings.bit_count(), their_men.bit_count(),
                        my_kings.bit_count(), my_men.bit_count(),
                    ))
                    value = table_after[  # type: ignore[index]
                        g0[their_kings] * r0 + g1[their_men] * r1 + g2[my_kings] * r2
                        + g3[my_men]
                    ]
                if not value:
                    draw = True
                elif value & 1:
                    if not best_win or value + 1 < best_win:
                        best_win = value + 1
                elif value + 1 > worst_loss:
                    worst_loss = value + 1
            expected = best_win or (DRAW if draw else (worst_loss or 1))
            if table[position] != expected:
                found.append(Inconsistency(material, position, table[position], expected))
                if len(found) >= limit:
                    return found
        progress(stage, index.size, index.size)
    return found
