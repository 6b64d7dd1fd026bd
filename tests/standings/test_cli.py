"""``corrmail standings CODE --format …`` and ``corrmail export CODE``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from corrmail.cli import main
from corrmail.demo.tournament import DEMO_CODE
from corrmail.models import Tournament


@pytest.fixture
def db_url(sqlite_url: str) -> str:
    return sqlite_url


@pytest.fixture
def runner(db_url: str, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    return CliRunner()


def test_standings_in_four_formats(runner: CliRunner, demo_tournament: Tournament) -> None:
    as_json = runner.invoke(main, ["standings", DEMO_CODE, "--format", "json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["tournament"] == DEMO_CODE and len(data["standings"]) == 6
    as_csv = runner.invoke(main, ["standings", DEMO_CODE, "--format", "csv"])
    assert as_csv.stdout_bytes.startswith(b"\xef\xbb\xbf")
    assert "Иванов Пётр Сергеевич" in as_csv.stdout_bytes.decode("utf-8-sig")
    as_trf = runner.invoke(main, ["standings", DEMO_CODE, "--format", "trf"])
    assert as_trf.exit_code == 0 and as_trf.output.startswith(f"012 {DEMO_CODE} ")
    assert sum(line.startswith("001 ") for line in as_trf.output.splitlines()) == 6
    as_text = runner.invoke(main, ["standings", DEMO_CODE])
    assert as_text.exit_code == 0 and as_text.output.startswith(DEMO_CODE)


def test_export_writes_five_files(
    runner: CliRunner, demo_tournament: Tournament, tmp_path: Path
) -> None:
    result = runner.invoke(main, ["export", DEMO_CODE, "--output", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    written = [Path(line) for line in result.output.splitlines()]
    assert len(written) == 5 and all(path.is_file() for path in written)
    assert (tmp_path / "out" / f"{DEMO_CODE}.trf").read_text(encoding="utf-8").startswith(
        f"012 {DEMO_CODE} ")
    assert (tmp_path / "out" / f"{DEMO_CODE}.pdn").read_text(encoding="utf-8").count("[Event ") == 15


def test_unknown_tournament_is_a_clear_error(runner: CliRunner, demo_tournament: Tournament) -> None:
    result = runner.invoke(main, ["standings", "NOPE"])
    assert result.exit_code == 1
    assert "no tournament 'NOPE'" in result.output
    assert runner.invoke(main, ["export", "NOPE"]).exit_code == 1
