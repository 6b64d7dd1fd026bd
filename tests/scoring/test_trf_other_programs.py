"""TRF files written by other programs: Swiss-Manager's and JaVaFo's headers, bbpPairings' output."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from scoring import TournamentSystem
from scoring.cli import main
from scoring.trf import load_trf, read_trf, system_of_type_line, write_trf

REPO = Path(__file__).resolve().parents[2]
BBP = REPO / "benchmarks" / ".peers" / "bbpPairings"


def _player(start_no: int, name: str, points: float, *rounds: str) -> str:
    return (f"001 {start_no:4d}      {name:<33} 2000 RUS             1970/01/01 {points:4.1f} {0:4d}"
            + "".join(rounds))


# Four players, three rounds of a round robin, in the shape Swiss-Manager exports (JaVaFo
# reads the same header lines): the system is said only by the 092 line.
ROUND_ROBIN = "\n".join([
    "012 Open cup by correspondence",
    "022 Moscow",
    "032 RUS",
    "042 2025/01/10",
    "052 2025/12/20",
    "062 4",
    "072 4",
    "082 0",
    "092 Individual: Round Robin",
    "102 Chief Arbiter",
    "XXR 3",
    "XXC white1",
    _player(1, "Alpha", 2.0, "     4 w 1", "     2 b 1", "     3 w 0"),
    _player(2, "Bravo", 1.5, "     3 w 1", "     1 w 0", "     4 b ="),
    _player(3, "Charlie", 1.5, "     2 b 0", "     4 w =", "     1 b 1"),
    _player(4, "Delta", 1.0, "     1 b 0", "     3 b =", "     2 w ="),
]) + "\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Individual: Round Robin", (TournamentSystem.ROUND_ROBIN, 1)),
        ("Individual: Double Round Robin", (TournamentSystem.ROUND_ROBIN, 2)),
        ("Team: Round-Robin", (TournamentSystem.ROUND_ROBIN, 1)),
        ("Individual: Swiss-System", (TournamentSystem.SWISS, 1)),
        ("Team: Swiss-System", (TournamentSystem.SWISS, 1)),
        ("FIDE_DUTCH_2025", (TournamentSystem.SWISS, 1)),
        ("FIDE_BURSTEIN", (TournamentSystem.SWISS, 1)),
        ("Knockout", None),
    ],
)
def test_type_line_names_the_system(text: str, expected: tuple[TournamentSystem, int] | None) -> None:
    assert system_of_type_line(text) == expected


def test_a_round_robin_named_by_its_092_line_is_a_round_robin() -> None:
    reading = read_trf(ROUND_ROBIN)
    assert reading.errors == []
    tournament = reading.tournament
    assert tournament.system is TournamentSystem.ROUND_ROBIN and tournament.rounds == 3
    assert tournament.header["type"] == "Individual: Round Robin"
    assert tournament.header["city"] == "Moscow"


def test_a_round_robin_trf_with_a_092_line_ranks_with_shmulyan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rr.trf"
    path.write_text(ROUND_ROBIN, encoding="utf-8")
    assert main(["standings", str(path), "--tiebreaks", "shmulyan", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    # Bravo and Charlie both have 1.5: Bravo beat Charlie (1.5) and lost to Alpha (2): -0.5;
    # Charlie beat Alpha (2) and lost to Bravo (1.5): +0.5, so Charlie is ahead.
    assert [row["start_no"] for row in rows] == [1, 3, 2, 4]
    assert [row["place"] for row in rows] == ["1", "2", "3", "4"]
    assert [row["tiebreaks"]["shmulyan"] for row in rows[1:3]] == [0.5, -0.5]


def test_written_file_keeps_the_other_programs_092_line_and_reads_back_the_same() -> None:
    tournament = load_trf(ROUND_ROBIN)
    text = write_trf(tournament)
    assert "092 Individual: Round Robin" in text.splitlines()
    again = load_trf(text)
    assert again.system is TournamentSystem.ROUND_ROBIN and again.scores == tournament.scores
    assert sorted(again.games, key=lambda g: (g.round, g.white)) == sorted(
        tournament.games, key=lambda g: (g.round, g.white))


def test_our_own_files_say_their_system_in_092_for_other_programs() -> None:
    tournament = load_trf(ROUND_ROBIN.replace("092 Individual: Round Robin", "092 Individual: Swiss-System"))
    assert tournament.system is TournamentSystem.SWISS
    assert "092 Individual: Swiss-System" in write_trf(tournament).splitlines()


def test_cms_line_wins_over_092_and_an_unknown_092_is_reported() -> None:
    both = ROUND_ROBIN + "CMS swiss 1\n"
    assert load_trf(both).system is TournamentSystem.SWISS
    reading = read_trf(ROUND_ROBIN.replace("Individual: Round Robin", "Knockout"))
    assert reading.errors == ["092 line: cannot tell the system from 'Knockout' (round robin or Swiss)"]


def test_team_lines_and_a_team_092_line() -> None:
    text = ROUND_ROBIN.replace("092 Individual: Round Robin", "092 Team: Round Robin") + "\n".join([
        f"013 {'North':<32} {1:4d} {2:4d}",
        f"013 {'South':<32} {3:4d} {4:4d}",
    ]) + "\n"
    tournament = load_trf(text)
    assert [(t.name, t.members) for t in tournament.teams] == [("North", (1, 2)), ("South", (3, 4))]
    written = write_trf(tournament)
    assert "092 Team: Round Robin" in written
    assert [(t.name, t.members) for t in load_trf(written).teams] == [("North", (1, 2)), ("South", (3, 4))]


# -- bbpPairings ----------------------------------------------------------------------------------

FIXTURE = Path(__file__).parent / "data" / "bbp-generated.trf"


def test_a_file_bbppairings_generated_reads_and_round_trips() -> None:
    """A random tournament written by bbpPairings (carriage returns, 092 FIDE_DUTCH_2025)."""
    text = FIXTURE.read_text(encoding="utf-8")
    reading = read_trf(text)
    assert reading.errors == []
    tournament = reading.tournament
    assert tournament.system is TournamentSystem.SWISS and tournament.header["type"] == "FIDE_DUTCH_2025"
    assert len(tournament.players) > 10 and tournament.games
    again = load_trf(write_trf(tournament))
    assert again.scores == tournament.scores and again.rounds == tournament.rounds


@pytest.mark.skipif(not BBP.exists(), reason="bbpPairings not built: benchmarks/peers/build-bbppairings.sh")
def test_bbppairings_checks_the_file_we_write_from_its_own(tmp_path: Path) -> None:
    generated = tmp_path / "generated.trf"
    completed = subprocess.run([str(BBP), "--dutch", "-g", "-o", str(generated), "-s", "2026"],
                               capture_output=True, text=True, check=False, timeout=120)
    assert completed.returncode == 0, completed.stderr
    tournament = load_trf(generated.read_text(encoding="utf-8"))
    ours = tmp_path / "ours.trf"
    ours.write_text(write_trf(tournament), encoding="utf-8")
    # -c: bbpPairings recomputes every round's pairing from our file and compares.
    check = subprocess.run([str(BBP), "--dutch", str(ours), "-c"], capture_output=True, text=True,
                           check=False, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
    assert shutil.which(str(BBP)) is not None
