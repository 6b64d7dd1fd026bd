"""Every individual tiebreak of the rulebook, each citing its point.

A tiebreak is a :class:`Tiebreak`: a name (the one used on the command line and in JSON), the
rule it implements, and a criterion computing a :class:`~scoring.ranking.TiebreakValue` per
player of a level group. Opponents' scores come from the :mod:`scoring.unplayed` policy; a plus
counts as a win and a minus as a loss (000 §3.15.2). Team tiebreaks are in :mod:`scoring.teams`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from scoring.errors import TiebreakNotApplicableError, UnknownTiebreakError
from scoring.model import Colour, PlayerRound, Tournament
from scoring.ranking import TiebreakValue, direct_encounter_values
from scoring.unplayed import Opposition, UnplayedPolicy, counted_rounds, oppositions


@dataclass
class ScoringContext:
    """What individual tiebreaks read: the tournament (withdrawals applied), the players taking
    places, the policy, and caches shared between criteria."""

    tournament: Tournament
    participants: frozenset[int]
    policy: UnplayedPolicy
    cache: dict[str, dict[int, TiebreakValue]] = field(default_factory=dict)
    groups: dict[str, frozenset[int]] = field(default_factory=dict)

    @cached_property
    def scores(self) -> dict[int, float]:
        return {p: self.tournament.scores[p] for p in self.participants}

    @cached_property
    def rounds(self) -> dict[int, list[PlayerRound]]:
        return {p: counted_rounds(self.tournament, p) for p in self.participants}

    @cached_property
    def oppositions(self) -> dict[int, tuple[Opposition, ...]]:
        return oppositions(self.tournament, self.policy, self.participants)

    @cached_property
    def opponent_scores(self) -> dict[int, list[float]]:
        """Each player's opponents' scores under the policy, lowest first."""
        return {p: sorted(o.opponent_score for o in entries) for p, entries in self.oppositions.items()}

    @cached_property
    def most_opponents(self) -> int:
        return max((len(scores) for scores in self.opponent_scores.values()), default=0)

    @cached_property
    def score_fraction(self) -> dict[int, float]:
        """Each player's score as a fraction of what he could score: a win every game (003 §9.9)."""
        win = self.tournament.points.win
        return {p: self.scores[p] / (win * len(self.rounds[p])) if self.rounds[p] else 0.0 for p in self.participants}

    def scoring_at_least(self, fraction: float) -> frozenset[int]:
        """Players whose score is at least ``fraction`` of what they could score."""
        key = f"at_least:{fraction!r}"
        if key not in self.groups:
            self.groups[key] = frozenset(p for p, f in self.score_fraction.items() if f >= fraction - 1e-9)
        return self.groups[key]

    def points_against(self, player: int, opponents: Collection[int]) -> tuple[float, set[int]]:
        """Points ``player`` scored against ``opponents``, and which of them he met."""
        points = self.tournament.points
        total, met = 0.0, set()
        chosen = opponents if isinstance(opponents, set | frozenset) else frozenset(opponents)
        for entry in self.rounds[player]:
            if entry.opponent is not None and entry.opponent in chosen:
                total += points.points(entry.result)
                met.add(entry.opponent)
        return total, met


GroupCriterion = Callable[[ScoringContext, Sequence[int], Sequence[int]], Mapping[int, TiebreakValue]]


@dataclass(frozen=True)
class Tiebreak:
    """One tiebreak: ``criterion(context, group, provisional_order)`` gives every member's value."""

    name: str
    rule: str
    title: str
    criterion: GroupCriterion
    round_robin_only: bool = False
    uses_ratings: bool = False


def _per_player(compute: Callable[[ScoringContext, int], TiebreakValue], cache_name: str) -> GroupCriterion:
    """A criterion whose value depends on the player alone: computed once for everyone."""

    def criterion(context: ScoringContext, group: Sequence[int], order: Sequence[int]) -> Mapping[int, TiebreakValue]:
        if cache_name not in context.cache:
            context.cache[cache_name] = {p: compute(context, p) for p in context.participants}
        return context.cache[cache_name]

    return criterion


def _scores(context: ScoringContext, player: int) -> list[float]:
    return context.opponent_scores[player]


def _cut(lowest: int, highest: int) -> Callable[[ScoringContext, int], TiebreakValue]:
    def compute(context: ScoringContext, player: int) -> TiebreakValue:
        scores = _scores(context, player)
        kept = scores[lowest : len(scores) - highest] if len(scores) > lowest + highest else []
        return TiebreakValue.of(sum(kept))

    return compute


