"""The matching oracle against exhaustive search on small graphs, and its Tutte barriers."""

from __future__ import annotations

import itertools
import random

import pytest

from scoring.pairing.matching import Matcher


def brute_force_maximum(vertices: list[int], edges: set[frozenset[int]]) -> int:
    """Size of a maximum matching by trying every partner of the first vertex."""
    if len(vertices) < 2:
        return 0
    first, rest = vertices[0], vertices[1:]
    best = brute_force_maximum(rest, edges)
    for index, other in enumerate(rest):
        if frozenset((first, other)) in edges:
            best = max(best, 1 + brute_force_maximum(rest[:index] + rest[index + 1 :], edges))
    return best


def random_graph(rng: random.Random, size: int, density: float) -> set[frozenset[int]]:
    return {
        frozenset(pair) for pair in itertools.combinations(range(size), 2) if rng.random() < density
    }


@pytest.mark.parametrize("seed", range(300))
def test_maximum_matching_and_removals_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(1, 10)
    edges = random_graph(rng, size, rng.choice([0.2, 0.4, 0.7]))

    def allowed(a: int, b: int) -> bool:
        return frozenset((a, b)) in edges

    matcher = Matcher(range(size), allowed)
    assert len(matcher.pairs()) == brute_force_maximum(list(range(size)), edges)
    assert all(allowed(a, b) for a, b in matcher.pairs())
    alive = list(range(size))
    while len(alive) >= 2:
        a, b = rng.sample(alive, 2)
        rest = [v for v in alive if v not in (a, b)]
        best_after = brute_force_maximum(rest, edges)
        perfect_after = 2 * best_after == len(rest)
        assert matcher.try_remove([a, b]) == perfect_after
        if not perfect_after:
            assert a in matcher and b in matcher
            assert matcher.try_remove([a, b], max_exposed=len(rest) - 2 * best_after)
        alive = rest
        assert len(matcher.pairs()) == best_after


def test_refused_removal_leaves_the_matching_untouched() -> None:
    # A path 0-1-2-3: removing 1 and 2 would strand 0 and 3.
    edges = {frozenset(p) for p in [(0, 1), (1, 2), (2, 3)]}
    matcher = Matcher(range(4), lambda a, b: frozenset((a, b)) in edges)
    before = sorted(matcher.pairs())
    assert not matcher.try_remove([1, 2])
    assert sorted(matcher.pairs()) == before
    assert 1 in matcher and 2 in matcher
    assert matcher.try_remove([0, 1])
    assert matcher.pairs() == [(2, 3)]


def test_blossom_is_found() -> None:
    # A triangle 0-1-2 with a tail 2-3 and 0-4: a perfect matching on 0..5 needs the odd cycle.
    edges = {frozenset(p) for p in [(0, 1), (1, 2), (2, 0), (2, 3), (1, 5), (0, 4)]}
    matcher = Matcher(range(6), lambda a, b: frozenset((a, b)) in edges)
    assert matcher.exposed_count() == 0


def test_try_add_is_rolled_back_when_it_cannot_be_matched() -> None:
    matcher = Matcher([0, 1], lambda a, b: {a, b} == {0, 1} or {a, b} == {2, 3})
    assert not matcher.try_add(2)
    assert 2 not in matcher
    assert matcher.try_add(2, max_exposed=1)
    assert matcher.try_add(3)
    assert sorted(matcher.pairs()) == [(0, 1), (2, 3)]


def test_barrier_explains_a_star() -> None:
    # 1 is the only possible partner of 0, 2 and 3: removing {1} leaves three odd blocks.
    edges = {frozenset(p) for p in [(0, 1), (1, 2), (1, 3)]}
    matcher = Matcher(range(4), lambda a, b: frozenset((a, b)) in edges)
    barrier = matcher.explain()
    assert barrier is not None
    assert barrier.inner == frozenset({1})
    assert len(barrier.outer) == 2
