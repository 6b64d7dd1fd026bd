"""Game records (002 §4.5.1, §4.5.8): written by the server for e-mail games, tracked for postal
ones, a minus for both when neither player sends his record."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from corrmail.cli import main
from corrmail.models import Case, CaseType, Channel, GameResult, ResultKind
from tests.cases.conftest import delivered

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

FINISHED = dt.date(2026, 12, 10)  # cup.finish records START + 100 days


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: the record cases use the same storage the other tests run on both backends."""
    path = tmp_path / "cases.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


def open_records(cup: Cup, monkeypatch, day: str) -> str:
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", cup.database.url)
    monkeypatch.setenv("CORRMAIL_SECRET_KEY", "test")
    result = CliRunner().invoke(main, ["cases", "open-game-records", "--today", day])
    assert result.exit_code == 0, result.output
    return result.output


def record_case(cup: Cup, pair: tuple[int, int]) -> Case:
    with cup.database.session() as session:
        row = session.scalar(select(Case).where(Case.case_type == CaseType.GAME_RECORD,
                                                Case.game_id == cup.games[pair]))
        assert row is not None
        session.expunge(row)
        return row


def test_email_game_record_is_written_by_the_server(cup: Cup, monkeypatch) -> None:
    pair = sorted(cup.games)[0]
    cup.play(*pair, [("c3-d4", dt.date(2026, 9, 1), None),
                     ("f6-g5", dt.date(2026, 9, 3), dt.date(2026, 9, 1))], channel=Channel.EMAIL)
    cup.finish(*pair, GameResult.WHITE_WIN)
    assert "1 game-record case(s)" in open_records(cup, monkeypatch, "2026-12-11")
    row = record_case(cup, pair)
    assert row.state == "closed"
    assert row.letter_text == "1. cd4 fg5 1-0"
    assert "no finished game" in open_records(cup, monkeypatch, "2026-12-12")


def test_postal_records_one_missing_then_both_missing(cup: Cup, monkeypatch, set_today) -> None:
    one, none = sorted(cup.games)[:2]
    cup.finish(*one, GameResult.DRAW)
    cup.finish(*none, GameResult.BLACK_WIN)
    open_records(cup, monkeypatch, "2026-12-11")
    first, second = record_case(cup, one), record_case(cup, none)
    assert first.deadline == FINISHED + dt.timedelta(days=15)
    set_today(FINISHED + dt.timedelta(days=5))
    cup.act(f"player{one[0]}", first.id, "record", 403, side="white",
            received_on=(FINISHED + dt.timedelta(days=5)).isoformat())
    cup.act("steward", first.id, "record", side="white",
            received_on=(FINISHED + dt.timedelta(days=5)).isoformat())
    set_today(FINISHED + dt.timedelta(days=15))
    text = cup.act("steward", second.id, "decide", 422)
    assert "002 §4.5.1" in text
    set_today(FINISHED + dt.timedelta(days=16))
    cup.act("steward", first.id, "decide")
    cup.act("steward", second.id, "decide")
    with cup.database.session() as session:
        assert cup.case_row(session, first.id).state == "closed"
        missing = cup.outbox(session, "case.game_record.missing")
        assert delivered(missing) == ["steward@example.org",
                                      f"steward@example.org → Player 1.{one[1]}"]
        game = cup.game(session, *none)
        assert (game.result, game.result_kind, game.result_rule) == (
            GameResult.DOUBLE_LOSS, ResultKind.FORFEIT, "002 §4.5.8")
    # The minus is protested to the referee, who lets the result stand.
    cup.act(f"player{none[1]}", second.id, "protest", party="black",
            grounds="my record was posted on time")
    cup.act("steward", second.id, "decide", 403, ruling="result_stands")
    cup.act("referee", second.id, "decide", ruling="result_stands")
    with cup.database.session() as session:
        game = cup.game(session, *none)
        assert (game.result, game.result_kind) == (GameResult.BLACK_WIN, ResultKind.PLAYED)


def test_players_still_playing_the_steward_owe_the_record_with_their_next_reply(
        cup: Cup, monkeypatch, set_today) -> None:
    # The steward plays as number 6 (a playing steward, 002 §4.1.6). A game of 1 and 2 ends while
    # both still play him: each sends the record with his next reply to him (002 §4.5.1), so on
    # day 16 nobody is late and no minus may be given.
    from corrmail.models import Role, TournamentOfficial, User

    with cup.database.transaction() as session:
        six = session.scalar(select(User).where(User.login == "player6"))
        assert six is not None
        session.add(TournamentOfficial(tournament_id=cup.tournament_id, user_id=six.id,
                                       role=Role.STEWARD))
    pair = next(p for p in sorted(cup.games) if 6 not in p)
    cup.finish(*pair, GameResult.DRAW)
    open_records(cup, monkeypatch, "2026-12-11")
    row = record_case(cup, pair)
    assert sorted(row.payload["with_next_reply"]) == ["black", "white"]
    set_today(FINISHED + dt.timedelta(days=16))
    text = cup.act("steward", row.id, "decide", 422)
    assert "со следующим ответом" in text and "002 §4.5.1" in text
    assert "next reply" not in text
