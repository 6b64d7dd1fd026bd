"""Withdrawal: what happens to the games of a player who leaves (000 §3.14.3–3.14.5, 002 §4.5.3).

* Half or more of his games played — finished, adjudicated, or begun and unfinished, which
  "must be adjudicated" (000 §3.14.4): his results stay; his games never begun become ``−``
  for him and ``+`` for his partners (000 §3.14.3); games in progress stay pending for the
  referee's adjudication.
* Fewer than half: the referee decides; by default his games are annulled (``ANNUL``), or the
  referee keeps them (``KEEP``) with the same treatment of the rest (002 §4.5.3).
* Swiss: results of games played stand (000 §3.14.5); he is simply not paired any more, a game
  of his never begun becomes ``−``/``+`` and a game in progress awaits adjudication.

Annulling a player who finished half or more is refused: 000 §3.14.3 says his results "stay in
the table and are counted".
"""

from __future__ import annotations

from dataclasses import replace

from scoring.errors import WithdrawalError
from scoring.model import Game, Tournament, Withdrawal, WithdrawalDecision
from scoring.result import GameResult


def resolve_decision(tournament: Tournament, withdrawal: Withdrawal) -> WithdrawalDecision:
    """``KEEP`` or ``ANNUL`` for this withdrawal, checking the referee's choice against 000 §3.14.3."""
    if not tournament.system.is_round_robin:
        if withdrawal.decision is WithdrawalDecision.ANNUL:
            raise WithdrawalError(
                withdrawal.player, "in a Swiss event the results of games played stand (000 §3.14.5)"
            )
        return WithdrawalDecision.KEEP
    games = [game for game in tournament.games if withdrawal.player in (game.white, game.black)]
    played = sum(
        1 for game in games if (game.result.sides[0].is_played or game.in_progress) and not game.annulled
    )
    half_or_more = bool(games) and 2 * played >= len(games)
    if withdrawal.decision is WithdrawalDecision.ANNUL and half_or_more:
        raise WithdrawalError(
            withdrawal.player,
            f"played {played} of {len(games)} games (unfinished ones included, 000 §3.14.4), half "
            "or more: his results stay in the table (000 §3.14.3)",
        )
    if withdrawal.decision is WithdrawalDecision.AUTO:
        return WithdrawalDecision.KEEP if half_or_more else WithdrawalDecision.ANNUL
    return withdrawal.decision


def apply_withdrawals(tournament: Tournament) -> Tournament:
    """The tournament with every withdrawal carried out (see the module docstring)."""
    if not tournament.withdrawals:
        return tournament
    decisions = {w.player: resolve_decision(tournament, w) for w in tournament.withdrawals}
    games = tuple(_carry_out(game, decisions) for game in tournament.games)
    return replace(tournament, games=games)


def annulled_players(tournament: Tournament) -> frozenset[int]:
    """Players whose games are all annulled by their withdrawal: they take no place."""
    return frozenset(
        w.player for w in tournament.withdrawals if resolve_decision(tournament, w) is WithdrawalDecision.ANNUL
    )


def _carry_out(game: Game, decisions: dict[int, WithdrawalDecision]) -> Game:
    leaving = [player for player in (game.white, game.black) if player in decisions]
    if not leaving:
        return game
    if any(decisions[player] is WithdrawalDecision.ANNUL for player in leaving):
        return replace(game, annulled=True)
    if game.result is not GameResult.PENDING or game.in_progress:
        return game
    if len(leaving) == 2:
        return replace(game, result=GameResult.DOUBLE_FORFEIT)
    if leaving[0] == game.white:
        return replace(game, result=GameResult.BLACK_FORFEIT_WIN)
    return replace(game, result=GameResult.WHITE_FORFEIT_WIN)
