"""Login with hashed passwords, role checks, CSRF on every form."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from corrmail.app import create_app
from corrmail.config import Settings
from corrmail.models import Role, User

PASSWORD = "correct horse battery"


def test_password_is_stored_hashed(make_user: Callable[..., User]) -> None:
    user = make_user("ivanov", Role.PLAYER)
    assert PASSWORD not in user.password_hash
    assert user.check_password(PASSWORD)
    assert not user.check_password("wrong")


def test_login_with_good_password_opens_the_tournament_list(
    client: FlaskClient, make_user: Callable[..., User]
) -> None:
    make_user("referee", Role.REFEREE)
    response = client.post("/login", data={"login": "referee", "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/tournaments/"
    assert client.get("/tournaments/").status_code == 200


def test_wrong_password_is_refused_without_saying_which_part_was_wrong(
    client: FlaskClient, make_user: Callable[..., User]
) -> None:
    make_user("referee", Role.REFEREE)
    for login, password in (("referee", "nope"), ("nobody", PASSWORD)):
        response = client.post("/login", data={"login": login, "password": password})
        assert response.status_code == 401
        assert "Неверный логин или пароль." in response.get_data(as_text=True)
    assert client.get("/tournaments/").status_code == 302


def test_inactive_user_cannot_log_in(
    client: FlaskClient, make_user: Callable[..., User], database: object
) -> None:
    from corrmail.db import Database

    assert isinstance(database, Database)
    user = make_user("gone", Role.PLAYER)
    with database.transaction() as session:
        stored = session.get(User, user.id)
        assert stored is not None
        stored.active = False
    response = client.post("/login", data={"login": "gone", "password": PASSWORD})
    assert response.status_code == 401


def test_next_parameter_cannot_redirect_off_site(
    client: FlaskClient, make_user: Callable[..., User]
) -> None:
    make_user("director", Role.ORGANIZER)
    for target in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.post(
            f"/login?next={target}", data={"login": "director", "password": PASSWORD}
        )
        assert response.headers["Location"] == "/tournaments/"
    response = client.post(
        "/login?next=/admin/outbox", data={"login": "director", "password": PASSWORD}
    )
    assert response.headers["Location"] == "/admin/outbox"


def test_anonymous_visitor_is_sent_to_login(client: FlaskClient) -> None:
    response = client.get("/tournaments/")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")


@pytest.mark.parametrize(
    ("role", "status"),
    [(Role.ORGANIZER, 200), (Role.REFEREE, 200), (Role.STEWARD, 200), (Role.PLAYER, 403)],
)
def test_outbox_is_for_officials(
    login: Callable[..., FlaskClient], role: Role, status: int
) -> None:
    assert login(role).get("/admin/outbox").status_code == status


def test_logout_is_a_post_and_ends_the_session(organizer_client: FlaskClient) -> None:
    assert organizer_client.get("/logout").status_code == 405
    assert organizer_client.post("/logout").status_code == 302
    assert organizer_client.get("/tournaments/").status_code == 302


@pytest.fixture
def csrf_app(settings: Settings) -> Flask:
    from dataclasses import replace

    return create_app(replace(settings, csrf_enabled=True))


def _token(page: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match, "form without a CSRF token"
    return match.group(1)


def test_forms_without_csrf_token_are_refused(
    csrf_app: Flask, make_user: Callable[..., User]
) -> None:
    make_user("director", Role.ORGANIZER)
    client = csrf_app.test_client()
    response = client.post("/login", data={"login": "director", "password": PASSWORD})
    assert response.status_code == 400
    token = _token(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/login", data={"login": "director", "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302
    assert client.post("/logout").status_code == 400  # still logged in
    assert client.get("/tournaments/").status_code == 200
    assert client.post("/locale", data={"locale": "en"}).status_code == 400


def test_every_form_on_a_page_carries_a_csrf_token(
    csrf_app: Flask, make_user: Callable[..., User]
) -> None:
    make_user("director", Role.ORGANIZER)
    client = csrf_app.test_client()
    token = _token(client.get("/login").get_data(as_text=True))
    client.post("/login", data={"login": "director", "password": PASSWORD, "csrf_token": token})
    for path in ("/tournaments/", "/admin/outbox", "/login"):
        page = client.get(path).get_data(as_text=True)
        forms = re.findall(r"<form\b.*?</form>", page, flags=re.S)
        assert forms
        for form in forms:
            if 'method="post"' in form:
                assert 'name="csrf_token"' in form, (path, form[:80])
