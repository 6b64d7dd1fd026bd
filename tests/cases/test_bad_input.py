"""Every bad thing a user can send to the queue gets a clear refusal naming the rule, and
changes nothing (002 §4.1.12, §4.3.6, §4.4.5, §4.5)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select

from corrmail.models import AuditEntry, Case, GameResult, Participant

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: the refusals come from Python before any write."""
    path = tmp_path / "cases.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def case_id(cup: Cup, set_today) -> int:
    """One adjudication case; both analyses in, so the referee may decide."""
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        found = session.scalars(select(Case.id)).one()
    white, black = sorted(cup.games)[0]
    set_today(END + dt.timedelta(days=2))
    cup.act(f"player{white}", found, "analysis", side="white", assessment="win", analysis="+")
    cup.act(f"player{black}", found, "analysis", side="black", assessment="draw", analysis="=")
    return found


def audit_count(cup: Cup) -> int:
    with cup.database.session() as session:
        return int(session.scalar(select(func.count()).select_from(AuditEntry)) or 0)


def test_unknown_ruling(cup: Cup, case_id: int) -> None:
    before = audit_count(cup)
    text = cup.act("referee", case_id, "decide", 422, ruling="white_resigns")
    assert "white_resigns" in text and "white_wins" in text
    assert audit_count(cup) == before


def test_stale_revision_from_an_old_page(cup: Cup, case_id: int) -> None:
    text = cup.post("referee", f"/cases/{case_id}/decide", 409, revision=0, ruling="draw")
    assert "ничего не решено" in text.lower() or "Nothing was decided" in text
    with cup.database.session() as session:
        assert cup.case_row(session, case_id).payload["decisions"] == []


def test_missing_or_malformed_revision(cup: Cup, case_id: int) -> None:
    cup.post("referee", f"/cases/{case_id}/decide", 400, ruling="draw")
    cup.post("referee", f"/cases/{case_id}/decide", 400, revision="two", ruling="draw")


def test_second_analysis_from_the_same_side(cup: Cup, case_id: int) -> None:
    white = sorted(cup.games)[0][0]
    text = cup.act(f"player{white}", case_id, "analysis", 422, side="white",
                   assessment="draw", analysis="changed my mind")
    assert "002 §4.5.2" in text


def test_postal_analysis_received_before_it_was_sent(cup: Cup, set_today) -> None:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        found = session.scalars(select(Case.id)).one()
    text = cup.act("steward", found, "analysis", 422, side="white", assessment="win",
                   analysis="by post", sent_on="2027-09-05", received_on="2027-09-03")
    assert "002 §4.5.2" in text


def test_protest_before_a_decision_twice_and_after_closing(cup: Cup, case_id: int,
                                                          set_today) -> None:
    white, black = sorted(cup.games)[0]
    text = cup.act(f"player{black}", case_id, "protest", 422, party="black")
    assert "нельзя подать протест до решения" in text
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", case_id, "decide", ruling="white_wins", reasons="a won ending")
    cup.act(f"player{black}", case_id, "protest", party="black", grounds="it is a draw")
    text = cup.act(f"player{black}", case_id, "protest", 422, party="black")
    assert "уже подал протест" in text
    cup.act("organizer", case_id, "decide", ruling="white_wins", reasons="won")
    text = cup.act(f"player{black}", case_id, "protest", 422, party="black")
    assert "§4.5.7" in text  # the organizer's decision is final
    text = cup.act("referee", case_id, "close", 422)
    assert "дело закрыто" in text


def test_closing_inside_the_protest_window(cup: Cup, case_id: int, set_today) -> None:
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", case_id, "decide", ruling="draw", reasons="equal material")
    set_today(END + dt.timedelta(days=21))  # the tenth day after the decision
    text = cup.act("referee", case_id, "close", 422)
    assert "21.09.2027" in text
    set_today(END + dt.timedelta(days=22))
    cup.act("referee", case_id, "close")


def test_agreed_result_without_matching_assessments(cup: Cup, case_id: int) -> None:
    text = cup.act("referee", case_id, "agreed", 422)
    assert "002 §4.5.4" in text


def test_break_that_ends_before_it_starts(cup: Cup) -> None:
    with cup.database.session() as session:
        player = session.scalar(select(Participant.id).where(Participant.start_number == 2))
    text = cup.post("player2", f"/cases/new/{cup.code}/break", 422, **{
        "break-participant": player, "break-break_kind": "extra", "break-start": "2026-12-10",
        "break-end": "2026-12-01", "break-reason": "travel"})
    assert "ends before it starts" in text


def test_claim_on_a_finished_game_and_a_second_claim(cup: Cup, set_today) -> None:
    finished, playing = sorted(cup.games)[:2]
    cup.finish(*finished, GameResult.DRAW)
    text = cup.post(f"player{finished[0]}", f"/cases/new/{cup.code}/overstep", 422, **{
        "overstep-game": cup.games[finished], "overstep-claimant": "white"})
    assert "002 §4.3.6" in text and "закончена" in text
    claim = {"overstep-game": cup.games[playing], "overstep-claimant": "white"}
    cup.post(f"player{playing[0]}", f"/cases/new/{cup.code}/overstep", **claim)
    text = cup.post(f"player{playing[0]}", f"/cases/new/{cup.code}/overstep", 422, **claim)
    assert "002 §4.3.6" in text


def test_withdrawal_recorded_twice(cup: Cup) -> None:
    with cup.database.session() as session:
        player = session.scalar(select(Participant.id).where(Participant.start_number == 3))
    form = {"withdrawal-participant": player, "withdrawal-withdrew_on": "2026-12-01"}
    cup.post("referee", f"/cases/new/{cup.code}/withdrawal", **form)
    text = cup.post("referee", f"/cases/new/{cup.code}/withdrawal", 422, **form)
    assert "000 §3.14.3" in text


def test_unknown_case_and_other_tournaments_objects(cup: Cup) -> None:
    assert cup.client("referee").get("/cases/9999").status_code == 404
    # A game of no tournament, or of another one, is not among the form's choices.
    cup.post("referee", f"/cases/new/{cup.code}/dispute", 400, **{
        "dispute-game": 9999, "dispute-complainant": "white", "dispute-subject": "x"})
    assert cup.client("referee").get("/cases/new/NO-SUCH").status_code == 404
