"""The absolute criteria of one round as a predicate on pairs, and the colours of a pair.

``000 §3.18.2``: two players never meet twice; byes, forfeits and games not played do not count
as meetings or colours; the colour limits of :mod:`scoring.pairing.colours` hold for both.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from scoring.model import Colour
from scoring.pairing.colours import ABSOLUTE_MAX_RUN, permitted_colours, rule_prefers_first_white
from scoring.pairing.model import Entrant, Float, FloatDirection, Pair

__all__ = ["LegalPairs", "ColourCounts"]


@dataclass(frozen=True)
class ColourCounts:
    """How many of a set of players must have white, must have black, or can have neither.

    A pair holds at most one player who must have white and one who must have black, so a set
    where more than half must have one colour cannot all be paired: a necessary condition that
    costs nothing, checked before the matching is asked (which would have to search the whole
    set to find out).
    """

    size: int = 0
    must_white: int = 0
    must_black: int = 0
    stuck: int = 0

    def could_all_pair(self, spare: int = 0) -> bool:
        """False when no legal pairing can leave at most ``spare`` players unpaired."""
        return (
            self.stuck <= spare
            and 2 * self.must_white - self.size <= spare
            and 2 * self.must_black - self.size <= spare
        )

    def shifted(self, delta: int, must: Colour | None, stuck: bool) -> ColourCounts:
        """These counts with one player added (``delta=1``) or removed (``delta=-1``)."""
        return ColourCounts(
            self.size + delta,
            self.must_white + (delta if must is Colour.WHITE else 0),
            self.must_black + (delta if must is Colour.BLACK else 0),
            self.stuck + (delta if stuck else 0),
        )


@dataclass
class LegalPairs:
    """The players of one round and the predicate "may these two meet?" (``000 §3.18.2``).

    ``max_run`` is the longest run of one colour allowed: 3 by ``000 §3.18.2`` (never four), 2
    when ``002``'s "more than twice only in exceptional cases" can be kept.
    """

    entrants: dict[int, Entrant]
    met: dict[int, frozenset[int]]
    may_white: dict[int, bool]
    may_black: dict[int, bool]

    @classmethod
    def build(
        cls, players: Iterable[Entrant], max_run: int, relaxed: Collection[int] = ()
    ) -> LegalPairs:
        """``relaxed`` players may have the absolute maximum run instead of ``max_run``."""
        entrants = {e.start_no: e for e in players}
        permitted = {
            n: permitted_colours(e.colours, ABSOLUTE_MAX_RUN if n in relaxed else max_run)
            for n, e in entrants.items()
        }
        return cls(
            entrants=entrants,
            met={n: frozenset(e.opponents) for n, e in entrants.items()},
            may_white={n: Colour.WHITE in p for n, p in permitted.items()},
            may_black={n: Colour.BLACK in p for n, p in permitted.items()},
        )

    def allowed(self, a: int, b: int) -> bool:
        """Never the same pair twice; some split of the colours within the limits."""
        if b in self.met[a]:
            return False
        return (self.may_white[a] and self.may_black[b]) or (
            self.may_black[a] and self.may_white[b]
        )

    def must(self, player: int) -> Colour | None:
        """The only colour ``player`` may have, or ``None`` if both (or neither) are allowed."""
        white, black = self.may_white[player], self.may_black[player]
        if white == black:
            return None
        return Colour.WHITE if white else Colour.BLACK

    def stuck(self, player: int) -> bool:
        return not self.may_white[player] and not self.may_black[player]

    def counts(self, players: Iterable[int]) -> ColourCounts:
        size = must_white = must_black = stuck = 0
        may_white, may_black = self.may_white, self.may_black
        for player in players:
            size += 1
            white, black = may_white[player], may_black[player]
            if white != black:
                must_white += white
                must_black += black
            elif not white:
                stuck += 1
        return ColourCounts(size, must_white, must_black, stuck)

    def colours_allowed(self, white: int, black: int) -> bool:
        return self.may_white[white] and self.may_black[black]

    def with_colours(self, a: int, b: int, a_first: bool) -> Pair:
        """``000 §3.18.2``: white to fewer whites, then to black last, then to the higher
        classified (``a_first``: ``a`` is higher) — unless that breaks a limit for either."""
        a_white = rule_prefers_first_white(
            self.entrants[a].colours, self.entrants[b].colours, a_first
        )
        if a_white and not self.colours_allowed(a, b):
            a_white = False
        elif not a_white and not self.colours_allowed(b, a):
            a_white = True
        return Pair(a, b) if a_white else Pair(b, a)

    def floats(self, round_no: int, pairs: Sequence[tuple[int, int]]) -> list[Float]:
        """``float_down`` for the higher score of a pair across scores, ``float_up`` for the
        lower (002); both forced when the higher had nobody in his score group he could meet."""
        by_score: dict[float, list[int]] = {}
        for player, entrant in self.entrants.items():
            by_score.setdefault(entrant.score, []).append(player)
        floats: list[Float] = []
        for a, b in pairs:
            score_a, score_b = self.entrants[a].score, self.entrants[b].score
            if score_a == score_b:
                continue
            higher, lower = (a, b) if score_a > score_b else (b, a)
            forced = not any(
                self.allowed(higher, other)
                for other in by_score[max(score_a, score_b)]
                if other != higher
            )
            floats.append(Float(round_no, higher, FloatDirection.DOWN, forced))
            floats.append(Float(round_no, lower, FloatDirection.UP, forced))
        return floats
