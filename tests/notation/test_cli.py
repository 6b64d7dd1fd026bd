"""The command-line contract: perft, moves, check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from notation.__main__ import main


def test_perft_prints_one_line_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--type", "russian", "--depth", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 7", "2 49", "3 302", "4 1469"]


def test_perft_international_and_giveaway(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--type", "international", "--depth", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 9", "2 81", "3 658"]
    assert main(["perft", "--type", "giveaway", "--depth", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 7", "2 49"]


def test_perft_keep_duplicates_from_a_fen(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "W:WKh6:Bd2,g5"
    assert main(["perft", "--type", "russian", "--depth", "1", "--fen", fen]) == 0
    assert capsys.readouterr().out == "1 1\n"
    assert main(["perft", "--type", "russian", "--depth", "1", "--fen", fen, "--keep-duplicates"]) == 0
    assert capsys.readouterr().out == "1 2\n"


def test_moves_prints_sorted_full_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--type", "russian", "--fen", "W:WKa1:Bc3,e5,c7"]) == 0
    assert capsys.readouterr().out.splitlines() == ["a1:d4:f6", "a1:d4:g7", "a1:d4:h8"]


def test_bad_fen_and_bad_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--type", "russian", "--fen", "W:Wz9"]) == 2
    assert "z9" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["moves", "--type", "chess"])


def test_check_reports_bad_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "games.pdn"
    archive.write_text(
        '[GameType "25"]\n1. c3-d4 f6-g5 *\n\n[GameType "25"]\n1. c3-d4 f6-g5 2. d4-e5 d6-c5 *\n',
        encoding="utf-8",
    )
    assert main(["check", str(archive)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("game 2 move 2:")


def test_check_passes_good_archive(tmp_path: Path) -> None:
    archive = tmp_path / "good.pdn"
    archive.write_text('[GameType "20"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    assert main(["check", str(archive)]) == 0
    assert main(["check", str(tmp_path / "missing.pdn")]) == 2


def test_module_entry_point_runs() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "notation", "perft", "--type", "giveaway", "--depth", "3"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout.splitlines() == ["1 7", "2 49", "3 302"]
