"""Material signatures and the index of a position within its signature.

Positions are stored from the side to move's point of view: the side to move is always drawn
as White moving up the board.  A position with Black to move is the colour-flipped position
(board turned half a turn, colours swapped) with White to move, so one table serves both.

A :class:`Material` names the pieces of the side to move (``kings``, ``men``) and of the other
side (``their_kings``, ``their_men``).  Within one material the index of a position is a
mixed-radix number of four combinatorial ranks, one per group of like pieces, in the order
mover's kings, mover's men, other side's kings, other side's men::

    index = ((rank(kings) * N_men + rank(men)) * N_their_kings + rank(their_kings)) * N_their_men
            + rank(their_men)

``rank`` is the lexicographic rank of the group's squares among the squares the group may stand on
(all playing squares for kings; for men every square but their promotion row), so
``N_group = C(allowed squares, pieces in group)``.  Groups are ranked independently, so an index
whose groups share a square names no position (an *overlap*); such entries are kept, valued
draw, and never probed.  On 8×8 they are a few per cent of a 4-piece table.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from math import comb

from notation.rules import RuleSet

_LETTERS = {"K": "kings", "M": "men"}


@dataclass(frozen=True, order=True)
class Material:
    """Kings and men of the side to move, then of the other side."""

    kings: int
    men: int
    their_kings: int
    their_men: int

    @property
    def pieces(self) -> int:
        return self.kings + self.men + self.their_kings + self.their_men

    @property
    def all_men(self) -> int:
        return self.men + self.their_men

    def flipped(self) -> Material:
        """The same pieces with the other side to move."""
        return Material(self.their_kings, self.their_men, self.kings, self.men)

    @property
    def name(self) -> str:
        """``KKMvK``: the mover's kings and men, ``v``, the other side's (file names, CLI)."""
        return "K" * self.kings + "M" * self.men + "v" + "K" * self.their_kings + "M" * self.their_men

    @classmethod
    def parse(cls, text: str) -> Material:
        mine, separator, theirs = text.strip().partition("v")
        if not separator or set(mine + theirs) - set(_LETTERS):
            raise ValueError(f"material {text!r}: expected kings K and men M per side, as KKMvK")
        return cls(mine.count("K"), mine.count("M"), theirs.count("K"), theirs.count("M"))

    def covers(self, other: Material) -> bool:
        """Whether ``other`` may follow from this material: per side no more pieces and no
        more men (pieces are only captured, men only promote)."""
        return (
            other.kings + other.men <= self.kings + self.men
            and other.men <= self.men
            and other.their_kings + other.their_men <= self.their_kings + self.their_men
            and other.their_men <= self.their_men
        )

    def __str__(self) -> str:
        return self.name


def materials_up_to(pieces: int) -> list[Material]:
    """Every material with at least one piece a side and at most ``pieces`` in all, in the order
    they are solved: fewer pieces first, then fewer men (captures lose pieces, promotions men)."""
    found = [
        Material(k, m, tk, tm)
        for k, m, tk, tm in itertools.product(range(pieces + 1), repeat=4)
        if k + m >= 1 and tk + tm >= 1 and k + m + tk + tm <= pieces
    ]
    return sorted(found, key=lambda x: (x.pieces, x.all_men, x))


def materials_needed(targets: list[Material]) -> list[Material]:
    """The materials ``targets`` depend on (themselves included, both sides to move), in
    solving order."""
    tops = set(targets) | {t.flipped() for t in targets}
    biggest = max(t.pieces for t in tops)
    return [m for m in materials_up_to(biggest) if any(t.covers(m) for t in tops)]


class GroupRanks:
    """Ranks of every set of ``count`` squares among ``allowed`` (lexicographic order).

    ``masks[r]`` is the set of rank ``r``; ``rank[mask]`` its rank; ``mirrored_rank[mask]`` the
    rank of the set the board's half turn makes of ``mask`` (positions after a move, seen from
    the other side).
    """

    def __init__(self, rules: RuleSet, count: int, allowed: tuple[int, ...]) -> None:
        geometry = rules.geometry
        last = geometry.count - 1
        bit = geometry.bit
        self.size = comb(len(allowed), count)
        masks: list[int] = []
        for squares in _subsets(allowed, count):
            mask = 0
            for square in squares:
                mask |= 1 << bit(square)
            masks.append(mask)
        self.masks = masks
        self.rank = {mask: r for r, mask in enumerate(masks)}
        mirrored: dict[int, int] = {}
        for r, squares in enumerate(_subsets(allowed, count)):
            mask = 0
            for square in squares:
                mask |= 1 << bit(last - square)
            mirrored[mask] = r
        self.mirrored_rank = mirrored


def _subsets(allowed: tuple[int, ...], count: int) -> Iterator[tuple[int, ...]]:
    """``count``-subsets of ``allowed`` in lexicographic order (the order of their ranks)."""
    for chosen in itertools.combinations(range(len(allowed)), count):
        yield tuple(allowed[i] for i in chosen)


@cache
def group_ranks(rules: RuleSet, count: int, men_of: int | None) -> GroupRanks:
    """Ranks for kings (``men_of`` None) or men of the side to move (0) or the other side (1)."""
    geometry = rules.geometry
    top = geometry.size - 1
    if men_of is None:
        allowed = tuple(geometry.squares)
    elif men_of == 0:
        allowed = tuple(s for s in geometry.squares if geometry.row(s) != top)
    else:
        allowed = tuple(s for s in geometry.squares if geometry.row(s) != 0)
    return GroupRanks(rules, count, allowed)


class MaterialIndex:
    """The index of positions of one material (see the module docstring)."""

    def __init__(self, rules: RuleSet, material: Material) -> None:
        self.rules = rules
        self.material = material
        self.groups = (
            group_ranks(rules, material.kings, None),
            group_ranks(rules, material.men, 0),
            group_ranks(rules, material.their_kings, None),
            group_ranks(rules, material.their_men, 1),
        )
        a, b, c, d = (group.size for group in self.groups)
        self.radix = (b * c * d, c * d, d)
        self.size = a * b * c * d

    def index(self, kings: int, men: int, their_kings: int, their_men: int) -> int:
        """Index of the position with these masks, the side to move moving up the board."""
        g = self.groups
        r = self.radix
        return (
            g[0].rank[kings] * r[0] + g[1].rank[men] * r[1] + g[2].rank[their_kings] * r[2]
            + g[3].rank[their_men]
        )

    def index_flipped(self, kings: int, men: int, their_kings: int, their_men: int) -> int:
        """Index of the half-turned position: masks as they stand, the side to move moving
        down the board (Black to move)."""
        g = self.groups
        r = self.radix
        return (
            g[0].mirrored_rank[kings] * r[0] + g[1].mirrored_rank[men] * r[1]
            + g[2].mirrored_rank[their_kings] * r[2] + g[3].mirrored_rank[their_men]
        )

    def positions(self) -> Iterator[tuple[int, int, int, int]]:
        """``(index, me, opp, kings)`` of every position of the material, in index order
        (overlaps skipped; the side to move moves up the board)."""
        g0, g1, g2, g3 = (group.masks for group in self.groups)
        index = -1
        for kings in g0:
            for men in g1:
                if kings & men:
                    index += len(g2) * len(g3)
                    continue
                mine = kings | men
                for their_kings in g2:
                    if mine & their_kings:
                        index += len(g3)
                        continue
                    taken = mine | their_kings
                    all_kings = kings | their_kings
                    for their_men in g3:
                        index += 1
                        if taken & their_men:
                            continue
                        yield index, mine, their_kings | their_men, all_kings
