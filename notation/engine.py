"""Move generation on bitboards, shared by every game type.

Positions are three Python ints over the padded bit layout of :class:`~notation.geometry.Geometry`
(``white``, ``black``, ``kings``) plus the side to move.  The generator works side-relative
(``me``/``opp``) and returns *raw moves*: tuples of single-bit masks, cheap enough for perft.
The public, square-indexed view is :mod:`notation.position`.

Captures follow the rules common to Russian and international draughts: captured pieces stay
on the board until the move ends (so they block, and cannot be jumped twice — the Turkish
strike), the moving piece's own start square counts as empty, the chosen sequence must be
completed, and a flying king must land on a square from which the capture continues whenever
such a square exists.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from notation.rules import RuleSet


class RawMove(NamedTuple):
    """A move as single-bit masks: ``origin``, ``target``, union of ``captured`` pieces."""

    origin: int
    target: int
    captured: int
    promotes: bool
    route: tuple[int, ...]
    capture_order: tuple[int, ...]


# Step indices, matching notation.geometry.Direction.
_NE, _NW, _SE, _SW = 0, 1, 2, 3
_OPPOSITE = (_SW, _SE, _NW, _NE)


def single_bits(mask: int) -> list[int]:
    """Single-bit masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class Generator:
    """Precomputed tables and move generation for one :class:`RuleSet`."""

    def __init__(self, rules: RuleSet) -> None:
        geometry = rules.geometry
        self.rules = rules
        width = geometry.padded_width
        self.valid = geometry.all_mask
        self.promotion_row = (geometry.row_mask(geometry.size - 1), geometry.row_mask(0))
        self.width = width
        # Square <-> single-bit mask, for the square-indexed view (notation.position).
        self.mask_of_square = tuple(1 << geometry.bit(square) for square in geometry.squares)
        self.square_of_mask = {mask: square for square, mask in enumerate(self.mask_of_square)}
        self.flying = rules.flying_kings
        self.majority = rules.majority_capture
        self.promote_during_capture = rules.promote_during_capture
        offsets = (width + 1, width - 1, -(width - 1), -(width + 1))
        # rays[mask] -> tuple of (direction, tuple of single-bit masks along the diagonal)
        self.rays: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {}
        # jumps[color][mask] -> tuple of (direction, jumped mask, landing mask)
        white_jumps: dict[int, tuple[tuple[int, int, int], ...]] = {}
        black_jumps: dict[int, tuple[tuple[int, int, int], ...]] = {}
        king_jumps: dict[int, tuple[tuple[int, int, int], ...]] = {}
        king_steps: dict[int, int] = {}
        for square in geometry.squares:
            bit = geometry.bit(square)
            mask = 1 << bit
            rays = []
            for direction, offset in enumerate(offsets):
                line = []
                position = bit + offset
                while 0 <= position and (1 << position) & self.valid:
                    line.append(1 << position)
                    position += offset
                if line:
                    rays.append((direction, tuple(line)))
            self.rays[mask] = tuple(rays)
            jumps = [(d, line[0], line[1]) for d, line in rays if len(line) >= 2]
            king_jumps[mask] = tuple(jumps)
            king_steps[mask] = sum(line[0] for _, line in rays)
            forward_white = tuple(j for j in jumps if j[0] in (_NE, _NW))
            forward_black = tuple(j for j in jumps if j[0] in (_SE, _SW))
            if rules.men_capture_backwards:
                white_jumps[mask] = black_jumps[mask] = tuple(jumps)
            else:
                white_jumps[mask], black_jumps[mask] = forward_white, forward_black
        self.man_jumps = (white_jumps, black_jumps)
        self.king_jumps = king_jumps
        self.king_steps = king_steps
        # Shift amounts: north is a left shift, south a right shift.
        self.ne, self.nw = width + 1, width - 1
        self.men_capture_backwards = rules.men_capture_backwards

    def _possible_jumpers(self, men: int, opp: int, empty: int, side: int) -> int:
        """Men that have at least one first jump available (whole-board shifts, no loop)."""
        ne, nw = self.ne, self.nw
        north = (((empty >> ne) & opp) >> ne) | (((empty >> nw) & opp) >> nw)
        south = (((empty << ne) & opp) << ne) | (((empty << nw) & opp) << nw)
        if self.men_capture_backwards:
            return (north | south) & men
        return (north if side == 0 else south) & men

    # -- captures -----------------------------------------------------------------------------

    def men_can_capture(self, me: int, opp: int, kings: int, side: int) -> bool:
        """Whether some man has a capture (a man with a first jump always completes a route)."""
        men = me & ~kings
        return bool(men and self._possible_jumpers(men, opp, self.valid & ~(me | opp), side))

    def captures(self, me: int, opp: int, kings: int, side: int, pieces: int = -1) -> list[RawMove]:
        """Every complete capture route (duplicates by effect included; majority applied).

        ``pieces`` restricts the search to the pieces on that mask.  The majority rule then
        compares only their routes, so under it only the whole side gives the legal captures.
        """
        occupied = me | opp
        men = me & ~kings & pieces
        jumpers = self._possible_jumpers(men, opp, self.valid & ~occupied, side) if men else 0
        my_kings = me & kings & pieces
        if not (jumpers or my_kings):
            return []
        out: list[RawMove] = []
        if jumpers:
            jumps = self.man_jumps[side]
            promotion_row = self.promotion_row[side]
            for origin in single_bits(jumpers):
                self._man_capture(
                    origin, origin, 0, (origin,), (), occupied & ~origin, opp, jumps,
                    promotion_row, out,
                )
        for origin in single_bits(my_kings):
            if self.flying:
                self._flying_capture(origin, origin, 0, (origin,), (), occupied & ~origin, opp, -1, out)
            else:
                self._man_capture(
                    origin, origin, 0, (origin,), (), occupied & ~origin, opp,
                    self.king_jumps, 0, out,
                )
        if self.majority and len(out) > 1:
            most = max(move.captured.bit_count() for move in out)
            out = [move for move in out if move.captured.bit_count() == most]
        return out

    def _man_capture(
        self,
        at: int,
        origin: int,
        captured: int,
        route: tuple[int, ...],
        order: tuple[int, ...],
        occupied: int,
        opp: int,
        jumps: dict[int, tuple[tuple[int, int, int], ...]],
        promotion_row: int,
        out: list[RawMove],
        promoted: bool = False,
    ) -> bool:
        found = False
        for direction, over, land in jumps[at]:
            if not (opp & over) or (captured & over) or (occupied & land):
                continue
            found = True
            taken = captured | over
            landed = route + (land,)
            taken_order = order + (over,)
            if land & promotion_row and self.promote_during_capture:
                # Russian: the man is a king from here on and goes on capturing as one.
                if self.flying:
                    continued = self._flying_capture(
                        land, origin, taken, landed, taken_order, occupied, opp,
                        _OPPOSITE[direction], out, promoted=True,
                    )
                else:
                    continued = self._man_capture(
                        land, origin, taken, landed, taken_order, occupied, opp,
                        self.king_jumps, 0, out, promoted=True,
                    )
                if not continued:
                    out.append(RawMove(origin, land, taken, True, landed, taken_order))
            elif not self._man_capture(
                land, origin, taken, landed, taken_order, occupied, opp, jumps, promotion_row, out,
                promoted,
            ):
                promotes = promoted or bool(land & promotion_row)
                out.append(RawMove(origin, land, taken, promotes, landed, taken_order))
        return found

    def _flying_capture(
        self,
        at: int,
        origin: int,
        captured: int,
        route: tuple[int, ...],
        order: tuple[int, ...],
        occupied: int,
        opp: int,
        came_back: int,
        out: list[RawMove],
        promoted: bool = False,
    ) -> bool:
        found = False
        for direction, line in self.rays[at]:
            if direction == came_back:
                continue
            length = len(line)
            index = 0
            while index < length and not occupied & line[index]:
                index += 1
            if index >= length - 1:
                continue
            victim = line[index]
            if not opp & victim or captured & victim:
                continue
            index += 1
            landings = []
            while index < length and not occupied & line[index]:
                landings.append(line[index])
                index += 1
            if not landings:
                continue
            found = True
            taken = captured | victim
            taken_order = order + (victim,)
            back = _OPPOSITE[direction]
            continued = False
            for land in landings:
                if self._flying_capture(
                    land, origin, taken, route + (land,), taken_order, occupied, opp, back, out,
                    promoted,
                ):
                    continued = True
            if not continued:
                for land in landings:
                    out.append(RawMove(origin, land, taken, promoted, route + (land,), taken_order))
        return found

    # -- quiet moves --------------------------------------------------------------------------

    def quiet_moves_from(self, me: int, opp: int, kings: int, side: int, origin: int) -> list[RawMove]:
        """Quiet moves of the piece on ``origin`` only (letters name one piece)."""
        if not me & origin:
            return []
        empty = self.valid & ~(me | opp)
        if kings & origin:
            if self.flying:
                targets = [t for _, line in self.rays[origin] for t in _free_prefix(line, empty)]
            else:
                targets = single_bits(self.king_steps[origin] & empty)
            return [RawMove(origin, t, 0, False, (origin, t), ()) for t in targets]
        ne, nw = self.ne, self.nw
        steps = (origin << ne) | (origin << nw) if side == 0 else (origin >> ne) | (origin >> nw)
        promotion_row = self.promotion_row[side]
        return [
            RawMove(origin, t, 0, bool(t & promotion_row), (origin, t), ())
            for t in single_bits(steps & empty)
        ]

    def _quiet_steps(self, me: int, opp: int, kings: int, side: int) -> list[tuple[int, int]]:
        """``(origin, target)`` of every quiet move, the men's first."""
        empty = self.valid & ~(me | opp)
        men = me & ~kings
        ne, nw = self.ne, self.nw
        out: list[tuple[int, int]] = []
        if side == 0:
            steps = (((men << ne) & empty, ne), ((men << nw) & empty, nw))
        else:
            steps = (((men >> ne) & empty, -ne), ((men >> nw) & empty, -nw))
        for targets, offset in steps:
            while targets:
                target = targets & -targets
                targets ^= target
                out.append((target >> offset if offset > 0 else target << -offset, target))
        for origin in single_bits(me & kings):
            if self.flying:
                for _, line in self.rays[origin]:
                    for target in line:
                        if not empty & target:
                            break
                        out.append((origin, target))
            else:
                for target in single_bits(self.king_steps[origin] & empty):
                    out.append((origin, target))
        return out

    def quiet_moves(self, me: int, opp: int, kings: int, side: int) -> list[RawMove]:
        promotion_row = self.promotion_row[side]
        return [
            RawMove(origin, target, 0, bool(target & promotion_row) and not kings & origin,
                    (origin, target), ())
            for origin, target in self._quiet_steps(me, opp, kings, side)
        ]

    def quiet_successors(self, me: int, opp: int, kings: int, side: int) -> list[tuple[int, int]]:
        """``(me, kings)`` after each quiet move (``opp`` is unchanged), without building moves.

        For walks over millions of positions (the endgame tables' retrograde analysis), where
        a :class:`RawMove` per move would cost more than the move itself.
        """
        promotion_row = self.promotion_row[side]
        out: list[tuple[int, int]] = []
        for origin, target in self._quiet_steps(me, opp, kings, side):
            moved = origin ^ target
            if kings & origin:
                out.append((me ^ moved, kings ^ moved))
            else:
                out.append((me ^ moved, kings | target if target & promotion_row else kings))
        return out

    def count_quiet_moves(self, me: int, opp: int, kings: int, side: int) -> int:
        empty = self.valid & ~(me | opp)
        men = me & ~kings
        if side == 0:
            count = ((men << self.ne) & empty).bit_count() + ((men << self.nw) & empty).bit_count()
        else:
            count = ((men >> self.nw) & empty).bit_count() + ((men >> self.ne) & empty).bit_count()
        for origin in single_bits(me & kings):
            if self.flying:
                for _, line in self.rays[origin]:
                    for target in line:
                        if not empty & target:
                            break
                        count += 1
            else:
                count += (self.king_steps[origin] & empty).bit_count()
        return count

    # -- whole positions ----------------------------------------------------------------------

    def legal_moves(self, me: int, opp: int, kings: int, side: int) -> list[RawMove]:
        """All legal routes: captures if any exist (capture is compulsory), else quiet moves."""
        captures = self.captures(me, opp, kings, side)
        return captures if captures else self.quiet_moves(me, opp, kings, side)

    @staticmethod
    def apply(me: int, opp: int, kings: int, move: RawMove) -> tuple[int, int, int]:
        """``(me, opp, kings)`` after ``move`` (still from the mover's point of view)."""
        origin, target, captured = move.origin, move.target, move.captured
        new_me = (me & ~origin) | target
        new_opp = opp & ~captured
        if kings & origin:
            new_kings = (kings & ~origin & ~captured) | target
        elif move.promotes:
            new_kings = (kings & ~captured) | target
        else:
            new_kings = kings & ~captured
        return new_me, new_opp, new_kings

    def perft(self, me: int, opp: int, kings: int, side: int, depth: int, distinct: bool) -> int:
        """Leaf count at ``depth``; the last ply is counted without making the moves.

        Quiet moves are made straight from the shifted masks, without building move tuples.
        """
        if depth == 0:
            return 1
        captures = self.captures(me, opp, kings, side)
        if depth == 1:
            if not captures:
                return self.count_quiet_moves(me, opp, kings, side)
            if distinct:
                return len({(m.origin, m.target, m.captured) for m in captures})
            return len(captures)
        perft = self.perft
        other = 1 - side
        total = 0
        if captures:
            seen: set[tuple[int, int, int]] = set()
            for move in captures:
                if distinct:
                    effect = (move.origin, move.target, move.captured)
                    if effect in seen:
                        continue
                    seen.add(effect)
                new_me, new_opp, new_kings = self.apply(me, opp, kings, move)
                total += perft(new_opp, new_me, new_kings, other, depth - 1, distinct)
            return total
        empty = self.valid & ~(me | opp)
        men = me & ~kings
        promotion_row = self.promotion_row[side]
        ne, nw = self.ne, self.nw
        if side == 0:
            steps = (((men << ne) & empty, ne), ((men << nw) & empty, nw))
        else:
            steps = (((men >> ne) & empty, -ne), ((men >> nw) & empty, -nw))
        for targets, offset in steps:
            while targets:
                target = targets & -targets
                targets ^= target
                origin = target >> offset if offset > 0 else target << -offset
                new_kings = kings | target if target & promotion_row else kings
                total += perft(opp, me ^ origin ^ target, new_kings, other, depth - 1, distinct)
        for origin in single_bits(me & kings):
            if self.flying:
                targets_of_king = [
                    target
                    for _, line in self.rays[origin]
                    for target in _free_prefix(line, empty)
                ]
            else:
                targets_of_king = single_bits(self.king_steps[origin] & empty)
            for target in targets_of_king:
                moved = origin ^ target
                total += perft(opp, me ^ moved, kings ^ moved, other, depth - 1, distinct)
        return total


def _free_prefix(line: tuple[int, ...], empty: int) -> list[int]:
    """Squares of ``line`` up to the first occupied one."""
    out = []
    for square in line:
        if not empty & square:
            break
        out.append(square)
    return out


@cache
def generator_for(rules: RuleSet) -> Generator:
    return Generator(rules)
