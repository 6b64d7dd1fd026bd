"""Officials of a tournament: one referee, several stewards; each sees what he serves only."""

from __future__ import annotations

from collections.abc import Callable

from click.testing import Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.models import AuditEntry, Role, TournamentOfficial

CODE = "ЗКР-2026"  # the draft fixture's tournament


def _serving(database: Database, tournament_id: int) -> set[tuple[str, str]]:
    with database.session() as session:
        return {(row.user.login, row.role.value) for row in session.scalars(
            select(TournamentOfficial).where(TournamentOfficial.tournament_id == tournament_id))}


def test_cli_appoints_replaces_and_removes(corrmail: Callable[..., Result], draft: int,
                                           database: Database, make_user) -> None:  # type: ignore[no-untyped-def]
    done = corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1",
                    "--steward", "stew2")
    assert done.exit_code == 0, done.output
    assert "referee  ref" in done.output and "steward  stew2" in done.output
    assert _serving(database, draft) == {("ref", "referee"), ("stew1", "steward"), ("stew2", "steward")}
    make_user("ref2", Role.REFEREE)
    replaced = corrmail("tournament", "officials", CODE, "--referee", "ref2", "--remove", "stew1")
    assert replaced.exit_code == 0, replaced.output
    assert _serving(database, draft) == {("ref2", "referee"), ("stew2", "steward")}


def test_cli_refusals_change_nothing(corrmail: Callable[..., Result], draft: int,
                                     database: Database) -> None:
    corrmail("tournament", "officials", CODE, "--referee", "ref")
    with database.session() as session:
        audit = session.scalar(select(func.count()).select_from(AuditEntry))
    for args, message in (
        (["--steward", "nobody"], "no account with the login 'nobody'"),
        (["--referee", "stew1"], "stew1 does not hold the role referee; give it first"),
        (["--steward", "stew1", "--remove", "stew2"], f"stew2 does not serve {CODE}"),
    ):
        refused = corrmail("tournament", "officials", CODE, *args)
        assert refused.exit_code == 1 and message in refused.output, refused.output
    assert _serving(database, draft) == {("ref", "referee")}
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(AuditEntry)) == audit
    missing = corrmail("tournament", "officials", "НЕТ-1", "--referee", "ref")
    assert missing.exit_code == 1 and "no tournament 'НЕТ-1'" in missing.output


def test_web_officials_page(organizer_client: FlaskClient, draft: int, database: Database) -> None:
    page = organizer_client.get(f"/tournaments/{CODE}/officials")
    assert page.status_code == 200
    saved = organizer_client.post(f"/tournaments/{CODE}/officials",
                                  data={"referee": "ref", "stewards": ["stew1", "stew2"]})
    assert saved.status_code == 302
    assert _serving(database, draft) == {("ref", "referee"), ("stew1", "steward"), ("stew2", "steward")}
    removed = organizer_client.post(f"/tournaments/{CODE}/officials/remove", data={"login": "stew1"})
    assert removed.status_code == 302
    assert _serving(database, draft) == {("ref", "referee"), ("stew2", "steward")}


def test_official_sees_only_what_he_serves(
    corrmail: Callable[..., Result], draft: int, app, make_tournament  # type: ignore[no-untyped-def]
) -> None:
    other = make_tournament(players=2, code="ДРУГОЙ-1")
    corrmail("tournament", "officials", CODE, "--steward", "stew1")
    steward = app.test_client()
    assert steward.post("/login", data={"login": "stew1", "password": "correct horse battery"}).status_code == 302
    listing = steward.get("/tournaments/").get_data(as_text=True)
    assert CODE in listing and other.code not in listing
    assert steward.get(f"/tournaments/{CODE}").status_code == 200
    assert steward.get(f"/tournaments/{other.code}").status_code == 403
    assert steward.get(f"/dashboard/{other.code}").status_code == 403
    outsider = app.test_client()
    assert outsider.post("/login", data={"login": "stew2", "password": "correct horse battery"}).status_code == 302
    assert outsider.get(f"/tournaments/{CODE}").status_code == 403
    assert CODE not in outsider.get("/tournaments/").get_data(as_text=True)
