"""Game results between `adjudication`'s outcomes and the `games` columns.

A result the referee records keeps how it came about in `Game.result_kind`, so the standings can
mark adjudicated games (002 §4.5.4–4.5.5) and show unplayed ones as ``+``/``−`` (000 §3.14.3).
"""

from __future__ import annotations

from adjudication import GameOutcome, OutcomeKind, Side
from corrmail.models import Game, GameResult, ResultKind

__all__ = ["UnmappableOutcome", "columns_for", "outcome_of"]

OVERSTEP_RULES = frozenset({"002 §4.3.7"})
"""Results recorded under these rules are losses on time, not played results."""
DECIDED_RULES = frozenset({"002 §4.5.3"})
"""A referee's result without play or adjudication: an unfinished game declared lost."""


class UnmappableOutcome(ValueError):
    """An outcome the games table cannot hold (e.g. one player annulled, the other not)."""

    def __init__(self, outcome: GameOutcome) -> None:
        super().__init__(f"outcome {outcome.symbol} has no games-table equivalent")
        self.outcome = outcome


def columns_for(outcome: GameOutcome, rule: str) -> tuple[GameResult, ResultKind | None]:
    """`Game.result` and `Game.result_kind` for an outcome recorded under ``rule``."""
    white, black = outcome.white, outcome.black
    if white is OutcomeKind.ANNULLED:
        return GameResult.ANNULLED, None
    if white is black is OutcomeKind.FORFEIT_LOSS:
        return GameResult.DOUBLE_LOSS, ResultKind.FORFEIT
    if white is OutcomeKind.FORFEIT_WIN:
        return GameResult.WHITE_WIN, ResultKind.FORFEIT
    if black is OutcomeKind.FORFEIT_WIN:
        return GameResult.BLACK_WIN, ResultKind.FORFEIT
    result = {
        OutcomeKind.WIN: GameResult.WHITE_WIN,
        OutcomeKind.LOSS: GameResult.BLACK_WIN,
        OutcomeKind.DRAW: GameResult.DRAW,
    }.get(white)
    if result is None:
        raise UnmappableOutcome(outcome)
    if outcome.adjudicated:
        return result, ResultKind.ADJUDICATED
    if rule in OVERSTEP_RULES:
        return result, ResultKind.OVERSTEP
    if rule in DECIDED_RULES:
        return result, ResultKind.DECIDED
    # Any other plain result is one played over the board that a hearing restored (002 §4.1.12).
    return result, ResultKind.PLAYED


def outcome_of(game: Game) -> GameOutcome | None:
    """The game's recorded result as an `adjudication` outcome (``None`` while unfinished)."""
    if game.result is None:
        return None
    if game.result is GameResult.ANNULLED:
        return GameOutcome.annulled()
    if game.result is GameResult.DOUBLE_LOSS:
        return GameOutcome.both_lose()
    if game.result is GameResult.DRAW:
        return GameOutcome.draw(adjudicated=game.result_kind is ResultKind.ADJUDICATED)
    winner = Side.WHITE if game.result is GameResult.WHITE_WIN else Side.BLACK
    if game.result_kind is ResultKind.FORFEIT:
        return GameOutcome.forfeit_loss_for(winner.other)
    return GameOutcome.win_for(winner, adjudicated=game.result_kind is ResultKind.ADJUDICATED)
