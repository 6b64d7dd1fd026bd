"""A published tournament's regulations are fixed (002 §4.3.2, docs/rules/entries.md): the
start sheets gave them to the players, and every time chart is computed under them. The edit
form refuses each change beside its field and stores nothing; the title may still be corrected;
a draft may be changed freely."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from html import unescape

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import AuditEntry, Tournament, TournamentStatus

FORM = {
    "title": "Кубок почты",
    "game_type": "russian",
    "system": "round_robin_single",
    "pairing_system": "",
    "channel": "post",
    "start_date": "2026-09-01",
    "end_date": "2027-08-31",
    "time_control_days": "50",
    "time_control_moves": "10",
    "point_system": "classical",
    "tiebreak_order": "",
    "breaks_per_year": "1",
    "break_max_days": "30",
    "time_zone": "Europe/Moscow",
}


def _stored(database: Database, code: str) -> Tournament:
    with database.session() as session:
        found = session.scalar(select(Tournament).where(Tournament.code == code))
        assert found is not None
        return found


@pytest.mark.parametrize(("field", "value", "announced"), [
    ("time_control_days", "30", "50"),
    ("time_control_moves", "5", "10"),
    ("start_date", "2026-10-01", "01.09.2026"),
    ("end_date", "2027-12-31", "31.08.2027"),
    ("break_max_days", "45", "30"),
    ("system", "round_robin_double", None),
])
def test_a_published_tournaments_regulations_are_refused_and_nothing_changes(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, field: str, value: str, announced: str | None,
) -> None:
    tournament = make_tournament(players=2, code="KP-1")
    assert tournament.status is TournamentStatus.RUNNING
    refused = organizer_client.post("/tournaments/KP-1/edit",
                                    data={**FORM, "code": "KP-1", field: value})
    page = unescape(refused.get_data(as_text=True))
    assert refused.status_code == 200  # the form again, with the refusal beside the field
    if announced is None:  # a choice: the field's own options name it
        assert ("не меняется после публикации турнира: игрокам это сообщено со стартовыми "
                "листами (002 §4.3.2)") in page
    else:
        assert (f"не меняется после публикации турнира: игрокам со стартовыми листами сообщено "
                f"«{announced}» (002 §4.3.2)") in page
    stored = _stored(database, "KP-1")
    assert (stored.time_control_days, stored.time_control_moves, stored.start_date,
            stored.end_date, stored.break_max_days, stored.system.value) == (
        50, 10, dt.date(2026, 9, 1), dt.date(2027, 8, 31), 30, "round_robin_single")
    with database.session() as session:
        assert not session.scalars(select(AuditEntry).where(
            AuditEntry.action == "tournament.update")).all()


def test_the_title_of_a_published_tournament_may_be_corrected(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    make_tournament(players=2, code="KP-2")
    page = organizer_client.get("/tournaments/KP-2/edit").get_data(as_text=True)
    assert "Турнир опубликован: исправить можно только название" in page
    saved = organizer_client.post("/tournaments/KP-2/edit",
                                  data={**FORM, "code": "KP-2", "title": "Кубок почты-2"})
    assert saved.status_code == 302
    assert _stored(database, "KP-2").title == "Кубок почты-2"


def test_a_draft_may_change_its_time_control(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    make_tournament(players=2, code="KP-3", status=TournamentStatus.DRAFT)
    page = organizer_client.get("/tournaments/KP-3/edit").get_data(as_text=True)
    assert "Турнир опубликован" not in page
    saved = organizer_client.post("/tournaments/KP-3/edit",
                                  data={**FORM, "code": "KP-3", "time_control_days": "30"})
    assert saved.status_code == 302
    assert _stored(database, "KP-3").time_control_days == 30
