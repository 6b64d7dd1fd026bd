"""Withdrawals (002 §4.5.3, §4.1.14, 000 §3.14.3–3.14.4): before and after half the games."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import (
    Case,
    CaseType,
    GameResult,
    GameState,
    Participant,
    ResultKind,
    Tournament,
)
from corrmail.referee.tournament_view import scoring_tournament
from scoring.standings import standings

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

WITHDREW = dt.date(2026, 12, 1)
OPENING = [("c3-d4", dt.date(2026, 9, 1), None), ("f6-g5", dt.date(2026, 9, 10),
                                                  dt.date(2026, 9, 5))]


def games_of(cup: Cup, number: int) -> list[tuple[int, int]]:
    return sorted(pair for pair in cup.games if number in pair)


def record(cup: Cup, number: int, **extra: object) -> int:
    with cup.database.session() as session:
        participant = session.scalar(select(Participant).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == number))
        assert participant is not None
        participant_id = participant.id
    location = cup.post("referee", f"/cases/new/{cup.code}/withdrawal",
                        **{"withdrawal-participant": participant_id,
                           "withdrawal-withdrew_on": WITHDREW.isoformat(),
                           "withdrawal-reason": "left", **extra})
    return int(location.rsplit("/", 1)[1])


def test_fewer_than_half_played_annuls_all_his_results(cup: Cup, set_today) -> None:
    finished, unfinished, *unplayed = games_of(cup, 6)
    cup.finish(*finished, GameResult.DRAW)
    cup.play(*unfinished, OPENING)
    set_today(WITHDREW)
    case_id = record(cup, 6)
    # Annulling some results and keeping others is refused (002 §4.5.3).
    mixed = {"custom_plan": "1", f"plan-{cup.games[finished]}": "keep",
             f"plan-{cup.games[unfinished]}": "annul",
             **{f"plan-{cup.games[pair]}": "annul" for pair in unplayed}}
    text = cup.act("referee", case_id, "decide", 422, **mixed)
    assert "002 §4.5.3" in text
    cup.act("referee", case_id, "decide", reasons="left after two games")
    with cup.database.session() as session:
        for pair in games_of(cup, 6):
            game = cup.game(session, *pair)
            assert (game.result, game.state) == (GameResult.ANNULLED, GameState.FINISHED)
        tournament = session.get(Tournament, cup.tournament_id)
        table = standings(scoring_tournament(tournament))
        letters = cup.outbox(session, "case.withdrawal.decision")
    assert 6 not in [row.start_no for row in table]  # he takes no place (000 §3.14.3)
    assert {row.start_no: row.points for row in table}[finished[0] if finished[1] == 6
                                                      else finished[1]] == 0
    # The player, his five partners and the steward are told.
    assert len(letters) == 7


def test_half_or_more_played_keeps_results_adjudicates_and_forfeits(cup: Cup, set_today) -> None:
    *finished, unfinished, unplayed = games_of(cup, 5)
    for pair in finished:
        cup.finish(*pair, GameResult.WHITE_WIN)
    cup.play(*unfinished, OPENING)
    set_today(WITHDREW)
    case_id = record(cup, 5, **{"withdrawal-without_good_reason": "y"})
    annul = {"custom_plan": "1", **{f"plan-{cup.games[p]}": "annul" for p in games_of(cup, 5)}}
    text = cup.act("referee", case_id, "decide", 422, **annul)
    assert "000 §3.14.3" in text
    cup.act("referee", case_id, "decide")
    with cup.database.session() as session:
        kept = [cup.game(session, *pair).result for pair in finished]
        assert kept == [GameResult.WHITE_WIN] * 3
        forfeit = cup.game(session, *unplayed)
        winner = GameResult.BLACK_WIN if unplayed[0] == 5 else GameResult.WHITE_WIN
        assert (forfeit.result, forfeit.result_kind) == (winner, ResultKind.FORFEIT)
        opened = session.scalar(select(Case).where(Case.game_id == cup.games[unfinished]))
        assert opened is not None and opened.case_type is CaseType.ADJUDICATION
        # His ten days run from the day play in the game was stopped (000 §3.14.4).
        assert opened.payload["end_date"] == WITHDREW.isoformat()
        assert opened.game.state is GameState.ADJUDICATION
    # A ban for quitting without reason is the organizer's (002 §4.1.14), at most three years.
    cup.act("referee", case_id, "ban", 403, until="2028-12-01")
    text = cup.act("organizer", case_id, "ban", 422, until="2030-12-02")
    assert "3 years" in text
    cup.act("organizer", case_id, "ban", until="2029-12-01")
    with cup.database.session() as session:
        assert cup.case_row(session, case_id).payload["ban_until"] == "2029-12-01"
        assert cup.audit(session, "case.record_ban")[-1].rule == "002 §4.1.14"
