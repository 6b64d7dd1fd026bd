"""Password reset by e-mail token: the link comes by letter, works once, for one user, for a
limited time, and the form never tells whether an account exists."""

from __future__ import annotations

import re
from collections.abc import Callable
from email import message_from_bytes, policy

import time_machine
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from corrmail.db import Database
from corrmail.models import AuditEntry, OutboxMessage, Role, User
from corrmail.ops.password_reset import TOKEN_HOURS

NEW = "a brand new passphrase"


def _link(database: Database) -> str:
    with database.session() as session:
        letters = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "password_reset")).all()
    assert len(letters) == 1
    body = message_from_bytes(letters[0].raw, policy=policy.default).get_body().get_content()  # type: ignore[union-attr]
    match = re.search(r"http://localhost(/password/reset#\S+)", body)
    assert match, body
    return match.group(1)


def _open(client: FlaskClient, link: str) -> TestResponse:
    """What the browser does with the link: its page posts the fragment's token to the claim,
    which redirects to the token-less form (or back to the request form)."""
    claimed = client.post("/password/reset/claim", data={"token": link.split("#", 1)[1]})
    if claimed.status_code == 302 and claimed.headers["Location"] == "/password/reset":
        return client.get("/password/reset")
    return claimed


def test_a_reset_link_by_letter_sets_a_new_password_once(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    make_user("referee", Role.REFEREE)
    answer = client.post("/password/forgot", data={"login": "REFEREE@example.org"})
    assert answer.status_code == 302
    with database.session() as session:
        letter = session.scalars(select(OutboxMessage)).one()
        assert letter.recipient.endswith("<referee@example.org>") or "referee@example.org" in letter.recipient
    link = _link(database)
    assert _open(client, link).status_code == 200
    short = client.post("/password/reset", data={"password": "short", "again": "short"})
    assert short.status_code == 422
    differ = client.post("/password/reset", data={"password": NEW, "again": NEW + "!"})
    assert differ.status_code == 422 and "Пароли не совпадают." in differ.get_data(as_text=True)
    assert client.post("/password/reset", data={"password": NEW, "again": NEW}).status_code == 302
    assert client.post("/login", data={"login": "referee", "password": "correct horse battery"}).status_code == 401
    assert client.post("/login", data={"login": "referee", "password": NEW}).status_code == 302
    # used once: the same link now leads back to the request form
    reused = _open(client, link)
    assert reused.status_code == 302 and reused.headers["Location"] == "/password/forgot"
    with database.session() as session:
        actions = [e.action for e in session.scalars(select(AuditEntry).order_by(AuditEntry.id))]
    assert "auth.password_reset_requested" in actions and "auth.password_reset" in actions


def test_unknown_accounts_get_the_same_answer_and_no_letter(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    make_user("steward", Role.STEWARD)
    known = client.post("/password/forgot", data={"login": "steward"}, follow_redirects=True)
    unknown = client.post("/password/forgot", data={"login": "nobody"}, follow_redirects=True)
    text = "Если такая учётная запись есть"
    assert text in known.get_data(as_text=True) and text in unknown.get_data(as_text=True)
    with database.session() as session:
        assert len(session.scalars(select(OutboxMessage)).all()) == 1


def test_a_link_expires_and_cannot_be_forged_or_moved_to_another_user(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    make_user("ivanov", Role.PLAYER)
    make_user("director", Role.ORGANIZER)
    with time_machine.travel("2026-11-29 10:00 +0000", tick=False):
        client.post("/password/forgot", data={"login": "ivanov"})
        link = _link(database)
    token = link.rsplit("#", 1)[1]
    tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    assert _open(client, f"/password/reset#{tampered}").status_code == 302
    with time_machine.travel(f"2026-11-29 {10 + TOKEN_HOURS}:01 +0000", tick=False):
        assert _open(client, link).status_code == 302  # expired
    with time_machine.travel("2026-11-29 10:30 +0000", tick=False):
        assert _open(client, link).status_code == 200
        client.post("/password/reset", data={"password": NEW, "again": NEW})
    assert client.post("/login", data={"login": "director", "password": NEW}).status_code == 401


def test_the_reset_letter_is_in_the_accounts_letter_language_not_the_pages(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    """A referee whose letters are in English asks from the Russian page (the default a first
    visit sees): the letter is English; and the other way round."""
    make_user("referee", Role.REFEREE)
    make_user("steward", Role.STEWARD)
    with database.transaction() as session:
        english = session.scalars(select(User).where(User.login == "referee")).one()
        english.locale = "en"
        russian = session.scalars(select(User).where(User.login == "steward")).one()
        russian.locale = "ru"
    assert client.post("/password/forgot", data={"login": "referee"}).status_code == 302
    assert client.post("/locale", data={"locale": "en"}).status_code == 302
    assert client.post("/password/forgot", data={"login": "steward"}).status_code == 302
    with database.session() as session:
        letters = {letter.recipient: message_from_bytes(letter.raw, policy=policy.default)
                   for letter in session.scalars(select(OutboxMessage).where(
                       OutboxMessage.kind == "password_reset"))}
    [to_referee] = [m for to, m in letters.items() if "referee@" in to]
    [to_steward] = [m for to, m in letters.items() if "steward@" in to]
    assert to_referee["Subject"] == "Setting a new password"
    assert "set a new password for the login referee" in to_referee.get_body().get_content()  # type: ignore[union-attr]
    assert to_steward["Subject"] == "Новый пароль"


def test_the_set_password_page_is_in_the_accounts_language_until_the_reader_chooses(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    """A player whose letters are in English opens his link on a browser that never chose a
    language: the form, its refusals and the login page after it are English; a reader who
    chose Russian on this browser keeps Russian."""
    make_user("smith", Role.PLAYER)
    with database.transaction() as session:
        session.scalars(select(User).where(User.login == "smith")).one().locale = "en"
    client.post("/password/forgot", data={"login": "smith"})
    page = _open(client, _link(database)).get_data(as_text=True)
    assert "smith" in page and 'lang="en"' in page
    differ = client.post("/password/reset", data={"password": NEW, "again": NEW + "!"})
    assert differ.status_code == 422 and "Пароли не совпадают." not in differ.get_data(as_text=True)
    done = client.post("/password/reset", data={"password": NEW, "again": NEW}, follow_redirects=True)
    assert 'lang="en"' in done.get_data(as_text=True)


def test_a_language_chosen_on_the_browser_is_kept_on_the_set_password_page(
    client: FlaskClient, make_user: Callable[..., User], database: Database
) -> None:
    make_user("smith", Role.PLAYER)
    with database.transaction() as session:
        session.scalars(select(User).where(User.login == "smith")).one().locale = "en"
    assert client.post("/locale", data={"locale": "ru"}).status_code == 302
    client.post("/password/forgot", data={"login": "smith"})
    page = _open(client, _link(database)).get_data(as_text=True)
    assert 'lang="ru"' in page
