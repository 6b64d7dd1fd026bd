"""Two referees deciding the same case at once: the second gets a clear conflict and nothing is
decided twice — on SQLite and on PostgreSQL (the `db_url` fixture runs both)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select

from adjudication import CaseConflict, Instance
from corrmail.mail.settings import MailSettings
from corrmail.models import AuditEntry, Case, GameResult, OutboxMessage
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Actor, Desk

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


def open_silent_adjudication(cup: Cup, set_today) -> int:
    """One unfinished game, its analysis window passed: ready for the referee."""
    for white, black in sorted(cup.games)[1:]:
        cup.finish(white, black, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    set_today(END + dt.timedelta(days=11))
    with cup.database.session() as session:
        return session.scalars(select(Case.id)).one()


def count(cup: Cup, model: type, *where: object) -> int:
    with cup.database.session() as session:
        return int(session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def test_second_referee_gets_a_conflict_and_nothing_twice(cup: Cup, set_today) -> None:
    case_id = open_silent_adjudication(cup, set_today)
    seen = cup.revision(case_id)
    # Both referees have the page open at the same revision.
    for who in ("referee", "referee2"):
        assert cup.client(who).get(f"/cases/{case_id}").status_code == 200
    cup.post("referee", f"/cases/{case_id}/decide", revision=seen, ruling="draw",
             reasons="equal material")
    letters = count(cup, OutboxMessage, OutboxMessage.case_id == case_id)
    text = cup.post("referee2", f"/cases/{case_id}/decide", 409, revision=seen,
                    ruling="white_wins", reasons="an extra man")
    assert "Nothing was decided" in text or "ничего не решено" in text.lower()
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert [d["ruling"] for d in row.payload["decisions"]] == ["draw"]
        assert row.revision == seen + 1
        assert row.game.result.value == "draw"
    assert count(cup, OutboxMessage, OutboxMessage.case_id == case_id) == letters
    assert count(cup, AuditEntry, AuditEntry.action == "case.decided") == 1


def test_concurrent_transactions_race_on_the_revision(cup: Cup, set_today, settings) -> None:
    """Both transactions read revision N before either writes; the package's own check passes
    for both, the ``UPDATE … WHERE revision = N`` lets only the first through."""
    case_id = open_silent_adjudication(cup, set_today)
    on = END + dt.timedelta(days=11)
    writer = case_letter_writer(MailSettings.from_env({}, secret_fallback="test"))
    referee = Actor(None, frozenset({Instance.REFEREE}), frozenset())
    first, second = cup.database.session(), cup.database.session()
    try:
        seen = first.get(Case, case_id).revision  # type: ignore[union-attr]
        second.get(Case, case_id)
        Desk(first, writer, on=on).decide(referee, case_id, revision=seen, ruling="draw",
                                          reasons="equal material")
        first.commit()
        with pytest.raises(CaseConflict) as conflict:
            Desk(second, writer, on=on).decide(referee, case_id, revision=seen,
                                               ruling="black_wins", reasons="an extra man")
        second.rollback()
        assert (conflict.value.expected, conflict.value.actual) == (seen, seen + 1)
    finally:
        first.close()
        second.close()
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert [d["ruling"] for d in row.payload["decisions"]] == ["draw"]
        assert row.game.result.value == "draw"
    assert count(cup, AuditEntry, AuditEntry.action == "case.decided") == 1
