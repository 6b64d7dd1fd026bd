"""Every GET route answers every role without a server error (issue 6 §9: server-side checks)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from corrmail.demo import DEMO_CODE
from corrmail.models import Role, Tournament

ROLES: list[Role | None] = [None, *Role]


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: access checks are Python; every query also runs on PostgreSQL elsewhere."""
    path = tmp_path / "routes.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


def _path(rule: Rule, code: str) -> str | None:
    """The rule with demo values in its arguments; None when it needs one we cannot guess."""
    values: dict[str, object] = {}
    for argument in rule.arguments:
        converter = rule._converters[argument]  # noqa: SLF001 - werkzeug exposes no public mapping
        if type(converter).__name__ == "IntegerConverter":
            values[argument] = 1
        elif argument in ("code", "tournament_code"):
            values[argument] = code
        elif argument == "filename":
            values[argument] = "corrmail.css"
        else:
            return None
    try:
        return rule.build(values, append_unknown=False)[1]  # type: ignore[index]
    except Exception:  # a converter that refuses our value: skip the rule
        return None


def test_every_get_route_answers_every_role(
    app: Flask,
    demo_tournament: Tournament,
    make_tournament: Callable[..., Tournament],
    login: Callable[..., FlaskClient],
) -> None:
    unpaired = make_tournament(players=3)  # no games yet: pages show their "pair" forms
    app.config["PROPAGATE_EXCEPTIONS"] = False  # collect every 500 instead of stopping at one
    clients = {role: (login(role) if role else app.test_client()) for role in ROLES}
    crashes = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        paths = {_path(rule, code) for code in (DEMO_CODE, unpaired.code)} - {None}
        for path in sorted(p for p in paths if p):
            for role, client in clients.items():
                status = client.get(path).status_code
                if status >= 500:
                    crashes.append((path, role.value if role else "anonymous", status))
    assert crashes == []


@pytest.mark.parametrize("role", [Role.PLAYER, Role.STEWARD])
def test_organizer_routes_refuse_other_roles(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, role: Role
) -> None:
    client = login(role)
    for path in ("/tournaments/new", f"/tournaments/{DEMO_CODE}/edit", "/admin/outbox"):
        assert client.get(path).status_code == 403, path