def _weighted(win: float, draw: float, loss: float) -> Callable[[ScoringContext, int], TiebreakValue]:
    """Σ opponent's score × the weight of the result against him (a plus is a win, 000 §3.15.2)."""
    weights = (win, draw, loss, 0.0)  # by Result.points_index

    def compute(context: ScoringContext, player: int) -> TiebreakValue:
        return TiebreakValue.of(
            sum(o.opponent_score * weights[o.result.points_index] for o in context.oppositions[player])
        )

    return compute


def _solkoff_truncated(context: ScoringContext, player: int) -> TiebreakValue:
    """Cut the worst, then the two worst, … until the tie breaks (000 §3.16.8)."""
    scores = _scores(context, player)
    total = sum(scores)
    key: list[float] = []
    for cut in range(1, max(context.most_opponents, 1) + 1):
        total -= scores[cut - 1] if cut <= len(scores) else 0.0
        key.append(total)
    return TiebreakValue(key[0], tuple(key))


def _buchholz_sum(context: ScoringContext, player: int) -> TiebreakValue:
    """Sum of the opponents' Buchholz (003 §11.6); virtual opponents have none."""
    scores = context.opponent_scores
    return TiebreakValue.of(
        sum(sum(scores[o.opponent]) for o in context.oppositions[player] if o.opponent in scores)
    )


def _wins(context: ScoringContext, player: int) -> TiebreakValue:
    """Wins, pluses included: a plus is a win for places (000 §3.15.2)."""
    return TiebreakValue.of(float(sum(1 for entry in context.rounds[player] if entry.result.counts_as_win)))


def _black_games(context: ScoringContext, player: int) -> TiebreakValue:
    """Games played with black; unplayed games count as white (003 §9.11)."""
    black = Colour.BLACK
    return TiebreakValue.of(float(sum(1 for e in context.rounds[player] if e.colour is black and e.played)))


def _koya(context: ScoringContext, player: int) -> TiebreakValue:
    """Points against opponents with 50 % or more (003 §9.9)."""
    return TiebreakValue.of(context.points_against(player, context.scoring_at_least(0.5))[0])


def _koya_extended(context: ScoringContext, player: int) -> TiebreakValue:
    """Koya, then adding one lower score group at a time while still level (003 §9.10)."""
    fractions = context.score_fraction
    levels = sorted({f for f in fractions.values() if f < 0.5 - 1e-9}, reverse=True)
    key = [_koya(context, player).key[0]]
    for level in levels:
        key.append(context.points_against(player, context.scoring_at_least(level))[0])
    return TiebreakValue(key[0], tuple(key))


def _rated_opponents(context: ScoringContext, player: int) -> list[int]:
    """Ratings of opponents met over the board; an unrated opponent counts 0."""
    ratings = context.tournament.by_start_no
    return sorted(
        ratings[e.opponent].rating or 0 for e in context.rounds[player] if e.played and e.opponent is not None
    )


def _opponents_rating_sum(context: ScoringContext, player: int) -> TiebreakValue:
    return TiebreakValue.of(float(sum(_rated_opponents(context, player))))


def _average_rating(cut: int) -> Callable[[ScoringContext, int], TiebreakValue]:
    """Average rating of opponents over the player's rounds (003 §9.1–9.2, §12): the sum of the
    ratings of opponents met over the board divided by the rounds he was in (a Swiss round without
    a game still counts, a round-robin rest does not); ``cut`` drops the lowest-rated.

    Whoever played two games or fewer ranks below everyone who played more (003 §12)."""

    def compute(context: ScoringContext, player: int) -> TiebreakValue:
        ratings = _rated_opponents(context, player)
        divisor = len(context.rounds[player]) - cut
        kept = ratings[cut:]
        average = sum(kept) / divisor if divisor > 0 else 0.0
        return TiebreakValue(average, (0.0 if len(ratings) <= 2 else 1.0, average))

    return compute


def _direct_encounter(context: ScoringContext, group: Sequence[int], order: Sequence[int]) -> Mapping[int, TiebreakValue]:
    """Points in the games among the level players, with 003 §9.8's partial case."""
    members = frozenset(group)
    points: dict[int, float] = {}
    met: dict[int, set[int]] = {}
    for player in group:
        # nobody meets himself (000 §3.18.2), so the whole group can be passed
        points[player], met[player] = context.points_against(player, members)
    return direct_encounter_values(group, points, met, context.tournament.points.win)


