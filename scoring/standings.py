"""Individual standings: points, tiebreaks in the order the regulations give, places.

:func:`standings` is the engine's entry point for individual events: it carries out the
withdrawals (000 §3.14.3), ranks by points (000 §3.16.1) and then by the tiebreaks named, and
returns one :class:`StandingRow` per player taking a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from scoring.errors import TiebreakNotApplicableError, UnknownTiebreakError
from scoring.model import Tournament, TournamentSystem
from scoring.ranking import Criterion, TieRule, rank
from scoring.tiebreaks import ScoringContext, tiebreak
from scoring.unplayed import UnplayedPolicy
from scoring.withdrawal import annulled_players, apply_withdrawals

#: Orders of tiebreaks given by the rulebook, by name (``--preset``).
PRESETS: dict[str, tuple[str, ...]] = {
    # 000 §3.16.3: the coefficient system (here Sonneborn-Berger in 000 §3.16.5's form),
    # wins, direct encounter, points of beaten opponents, results against the others by place.
    "000-3.16.3": ("sonneborn_berger_double", "wins", "direct_encounter", "beaten_opponents_points", "results_vs_placed"),
    # 001 §5.4.8.2: coefficients (Sonneborn-Berger, 001 §5.4.8.3.1), wins, direct encounter,
    # results against the others by place, opponents' ratings.
    "001-5.4.8.2": ("sonneborn_berger", "wins", "direct_encounter", "results_vs_placed", "opponents_rating_sum"),
    # 003 §14.1: individual round robin.
    "003-14.1": ("direct_encounter", "wins", "sonneborn_berger", "koya"),
    # 003 §14.3: Swiss, ratings contradictory.
    "003-14.3": ("direct_encounter", "wins", "black_games", "buchholz_cut1", "buchholz", "sonneborn_berger"),
    # 003 §14.4: Swiss, ratings consistent.
    "003-14.4": ("direct_encounter", "wins", "black_games", "aro_cut1", "buchholz_cut1", "buchholz", "sonneborn_berger"),
}
#: Friendlier names for the presets above.
PRESET_ALIASES = {
    "round-robin": "003-14.1",
    "swiss": "003-14.3",
    "swiss-rated": "003-14.4",
}


def preset(name: str) -> tuple[str, ...]:
    """The tiebreak order of a preset (its rule number or alias)."""
    key = PRESET_ALIASES.get(name, name)
    if key not in PRESETS:
        raise UnknownTiebreakError(name, tuple(PRESETS) + tuple(PRESET_ALIASES))
    return PRESETS[key]


def default_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """003 §14.1 for a round robin, 003 §14.3 for a Swiss."""
    return PRESETS["003-14.1" if tournament.system is TournamentSystem.ROUND_ROBIN else "003-14.3"]


@dataclass
class StandingRow:
    """One line of the standings. ``place`` is ``"3-4"`` when shared (003 §2.6)."""

    place: str
    position: int
    start_no: int
    name: str
    rating: int | None
    club: str
    points: float
    norm_points: float
    games_played: int
    tiebreaks: dict[str, float | None] = field(default_factory=dict)
    withdrawn: bool = False
    by_lot: bool = False

    def as_dict(self) -> dict[str, object]:
        """The JSON row of ``python -m scoring standings --format json``."""
        return {
            "place": self.place,
            "start_no": self.start_no,
            "name": self.name,
            "points": self.points,
            "norm_points": self.norm_points,
            "tiebreaks": dict(self.tiebreaks),
            "rating": self.rating,
            "club": self.club,
            "games_played": self.games_played,
            "withdrawn": self.withdrawn,
            "by_lot": self.by_lot,
        }


def standings(
    tournament: Tournament,
    tiebreaks: Sequence[str] | None = None,
    policy: UnplayedPolicy = UnplayedPolicy.RUSSIAN,
    tie_rule: TieRule = TieRule.SHARED,
    seed: int = 0,
) -> list[StandingRow]:
    """Rank the players of ``tournament``.

    ``tiebreaks``: names from :data:`scoring.tiebreaks.TIEBREAKS` in the order the regulations
    give (000 §3.16.12); ``None`` takes :func:`default_tiebreaks`. Players whose games were
    annulled on withdrawal take no place. ``tie_rule``: shared places (default) or lot, seeded by
    ``seed`` so that the draw can be reproduced.
    """
    names = tuple(tiebreaks) if tiebreaks is not None else default_tiebreaks(tournament)
    if len(set(names)) != len(names):
        raise TiebreakNotApplicableError(",".join(names), "a tiebreak is named twice")
    chosen = [tiebreak(name, tournament) for name in names]
    annulled = annulled_players(tournament)
    table = apply_withdrawals(tournament)
    participants = [p.start_no for p in sorted(table.players, key=lambda p: p.start_no) if p.start_no not in annulled]
    context = ScoringContext(table, frozenset(participants), policy)
    criteria: list[tuple[str, Criterion[int]]] = [(t.name, partial(t.criterion, context)) for t in chosen]
    ranked = rank(participants, context.scores, criteria, table.playoff, tie_rule, seed)
    rows = []
    for entry in ranked:
        player = table.by_start_no[entry.participant]
        rows.append(
            StandingRow(
                place=entry.place,
                position=entry.position,
                start_no=player.start_no,
                name=player.name,
                rating=player.rating,
                club=player.club,
                points=table.scores[player.start_no],
                norm_points=table.norm_scores[player.start_no],
                games_played=sum(1 for e in table.history[player.start_no] if e.played),
                tiebreaks=dict(entry.values),
                withdrawn=player.start_no in table.withdrawn,
                by_lot=entry.by_lot,
            )
        )
    return rows
