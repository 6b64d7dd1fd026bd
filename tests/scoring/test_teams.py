"""Team events: match and game points, team tiebreaks, board colours, defaults, Scheveningen."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring import Colour, GameResult, Player, Team, Tournament, TournamentSystem
from scoring.errors import (
    InconsistentResultError,
    PlayoffError,
    ScoringError,
    TiebreakNotApplicableError,
)
from scoring.teams import (
    TEAM_TIEBREAKS,
    BoardPairing,
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


def test_recorded_team_playoff_overrides_the_order(three_teams: Tournament) -> None:
    """000 §3.16.2, 003 §2: A and B are level on game points (2.5); a recorded play-off won by B
    puts B first although A won their match."""
    assert [(r.place, r.team) for r in team_standings(three_teams, [])] == [("1-2", "A"), ("1-2", "B"), ("3", "C")]
    decided = replace(three_teams, team_playoff=(("B",), ("A",)))
    assert [(r.place, r.team) for r in team_standings(decided, ["direct_encounter"])] == [("1", "B"), ("2", "A"), ("3", "C")]


@pytest.mark.parametrize(
    ("playoff", "reason"),
    [
        ((("A",), ("C",)), "level on points (000 §3.16.2)"),  # C has 1 game point, A 2.5
        ((("A",), ("Z",)), "take no place"),
        ((("A",), ("A", "B")), "listed twice"),
    ],
)
def test_a_team_playoff_that_does_not_fit_is_refused(
    three_teams: Tournament, playoff: tuple[tuple[str, ...], ...], reason: str
) -> None:
    with pytest.raises(PlayoffError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        team_standings(replace(three_teams, team_playoff=playoff), [])


def test_team_playoff_survives_the_json_format(three_teams: Tournament) -> None:
    from scoring.jsonformat import read_json, to_json

    decided = replace(three_teams, team_playoff=(("B",), ("A",)))
    assert read_json(to_json(decided)).team_playoff == (("B",), ("A",))


def test_team_results_against_the_others_in_order_of_places() -> None:
    """000 §3.16.3 / 001 §5.4.8.2 read for teams: A and B level on game points (3.5) and drew
    their match; against C, placed highest of the rest, A won and B drew — A goes first."""
    a, b, c, d = Team("A", (1, 2)), Team("B", (3, 4)), Team("C", (5, 6)), Team("D", (7, 8))
    schedule = [
        (match_games(1, a, b, Colour.WHITE), [D, D]),
        (match_games(1, c, d, Colour.WHITE), [W, B]),  # C 2-0
        (match_games(2, a, c, Colour.WHITE), [W, B]),  # A 2-0
        (match_games(2, b, d, Colour.WHITE), [W, D]),  # B 1.5-0.5
        (match_games(3, a, d, Colour.WHITE), [D, W]),  # A 0.5-1.5
        (match_games(3, b, c, Colour.WHITE), [D, D]),
    ]
    games = tuple(replace(g, result=r) for match, results in schedule for g, r in zip(match, results, strict=True))
    event = Tournament(tuple(Player(n, f"P{n}") for n in range(1, 9)), games, teams=(a, b, c, d),
                       system=TournamentSystem.ROUND_ROBIN)
    rows = team_standings(event, ["direct_encounter", "results_vs_placed"])
    assert [(r.place, r.team, r.game_points) for r in rows] == [
        ("1", "A", 3.5), ("2", "B", 3.5), ("3", "C", 3.0), ("4", "D", 2.0)
    ]
    assert [(r.place, r.team) for r in team_standings(event, ["direct_encounter"])][:2] == [("1-2", "A"), ("1-2", "B")]


def _unbeaten_runner_up(second_match: list[GameResult]) -> Tournament:
    """Four boards: B beats A 2.5-1.5, B plays C (``second_match``), A beats C 4-0."""
    a, b, c = Team("A", (1, 2, 3, 4)), Team("B", (5, 6, 7, 8)), Team("C", (9, 10, 11, 12))
    schedule = [
        (match_games(1, b, a, Colour.WHITE), [W, B, D, W]),
        (match_games(2, b, c, Colour.WHITE), second_match),
        (match_games(3, a, c, Colour.WHITE), [W, B, W, B]),
    ]
    games = tuple(replace(g, result=r) for match, results in schedule for g, r in zip(match, results, strict=True))
    return Tournament(tuple(Player(n, f"P{n}") for n in range(1, 13)), games, teams=(a, b, c),
                      system=TournamentSystem.ROUND_ROBIN)


def test_a_runner_up_that_won_every_match_may_play_off_for_first_place() -> None:
    """000 §3.17.6: B won both its matches but has fewer game points (5) than A (5.5); the extra
    match for first place, won by B, gives B first place."""
    event = _unbeaten_runner_up([W, B, D, W])
    assert [(r.place, r.team, r.game_points) for r in team_standings(event, [])] == [
        ("1", "A", 5.5), ("2", "B", 5.0), ("3", "C", 1.5)
    ]
    decided = replace(event, team_playoff=(("B",), ("A",)))
    assert [(r.place, r.team) for r in team_standings(decided, [])] == [("1", "B"), ("2", "A"), ("3", "C")]


def test_the_extra_match_for_first_place_is_refused_without_its_conditions() -> None:
    """000 §3.17.6: only the team placed second, and only if it won every match; otherwise a
    play-off needs level points (000 §3.16.2)."""
    event = _unbeaten_runner_up([W, B, D, W])
    with pytest.raises(PlayoffError, match="placed first and second alone"):
        team_standings(replace(event, team_playoff=(("C",), ("A",))), [])
    drew_c = _unbeaten_runner_up([D, D, D, D])  # B 4.5: drew with C
    with pytest.raises(PlayoffError, match="did not win every match"):
        team_standings(replace(drew_c, team_playoff=(("B",), ("A",))), [])


def _colours_by_round(schedule: tuple[BoardPairing, ...]) -> dict[int, list[Colour]]:
    rounds: dict[int, list[Colour]] = {}
    for pairing in sorted(schedule, key=lambda p: (p.round, p.first)):
        rounds.setdefault(pairing.round, []).append(pairing.first_colour)
    return rounds


def test_semi_scheveningen_with_odd_halves_alternates_colours_across_the_whole_match() -> None:
    """000 §3.17.3 with 6-board teams: boards 4–6 continue the alternation of boards 1–3
    (W B W B W B), they do not repeat it (W B W W B W was the defect)."""
    schedule = scheveningen_schedule(6, semi=True)
    W, B = Colour.WHITE, Colour.BLACK
    assert _colours_by_round(schedule)[1] == [W, B, W, B, W, B]
    assert _colours_by_round(schedule)[2] == [B, W, B, W, B, W]
    assert all((p.first <= 3) == (p.second <= 3) for p in schedule)
    assert {(p.first, p.second) for p in schedule} == {
        (a, b) for half in ((1, 2, 3), (4, 5, 6)) for a in half for b in half
    }


def test_scheveningen_four_by_four_balances_every_players_colours() -> None:
    """Each of the eight players is white in exactly two of his four games (the second team's
    players 5–8 were all-black or all-white before)."""
    schedule = scheveningen_schedule(4)
    for player in range(1, 5):
        assert [p.first_colour for p in schedule if p.first == player].count(Colour.WHITE) == 2
        assert [p.first_colour for p in schedule if p.second == player].count(Colour.BLACK) == 2


@pytest.mark.parametrize("semi", [False, True])
@pytest.mark.parametrize("size", range(1, 13))
def test_scheveningen_schedules_keep_3_17_3_and_balance(size: int, semi: bool) -> None:
    if semi and size % 2:
        return
    schedule = scheveningen_schedule(size, semi)
    width = size // 2 if semi else size
    half = (lambda board: (board - 1) // width) if semi else (lambda board: 0)
    assert len({(p.first, p.second) for p in schedule}) == len(schedule) == size * width
    assert all(half(p.first) == half(p.second) for p in schedule)
    for round_no, colours in _colours_by_round(schedule).items():
        assert len(colours) == size
        assert all(colours[k] is not colours[k + 1] for k in range(size - 1)), round_no
        assert {p.second for p in schedule if p.round == round_no} == set(range(1, size + 1))
    most = (width + 1) // 2 + (0 if width % 4 == 0 else 1)
    for player in range(1, size + 1):
        first = [p.first_colour for p in schedule if p.first == player]
        second = [p.first_colour.opposite for p in schedule if p.second == player]
        assert abs(first.count(Colour.WHITE) - first.count(Colour.BLACK)) <= 1
        assert max(second.count(Colour.WHITE), second.count(Colour.BLACK)) <= most


def test_scheveningen_schedule_is_deterministic() -> None:
    assert scheveningen_schedule(10) == scheveningen_schedule(10)
