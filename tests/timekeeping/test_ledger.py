"""The JSON ledger: 1:1 with the dataclasses, every malformed field reported."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from timekeeping import (
    Break,
    LedgerFormatError,
    LetterEntry,
    Penalty,
    Side,
    TimeControl,
    ledger_from_dict,
    ledger_to_dict,
    read_ledger,
)

ISSUE_EXAMPLE: dict[str, Any] = {
    "start_date": "2026-02-01", "end_date": "2027-08-01",
    "control": {"days": 50, "moves": 10},
    "start_sheet_received": {"white": "2026-01-25", "black": "2026-02-03"},
    "breaks": [{"player": "black", "first_day": "2026-05-10", "last_day": "2026-05-25",
                "notice_postmark": "2026-05-01"}],
    "letters": [
        {"from": "white", "move": 1, "sent": "2026-02-01"},
        {"from": "black", "move": 1, "partner_sent_postmark": "2026-02-01",
         "received": "2026-02-05", "sent": "2026-02-07"},
        {"from": "white", "move": 2, "partner_sent_postmark": "2026-02-08", "corrects_partner": True,
         "received": "2026-02-12", "sent": "2026-02-12", "uncounted_moves": 0,
         "penalty_days_charged_to_partner": 0},
    ],
    "penalties": [{"player": "white", "days": 6, "after_letter": 3, "rule": "002 §4.3.7"}],
}


def test_issue_example_maps_onto_the_dataclasses() -> None:
    ledger = ledger_from_dict(ISSUE_EXAMPLE)
    assert ledger.start_date == date(2026, 2, 1) and ledger.end_date == date(2027, 8, 1)
    assert ledger.control == TimeControl(50, 10)
    assert ledger.start_sheet_received == {Side.WHITE: date(2026, 1, 25), Side.BLACK: date(2026, 2, 3)}
    assert ledger.breaks == (Break(Side.BLACK, date(2026, 5, 10), date(2026, 5, 25), date(2026, 5, 1)),)
    assert ledger.letters[0] == LetterEntry(Side.WHITE, 1, sent=date(2026, 2, 1))
    assert ledger.letters[2] == LetterEntry(Side.WHITE, 2, sent=date(2026, 2, 12), received=date(2026, 2, 12),
                                            partner_sent_postmark=date(2026, 2, 8), corrects_partner=True)
    assert ledger.penalties == (Penalty(Side.WHITE, 6, 3, "002 §4.3.7"),)


def test_round_trip() -> None:
    ledger = ledger_from_dict(ISSUE_EXAMPLE)
    assert ledger_from_dict(ledger_to_dict(ledger)) == ledger
    assert ledger_from_dict(json.loads(json.dumps(ledger_to_dict(ledger)))) == ledger


def test_defaults() -> None:
    ledger = ledger_from_dict({"start_date": "2026-02-01"})
    assert ledger.control == TimeControl(50, 10) and ledger.letters == () and ledger.end_date is None


def problems_of(data: dict[str, Any]) -> list[tuple[str, object]]:
    with pytest.raises(LedgerFormatError) as raised:
        ledger_from_dict(data)
    return [(problem.path, problem.value) for problem in raised.value.problems]


def test_unknown_player() -> None:
    data = {"start_date": "2026-02-01", "letters": [{"from": "red", "move": 1, "sent": "2026-02-01"}],
            "breaks": [{"player": "Петров", "first_day": "2026-05-10", "last_day": "2026-05-25"}]}
    assert problems_of(data) == [("letters[0].from", "red"), ("breaks[0].player", "Петров")]


def test_every_problem_is_listed_with_its_path() -> None:
    data = {
        "start_date": "31.02.2026",
        "colour": "white",
        "control": {"days": 0},
        "letters": [{"from": "white", "move": 0, "sent": "2026-02-01", "recieved": "2026-02-03"},
                    {"from": "black", "move": "2", "sent": None}],
        "penalties": [{"player": "white", "days": -6, "after_letter": 1}],
    }
    assert problems_of(data) == [
        ("colour", "white"),
        ("start_date", "31.02.2026"),
        ("control.days", 0),
        ("letters[0].recieved", "2026-02-03"),
        ("letters[0].move", 0),
        ("letters[1].move", "2"),
        ("letters[1].sent", None),
        ("penalties[0].days", -6),
    ]


def test_error_message_names_the_field() -> None:
    with pytest.raises(LedgerFormatError, match=r"letters\[0\]\.sent: no such day"):
        ledger_from_dict({"start_date": "2026-02-01", "letters": [{"from": "white", "move": 1, "sent": "2026-02-30"}]})


def test_wrong_types() -> None:
    assert problems_of({"start_date": 20260201, "letters": {"from": "white"}, "breaks": [[]]}) == [
        ("start_date", 20260201), ("letters", {"from": "white"}), ("breaks[0]", []),
        ("breaks[0].player", None), ("breaks[0].first_day", None), ("breaks[0].last_day", None)]


def test_read_ledger(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ISSUE_EXAMPLE, ensure_ascii=False), encoding="utf-8")
    assert read_ledger(path) == ledger_from_dict(ISSUE_EXAMPLE)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(LedgerFormatError, match="expected a JSON object"):
        read_ledger(path)
