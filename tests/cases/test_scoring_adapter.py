"""The referee's view for `scoring`: games in progress marked, every withdrawal passed with the
referee's decision (000 §3.14.3–3.14.4, 002 §4.5.3)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import GameResult, Participant, Tournament
from corrmail.referee.tournament_view import scoring_tournament
from corrmail.standings.results import scoring_tournament as results_tournament
from scoring.model import WithdrawalDecision
from scoring.result import GameResult as ScoringResult
from scoring.standings import standings

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

WITHDREW = dt.date(2026, 12, 1)
OPENING = [("c3-d4", dt.date(2026, 9, 1), None), ("f6-g5", dt.date(2026, 9, 10),
                                                  dt.date(2026, 9, 5))]


def games_of(cup: Cup, number: int) -> list[tuple[int, int]]:
    return sorted(pair for pair in cup.games if number in pair)


def withdraw(cup: Cup, number: int) -> int:
    with cup.database.session() as session:
        participant = session.scalar(select(Participant).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == number))
        assert participant is not None
        participant_id = participant.id
    location = cup.post("referee", f"/cases/new/{cup.code}/withdrawal",
                        **{"withdrawal-participant": participant_id,
                           "withdrawal-withdrew_on": WITHDREW.isoformat(),
                           "withdrawal-reason": "left"})
    return int(location.rsplit("/", 1)[1])


def test_a_begun_game_is_in_progress_and_a_kept_withdrawal_reaches_scoring(
    cup: Cup, set_today
) -> None:
    *finished, unfinished, unplayed = games_of(cup, 5)
    for pair in finished:
        cup.finish(*pair, GameResult.WHITE_WIN)
    cup.play(*unfinished, OPENING)
    with cup.database.session() as session:
        tournament = session.get(Tournament, cup.tournament_id)
        before = scoring_tournament(tournament)
        flagged = {(g.white, g.black) for g in before.games if g.in_progress}
        # Only the game with moves and no result; a game never begun is not in progress.
        assert flagged == {unfinished}
        assert before.withdrawals == ()
    set_today(WITHDREW)
    case_id = withdraw(cup, 5)
    with cup.database.session() as session:
        # Recorded, not decided: the table shows what is on record (002 §4.5.3).
        assert scoring_tournament(session.get(Tournament, cup.tournament_id)).withdrawals == ()
    cup.act("referee", case_id, "decide")
    with cup.database.session() as session:
        tournament = session.get(Tournament, cup.tournament_id)
        scored = scoring_tournament(tournament)
        [withdrawal] = scored.withdrawals
        assert withdrawal.player == 5 and withdrawal.decision is WithdrawalDecision.KEEP
        # He last played in the round of his game still in adjudication (000 §3.16.11).
        assert withdrawal.after_round == max(g.round for g in scored.games
                                             if (g.white, g.black) in {*finished, unfinished})
        [open_game] = [g for g in scored.games if (g.white, g.black) == unfinished]
        assert open_game.in_progress and open_game.result is ScoringResult.PENDING
        table = {row.start_no: row.points for row in standings(scored)}
        pages = {row.start_no: row.points for row in standings(results_tournament(tournament))}
    # The game in adjudication stays pending, not − for him (000 §3.14.4): the same points as
    # the pages' adapter, which maps the recorded results only.
    assert table == pages
    wins_as_white = sum(1 for pair in finished if pair[0] == 5)
    assert table[5] == wins_as_white


def test_an_annulled_withdrawal_reaches_scoring_as_annul(cup: Cup, set_today) -> None:
    finished, unfinished, *_ = games_of(cup, 6)
    cup.finish(*finished, GameResult.DRAW)
    cup.play(*unfinished, OPENING)
    set_today(WITHDREW)
    cup.act("referee", withdraw(cup, 6), "decide", reasons="left after two games")
    with cup.database.session() as session:
        scored = scoring_tournament(session.get(Tournament, cup.tournament_id))
    [withdrawal] = scored.withdrawals
    assert (withdrawal.player, withdrawal.decision) == (6, WithdrawalDecision.ANNUL)
    assert not any(g.in_progress for g in scored.games if 6 in (g.white, g.black))
    assert 6 not in [row.start_no for row in standings(scored)]  # no place (000 §3.14.3)
