"""Game results between the three vocabularies: `adjudication`'s outcomes, the `games` columns and
`scoring`'s games (the mapping table of docs/adjudication.md, "Outcomes for scoring").

A result the referee records keeps how it came about in `Game.result_kind`, so the standings can
mark adjudicated games (002 §4.5.4–4.5.5) and show unplayed ones as ``+``/``−`` (000 §3.14.3).
"""

from __future__ import annotations

from decimal import Decimal

from adjudication import GameOutcome, OutcomeKind, Side
from corrmail.models import Game, GameResult, ResultKind, TournamentSystem
from corrmail.models import Tournament as TournamentRow
from scoring.model import Game as ScoringGame
from scoring.model import Player as ScoringPlayer
from scoring.model import Tournament as ScoringTournament
from scoring.model import TournamentSystem as ScoringSystem
from scoring.model import Withdrawal as ScoringWithdrawal
from scoring.model import WithdrawalDecision
from scoring.points import PointSystem
from scoring.result import GameResult as ScoringResult

__all__ = ["UnmappableOutcome", "columns_for", "outcome_of", "scoring_game", "scoring_tournament"]

OVERSTEP_RULES = frozenset({"002 §4.3.7"})
"""Results recorded under these rules are losses on time, not played results."""


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
    return result, ResultKind.DECIDED


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


def scoring_game(game: Game) -> ScoringGame:
    """The game for `scoring`: adjudicated results marked, annulled games kept but not counted."""
    white, black = game.white.start_number, game.black.start_number
    if white is None or black is None:
        raise ValueError(f"game {game.id}: both players need start numbers for the standings")
    forfeit = game.result_kind is ResultKind.FORFEIT
    result = {
        None: ScoringResult.PENDING,
        GameResult.ANNULLED: ScoringResult.PENDING,
        GameResult.DRAW: ScoringResult.DRAW,
        GameResult.DOUBLE_LOSS: ScoringResult.DOUBLE_FORFEIT,
        GameResult.WHITE_WIN: (
            ScoringResult.WHITE_FORFEIT_WIN if forfeit else ScoringResult.WHITE_WINS
        ),
        GameResult.BLACK_WIN: (
            ScoringResult.BLACK_FORFEIT_WIN if forfeit else ScoringResult.BLACK_WINS
        ),
    }[game.result]
    return ScoringGame(
        round=game.round,
        white=white,
        black=black,
        result=result,
        adjudicated=game.result_kind is ResultKind.ADJUDICATED,
        annulled=game.result is GameResult.ANNULLED,
    )


def scoring_tournament(tournament: TournamentRow) -> ScoringTournament:
    """The tournament as `scoring` reads it.

    A player who withdrew and whose every game the referee annulled (002 §4.5.3) is passed as
    an annulling withdrawal, so he takes no place. Kept results need no scoring withdrawal: the
    referee's decision already recorded every game of the player who left (``+``/``−``,
    adjudication), and a game still in adjudication must stay pending, not turn into ``−``.
    """
    players = tuple(
        ScoringPlayer(start_no=p.start_number, name=p.player.name, rating=p.rating)
        for p in tournament.participants
        if p.start_number is not None
    )
    games = tuple(scoring_game(game) for game in tournament.games)
    withdrawals = tuple(
        ScoringWithdrawal(p.start_number, 0, WithdrawalDecision.ANNUL)
        for p in tournament.participants
        if p.withdrawn and p.start_number is not None and _all_annulled(tournament, p.id)
    )
    swiss = tournament.system is TournamentSystem.SWISS
    return ScoringTournament(
        players=players,
        games=games,
        withdrawals=withdrawals,
        system=ScoringSystem.SWISS if swiss else ScoringSystem.ROUND_ROBIN,
        cycles=2 if tournament.system is TournamentSystem.ROUND_ROBIN_DOUBLE else 1,
        points=PointSystem(
            float(Decimal(tournament.points_win)),
            float(Decimal(tournament.points_draw)),
            float(Decimal(tournament.points_loss)),
        ),
        name=tournament.code,
    )


def _all_annulled(tournament: TournamentRow, participant_id: int) -> bool:
    own = [g for g in tournament.games if participant_id in (g.white_id, g.black_id)]
    return bool(own) and all(g.result is GameResult.ANNULLED for g in own)
