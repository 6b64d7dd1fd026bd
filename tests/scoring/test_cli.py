"""``python -m scoring standings|tiebreaks|roundrobin``, the JSON format and the crosstable."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scoring import Tournament
from scoring.cli import main
from scoring.crosstable import crosstable
from scoring.errors import FormatError
from scoring.jsonformat import read_json, to_json
from scoring.trf import write_trf


@pytest.fixture
def swiss_file(tmp_path: Path, swiss_five: Tournament) -> Path:
    path = tmp_path / "swiss.trf"
    path.write_text(write_trf(swiss_five), encoding="utf-8")
    return path


def test_standings_json_rows(swiss_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(swiss_file), "--tiebreaks", "wins,buchholz", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0] == {
        "place": "1", "start_no": 1, "name": "Player 1", "points": 2.5, "norm_points": 2.5,
        "tiebreaks": {"wins": 2.0, "buchholz": 5.0}, "rating": 1920, "club": "",
        "games_played": 3, "withdrawn": False, "by_lot": False,
    }
    # 2 and 4 have 2 points; 2 has two wins (one a bye's plus), 4 one.
    assert [(r["place"], r["start_no"]) for r in rows[1:3]] == [("2", 2), ("3", 4)]


def test_standings_points_preset_policy_text_and_csv(swiss_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(swiss_file), "--points", "2,1,0", "--preset", "swiss", "--unplayed", "virtual-opponent"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split()[:5] == ["place", "start_no", "name", "points", "direct_encounter"]
    assert "5" in text.splitlines()[1]
    assert main(["standings", str(swiss_file), "--tiebreaks", "buchholz", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "place,start_no,name,points,buchholz"
    assert lines[1] == "1,1,Player 1,2.5,5"


def test_standings_with_crosstable(swiss_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(swiss_file), "--format", "json", "--crosstable"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["crosstable"]["order"][0] == 1
    assert data["crosstable"]["rounds"][0][0] == {"round": 1, "opponent": 2, "symbol": "1", "colour": "w", "adjudicated": False, "annulled": False}


def test_unknown_tiebreak_and_shmulyan_on_swiss_fail_clearly(swiss_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(swiss_file), "--tiebreaks", "bucholz"]) == 2
    assert "unknown name 'bucholz'" in capsys.readouterr().err
    assert main(["standings", str(swiss_file), "--tiebreaks", "shmulyan"]) == 2
    assert "001 §5.4.8.4.3" in capsys.readouterr().err


def test_bad_trf_fails_with_every_defect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      A                                 2000                             1.0    0     1 w 1\n", encoding="utf-8")
    assert main(["standings", str(bad)]) == 2
    assert "cannot meet himself" in capsys.readouterr().err


def test_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(tmp_path / "none.trf")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_json_file_and_team_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str], swiss_five: Tournament) -> None:
    from scoring import Team

    teams = replace(swiss_five, teams=(Team("North", (1, 2)), Team("South", (3, 4, 5))))
    path = tmp_path / "t.json"
    path.write_text(to_json(swiss_five), encoding="utf-8")
    assert main(["standings", str(path), "--tiebreaks", "wins", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["start_no"] == 1
    assert read_json(to_json(teams)).teams == teams.teams


def test_tiebreaks_lists_every_name_with_its_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiebreaks", "--format", "json"]) == 0
    entries = {e["name"]: e for e in json.loads(capsys.readouterr().out) if e["scope"] == "individual"}
    assert entries["shmulyan"]["rule"].startswith("000 §3.16.4")
    assert {"sonneborn_berger_double", "solkoff_truncated", "koya_extended", "aro_cut1", "black_games"} <= set(entries)


def test_roundrobin_prints_the_berger_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundrobin", "--players", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Rd  1: 1-4  2-3", "Rd  2: 4-3  1-2", "Rd  3: 2-4  3-1"]
    assert main(["roundrobin", "--players", "3", "--double", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["rounds"]) == 6 and data["rounds"][0]["resting"] == 1
    assert main(["roundrobin", "--players", "1"]) == 2


def test_json_round_trip_and_errors(swiss_five: Tournament) -> None:
    again = read_json(to_json(swiss_five))
    assert again.games == swiss_five.games and again.unpaired == swiss_five.unpaired
    with pytest.raises(FormatError) as raised:
        read_json('{"players": [{"name": "x"}], "games": [{"round": 1, "white": 1, "black": 1}], "points": [0, 1, 2]}')
    problems = raised.value.problems
    assert any("players[0]: missing 'start_no'" in p for p in problems)
    assert any("cannot meet himself" in p for p in problems)
    assert any("points:" in p for p in problems)
    with pytest.raises(FormatError, match="not JSON"):
        read_json("{oops")


def test_crosstable_marks_forfeits_and_adjudications(swiss_five: Tournament) -> None:
    marked = replace(swiss_five, games=tuple(replace(g, adjudicated=True) if g.round == 1 and g.white == 1 else g for g in swiss_five.games))
    table = crosstable(marked)
    assert table.order == (1, 2, 3, 4, 5)
    cell = table.matrix[0][1][0]
    assert (cell.symbol, cell.adjudicated) == ("1", True)
    assert table.matrix[4][2][0].symbol == "−"
    assert table.rounds[4][0] is not None and table.rounds[4][0].symbol == "+"
    assert table.matrix[0][0] == ()


def test_team_standings_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scoring import Colour, Player, Team, TournamentSystem
    from scoring.result import GameResult
    from scoring.teams import match_games

    north, south = Team("North", (1, 2)), Team("South", (3, 4))
    games = tuple(
        replace(game, result=result)
        for game, result in zip(match_games(1, north, south, Colour.WHITE), [GameResult.WHITE_WINS, GameResult.DRAW], strict=True)
    )
    event = Tournament(tuple(Player(n, f"P{n}") for n in range(1, 5)), games, teams=(north, south), system=TournamentSystem.ROUND_ROBIN)
    path = tmp_path / "teams.trf"
    path.write_text(write_trf(event), encoding="utf-8")
    assert main(["standings", str(path), "--teams", "--preset", "team-round-robin"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["place", "team", "points", "match_points", "game_points", "match_points", "direct_encounter", "team_sonneborn_berger"]
    assert lines[1].split()[:5] == ["1", "North", "1.5", "2", "1.5"]
    assert main(["standings", str(path), "--teams", "--tiebreaks", "shmulyan"]) == 2
    assert "unknown name 'shmulyan'" in capsys.readouterr().err