def _results_vs_placed(context: ScoringContext, group: Sequence[int], order: Sequence[int]) -> Mapping[int, TiebreakValue]:
    """Best result against the others in order of places (000 §3.16.3, 001 §5.4.8.2).

    Only opponents every level player met are compared: a game not played is no result."""
    members = set(group)
    vectors: dict[int, list[float]] = {p: [] for p in group}
    for other in order:
        if other in members:
            continue
        results = {p: context.points_against(p, {other}) for p in group}
        if all(other in met for _, met in results.values()):
            for p in group:
                vectors[p].append(results[p][0])
    return {p: TiebreakValue(None, tuple(vectors[p])) for p in group}


def _tiebreaks() -> dict[str, Tiebreak]:
    def player(name: str, rule: str, title: str, compute: Callable[[ScoringContext, int], TiebreakValue], **flags: bool) -> Tiebreak:
        return Tiebreak(name, rule, title, _per_player(compute, name), **flags)

    definitions = [
        player("shmulyan", "000 §3.16.4, 001 §5.4.8.4.1", "points of beaten opponents minus points of opponents lost to (round robin only, 001 §5.4.8.4.3)", _weighted(1, 0, -1), round_robin_only=True),
        player("sonneborn_berger", "001 §5.4.8.3.1, 003 §9.13", "points of beaten opponents plus half the points of drawn opponents", _weighted(1, 0.5, 0)),
        player("sonneborn_berger_double", "000 §3.16.5", "twice the points of beaten opponents plus the points of drawn opponents", _weighted(2, 1, 0)),
        player("buchholz", "000 §3.16.6, 003 §9.3", "sum of the opponents' points", _cut(0, 0)),
        player("buchholz_cut1", "003 §9.6", "Buchholz less the lowest opponent", _cut(1, 0)),
        player("buchholz_cut2", "003 §9.7", "Buchholz less the two lowest opponents", _cut(2, 0)),
        player("buchholz_median1", "003 §9.4", "Buchholz less the highest and the lowest opponent", _cut(1, 1)),
        player("buchholz_median2", "003 §9.5", "Buchholz less the two highest and the two lowest opponents", _cut(2, 2)),
        player("buchholz_sum", "003 §11.6", "sum of the opponents' Buchholz", _buchholz_sum),
        player("solkoff_median", "000 §3.16.7, 001 §5.4.8.6", "Solkoff: opponents' points less the best and the worst", _cut(1, 1)),
        player("solkoff_truncated", "000 §3.16.8, 001 §5.4.8.7", "opponents' points less the worst, then the two worst, … until the tie breaks", _solkoff_truncated),
        player("riga", "000 §3.16.9, 001 §5.4.8.8", "2 × beaten + 1.5 × drawn + lost opponents' points", _weighted(2, 1.5, 1)),
        player("koya", "003 §9.9", "points against opponents with 50 % or more", _koya),
        player("koya_extended", "003 §9.10", "Koya, extended one lower score group at a time", _koya_extended),
        player("wins", "000 §3.16.3, 001 §5.4.8.2", "number of wins, pluses included (000 §3.15.2)", _wins),
        Tiebreak("direct_encounter", "000 §3.16.3, 003 §9.8", "points in the games among the level players", _direct_encounter),
        player("beaten_opponents_points", "000 §3.16.3", "sum of the points of the opponents beaten", _weighted(1, 0, 0)),
        Tiebreak("results_vs_placed", "000 §3.16.3, 001 §5.4.8.2", "best result against the others in order of places", _results_vs_placed),
        player("opponents_rating_sum", "001 §5.4.8.2", "sum of the opponents' ratings", _opponents_rating_sum, uses_ratings=True),
        player("aro", "003 §9.1, §12", "average rating of opponents (two games or fewer rank lowest)", _average_rating(0), uses_ratings=True),
        player("aro_cut1", "003 §9.2, §12", "average rating of opponents less the lowest-rated", _average_rating(1), uses_ratings=True),
        player("black_games", "003 §9.11", "games played with black (unplayed count as white)", _black_games),
    ]
    return {tiebreak.name: tiebreak for tiebreak in definitions}


#: Every individual tiebreak by name, in the order ``python -m scoring tiebreaks`` lists them.
TIEBREAKS: dict[str, Tiebreak] = _tiebreaks()


def tiebreak(name: str, tournament: Tournament | None = None) -> Tiebreak:
    """The tiebreak called ``name``, refusing one that does not apply to ``tournament``."""
    if name not in TIEBREAKS:
        raise UnknownTiebreakError(name, tuple(TIEBREAKS))
    found = TIEBREAKS[name]
    if found.round_robin_only and tournament is not None and not tournament.system.is_round_robin:
        raise TiebreakNotApplicableError(name, "the Shmulyan system is used only in round robins (001 §5.4.8.4.3)")
    return found
