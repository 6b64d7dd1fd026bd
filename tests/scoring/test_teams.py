"""Team events: match and game points, team tiebreaks, board colours, defaults, Scheveningen."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring import Colour, GameResult, Player, Team, Tournament, TournamentSystem
from scoring.errors import InconsistentResultError, ScoringError, TiebreakNotApplicableError
from scoring.teams import (
    TEAM_TIEBREAKS,
    TeamScoring,
    board_colours,
    default_match,
    match_games,
    scheveningen_schedule,
    team_matches,
    team_standings,
    withdraw_team,
)

W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS
A, BT, C = Team("A", (1, 2)), Team("B", (3, 4)), Team("C", (5, 6))


@pytest.fixture
def three_teams() -> Tournament:
    """A beats B 1.5-0.5, C and A draw 1-1, B beats C 2-0 (two boards, round robin).

    Game points A 2.5, B 2.5, C 1; match points A 3, B 2, C 1.
    """
    results = [W, D, W, W, W, B]  # board by board: 1-3, 4-2 | 5-1, 2-6 | 3-5, 6-4
    games = match_games(1, A, BT, Colour.WHITE) + match_games(2, C, A, Colour.WHITE) + match_games(3, BT, C, Colour.WHITE)
    played = tuple(replace(g, result=r) for g, r in zip(games, results, strict=True))
    players = tuple(Player(n, f"P{n}") for n in range(1, 7))
    return Tournament(players, played, teams=(A, BT, C), system=TournamentSystem.ROUND_ROBIN)


def test_board_colours_follow_board_one() -> None:
    assert board_colours(4, Colour.WHITE) == (Colour.WHITE, Colour.BLACK, Colour.WHITE, Colour.BLACK)
    assert [(g.white, g.black) for g in match_games(1, A, BT, Colour.BLACK)] == [(3, 1), (2, 4)]


def test_matches_game_and_match_points(three_teams: Tournament) -> None:
    matches = team_matches(three_teams)
    assert [(m.opponent, m.game_points, m.match_points) for m in matches["A"]] == [("B", 1.5, 2.0), ("C", 1.0, 1.0)]
    rows = {r.team: r for r in team_standings(three_teams, ["match_points"])}
    assert {t: (r.game_points, r.match_points) for t, r in rows.items()} == {"A": (2.5, 3.0), "B": (2.5, 2.0), "C": (1.0, 1.0)}


def test_team_sonneborn_berger_variants(three_teams: Tournament) -> None:
    names = ["team_sonneborn_berger", "team_sb_a", "team_sb_b", "team_sb_c", "team_sb_d", "team_sb_a_cut", "team_sb_d_cut", "team_shmulyan"]
    got = {r.team: r.tiebreaks for r in team_standings(three_teams, names)}
    # A: B (gp 2.5, mp 2) scored 1.5 gp / 2 mp against; C (gp 1, mp 1) 1 gp / 1 mp.
    assert got["A"] == {
        "team_sonneborn_berger": 2.5 * 1.5 + 1 * 1,  # 001 §5.4.8.3.2 with game points primary
        "team_sb_a": 2 * 2 + 1 * 1,
        "team_sb_b": 2 * 1.5 + 1 * 1,
        "team_sb_c": 2.5 * 2 + 1 * 1,
        "team_sb_d": 2.5 * 1.5 + 1 * 1,
        "team_sb_a_cut": 2 * 2,
        "team_sb_d_cut": 2.5 * 1.5,
        "team_shmulyan": 2.5 * 1.5,  # won against B, lost none
    }
    # B: A (gp 2.5, mp 3) 0.5 gp / 0 mp; C (1, 1) 2 gp / 2 mp.  Shmulyan: won C 1 × 2, lost A 2.5 × 1.5.
    assert got["B"]["team_sb_a"] == 3 * 0 + 1 * 2
    assert got["B"]["team_sb_b"] == 3 * 0.5 + 1 * 2
    assert got["B"]["team_shmulyan"] == 1 * 2 - 2.5 * 1.5
    assert got["C"]["team_shmulyan"] == -(2.5 * 2)


def test_direct_encounter_decides_level_teams(three_teams: Tournament) -> None:
    rows = team_standings(three_teams, ["direct_encounter"])
    assert [(r.place, r.team) for r in rows] == [("1", "A"), ("2", "B"), ("3", "C")]
    assert rows[0].tiebreaks["direct_encounter"] == 2.0


def test_match_points_primary(three_teams: Tournament) -> None:
    rows = team_standings(three_teams, None, TeamScoring.MATCH_POINTS)
    assert [(r.team, r.points) for r in rows] == [("A", 3.0), ("B", 2.0), ("C", 1.0)]
    assert list(rows[0].tiebreaks) == ["game_points", "direct_encounter", "team_sonneborn_berger"]


def test_team_shmulyan_only_in_round_robins(three_teams: Tournament) -> None:
    with pytest.raises(TiebreakNotApplicableError, match="001 §5.4.8.4.3"):
        team_standings(replace(three_teams, system=TournamentSystem.SWISS), ["team_shmulyan"])


def test_team_default_loses_every_board() -> None:
    games = default_match(match_games(1, A, BT, Colour.WHITE), BT)
    assert [g.result for g in games] == [GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN]


def test_team_withdrawal_annuls_or_forfeits(three_teams: Tournament) -> None:
    pending = replace(three_teams, games=tuple(replace(g, result=GameResult.PENDING) if g.round == 3 else g for g in three_teams.games))
    forfeited = withdraw_team(pending, "C", annul=False)
    assert {g.result for g in forfeited.games if g.round == 3} == {GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN}
    annulled = withdraw_team(pending, "C", annul=True)
    assert {r.team: r.game_points for r in team_standings(annulled, [])} == {"A": 1.5, "B": 0.5, "C": 0.0}
    with pytest.raises(ScoringError, match="no team 'Z'"):
        withdraw_team(pending, "Z", annul=True)


def test_a_team_meeting_two_teams_in_a_round_is_an_error(three_teams: Tournament) -> None:
    odd = replace(three_teams, games=three_teams.games[:1] + (replace(three_teams.games[1], black=5, white=2),) + three_teams.games[2:])
    with pytest.raises(InconsistentResultError, match="000 §3.17.1"):
        team_matches(odd)


def test_scheveningen_everyone_meets_everyone() -> None:
    schedule = scheveningen_schedule(4)
    assert {(p.first, p.second) for p in schedule} == {(a, b) for a in range(1, 5) for b in range(1, 5)}
    assert max(p.round for p in schedule) == 4
    for board in range(1, 5):
        colours = [p.first_colour for p in schedule if p.first == board]
        assert colours.count(Colour.WHITE) == 2


def test_semi_scheveningen_halves() -> None:
    schedule = scheveningen_schedule(8, semi=True)
    assert max(p.round for p in schedule) == 4
    assert all((p.first <= 4) == (p.second <= 4) for p in schedule)
    assert len(schedule) == 32
    with pytest.raises(ScoringError):
        scheveningen_schedule(7, semi=True)


def test_every_team_tiebreak_runs(three_teams: Tournament) -> None:
    for name in TEAM_TIEBREAKS:
        assert len(team_standings(three_teams, [name])) == 3



def test_direct_encounter_partial_case_with_match_points() -> None:
    # Three level teams: A beat B and C (2 match points each), B and C never met. B or C could
    # reach at most 2 by winning their missing match, A has 4: A first, B and C stay level.
    from scoring.ranking import TiebreakValue, direct_encounter_values

    values = direct_encounter_values(
        ["A", "B", "C"],
        {"A": 4.0, "B": 0.0, "C": 0.0},
        {"A": {"B", "C"}, "B": {"A"}, "C": {"A"}},
        2.0,
    )
    assert values == {"A": TiebreakValue(4.0, (3.0,)), "B": TiebreakValue(0.0, (0.0,)), "C": TiebreakValue(0.0, (0.0,))}
    # With A on 2 (one win, one loss), C could still reach 2 + 2: nobody is separated.
    level = direct_encounter_values(["A", "B", "C"], {"A": 2.0, "B": 0.0, "C": 2.0}, {"A": {"B", "C"}, "B": {"A"}, "C": {"A"}}, 2.0)
    assert {team: value.key for team, value in level.items()} == {"A": (0.0,), "B": (0.0,), "C": (0.0,)}
