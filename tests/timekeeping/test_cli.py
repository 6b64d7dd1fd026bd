"""``python -m timekeeping chart LEDGER.json [--format json|text]``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from timekeeping.__main__ import main

LEDGER = {
    "start_date": "2026-02-01", "end_date": "2027-08-01",
    "control": {"days": 50, "moves": 10},
    "start_sheet_received": {"white": "2026-01-25", "black": "2026-02-03"},
    "breaks": [
        {"player": "black", "first_day": "2026-05-10", "last_day": "2026-05-25", "notice_postmark": "2026-05-01"},
        {"player": "black", "first_day": "2026-09-01", "last_day": "2026-09-05", "notice_postmark": "2026-08-01"},
    ],
    "letters": [
        {"from": "white", "move": 1, "sent": "2026-02-01"},
        {"from": "black", "move": 1, "partner_sent_postmark": "2026-02-01", "received": "2026-02-05", "sent": "2026-02-07"},
        {"from": "white", "move": 2, "partner_sent_postmark": "2026-02-08", "corrects_partner": True,
         "received": "2026-02-12", "sent": "2026-02-12"},
    ],
    "penalties": [{"player": "white", "days": 6, "after_letter": 3, "rule": "002 §4.3.7"}],
}


@pytest.fixture()
def ledger_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(LEDGER), encoding="utf-8")
    return path


def test_json_output(ledger_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chart", str(ledger_file)]) == 0
    output = json.loads(capsys.readouterr().out)
    assert [(r["letter"], r["from"], r["move"], r["received"], r["sent"], r["days"], r["totals"])
            for r in output["rows"]] == [
        (1, "white", 1, None, "2026-02-01", 0, {"white": 0, "black": 0}),
        # Black's start is 04.02 (sheet on 03.02); the postmark 08.02 corrects his 07.02.
        (2, "black", 1, "2026-02-05", "2026-02-08", 3, {"white": 0, "black": 3}),
        (3, "white", 2, "2026-02-12", "2026-02-12", 0, {"white": 6, "black": 3}),
    ]
    assert output["overstep"] is None
    assert output["totals"] == {"white": 6, "black": 3}
    assert [(e["rule"], e["value"]) for e in output["errors"]] == [("002 §4.4.1", "2026-09-01..2026-09-05")]


def test_text_output(ledger_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chart", str(ledger_file), "--format", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("Получ\tОтпр.\tНа ход\tОбщее")
    assert lines[2].split("\t") == ["", "01.02", "0", "0", "", "1", "", "05.02", "08.02", "3", "3"]
    assert lines[3].split("\t")[:4] == ["12.02", "12.02", "0+6", "6"]


def test_malformed_ledger_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"start_date": "2026-02-01", "letters": [{"from": "red", "move": 1, "sent": "x"}]}))
    assert main(["chart", str(path)]) == 2
    error = capsys.readouterr().err
    assert "letters[0].from: unknown player" in error and "letters[0].sent" in error
    path.write_text("{not json")
    assert main(["chart", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["chart", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_module_entry_point(ledger_file: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "timekeeping", "chart", str(ledger_file), "--format", "json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(result.stdout)["totals"] == {"white": 6, "black": 3}


def test_clock_of_the_player_to_move(ledger_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock", str(ledger_file), "--player", "black", "--received", "2026-02-15",
                 "--on", "20.02.2026"]) == 0
    report = json.loads(capsys.readouterr().out)
    # Black has 3 days, his 2nd move allows 50: 47 more after 15.02 is 03.04.
    assert report == {
        "player": "black", "counting_from": "2026-02-15", "total": 3, "next_counted_moves": 2, "limit": 50,
        "last_safe_reply_date": "2026-04-03", "days_left": {"on": "2026-02-20", "days": 42},
        "repeat_due": {"player": "white", "date": "2026-03-14"},
    }


def test_clock_of_a_waiting_player_exits_2(ledger_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock", str(ledger_file), "--player", "white"]) == 2
    assert "white is not to move" in capsys.readouterr().err


def test_clock_before_the_first_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"start_date": "2026-02-01"}))
    assert main(["clock", str(path), "--player", "white"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["first_move_query_date"] == "2026-03-03" and report["last_safe_reply_date"] == "2026-03-23"


def test_clock_rejects_an_unreadable_date(ledger_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["clock", str(ledger_file), "--player", "black", "--on", "31.02.2026"])
    assert raised.value.code == 2
    assert "no such day" in capsys.readouterr().err
