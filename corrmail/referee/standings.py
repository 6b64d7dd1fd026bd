"""The games of a tournament as `scoring` reads them (docs/adjudication.md, "Outcomes for
scoring"): adjudicated results marked, unplayed ones ``+``/``−``, annulled ones kept but not
counted, and a withdrawn player whose every game was annulled taking no place (002 §4.5.3).
"""

from __future__ import annotations

from decimal import Decimal

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

__all__ = ["scoring_game", "scoring_tournament"]


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
