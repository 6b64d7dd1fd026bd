"""``python -m scoring pair | check-pairings | generate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.cli import main
from scoring.trf import load_trf, write_trf

from .conftest import EventFactory


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_pair_json_names_start_numbers(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(8, "1-5 1-0; 6-2 0-1; 3-7 1-0; 8-4 0-1", total_rounds=5)
    assert main(["pair", write(tmp_path, write_trf(event)), "--system", "coefficients"]) == 0
    draw = json.loads(capsys.readouterr().out)
    assert draw["round"] == 2
    assert {(p["white"], p["black"]) for p in draw["pairs"]} == {(2, 4), (1, 3), (6, 8), (5, 7)}
    assert draw["bye"] is None and draw["floats"] == [] and isinstance(draw["notes"], list)


def test_pair_trf_appends_the_round_and_reads_back(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(5, "1-2 1-0; 3-4 =; 5 bye")
    path = write(tmp_path, write_trf(event))
    assert main(["pair", path, "--system", "buchholz", "--format", "trf", "--absent", "3"]) == 0
    paired = load_trf(capsys.readouterr().out)
    assert paired.last_round == 2
    round_two = [g for g in paired.games if g.round == 2]
    assert len(round_two) == 2
    assert {u.player for u in paired.unpaired if u.round == 2} == {3}


def test_pair_text_is_readable(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(3, "1-2 1-0; 3 bye")
    assert (
        main(
            [
                "pair",
                write(tmp_path, write_trf(event)),
                "--system",
                "random",
                "--format",
                "text",
                "--seed",
                "5",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert text.startswith("Round 2 (random, 000 §3.18.4)")
    assert "bye (+):" in text and "note:" in text


@pytest.mark.parametrize(
    ("rounds", "extra", "fragment"),
    [
        (("1-2 *; 3-4 1-0",), [], "without a result"),
        (("1-2 1-0; 3-4 1-0",), ["--absent", "9"], "not in the tournament"),
        (("1-2 1-0; 3-4 1-0",), ["--absent", "x"], "not a start number"),
    ],
)
def test_pair_refuses_bad_requests(
    tmp_path: Path,
    make_event: EventFactory,
    capsys: pytest.CaptureFixture[str],
    rounds: tuple[str, ...],
    extra: list[str],
    fragment: str,
) -> None:
    event = make_event(4, *rounds)
    assert (
        main(["pair", write(tmp_path, write_trf(event)), "--system", "coefficients", *extra]) == 2
    )
    assert fragment in capsys.readouterr().err


def test_pair_refuses_when_every_round_is_paired(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(4, "1-2 1-0; 3-4 1-0", total_rounds=1)
    assert main(["pair", write(tmp_path, write_trf(event)), "--system", "solkoff"]) == 2
    assert "all paired" in capsys.readouterr().err


def test_pair_with_no_legal_pairing_explains(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(2, "1-2 1-0")
    assert main(["pair", write(tmp_path, write_trf(event)), "--system", "coefficients"]) == 2
    assert "no legal pairing" in capsys.readouterr().err


def test_generate_then_check_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen.trf"
    args = ["generate", "--players", "15", "--rounds", "5", "--seed", "7", "--system", "solkoff"]
    assert main([*args, "-o", str(out)]) == 0
    assert load_trf(out.read_text()).last_round == 5
    assert main(["check-pairings", str(out), "--system", "solkoff", "--seed", "7"]) == 0
    assert "no breach" in capsys.readouterr().out
    assert (
        main(
            ["check-pairings", str(out), "--system", "buchholz", "--seed", "7", "--format", "json"]
        )
        == 1
    )
    report = json.loads(capsys.readouterr().out)
    assert report["violations"] == [] and report["differences"]


def test_check_pairings_lists_a_repeated_pair(
    tmp_path: Path, make_event: EventFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    event = make_event(4, "1-2 1-0; 3-4 1-0", "2-1 1-0; 4-3 1-0")
    assert main(["check-pairings", write(tmp_path, write_trf(event))]) == 1
    assert "have met before (000 §3.18.2)" in capsys.readouterr().out
