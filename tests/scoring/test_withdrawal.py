"""Withdrawal before and after half the games (000 §3.14.3–3.14.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring import (
    Game,
    GameResult,
    Player,
    Result,
    Tournament,
    TournamentSystem,
    Withdrawal,
    WithdrawalDecision,
)
from scoring.errors import WithdrawalError
from scoring.roundrobin import round_robin_games
from scoring.standings import standings
from scoring.withdrawal import apply_withdrawals

W, D = GameResult.WHITE_WINS, GameResult.DRAW


def _round_robin(finished: dict[tuple[int, int], GameResult]) -> Tournament:
    """Four players; only the games listed (by round and white) are finished, the rest pending."""
    games = tuple(replace(g, result=finished.get((g.round, g.white), GameResult.PENDING)) for g in round_robin_games([1, 2, 3, 4]))
    return Tournament(tuple(Player(n, f"P{n}") for n in range(1, 5)), games, system=TournamentSystem.ROUND_ROBIN)


def test_half_or_more_played_keeps_results_and_scores_the_rest_minus_plus() -> None:
    # Rd1 1-4 and 2-3, Rd2 4-3 and 1-2, Rd3 2-4 and 3-1: 4 finished 1-4 (lost) and 4-3 (won),
    # two of three, then left: 2-4 becomes + for 2 and − for 4.
    t = replace(_round_robin({(1, 1): W, (2, 4): W, (1, 2): W}), withdrawals=(Withdrawal(4, 2),))
    applied = apply_withdrawals(t)
    game = next(g for g in applied.games if {g.white, g.black} == {2, 4})
    assert game.result is GameResult.WHITE_FORFEIT_WIN
    rows = {r.start_no: r for r in standings(t, ["wins"])}
    assert rows[4].points == 1.0 and rows[4].withdrawn
    assert rows[2].points == 2.0 and rows[2].norm_points == 1.0


def test_fewer_than_half_played_annuls_by_default() -> None:
    # 4 finished only 1-4 (one of three): his games are annulled and he takes no place.
    t = replace(_round_robin({(1, 1): W, (1, 2): D}), withdrawals=(Withdrawal(4, 1),))
    rows = standings(t, ["wins"])
    assert 4 not in [r.start_no for r in rows]
    assert {r.start_no: r.points for r in rows} == {1: 0.0, 2: 0.5, 3: 0.5}


def test_referee_may_keep_results_of_a_player_who_played_less_than_half() -> None:
    t = replace(_round_robin({(1, 1): W}), withdrawals=(Withdrawal(4, 1, WithdrawalDecision.KEEP),))
    rows = {r.start_no: r.points for r in standings(t, ["wins"])}
    assert rows == {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0}


def test_annulling_a_player_who_played_half_is_refused() -> None:
    t = replace(_round_robin({(1, 1): W, (2, 4): W}), withdrawals=(Withdrawal(4, 2, WithdrawalDecision.ANNUL),))
    with pytest.raises(WithdrawalError, match="half or more: his results stay in the table \\(000 §3.14.3\\)"):
        standings(t)


def test_swiss_results_stand(swiss_five: Tournament) -> None:
    t = replace(swiss_five, withdrawals=(Withdrawal(2, 1),))
    assert {r.start_no: r.points for r in standings(t)} == swiss_five.scores
    with pytest.raises(WithdrawalError, match="000 §3.14.5"):
        standings(replace(swiss_five, withdrawals=(Withdrawal(2, 1, WithdrawalDecision.ANNUL),)))


def test_swiss_pending_game_of_a_withdrawn_player_becomes_a_forfeit(swiss_five: Tournament) -> None:
    t = replace(swiss_five.with_round([Game(4, 1, 2)]), withdrawals=(Withdrawal(2, 3),))
    applied = apply_withdrawals(t)
    assert applied.history[1][-1].result is Result.FORFEIT_WIN


def _begun(tournament: Tournament, *pairs: tuple[int, int]) -> Tournament:
    """Mark the pending games between these players as begun (moves sent, not finished)."""
    begun = {frozenset(p) for p in pairs}
    games = tuple(replace(g, in_progress=True) if frozenset((g.white, g.black)) in begun else g for g in tournament.games)
    return replace(tournament, games=games)


def test_games_in_progress_count_as_played_and_await_adjudication() -> None:
    # 000 §3.14.4: unfinished games are among the played ones. Player 4 finished only 1-4 (one of
    # three) but 2-4 is in progress: two of three played, so his results stay; 2-4 is left for
    # the referee's adjudication and only 3-4, never begun, becomes −/+.
    t = _begun(_round_robin({(1, 1): W}), (2, 4))
    t = replace(t, withdrawals=(Withdrawal(4, 1),))
    applied = apply_withdrawals(t)
    by_pair = {frozenset((g.white, g.black)): g for g in applied.games}
    assert by_pair[frozenset((2, 4))].result is GameResult.PENDING
    assert by_pair[frozenset((2, 4))].in_progress
    assert by_pair[frozenset((3, 4))].result in (GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN)
    assert 4 in [r.start_no for r in standings(t, ["wins"])]


def test_annulling_a_player_whose_games_are_in_progress_is_refused() -> None:
    t = _begun(_round_robin({(1, 1): W}), (2, 4))
    t = replace(t, withdrawals=(Withdrawal(4, 1, WithdrawalDecision.ANNUL),))
    with pytest.raises(WithdrawalError, match=r"played 2 of 3 games \(unfinished ones included, 000 §3.14.4\)"):
        standings(t)


def test_a_finished_game_cannot_be_in_progress() -> None:
    from scoring.errors import InconsistentResultError

    with pytest.raises(InconsistentResultError, match="000 §3.14.4"):
        Game(1, 1, 2, GameResult.DRAW, in_progress=True)
