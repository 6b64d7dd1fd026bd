"""Maximum-cardinality matching on the graph of still-allowed pairs (Edmonds' blossom algorithm).

The pairing procedures of ``000 §3.18.4–3.18.7`` are greedy and top-down; the rulebook repairs a
dead end by breaking already-made pairs (``000 §3.18.5.5``).  Instead of backtracking, every
tentative choice is checked here first: "can the players still unpaired all be paired legally?"
is "does the graph of allowed pairs on them have a perfect matching?".

The graph is dense (after eight rounds a player has met eight of a thousand others), so it is
never built: adjacency is a predicate, ``allowed(u, v)``.  A :class:`Matcher` keeps a maximum
matching of its vertex set and answers removals and additions incrementally; a removal exposes at
most the partners of the removed vertices, and one augmenting-path search (Berge's theorem) per
exposed vertex restores the matching or proves that it cannot be restored.  Failed attempts are
rolled back, so a caller can probe candidates one after another.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

__all__ = ["Allowed", "Matcher", "Barrier"]

Allowed = Callable[[int, int], bool]

_UNMATCHED = -1
_GREEDY_LOOKAHEAD = 64


class Barrier:
    """Why some vertices cannot all be matched: a Tutte set and the odd blocks it must serve.

    After a failed search from an exposed vertex, the inner vertices of the alternating tree are a
    set whose removal leaves one more odd block (outer vertices) than it has members; those
    blocks can be paired only with members of the set, so one of them stays unpaired.
    """

    __slots__ = ("root", "inner", "outer")

    def __init__(self, root: int, inner: frozenset[int], outer: frozenset[int]) -> None:
        self.root = root
        self.inner = inner
        self.outer = outer


class Matcher:
    """A maximum matching of the graph ``(vertices, allowed)``, kept up to date under edits."""

    def __init__(
        self,
        vertices: Iterable[int],
        allowed: Allowed,
        initial: Iterable[tuple[int, int]] = (),
    ) -> None:
        """``initial`` pairs (each allowed, disjoint) are kept unless an augmenting path must
        break them: a redraw starts from the published pairs (002)."""
        self._allowed = allowed
        self._active: dict[int, None] = dict.fromkeys(vertices)
        self._mate: dict[int, int] = dict.fromkeys(self._active, _UNMATCHED)
        self._exposed: dict[int, None] = dict.fromkeys(self._active)
        self._journal: list[tuple[int, int]] | None = None
        self.last_barrier: Barrier | None = None
        for a, b in initial:
            self._set_mate(a, b)
            self._set_mate(b, a)
        self._greedy()
        for vertex in list(self._active):
            if self._mate[vertex] == _UNMATCHED:
                self._augment(vertex)

    # -- queries -----------------------------------------------------------------------------

    def __contains__(self, vertex: object) -> bool:
        return vertex in self._active

    def __len__(self) -> int:
        return len(self._active)

    def mate(self, vertex: int) -> int | None:
        """The partner of ``vertex`` in the current matching, or ``None`` if it is exposed."""
        partner = self._mate[vertex]
        return None if partner == _UNMATCHED else partner

    def exposed(self) -> list[int]:
        """The vertices the maximum matching leaves unmatched."""
        return list(self._exposed)

    def exposed_count(self) -> int:
        return len(self._exposed)

    def pairs(self) -> list[tuple[int, int]]:
        return [(v, m) for v, m in self._mate.items() if v in self._active and v < m]

    # -- edits -------------------------------------------------------------------------------

    def try_remove(self, vertices: Iterable[int], max_exposed: int = 0) -> bool:
        """Remove ``vertices`` if the rest still has a matching leaving at most ``max_exposed``.

        On success the removal is kept and the matching repaired; on failure nothing changes and
        :attr:`last_barrier` tells why the rest cannot be matched.
        """
        removed = list(vertices)
        self._journal = []
        widowed: list[int] = []
        for vertex in removed:
            partner = self._mate[vertex]
            if partner != _UNMATCHED and partner not in removed:
                widowed.append(partner)
                self._set_mate(partner, _UNMATCHED)
        for vertex in removed:
            del self._active[vertex]
            self._exposed.pop(vertex, None)
        for vertex in widowed:
            if self._mate[vertex] == _UNMATCHED:
                self._augment(vertex)
        if self.exposed_count() <= max_exposed:
            for vertex in removed:
                del self._mate[vertex]
            self._journal = None
            return True
        for vertex in removed:
            self._active[vertex] = None
        self._rollback()
        return False

    def try_add(self, vertex: int, max_exposed: int = 0) -> bool:
        """Add ``vertex`` if the matching then leaves at most ``max_exposed`` vertices unmatched."""
        self._journal = []
        self._active[vertex] = None
        self._mate[vertex] = _UNMATCHED
        self._exposed[vertex] = None
        self._augment(vertex)
        if self.exposed_count() <= max_exposed:
            self._journal = None
            return True
        self._rollback()
        del self._active[vertex]
        del self._mate[vertex]
        del self._exposed[vertex]
        return False

    def explain(self) -> Barrier | None:
        """A barrier for the first exposed vertex, or ``None`` when the matching is perfect."""
        for vertex in self.exposed():
            if not self._augment(vertex):
                return self.last_barrier
        return None

    # -- internals ---------------------------------------------------------------------------

    def _set_mate(self, vertex: int, partner: int) -> None:
        if self._journal is not None:
            self._journal.append((vertex, self._mate[vertex]))
        self._mate[vertex] = partner
        if partner == _UNMATCHED:
            self._exposed[vertex] = None
        else:
            self._exposed.pop(vertex, None)

    def _rollback(self) -> None:
        assert self._journal is not None
        for vertex, previous in reversed(self._journal):
            self._mate[vertex] = previous
        self._journal = None
        self._exposed = {v: None for v in self._active if self._mate[v] == _UNMATCHED}

    def _greedy(self) -> None:
        """Match near neighbours in insertion order (callers insert in ranking order).

        The look-ahead is bounded; whoever is left exposed is matched by augmenting paths.
        """
        order = list(self._active)
        allowed = self._allowed
        mate = self._mate
        for i, vertex in enumerate(order):
            if mate[vertex] != _UNMATCHED:
                continue
            for j in range(i + 1, min(i + 1 + _GREEDY_LOOKAHEAD, len(order))):
                other = order[j]
                if mate[other] == _UNMATCHED and allowed(vertex, other):
                    mate[vertex] = other
                    mate[other] = vertex
                    del self._exposed[vertex]
                    del self._exposed[other]
                    break

    def _augment(self, root: int) -> bool:
        """Extend the matching by an augmenting path from the exposed ``root``, if one exists."""
        if not any(v != root for v in self._exposed):
            # Berge: an augmenting path ends at another exposed vertex; there is none.
            self.last_barrier = Barrier(root, frozenset(), frozenset({root}))
            return False
        if self._short_augment(root):
            return True
        return self._blossom_augment(root)

    def _short_augment(self, root: int) -> bool:
        """Paths of length one or three, which are almost always enough in a dense graph."""
        allowed = self._allowed
        mate = self._mate
        exposed = [v for v in self._exposed if v != root]
        for target in exposed:
            if allowed(root, target):
                self._set_mate(root, target)
                self._set_mate(target, root)
                return True
        for middle in self._active:
            partner = mate[middle]
            if partner == _UNMATCHED or middle == root or not allowed(root, middle):
                continue
            for target in exposed:
                if target != partner and allowed(partner, target):
                    self._set_mate(root, middle)
                    self._set_mate(middle, root)
                    self._set_mate(partner, target)
                    self._set_mate(target, partner)
                    return True
        return False

    def _blossom_augment(self, root: int) -> bool:
        """Edmonds' search from ``root``: grow an alternating tree, shrink odd cycles (blossoms)."""
        allowed = self._allowed
        mate = self._mate
        active = self._active
        base: dict[int, int] = {root: root}
        parent: dict[int, int] = {}
        outer: set[int] = {root}
        tree: list[int] = [root]
        queue: deque[int] = deque([root])

        def base_of(vertex: int) -> int:
            return base.get(vertex, vertex)

        def lowest_common_ancestor(a: int, b: int) -> int:
            seen: set[int] = set()
            while True:
                a = base_of(a)
                seen.add(a)
                if mate[a] == _UNMATCHED:
                    break
                a = parent[mate[a]]
            while True:
                b = base_of(b)
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark_path(vertex: int, stem: int, child: int, in_blossom: set[int]) -> None:
            while base_of(vertex) != stem:
                in_blossom.add(base_of(vertex))
                in_blossom.add(base_of(mate[vertex]))
                parent[vertex] = child
                child = mate[vertex]
                vertex = parent[mate[vertex]]

        while queue:
            vertex = queue.popleft()
            for other in active:
                if other == vertex or base_of(vertex) == base_of(other) or mate[vertex] == other:
                    continue
                if not allowed(vertex, other):
                    continue
                if other == root or (mate[other] != _UNMATCHED and mate[other] in parent):
                    stem = lowest_common_ancestor(vertex, other)
                    in_blossom: set[int] = set()
                    mark_path(vertex, stem, other, in_blossom)
                    mark_path(other, stem, vertex, in_blossom)
                    for member in tree:
                        if base_of(member) in in_blossom:
                            base[member] = stem
                            if member not in outer:
                                outer.add(member)
                                queue.append(member)
                elif other not in parent:
                    parent[other] = vertex
                    tree.append(other)
                    if mate[other] == _UNMATCHED:
                        self._flip(other, parent)
                        return True
                    partner = mate[other]
                    outer.add(partner)
                    tree.append(partner)
                    queue.append(partner)
        inner = frozenset(v for v in tree if v not in outer)
        self.last_barrier = Barrier(root, inner, frozenset(outer))
        return False

    def _flip(self, end: int, parent: dict[int, int]) -> None:
        vertex = end
        while vertex != _UNMATCHED:
            previous = parent[vertex]
            next_vertex = self._mate[previous]
            self._set_mate(vertex, previous)
            self._set_mate(previous, vertex)
            vertex = next_vertex
