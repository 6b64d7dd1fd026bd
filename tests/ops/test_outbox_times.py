"""The outbox shows when each letter was written as the rest of the service writes dates
(dd.mm.yyyy), on its tournament's clock, and names that clock: not ISO and a bare server time."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from email.message import EmailMessage

from flask.testing import FlaskClient

from corrmail.db import Database
from corrmail.letters.outbox import enqueue
from corrmail.models import Role, Tournament
from corrmail.web.format import zoned_moment

WRITTEN = dt.datetime(2026, 12, 3, 9, 4, tzinfo=dt.UTC)


def _letter(database: Database, name: str, tournament_id: int | None) -> int:
    message = EmailMessage()
    message["From"] = "turnir@turnir.example"
    message["To"] = "player@example.org"
    message["Subject"] = f"{name} letter"
    message["Message-ID"] = f"<{name}@turnir.example>"
    message.set_content("1. c3-d4")
    with database.transaction() as session:
        row = enqueue(session, message, kind="move", tournament_id=tournament_id)
        row.created_at = WRITTEN
        row.sent_at = WRITTEN + dt.timedelta(minutes=3)
        session.flush()
        return row.id


def test_zoned_moment_names_the_zone() -> None:
    assert zoned_moment(WRITTEN, "Europe/Moscow") == "03.12.2026 12:04 MSK"
    assert zoned_moment(WRITTEN, "Asia/Yekaterinburg") == "03.12.2026 14:04 UTC+05"
    assert zoned_moment(WRITTEN) == "03.12.2026 09:04 UTC"
    assert zoned_moment(WRITTEN.replace(tzinfo=None), "Europe/Moscow") == "03.12.2026 12:04 MSK"
    assert zoned_moment(None) == ""


def test_the_outbox_dates_each_letter_on_its_tournaments_clock(
    login: Callable[..., FlaskClient], database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    moscow = make_tournament(players=0, code="МСК-1", time_zone="Europe/Moscow")
    ural = make_tournament(players=0, code="УРАЛ-1", time_zone="Asia/Yekaterinburg")
    ids = {"moscow": _letter(database, "moscow", moscow.id),
           "ural": _letter(database, "ural", ural.id),
           "none": _letter(database, "none", None)}
    director = login(Role.ORGANIZER, login="director")
    page = director.get("/admin/outbox").get_data(as_text=True)
    cells = dict(re.findall(r"<td>(\d+)</td>\s*<td>([^<]*)</td>", page))
    assert cells == {str(ids["moscow"]): "03.12.2026 12:04 MSK",
                     str(ids["ural"]): "03.12.2026 14:04 UTC+05",
                     str(ids["none"]): "03.12.2026 09:04 UTC"}
    assert "2026-12-03" not in page
    letter = director.get(f"/admin/outbox/{ids['moscow']}").get_data(as_text=True)
    assert "<dt>Создано</dt><dd>03.12.2026 12:04 MSK</dd>" in letter
    assert "<dt>Отправлено</dt><dd>03.12.2026 12:07 MSK</dd>" in letter
