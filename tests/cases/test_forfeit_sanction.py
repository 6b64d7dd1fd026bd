"""A forfeit the referee imposes as a sanction sets the game's result: ``−`` for the player,
``+`` for his partner (002 §4.1.10, §4.5.8), counted by `scoring` as an unplayed win."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Game, GameResult, GameState, Participant, ResultKind, Tournament
from corrmail.referee.tournament_view import scoring_tournament
from scoring.result import GameResult as ScoringResult

if TYPE_CHECKING:
    from tests.cases.conftest import Cup


def test_a_forfeit_imposed_by_the_referee_sets_the_result(cup: Cup) -> None:
    with cup.database.session() as session:
        player = session.scalar(select(Participant.id).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == 2))
    game_id = cup.game_between(2, 3)
    location = cup.post("referee", f"/cases/new/{cup.code}/sanction",
                        **{"sanction-participant": player, "sanction-sanction": "forfeit",
                           "sanction-game": game_id, "sanction-rules_violated": "002 §4.2.6",
                           "sanction-reasons": "moves withheld on purpose"})
    assert location.startswith("/cases/")
    with cup.database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        loser_is_white = game.white_id == player
        assert game.result is (GameResult.BLACK_WIN if loser_is_white else GameResult.WHITE_WIN)
        assert (game.result_kind, game.state) == (ResultKind.FORFEIT, GameState.FINISHED)
        assert game.result_on is not None
        [scored] = [g for g in scoring_tournament(session.get(Tournament, cup.tournament_id)).games
                    if {g.white, g.black} == {2, 3}]
    assert scored.result is (ScoringResult.BLACK_FORFEIT_WIN if loser_is_white
                             else ScoringResult.WHITE_FORFEIT_WIN)
