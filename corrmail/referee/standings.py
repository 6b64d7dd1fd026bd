"""The games of a tournament as `scoring` reads them for the referee: the results are mapped by
the one adapter, `corrmail.standings` (docs/adjudication.md, "Outcomes for scoring"); this module
adds the two facts a withdrawal needs that the results alone do not carry:

* a game begun and unfinished (at least one move in its ledger, no result) is ``in_progress``:
  for a withdrawal it counts as played and awaits adjudication, never ``−``/``+`` (000 §3.14.4);
* every withdrawal the referee decided is passed to `scoring`, with his decision: ``ANNUL``
  when he annulled every game of the player (002 §4.5.3, round robins only), ``KEEP`` otherwise
  (000 §3.14.3, §3.14.5). A withdrawal recorded but not yet decided is not passed: until the
  referee rules, the table shows what is on record, not a default he may still overrule. Since `scoring` keeps games in progress pending, the old reason for
  passing only the annulling withdrawals (a game in adjudication would have become ``−``) is
  gone, and the withdrawal's ``after_round`` now reaches the Swiss credit of 000 §3.16.11.
"""

from __future__ import annotations

import dataclasses

from sqlalchemy import select
from sqlalchemy.orm import object_session

from adjudication import case_from_dict
from corrmail.ledger import effective_letters
from corrmail.models import (
    Case,
    CaseType,
    Game,
    GameResult,
    Participant,
    ResultKind,
    TournamentSystem,
)
from corrmail.models import Tournament as TournamentRow
from corrmail.standings import scoring_game
from corrmail.standings import scoring_tournament as results_tournament
from scoring.model import Game as ScoringGame
from scoring.model import Tournament as ScoringTournament
from scoring.model import Withdrawal, WithdrawalDecision

__all__ = ["scoring_game", "scoring_tournament", "in_progress", "withdrawal_of"]


def in_progress(game: Game) -> bool:
    """Begun and unfinished: no result yet and at least one move in the ledger (000 §3.14.4)."""
    return game.result is None and any(
        letter.moves_text.strip() for letter in effective_letters(game.letters)
    )


def withdrawal_of(tournament: TournamentRow, participant: Participant) -> Withdrawal:
    """The referee's recorded withdrawal of ``participant`` as `scoring` reads it.

    ``after_round`` is the last round in which he played: a game begun, or finished other than by
    the forfeits his withdrawal produced (0 when he played none).
    """
    own = [game for game in tournament.games if participant.id in (game.white_id, game.black_id)]
    played_rounds = [
        game.round
        for game in own
        if in_progress(game)
        or (game.result not in (None, GameResult.ANNULLED)
            and game.result_kind is not ResultKind.FORFEIT)
    ]
    annulled_all = bool(own) and all(game.result is GameResult.ANNULLED for game in own)
    round_robin = tournament.system is not TournamentSystem.SWISS
    decision = (WithdrawalDecision.ANNUL if annulled_all and round_robin
                else WithdrawalDecision.KEEP)
    assert participant.start_number is not None  # scoring_tournament checked every start number
    return Withdrawal(participant.start_number, max(played_rounds, default=0), decision)


def scoring_tournament(tournament: TournamentRow) -> ScoringTournament:
    """The tournament for `scoring` with games in progress marked and every withdrawal passed."""
    results = results_tournament(tournament)
    games: tuple[ScoringGame, ...] = tuple(
        dataclasses.replace(scored, in_progress=True) if in_progress(game) else scored
        for game, scored in zip(tournament.games, results.games, strict=True)
    )
    decided = _decided_withdrawals(tournament)
    withdrawals = tuple(
        withdrawal_of(tournament, participant)
        for participant in tournament.participants
        if participant.withdrawn and participant.start_number is not None
        and participant.id in decided
    )
    return dataclasses.replace(results, games=games, withdrawals=withdrawals)


def _decided_withdrawals(tournament: TournamentRow) -> set[int]:
    """Participants whose withdrawal case carries the referee's decision (002 §4.5.3)."""
    session = object_session(tournament)
    if session is None:
        raise RuntimeError(f"tournament {tournament.code} is not attached to a session")
    rows = session.scalars(select(Case).where(Case.tournament_id == tournament.id,
                                              Case.case_type == CaseType.WITHDRAWAL))
    return {row.participant_id for row in rows
            if row.participant_id is not None and case_from_dict(row.payload).decisions}
