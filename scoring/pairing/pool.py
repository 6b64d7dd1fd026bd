"""The players still to pair: a maximum matching of their legal pairs, guarded by colour counts.

Every probe of the pairing procedure ("may these two be fixed?", "may this one go down?") is a
:class:`Pool` edit.  The cheap necessary condition of :class:`~.criteria.ColourCounts` refutes
most impossible edits at once; the rest are decided by the matching (:mod:`.matching`).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.pairing.criteria import LegalPairs
from scoring.pairing.matching import Matcher

__all__ = ["Pool"]


class Pool:
    """A set of players, their legal pairs and a maximum matching of them."""

    def __init__(self, players: Sequence[int], legal: LegalPairs) -> None:
        self.legal = legal
        self.counts = legal.counts(players)
        self.matcher = Matcher(players, legal.allowed)

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
