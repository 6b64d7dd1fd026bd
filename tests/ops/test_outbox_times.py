"""The outbox shows when each letter was written as the rest of the service writes dates
(dd.mm.yyyy), every letter on one clock, the federation's, named once in the column's header:
not ISO, not a bare server time, not a clock that changes from row to row."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from email.message import EmailMessage

import pytest
from flask import Flask
from flask.testing import FlaskClient

from corrmail.config import Settings, SettingsError
from corrmail.db import Database
from corrmail.letters.outbox import enqueue
from corrmail.models import Role, Tournament
from corrmail.web.format import zoned_moment

WRITTEN = dt.datetime(2026, 12, 3, 9, 4, tzinfo=dt.UTC)


def _letter(database: Database, name: str, tournament_id: int | None,
            at: dt.datetime = WRITTEN) -> int:
    message = EmailMessage()
    message["From"] = "turnir@turnir.example"
    message["To"] = "player@example.org"
    message["Subject"] = f"{name} letter"
    message["Message-ID"] = f"<{name}@turnir.example>"
    message.set_content("1. c3-d4")
    with database.transaction() as session:
        row = enqueue(session, message, kind="move", tournament_id=tournament_id)
        row.created_at = at
        row.sent_at = at + dt.timedelta(minutes=3)
        session.flush()
        return row.id


def test_zoned_moment_names_the_zone() -> None:
    assert zoned_moment(WRITTEN, "Europe/Moscow") == "03.12.2026 12:04 MSK"
    assert zoned_moment(WRITTEN, "Asia/Yekaterinburg") == "03.12.2026 14:04 UTC+05"
    assert zoned_moment(WRITTEN) == "03.12.2026 09:04 UTC"
    assert zoned_moment(WRITTEN.replace(tzinfo=None), "Europe/Moscow") == "03.12.2026 12:04 MSK"
    assert zoned_moment(None) == ""


def test_the_outbox_dates_every_letter_on_the_federations_clock(
    login: Callable[..., FlaskClient], database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    """A Moscow tournament's letter, a Yekaterinburg tournament's and a letter of no tournament,
    written at known UTC instants: every "Created" cell is on the federation's clock (Moscow,
    UTC+3, ``CORRMAIL_TIME_ZONE``), the zone named once in the column's header — not one row
    in MSK, the next in UTC+05 or UTC."""
    moscow = make_tournament(players=0, code="МСК-1", time_zone="Europe/Moscow")
    ural = make_tournament(players=0, code="УРАЛ-1", time_zone="Asia/Yekaterinburg")
    ids = {"moscow": _letter(database, "moscow", moscow.id),
           "ural": _letter(database, "ural", ural.id, at=WRITTEN + dt.timedelta(hours=13)),
           "none": _letter(database, "none", None, at=WRITTEN - dt.timedelta(hours=9, minutes=5))}
    director = login(Role.ORGANIZER, login="director")
    for locale, header in (("ru", "Создано (Europe/Moscow)"), ("en", "Created (Europe/Moscow)")):
        with director.session_transaction() as session:
            session["locale"] = locale
        page = director.get("/admin/outbox").get_data(as_text=True)
        cells = dict(re.findall(r"<td>(\d+)</td>\s*<td>([^<]*)</td>", page))
        # 09:04 UTC is 12:04 in Moscow; 22:04 UTC the next day's 01:04; 23:59 UTC the day
        # before, 02:59 in Moscow.
        assert cells == {str(ids["moscow"]): "03.12.2026 12:04",
                         str(ids["ural"]): "04.12.2026 01:04",
                         str(ids["none"]): "03.12.2026 02:59"}
        assert f'<th id="created-zone" data-zone="Europe/Moscow">{header}</th>' in page
        table = page.split("<table>")[1].split("</table>")[0]
        assert table.count("Europe/Moscow") == 2  # the header's text and its data-zone
        for zone in ("MSK", "UTC", "+05"):
            assert zone not in table
        assert "2026-12-03" not in page
    with director.session_transaction() as session:
        session["locale"] = "ru"
    letter = director.get(f"/admin/outbox/{ids['ural']}").get_data(as_text=True)
    assert "<dt>Создано</dt><dd>04.12.2026 01:04 MSK</dd>" in letter
    assert "<dt>Отправлено</dt><dd>04.12.2026 01:07 MSK</dd>" in letter


def test_the_federations_zone_is_a_setting(
    login: Callable[..., FlaskClient], database: Database, app: Flask,
) -> None:
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(
        app.config["CORRMAIL_SETTINGS"], time_zone="Asia/Yekaterinburg")
    written = _letter(database, "ural", None)
    page = login(Role.ORGANIZER, login="director").get("/admin/outbox").get_data(as_text=True)
    assert dict(re.findall(r"<td>(\d+)</td>\s*<td>([^<]*)</td>", page)) == {
        str(written): "03.12.2026 14:04"}
    assert 'data-zone="Asia/Yekaterinburg"' in page


def test_an_unknown_zone_is_refused_at_start_up() -> None:
    with pytest.raises(SettingsError, match="CORRMAIL_TIME_ZONE='Europe/Atlantis'"):
        Settings.from_env({"CORRMAIL_SECRET_KEY": "x", "CORRMAIL_TIME_ZONE": "Europe/Atlantis"})
    assert Settings.from_env({"CORRMAIL_SECRET_KEY": "x"}).time_zone == "Europe/Moscow"
