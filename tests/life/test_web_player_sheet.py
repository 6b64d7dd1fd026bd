"""A player who plays on the web gets his start sheet by e-mail, as an e-mail player does: the
steward is not asked to post it, and «Send again» writes it again (002 §4.3.2). A web player
with no address on file is the steward's to post, as a postal player is."""

from __future__ import annotations

from collections.abc import Callable

from click.testing import Result
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import Channel, OutboxMessage, Participant, Player, Tournament
from corrmail.tournaments.publishing import sheets_for_steward

CODE = "ЗКР-2026"  # the draft fixture's tournament


def _make_web(database: Database, name: str, *, email: str | None) -> int:
    with database.transaction() as session:
        participant = session.scalar(select(Participant).join(Player).where(Player.name == name))
        assert participant is not None
        participant.channel = Channel.WEB
        participant.player.email = email
        return participant.id


def _sheets_to(database: Database, address: str) -> list[OutboxMessage]:
    with database.session() as session:
        return list(session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "start_sheet", OutboxMessage.recipient == address)))


def test_a_web_players_sheet_is_e_mailed_not_left_for_the_steward(
    corrmail: Callable[..., Result], draft: int, database: Database,
    organizer_client: FlaskClient,
) -> None:
    web = _make_web(database, "Седов Сергей", email="sedov@mail.example")
    assert corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1").exit_code == 0
    published = organizer_client.post(f"/tournaments/{CODE}/publish")
    assert published.status_code == 302
    assert len(_sheets_to(database, "sedov@mail.example")) == 1
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert tournament is not None
        assert [p.player.name for p in sheets_for_steward(tournament)] == ["Орлов Олег"]
    page = organizer_client.get(f"/tournaments/{CODE}/start-sheets/mailing").get_data(as_text=True)
    row = page.split(f'data-participant="{web}"')[1].split("</tr>")[0]
    assert "сайт" in row and "отправить по почте" not in row and "Отправлен" not in row
    assert "ждёт неотправленным в исходящих" in row  # captured mail, said so
    # «Send again» writes it again, and says so truthfully.
    organizer_client.post(f"/tournaments/{CODE}/start-sheets/{web}/resend")
    assert len(_sheets_to(database, "sedov@mail.example")) == 2


def test_a_web_player_without_an_address_is_on_the_stewards_list(
    corrmail: Callable[..., Result], draft: int, database: Database,
    organizer_client: FlaskClient,
) -> None:
    _make_web(database, "Седов Сергей", email=None)
    with database.transaction() as session:
        # The steward posts his sheet: an address to post it to.
        player = session.scalar(select(Player).where(Player.name == "Седов Сергей"))
        assert player is not None
        player.postal_address = "450000, Уфа, ул. Мира, 2"
    assert corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1").exit_code == 0
    assert organizer_client.post(f"/tournaments/{CODE}/publish").status_code == 302
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert tournament is not None
        assert sorted(p.player.name for p in sheets_for_steward(tournament)) == [
            "Орлов Олег", "Седов Сергей"]


def test_the_tournament_page_says_how_each_player_plays(
    draft: int, database: Database, organizer_client: FlaskClient,
) -> None:
    """In a mixed tournament the director sees each player's channel before the draw: his own,
    else e-mail with an address and post without one (002 §4.1.1)."""
    _make_web(database, "Седов Сергей", email="sedov@mail.example")
    page = organizer_client.get(f"/tournaments/{CODE}").get_data(as_text=True)
    players = page.split('<table class="players">')[1].split("</table>")[0]
    rows = {row.split("<td>")[2].split("<")[0].strip(): row.split("<td>")[3].split("<")[0]
            for row in players.split("<tr>")[2:]}
    assert rows == {"Петров Иван": "эл. почта", "Седов Сергей": "сайт", "Орлов Олег": "почта"}
