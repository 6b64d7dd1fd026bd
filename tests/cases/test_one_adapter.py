"""One adapter for every reader (`corrmail.standings.results`): the standings pages, the referee's desk
and the bulletins give the same points for a withdrawn player with a game in progress
(000 §3.14.3–3.14.4, 002 §4.5.3), and read the tournament in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, select

from corrmail.bulletins.asof import Snapshot
from corrmail.models import GameResult, Participant, Tournament
from corrmail.referee.tournament_view import scoring_tournament as desk_tournament
from corrmail.standings.results import load_tournament, scoring_tournament, tournament_table
from scoring.model import WithdrawalDecision
from scoring.result import GameResult as ScoringResult
from scoring.standings import standings

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

WITHDREW = dt.date(2026, 12, 1)
OPENING = [("c3-d4", dt.date(2026, 9, 1), None), ("f6-g5", dt.date(2026, 9, 10),
                                                  dt.date(2026, 9, 5))]


def withdraw_and_decide(cup: Cup, number: int, set_today: Any) -> None:
    with cup.database.session() as session:
        participant = session.scalar(select(Participant).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == number))
        assert participant is not None
        participant_id = participant.id
    set_today(WITHDREW)
    response = cup.client("referee").post(
        f"/cases/new/{cup.code}/withdrawal",
        data={"withdrawal-participant": participant_id,
              "withdrawal-withdrew_on": WITHDREW.isoformat(), "withdrawal-reason": "left"})
    assert response.status_code == 303, response.data
    cup.act("referee", int(response.headers["Location"].rsplit("/", 1)[1]), "decide")


def test_the_standings_page_and_the_referees_view_agree_on_a_withdrawn_player(
    cup: Cup, set_today: Any
) -> None:
    games = sorted(pair for pair in cup.games if 5 in pair)
    *finished, unfinished, unplayed = games
    for pair in finished:
        cup.finish(*pair, GameResult.WHITE_WIN)
    cup.play(*unfinished, OPENING)
    withdraw_and_decide(cup, 5, set_today)
    response = cup.client("referee").get(f"/tournaments/{cup.code}/standings.json")
    assert response.status_code == 200
    page = {row["start_no"]: row["points"] for row in json.loads(response.data)["standings"]}
    with cup.database.session() as session:
        desk = desk_tournament(session.get_one(Tournament, cup.tournament_id))
        referee = {row.start_no: row.points for row in standings(desk)}
        table = tournament_table(load_tournament(session, cup.code))
    assert page == referee
    assert [w.decision for w in table.scoring.withdrawals] == [WithdrawalDecision.KEEP]
    # His game never begun is lost by him (000 §3.14.3) on the page as at the desk; the game
    # in progress stays pending for adjudication (000 §3.14.4).
    partner = unplayed[0] if unplayed[1] == 5 else unplayed[1]
    wins_of_partner = sum(1 for pair in finished if pair[0] == partner and 5 in pair)
    assert page[partner] >= 1 + wins_of_partner
    assert page[5] == sum(1 for pair in finished if pair[0] == 5)
    [open_game] = [g for g in table.scoring.games if (g.white, g.black) == unfinished]
    assert open_game.in_progress and open_game.result is ScoringResult.PENDING


def test_the_bulletin_before_the_withdrawal_shows_no_withdrawal_and_after_it_the_referees(
    cup: Cup, set_today: Any
) -> None:
    *finished, unfinished, _ = sorted(pair for pair in cup.games if 5 in pair)
    for pair in finished:
        cup.finish(*pair, GameResult.WHITE_WIN)
    cup.play(*unfinished, OPENING)
    withdraw_and_decide(cup, 5, set_today)
    with cup.database.session() as session:
        tournament = session.get_one(Tournament, cup.tournament_id)
        before = Snapshot(session, tournament, WITHDREW - dt.timedelta(days=1)).scoring
        # The results were entered on START + 100 days, after the withdrawal.
        after = Snapshot(session, tournament, WITHDREW + dt.timedelta(days=30)).scoring
        decided = Snapshot(session, tournament, WITHDREW).scoring
        today = scoring_tournament(tournament)
        # Before the first letter the game was not begun.
        opening = Snapshot(session, tournament, OPENING[0][1] - dt.timedelta(days=1)).scoring
    assert before.withdrawals == ()
    assert [w.player for w in decided.withdrawals] == [5]
    assert after == today
    [begun] = [g for g in before.games if (g.white, g.black) == unfinished]
    assert begun.in_progress
    [not_begun] = [g for g in opening.games if (g.white, g.black) == unfinished]
    assert not not_begun.in_progress


def test_the_adapter_reads_a_tournament_in_the_same_number_of_queries_whatever_its_games(
    cup: Cup, set_today: Any
) -> None:
    def queries_for_table() -> int:
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(str(args[2]))

        event.listen(cup.database.engine, "before_cursor_execute", count)
        try:
            with cup.database.session() as session:
                tournament_table(load_tournament(session, cup.code))
        finally:
            event.remove(cup.database.engine, "before_cursor_execute", count)
        return len(statements)

    pairs = sorted(cup.games)
    cup.play(*pairs[0], OPENING)
    few = queries_for_table()
    for pair in pairs[1:6]:
        cup.play(*pair, OPENING)
    withdraw_and_decide(cup, 6, set_today)
    assert queries_for_table() == few
