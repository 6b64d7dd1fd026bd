"""The queue's order and filter, the daily sweep's CLI, and protest letters from the mail layer."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from corrmail import games
from corrmail.cli import main
from corrmail.models import Case, CaseType, GameResult, Participant, ProtestLetter

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: ordering and filtering happen in Python; the same queries run on both backends in the end-to-end,
    overstep, withdrawal and conflict tests of this folder."""
    path = tmp_path / "cases.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


def test_overdue_cases_come_first_then_by_deadline(cup: Cup, set_today) -> None:
    pairs = sorted(cup.games)
    for pair in pairs[2:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        quiet, answered = (session.scalar(select(Case.id).where(Case.game_id == cup.games[p]))
                           for p in pairs[:2])
    # Both analyses of one game arrive on day 2: the referee's month runs from then (002 §4.5.5),
    # so that case falls due before the one whose month runs from the end of the window.
    set_today(END + dt.timedelta(days=2))
    for number, side in zip(pairs[1], ("white", "black"), strict=True):
        cup.act(f"player{number}", answered, "analysis", side=side, assessment="draw",
                analysis="equal")
    with cup.database.session() as session:
        player = session.scalar(select(Participant.id).where(Participant.start_number == 1))
    # A break request has no rule date: it comes after every dated case.
    cup.post("player1", f"/cases/new/{cup.code}/break", **{
        "break-participant": player, "break-break_kind": "extra", "break-start": "2027-09-10",
        "break-end": "2027-09-20", "break-reason": "family"})
    set_today(END + dt.timedelta(days=45))
    page = cup.client("referee").get("/cases/").data.decode()
    order = [int(part.split('"')[0]) for part in page.split('data-case="')[1:]]
    assert order[:2] == [answered, quiet]
    assert len(order) == 3
    assert "overdue by 13" in page or "13" in page
    only_players = cup.client("referee").get("/cases/?awaiting=players").data.decode()
    assert "data-case=" not in only_players


def test_cli_opens_the_adjudications_once(cup: Cup, monkeypatch) -> None:
    for pair in sorted(cup.games)[3:]:
        cup.finish(*pair, GameResult.DRAW)
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", cup.database.url)
    monkeypatch.setenv("CORRMAIL_SECRET_KEY", "test")
    runner = CliRunner()
    early = runner.invoke(main, ["cases", "open-adjudications", "--today", "2027-08-30"])
    assert early.exit_code == 0, early.output
    assert "no tournament" in early.output
    first = runner.invoke(main, ["cases", "open-adjudications", "--today", "2027-08-31"])
    assert first.exit_code == 0, first.output
    assert f"{cup.code}: 3 adjudication case(s) opened" in first.output
    again = runner.invoke(main, ["cases", "open-adjudications", "--today", "2027-09-01"])
    assert "no tournament" in again.output  # the tournament is in its adjudication stage
    with cup.database.session() as session:
        assert len(session.scalars(select(Case).where(
            Case.case_type == CaseType.ADJUDICATION)).all()) == 3


def test_a_protest_letter_is_filed_into_the_case_it_contests(cup: Cup, set_today) -> None:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    white, black = sorted(cup.games)[0]
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        case_id = session.scalars(select(Case.id)).one()
    set_today(END + dt.timedelta(days=2))
    cup.act(f"player{black}", case_id, "analysis", side="black", assessment="draw",
            analysis="a fortress")
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", case_id, "decide", ruling="white_wins", reasons="the fortress falls")
    # The mail layer keeps a protest e-mail as a letter for the referee to file.
    with cup.database.transaction() as session:
        game = cup.game(session, white, black)
        letter = games.receive_protest_letter(
            session, tournament_id=cup.tournament_id, game_id=game.id,
            participant_id=game.black_id, text="ПРОТЕСТ: позиция ничейная",
            protest="ПРОТЕСТ: позиция ничейная", received=END + dt.timedelta(days=14))
        letter_id = letter.id
    queue = cup.client("referee").get("/cases/").data.decode()
    assert "ПРОТЕСТ: позиция ничейная" in queue
    page = cup.client("referee").get(f"/cases/{case_id}").data.decode()
    assert f"/cases/letters/{letter_id}/file" in page
    cup.post("player1", f"/cases/letters/{letter_id}/file", 403, case_id=case_id,
             revision=cup.revision(case_id), party="black")
    cup.post("referee", f"/cases/letters/{letter_id}/file", case_id=case_id,
             revision=cup.revision(case_id), party="black")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.state == "under_protest"
        assert row.payload["protests"][0]["filed_on"] == "2027-09-14"
        filed = session.get(ProtestLetter, letter_id)
        assert filed is not None and filed.filed_case_id == case_id
        assert filed.filed_at is not None
        # A letter, not a case: the case table holds the one case it was filed into.
        assert session.scalars(select(Case.id)).all() == [case_id]


def test_postal_receipt_moves_the_protest_window_and_the_sweep_closes_after_it(
    cup: Cup, set_today, monkeypatch
) -> None:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    white, black = sorted(cup.games)[0]
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        case_id = session.scalars(select(Case.id)).one()
    set_today(END + dt.timedelta(days=3))
    for number, side in ((white, "white"), (black, "black")):
        cup.act(f"player{number}", case_id, "analysis", side=side, assessment="win",
                analysis="mine")
    decided = END + dt.timedelta(days=4)
    set_today(decided)
    cup.act("referee", case_id, "decide", ruling="draw", reasons="neither side can win")
    # Black received the decision by post six days later: his ten days run from then.
    cup.act(f"player{black}", case_id, "receipt", 403, party="black",
            received_on=(decided + dt.timedelta(days=6)).isoformat())
    cup.act("steward", case_id, "receipt", party="black",
            received_on=(decided + dt.timedelta(days=6)).isoformat())
    with cup.database.session() as session:
        assert cup.case_row(session, case_id).deadline == decided + dt.timedelta(days=16)

    monkeypatch.setenv("CORRMAIL_DATABASE_URL", cup.database.url)
    monkeypatch.setenv("CORRMAIL_SECRET_KEY", "test")
    runner = CliRunner()
    early = runner.invoke(main, ["cases", "sweep", "--today",
                                 (decided + dt.timedelta(days=16)).isoformat()])
    assert early.exit_code == 0, early.output
    assert "cases closed" not in early.output
    late = runner.invoke(main, ["cases", "sweep", "--today",
                                (decided + dt.timedelta(days=17)).isoformat()])
    assert f"{cup.code}: cases closed: 1" in late.output
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.state == "closed" and row.closed_at is not None
        closing = cup.audit(session, "case.closed")[-1]
        assert closing.user_id is None and closing.rule == "002 §4.5.6"
