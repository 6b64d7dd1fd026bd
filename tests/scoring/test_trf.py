"""TRF-16 reading and writing: lenient, with every defect collected and cited."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Game,
    GameResult,
    Player,
    PointSystem,
    Tournament,
    TournamentSystem,
    Withdrawal,
    WithdrawalDecision,
)
from scoring.errors import FormatError
from scoring.trf import load_trf, read_trf, write_trf


def _line(start_no: int, name: str, points: float, *rounds: str) -> str:
    return f"001 {start_no:4d}      {name:<33} 2000                            {points:4.1f}    0" + "".join(rounds)


def test_round_trip_keeps_everything(swiss_five: Tournament) -> None:
    text = write_trf(swiss_five)
    again = load_trf(text)
    assert again.scores == swiss_five.scores
    assert sorted(again.games, key=lambda g: (g.round, g.white)) == sorted(swiss_five.games, key=lambda g: (g.round, g.white))
    assert sorted(again.unpaired, key=lambda u: u.round) == sorted(swiss_five.unpaired, key=lambda u: u.round)
    assert again.rounds == 3


def test_point_system_withdrawals_and_marks_travel_in_extension_lines() -> None:
    players = (Player(1, "A"), Player(2, "B"), Player(3, "C"))
    tournament = Tournament(
        players,
        (Game(1, 1, 2, GameResult.WHITE_WINS, adjudicated=True), Game(2, 3, 1, GameResult.DRAW, annulled=True)),
        withdrawals=(Withdrawal(3, 2, WithdrawalDecision.KEEP),),
        system=TournamentSystem.ROUND_ROBIN,
        points=PointSystem(2, 1, 0),
        playoff=((1, 2), (3,)),
    )
    text = write_trf(tournament)
    assert "BBW  2.0" in text and "CMS round-robin 1" in text and "CMW 3 2 keep" in text
    again = load_trf(text)
    assert again.points == PointSystem(2, 1, 0)
    assert again.system is TournamentSystem.ROUND_ROBIN
    assert again.withdrawals == tournament.withdrawals
    assert again.playoff == ((1, 2), (3,))
    assert [g.adjudicated for g in again.games] == [True, False]
    assert [g.annulled for g in again.games] == [False, True]


def test_points_column_uses_the_point_system() -> None:
    tournament = Tournament((Player(1, "A"), Player(2, "B")), (Game(1, 1, 2, GameResult.WHITE_WINS),), points=PointSystem(2, 1, 0))
    assert " 2.0 " in write_trf(tournament).splitlines()[1]


def test_inconsistent_results_are_collected() -> None:
    text = "\n".join([
        "012 Bad",
        _line(1, "A", 1.0, "     2 w 1"),
        _line(2, "B", 1.0, "     1 b 1"),
    ])
    reading = read_trf(text)
    assert any("inconsistent results '1' (player 1) and '1' (player 2) (000 §3.15)" in e for e in reading.errors)
    with pytest.raises(FormatError, match="inconsistent results"):
        load_trf(text, "bad.trf")


def test_player_meeting_himself_unknown_opponent_and_one_sided_pairing() -> None:
    text = "\n".join([
        _line(1, "A", 0.0, "     1 w 1"),
        _line(2, "B", 0.0, "     9 w 1"),
        _line(3, "C", 1.0, "     4 w 1"),
        _line(4, "D", 0.0, "  0000 - Z"),
    ])
    errors = read_trf(text).errors
    assert any("player 1 cannot meet himself" in e for e in errors)
    assert any("opponent 9 of player 2 is not in the file" in e for e in errors)
    assert any("player 3 is paired with 4, whose line lists nobody" in e for e in errors)


def test_points_column_disagreeing_with_results_is_reported() -> None:
    text = "\n".join([_line(1, "A", 3.0, "     2 w 1"), _line(2, "B", 0.0, "     1 b 0")])
    errors = read_trf(text).errors
    assert errors == ["line 1: player 1 is listed with 3 points but the results give 1 (000 §3.15)"]


def test_same_colour_for_both_and_half_point_bye_are_reported() -> None:
    text = "\n".join([
        _line(1, "A", 1.0, "     2 w 1"),
        _line(2, "B", 0.0, "     1 w 0"),
        _line(3, "C", 0.0, "  0000 - H"),
    ])
    errors = read_trf(text).errors
    assert any("both have colour 'w'" in e for e in errors)
    assert any("half-point bye H is not in the rulebook" in e for e in errors)


def test_lenient_reading_keeps_the_good_parts() -> None:
    text = "\n".join([
        _line(1, "A", 1.0, "     2 w 1"),
        _line(2, "B", 0.0, "     1 b 0"),
        "001 xxxx broken",
        "XXR eleven",
    ])
    reading = read_trf(text)
    assert len(reading.errors) == 2
    assert reading.tournament.scores == {1: 1.0, 2: 0.0}


def test_forfeits_double_forfeit_pending_bye_and_absence() -> None:
    text = "\n".join([
        _line(1, "A", 1.0, "     2 w +", "     3 b -"),
        _line(2, "B", 0.0, "     1 b -", "  0000 - U"),
        _line(3, "C", 0.0, "  0000 - Z", "     1 w -"),
        _line(4, "D", 0.0, "  0000 - -", "     5 w  "),
        _line(5, "E", 0.0, "  0000 - F", "     4 b  "),
    ])
    reading = read_trf(text)
    assert reading.errors == ["line 2: player 2 is listed with 0 points but the results give 1 (000 §3.15)", "line 5: player 5 is listed with 0 points but the results give 1 (000 §3.15)"]
    results = {(g.round, g.white, g.black): g.result for g in reading.tournament.games}
    assert results == {
        (1, 1, 2): GameResult.WHITE_FORFEIT_WIN,
        (2, 3, 1): GameResult.DOUBLE_FORFEIT,
        (2, 4, 5): GameResult.PENDING,
    }


def _random_event(seed: int) -> Tournament:
    """Any mix of results: played, adjudicated, forfeits, −/−, pending, byes, absences."""
    import random

    from scoring import Unpaired
    from scoring.result import Result

    rng = random.Random(seed)
    size = rng.randrange(2, 16)
    players = tuple(Player(n, f"Player {n}", rng.choice([None, rng.randrange(1000, 2600)])) for n in range(1, size + 1))
    games: list[Game] = []
    unpaired: list[Unpaired] = []
    for round_no in range(1, rng.randrange(1, 8)):
        order = list(range(1, size + 1))
        rng.shuffle(order)
        if len(order) % 2:
            unpaired.append(Unpaired(round_no, order.pop(), rng.choice([Result.BYE, Result.ABSENT])))
        for white, black in zip(order[::2], order[1::2], strict=True):
            result = rng.choice(list(GameResult))
            adjudicated = result.sides[0].is_played and rng.random() < 0.2
            games.append(Game(round_no, white, black, result, adjudicated))
    return Tournament(players, tuple(games), tuple(unpaired), points=rng.choice([PointSystem(), PointSystem(2, 1, 0)]))


def _key(game: Game) -> tuple[int, int]:
    return game.round, game.white


@given(st.integers(min_value=0, max_value=10**6))
@settings(max_examples=60, deadline=None)
def test_trf_and_json_round_trips_keep_every_result(seed: int) -> None:
    from scoring.jsonformat import read_json, to_json

    event = _random_event(seed)
    for again in (load_trf(write_trf(event)), read_json(to_json(event))):
        assert sorted(again.games, key=_key) == sorted(event.games, key=_key)
        assert set(again.unpaired) == set(event.unpaired)
        assert again.scores == event.scores
        assert again.points == event.points
        assert [p.rating for p in again.players] == [p.rating for p in event.players]


def test_lines_end_with_the_last_recorded_round_and_keep_whole_blocks() -> None:
    # Pairing programs (bbpPairings) read a round block only whole and take a block after the
    # last played round as a pre-set absence: player 3 withdrew after round 1, so his line
    # stops there; player 2's pending round-2 game keeps its blank result column.
    players = (Player(1, "A"), Player(2, "B"), Player(3, "C"), Player(4, "D"))
    tournament = Tournament(
        players,
        (
            Game(1, 1, 2, GameResult.WHITE_WINS),
            Game(1, 3, 4, GameResult.DRAW),
            Game(2, 4, 1, GameResult.BLACK_WINS),
            Game(3, 1, 4),
        ),
        withdrawals=(Withdrawal(3, 1),),
    )
    lines = {int(line[4:8]): line for line in write_trf(tournament).splitlines() if line[:3] == "001"}
    assert [len(lines[n]) for n in (1, 2, 3, 4)] == [89 + 30, 89 + 10, 89 + 10, 89 + 30]
    assert lines[1][89:] == "     2 w 1     4 b 1     4 w  "
    assert lines[4][89:] == "     3 b =     1 w 0     1 b  "
    again = load_trf(write_trf(tournament))
    assert sorted(again.games, key=lambda g: (g.round, g.white)) == sorted(
        tournament.games, key=lambda g: (g.round, g.white)
    )
