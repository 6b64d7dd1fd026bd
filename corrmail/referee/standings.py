"""The games of a tournament as `scoring` reads them: kept for the referee's callers; the one
adapter is `corrmail.standings` (docs/adjudication.md, "Outcomes for scoring")."""

from corrmail.standings import scoring_game, scoring_tournament

__all__ = ["scoring_game", "scoring_tournament"]
