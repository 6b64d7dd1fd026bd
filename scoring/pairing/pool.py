"""The players still to pair: a maximum matching of their legal pairs, guarded by colour counts.

Every probe of the pairing procedure ("may these two be fixed?", "may this one go down?") is a
:class:`Pool` edit.  The cheap necessary condition of :class:`~.criteria.ColourCounts` refutes
most impossible edits at once; the rest are decided by the matching (:mod:`.matching`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from scoring.model import Colour
from scoring.pairing.criteria import LegalPairs
from scoring.pairing.matching import Matcher

__all__ = ["Pool"]


class Pool:
    """A set of players, their legal pairs and a maximum matching of them."""

    def __init__(self, players: Sequence[int], legal: LegalPairs) -> None:
        self.legal = legal
        self.counts = legal.counts(players)
        constrained = self.counts.must_white + self.counts.must_black
        start = _colour_aware_start(players, legal) if 3 * constrained > len(players) else []
        self.matcher = Matcher(players, legal.allowed, start)

    @classmethod
    def if_pairable(cls, players: Sequence[int], legal: LegalPairs, spare: int) -> Pool | None:
        """A pool of ``players`` if they could leave at most ``spare`` unpaired, else ``None``.

        The colour counts are checked first, so a hopeless set costs no matching at all.
        """
        if not legal.counts(players).could_all_pair(spare):
            return None
        pool = cls(players, legal)
        return pool if pool.matcher.exposed_count() <= spare else None

    @property
    def complete(self) -> bool:
        """Everyone in the pool can be paired legally."""
        return self.matcher.exposed_count() == 0

    def take(self, players: Sequence[int]) -> bool:
        """Remove ``players`` (a pair, a floater) if everyone left can still be paired."""
        counts = self.counts
        for player in players:
            counts = counts.shifted(-1, self.legal.must(player), self.legal.stuck(player))
        if not counts.could_all_pair() or not self.matcher.try_remove(players):
            return False
        self.counts = counts
        return True

    def give(self, player: int, spare: int = 0) -> bool:
        """Add ``player`` (a floater from above) if then at most ``spare`` stay unpaired."""
        counts = self.counts.shifted(1, self.legal.must(player), self.legal.stuck(player))
        if not counts.could_all_pair(spare) or not self.matcher.try_add(player, spare):
            return False
        self.counts = counts
        return True

    def accepts(self, a: int, b: int) -> bool:
        """Fix ``a``–``b`` if it is legal and everyone else can still be paired legally."""
        return self.legal.allowed(a, b) and self.take([a, b])


_PARTNER_SEARCH = 16


def _colour_aware_start(players: Sequence[int], legal: LegalPairs) -> list[tuple[int, int]]:
    """A first matching that serves the players who must have one colour before the others,
    used when they are more than a third of the pool.

    Whoever must have black is offered, in order, those who must have white, then those who may
    have either (and the other way round); the free players are left to the matcher's own
    greedy pass.  Without this, free players pair among themselves first and every constrained
    player needs a long augmenting path later.
    """
    must_white = deque(n for n in players if legal.must(n) is Colour.WHITE)
    must_black = deque(n for n in players if legal.must(n) is Colour.BLACK)
    free = deque(n for n in players if legal.must(n) is None and not legal.stuck(n))
    pairs: list[tuple[int, int]] = []
    for needy, offers in ((must_black, (must_white, free)), (must_white, (free,))):
        for player in needy:
            for offer in offers:
                partner = _first_allowed(player, offer, legal)
                if partner is not None:
                    pairs.append((player, partner))
                    break
    return pairs


def _first_allowed(player: int, offer: deque[int], legal: LegalPairs) -> int | None:
    """Take from ``offer`` the first of a few players ``player`` may meet (usually the first)."""
    for index in range(min(_PARTNER_SEARCH, len(offer))):
        if legal.allowed(player, offer[index]):
            partner = offer[index]
            del offer[index]
            return partner
    return None
