"""The printed start sheet of a player who plays by post (002 §4.3.2) is his letter: it says
where he sends his cards — the steward's postal address — and is in his language, whatever
language the steward's own pages are in."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import Result
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import Participant, Role, User
from tests.conftest import TEST_PASSWORD

CODE = "ЗКР-2026"  # the draft fixture's tournament
STEWARD_ADDRESS = "190000, Санкт-Петербург, Невский пр., 10, кв. 5"


def _published(corrmail: Callable[..., Result]) -> None:
    assert corrmail("tournament", "officials", CODE, "--referee", "ref",
                    "--steward", "stew1").exit_code == 0
    assert corrmail("tournament", "publish", CODE, "--today", "2026-08-25").exit_code == 0


def _steward(app: Flask, locale: str) -> FlaskClient:
    client = app.test_client()
    assert client.post("/login", data={"login": "stew1",
                                       "password": "correct horse battery"}).status_code == 302
    assert client.post("/locale", data={"locale": locale}).status_code == 302
    return client


def _postal(database: Database, language: str) -> int:
    with database.transaction() as session:
        orlov = session.scalar(select(Participant).where(Participant.start_number == 3))
        assert orlov is not None and orlov.player.email is None
        orlov.player.language = language
        return orlov.id


def _set_address(app: Flask, database: Database, address: str) -> None:
    organizer = app.test_client()
    with database.transaction() as session:
        steward = session.scalar(select(User).where(User.login == "stew1"))
        assert steward is not None
        steward_id = steward.id
    with database.transaction() as session:
        boss = User(login="boss", display_name="Boss", email="boss@example.org")
        boss.set_password(TEST_PASSWORD)
        boss.grant(Role.ORGANIZER)
        session.add(boss)
    assert organizer.post("/login", data={"login": "boss", "password": TEST_PASSWORD}
                          ).status_code == 302
    saved = organizer.post("/admin/users/stew1/address",
                           data={f"a{steward_id}-postal_address": address,
                                 f"a{steward_id}-locale": "ru"})
    assert saved.status_code == 302


@pytest.mark.parametrize(("steward_locale", "language", "words"), [
    ("en", "ru", ("Стартовый лист", "Карточки с ходами отправляйте по адресу", 'lang="ru"')),
    ("ru", "en", ("Start sheet", "Send your cards to", 'lang="en"')),
])
def test_the_sheet_gives_the_stewards_address_in_the_players_language(
    corrmail: Callable[..., Result], draft: int, database: Database, app: Flask,
    steward_locale: str, language: str, words: tuple[str, ...],
) -> None:
    _published(corrmail)
    postal = _postal(database, language)
    _set_address(app, database, STEWARD_ADDRESS)
    page = _steward(app, steward_locale).get(f"/tournaments/{CODE}/start-sheets/{postal}/print")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    for word in words:
        assert word in text, word
    assert STEWARD_ADDRESS in text and "002 §4.1.1" in text
    other = {"ru": "Send your cards to", "en": "Карточки с ходами отправляйте"}[language]
    assert other not in text, "not a word in the steward's language"
    with database.session() as session:
        steward = session.scalar(select(User).where(User.login == "stew1"))
        assert steward is not None and steward.postal_address == STEWARD_ADDRESS


def test_a_sheet_without_the_stewards_address_warns_the_steward_not_the_player(
    corrmail: Callable[..., Result], draft: int, database: Database, app: Flask,
) -> None:
    _published(corrmail)
    postal = _postal(database, "ru")
    text = _steward(app, "ru").get(f"/tournaments/{CODE}/start-sheets/{postal}/print"
                                   ).get_data(as_text=True)
    assert 'class="noprint warning"' in text
    assert "Почтовый адрес старосты турнира не записан" in text


def test_a_playing_steward_is_written_to_at_his_players_address(
    corrmail: Callable[..., Result], draft: int, database: Database, app: Flask,
) -> None:
    _published(corrmail)
    postal = _postal(database, "ru")
    with database.transaction() as session:
        steward = session.scalar(select(User).where(User.login == "stew1"))
        other = session.scalar(select(Participant).where(Participant.start_number == 1))
        assert steward is not None and other is not None
        other.player.postal_address = "620000, Екатеринбург, ул. Мира, 3"
        steward.player_id = other.player_id
    text = _steward(app, "ru").get(f"/tournaments/{CODE}/start-sheets/{postal}/print"
                                   ).get_data(as_text=True)
    assert "620000, Екатеринбург, ул. Мира, 3" in text and "noprint warning" not in text


def test_an_address_longer_than_a_card_holds_is_refused(
    corrmail: Callable[..., Result], draft: int, database: Database, app: Flask,
) -> None:
    _set_address(app, database, "ok")
    organizer = app.test_client()
    organizer.post("/login", data={"login": "boss", "password": TEST_PASSWORD})
    with database.session() as session:
        steward = session.scalar(select(User).where(User.login == "stew1"))
        assert steward is not None
        steward_id = steward.id
    assert organizer.post("/locale", data={"locale": "en"}).status_code == 302
    refused = organizer.post("/admin/users/stew1/address",
                             data={f"a{steward_id}-postal_address": "x" * 1001,
                                   f"a{steward_id}-locale": "en"},
                             follow_redirects=True)
    assert "A postal address has at most 1000 characters; nothing was changed." in \
        refused.get_data(as_text=True)
    with database.session() as session:
        assert session.get(User, steward_id).postal_address == "ok"  # type: ignore[union-attr]


def test_an_officials_letter_language_is_changed_on_the_accounts_page(
    draft: int, database: Database, app: Flask,
) -> None:
    _set_address(app, database, "ok")
    organizer = app.test_client()
    organizer.post("/login", data={"login": "boss", "password": TEST_PASSWORD})
    with database.session() as session:
        steward = session.scalar(select(User).where(User.login == "stew1"))
        assert steward is not None
        steward_id = steward.id
    assert organizer.post("/locale", data={"locale": "en"}).status_code == 302
    forged = organizer.post("/admin/users/stew1/address", follow_redirects=True, data={
        f"a{steward_id}-postal_address": "elsewhere", f"a{steward_id}-locale": "de"})
    assert "Letters are written in Russian (ru) or English (en), not «de». Nothing was changed." \
        in forged.get_data(as_text=True)
    with database.session() as session:
        unchanged = session.get(User, steward_id)
        assert unchanged is not None and (unchanged.postal_address, unchanged.locale) == ("ok", "ru")
    assert organizer.post("/admin/users/stew1/address", data={
        f"a{steward_id}-postal_address": "ok", f"a{steward_id}-locale": "en"}).status_code == 302
    with database.session() as session:
        changed = session.get(User, steward_id)
        assert changed is not None and changed.locale == "en"


def test_the_stewards_own_controls_stay_in_his_language(
    corrmail: Callable[..., Result], draft: int, database: Database, app: Flask,
) -> None:
    _published(corrmail)
    postal = _postal(database, "en")
    text = _steward(app, "ru").get(f"/tournaments/{CODE}/start-sheets/{postal}/print"
                                   ).get_data(as_text=True)
    assert "Send your cards to" in text, "the sheet: the player's English"
    assert "Почтовый адрес старосты турнира не записан" in text, "the warning: the steward's"
    assert ">Печать</button>" in text
