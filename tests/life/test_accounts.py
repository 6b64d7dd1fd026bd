"""Accounts without the demo: the first organizer from the CLI, the rest on the web or the CLI;
duplicates and unknown roles are refused with a clear message and change nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from click.testing import Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.app import create_app
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import AuditEntry, OutboxMessage, Role, User
from corrmail.web.database import database as app_database


def _count(database: Database, model: type) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(model)) or 0


def test_first_organizer_from_the_cli_logs_in(corrmail: Callable[..., Result], client: FlaskClient) -> None:
    made = corrmail("user", "add", "director", "--name", "Иван Директоров", "--email",
                    "director@federation.example", "--role", "organizer", "--password-stdin",
                    input="a long enough password\n")
    assert made.exit_code == 0, made.output
    assert "user director created (organizer); password set" in made.output
    response = client.post("/login", data={"login": "director", "password": "a long enough password"})
    assert response.status_code == 302
    assert client.get("/admin/users/").status_code == 200


def test_user_without_password_gets_an_invitation_that_sets_it(
    corrmail: Callable[..., Result], client: FlaskClient, database: Database
) -> None:
    made = corrmail("user", "add", "referee", "--name", "Судья Петров", "--email",
                    "referee@federation.example", "--role", "referee", "--locale", "ru")
    assert made.exit_code == 0, made.output
    assert "invitation queued to referee@federation.example" in made.output
    with database.session() as session:
        letter = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "invitation")).one()
        assert letter.recipient == "referee@federation.example"
        assert "Приглашение" in letter.subject
        # The roles in the reader's words, as the pages name them, not the stored codes.
        assert "Роли: судья\n" in letter.body_text, letter.body_text
        # The token travels in the link's fragment: no server or access log sees it.
        link = re.search(r"http://localhost/password/welcome#(\S+)", letter.body_text)
    assert link is not None
    # No mail server sends it (the tests have none): the command prints the link to hand over.
    assert "no mail server (CORRMAIL_SMTP_HOST unset): the invitation is kept unsent" in made.output
    assert made.output.rstrip().endswith(f"http://localhost/password/welcome#{link[1]}")
    assert client.get("/password/welcome").status_code == 200  # the page whose script posts it
    claimed = client.post("/password/welcome/claim", data={"token": link[1]})
    assert claimed.status_code == 302 and claimed.location.endswith("/password/reset")
    done = client.post("/password/reset",
                       data={"password": "my own secret 1", "again": "my own secret 1"})
    assert done.status_code == 302
    assert client.post("/login", data={"login": "referee", "password": "my own secret 1"}).status_code == 302
    # The link works once: the password it set changed the fingerprint it carries.
    again = client.post("/password/welcome/claim", data={"token": link[1]})
    assert again.status_code == 302 and "/password/forgot" in again.location


def test_list_as_json_and_text(corrmail: Callable[..., Result]) -> None:
    corrmail("user", "add", "boss", "--name", "Boss", "--email", "boss@x.example", "--role",
             "organizer", "--role", "referee", "--password-stdin", input="0123456789ab\n")
    listed = corrmail("user", "list", "--format", "json")
    assert listed.exit_code == 0
    assert json.loads(listed.output) == [{"login": "boss", "name": "Boss", "email": "boss@x.example",
                                          "roles": ["organizer", "referee"], "active": True}]
    text = corrmail("user", "list")
    assert "boss" in text.output and "organizer,referee" in text.output and "active" in text.output


def test_bad_input_is_refused_and_changes_nothing(
    corrmail: Callable[..., Result], database: Database
) -> None:
    first = corrmail("user", "add", "steward", "--name", "S", "--email", "s@x.example", "--role",
                     "steward", "--password-stdin", input="0123456789ab\n")
    assert first.exit_code == 0
    users, audit, outbox = _count(database, User), _count(database, AuditEntry), _count(database, OutboxMessage)
    for args, message in (
        (["STEWARD", "--email", "other@x.example", "--role", "steward"], "the login 'STEWARD' is taken"),
        (["other", "--email", "S@X.example", "--role", "steward"], "belongs to another account"),
        (["other", "--email", "o@x.example", "--role", "judge"],
         "no role 'judge'; roles are: organizer, referee, steward, player"),
        (["other", "--role", "player"], "needs an e-mail for its invitation"),
        (["two words", "--email", "t@x.example", "--role", "player"], "no spaces"),
    ):
        refused = corrmail("user", "add", *args[:1], "--name", "N", *args[1:])
        assert refused.exit_code == 1, refused.output
        assert message in refused.output, refused.output
    short = corrmail("user", "add", "p", "--name", "P", "--role", "player", "--password-stdin",
                     input="short\n")
    assert short.exit_code == 1 and "at least 10 characters" in short.output
    assert (_count(database, User), _count(database, AuditEntry), _count(database, OutboxMessage)) == (
        users, audit, outbox)


def test_deactivate_and_last_organizer(corrmail: Callable[..., Result], client: FlaskClient) -> None:
    corrmail("user", "add", "boss", "--name", "Boss", "--role", "organizer", "--password-stdin",
             input="0123456789ab\n")
    corrmail("user", "add", "ref", "--name", "Ref", "--role", "referee", "--password-stdin",
             input="0123456789ab\n")
    last = corrmail("user", "deactivate", "boss")
    assert last.exit_code == 1 and "boss is the last active organizer" in last.output
    unknown = corrmail("user", "deactivate", "nobody")
    assert unknown.exit_code == 1 and "no account with the login 'nobody'" in unknown.output
    done = corrmail("user", "deactivate", "ref")
    assert done.exit_code == 0 and "user ref deactivated" in done.output
    assert client.post("/login", data={"login": "ref", "password": "0123456789ab"}).status_code != 302


def test_users_page_creates_invites_changes_roles_deactivates(
    organizer_client: FlaskClient, database: Database
) -> None:
    page = organizer_client.get("/admin/users/")
    assert page.status_code == 200
    # The role is named as a noun, not in the dative of the dashboard's «sort by player».
    assert " игрок</label>" in page.get_data(as_text=True)
    assert "игроку" not in page.get_data(as_text=True)
    # The steward is «староста», as in the rulebook (002 §4.1.1) and on every other page.
    assert " староста</label>" in page.get_data(as_text=True)
    made = organizer_client.post("/admin/users/", data={
        "login": "steward1", "name": "Староста", "email": "st@x.example", "roles": ["steward"],
        "locale": "en", "password": ""})
    # No mail server in the tests (captured mode): the letter is kept unsent, so the organizer is
    # shown its link to hand over himself; with a relay the page redirects (the next test).
    assert made.status_code == 200
    with database.session() as session:
        letter = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "invitation")).one()
        assert letter.subject == "Invitation to corrmail: account steward1"
        assert "/password/welcome#" in letter.body_text
        sent_link = re.search(r"(http://localhost/password/welcome#\S+)", letter.body_text)
    assert sent_link is not None
    assert f'value="{sent_link[1]}"' in made.get_data(as_text=True)
    duplicate = organizer_client.post("/admin/users/", data={
        "login": "Steward1", "name": "Другой", "email": "other@x.example", "roles": ["steward"],
        "locale": "ru", "password": ""})
    assert duplicate.status_code == 422
    assert "The login Steward1 is taken; nothing was changed." in duplicate.get_data(as_text=True) \
        or "Логин Steward1 занят" in duplicate.get_data(as_text=True)
    with database.session() as session:
        steward = session.scalar(select(User).where(User.login == "steward1"))
        assert steward is not None
        prefix = f"u{steward.id}"
    changed = organizer_client.post("/admin/users/steward1/roles",
                                    data={f"{prefix}-roles": ["steward", "referee"]})
    assert changed.status_code == 302
    again = organizer_client.post("/admin/users/steward1/invite")
    assert again.status_code == 200 and 'class="handover-link"' in again.get_data(as_text=True)
    gone = organizer_client.post("/admin/users/steward1/deactivate")
    assert gone.status_code == 302
    with database.session() as session:
        steward = session.scalar(select(User).where(User.login == "steward1"))
        assert steward is not None and not steward.active
        assert steward.roles == {Role.STEWARD, Role.REFEREE}
        assert session.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.kind == "invitation")) == 2
        assert session.scalar(select(func.count()).select_from(User)) == 2


def test_users_page_is_the_organizers(referee_client: FlaskClient) -> None:
    assert referee_client.get("/admin/users/").status_code == 403


def test_imported_players_are_invited_all_or_nothing(
    organizer_client: FlaskClient, make_tournament, database: Database  # type: ignore[no-untyped-def]
) -> None:
    import io

    tournament = make_tournament(players=0, code="ИМП-1")
    good = "ФИО;Эл почта;Почтовый адрес\nПетров Иван;petrov@mail.example;Казань\nОрлов Олег;;Уфа\n"
    response = organizer_client.post(
        f"/tournaments/{tournament.code}/players/import",
        data={"file": (io.BytesIO(good.encode("cp1251")), "players.csv"), "invite": "y"},
        content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    with database.session() as session:
        invited = session.scalars(select(User).where(User.player_id.is_not(None))).all()
        assert [(user.login, user.email, sorted(r.value for r in user.roles)) for user in invited] == [
            ("petrov", "petrov@mail.example", ["player"])]
        assert session.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.kind == "invitation")) == 1
    # No mail server: the organizer is told the invitations wait, and where the links are.
    shown = organizer_client.get(response.location).get_data(as_text=True)
    assert ("Почтовый сервер не настроен, поэтому приглашения не отправлены: на странице "
            "«Учётные записи» кнопка «Пригласить снова» покажет ссылку") in shown


def test_without_a_mail_server_the_organizer_hands_the_invitation_link_over(
    organizer_client: FlaskClient, client: FlaskClient, database: Database
) -> None:
    """JOURNEYS, organizer 2: the referee sets his own password even where no mail server is
    configured. The invitation is kept unsent (captured); the organizer who made it is shown
    its one-time link once, in his language, and the link sets the password."""
    made = organizer_client.post("/admin/users/", data={
        "login": "sudya", "name": "Судья Петров", "email": "sudya@x.example",
        "roles": ["referee"], "locale": "ru", "password": ""})
    assert made.status_code == 200
    page = made.get_data(as_text=True)
    assert "Передайте эту ссылку: Судья Петров" in page
    assert "CORRMAIL_SMTP_HOST" in page and "ссылка действует 14 дн." in page
    link = re.search(r'class="handover-link" type="text" readonly value="([^"]+)"', page)
    assert link is not None and "/password/welcome#" in link[1]
    # Shown once: the accounts page itself never shows it again.
    assert "handover-link" not in organizer_client.get("/admin/users/").get_data(as_text=True)
    token = link[1].split("#", 1)[1]
    claimed = client.post("/password/welcome/claim", data={"token": token})
    assert claimed.status_code == 302 and claimed.location.endswith("/password/reset")
    done = client.post("/password/reset", data={"password": "судейский пароль", "again": "судейский пароль"})
    assert done.status_code == 302
    assert client.post("/login", data={"login": "sudya", "password": "судейский пароль"}).status_code == 302


def test_with_a_mail_server_the_invitation_link_is_never_shown(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a relay the letter carries the link; the page says it is on its way and shows no
    link (a link on screen is only for the organizer who has no other way to deliver it)."""
    monkeypatch.setenv("CORRMAIL_SMTP_HOST", "smtp.federation.example")
    application = create_app(settings)
    organizer = application.test_client()
    with application.app_context():
        database = app_database()
        with database.transaction() as session:
            user = User(login="boss", display_name="Директор", email="boss@x.example")
            user.set_password("a long enough password")
            user.grant(Role.ORGANIZER)
            session.add(user)
    try:
        assert organizer.post("/login", data={"login": "boss", "password": "a long enough password"}
                              ).status_code == 302
        made = organizer.post("/admin/users/", data={
            "login": "sudya", "name": "Судья Петров", "email": "sudya@x.example",
            "roles": ["referee"], "locale": "ru", "password": ""}, follow_redirects=True)
        page = made.get_data(as_text=True)
        assert "handover-link" not in page and "/password/welcome#" not in page
        assert "Приглашение с выбором пароля отправлено на sudya@x.example." in page
        assert "captured-mail" not in page  # with a relay no page warns that mail stays put
        again = organizer.post("/admin/users/sudya/invite")
        assert again.status_code == 302
    finally:
        database.dispose()
