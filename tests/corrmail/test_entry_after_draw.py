"""Entries after the draw: a round robin's field is fixed once its games are drawn from the
Berger table (002 §4.3.2, 000 §3.14.3; docs/rules/entries.md); a Swiss takes a late entry
between rounds, since each round is drawn from the field as it then stands (000 §3.18.1)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Game,
    PairedRound,
    Participant,
    Player,
    Tournament,
    TournamentChannel,
    TournamentSystem,
)

NEWCOMER = {"name": "Новиков Николай", "email": "novikov@example.org",
            "postal_address": "Тула, ул. Ленина, 1"}
NEWCOMER_CSV = "ФИО;E-mail;Адрес\nНовиков Николай;novikov@example.org;Тула, ул. Ленина, 1\n"
REFUSED = {
    "ru": "круговой турнир уже разведён по таблице Бергера (партий: 6): состав участников "
          "закреплён жеребьёвкой, у игрока, внесённого сейчас, не было бы в нём ни одной партии "
          "(002 §4.3.2, 000 §3.14.3)",
    "en": "the round robin is already drawn from the Berger table (6 games): its field is fixed "
          "at the draw, and a player entered now would have no games in it "
          "(002 §4.3.2, 000 §3.14.3)",
}


def _stored(database: Database) -> tuple[int, int, int, int]:
    """Participants, players, games and audit entries: what a refusal must leave as it was."""
    with database.session() as session:
        return tuple(  # type: ignore[return-value]
            int(session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (Participant, Player, Game, AuditEntry)
        )


def _drawn_round_robin(client: FlaskClient, make_tournament: Callable[..., Tournament],
                       database: Database) -> None:
    make_tournament(players=4, code="КР-1", system=TournamentSystem.ROUND_ROBIN_SINGLE,
                    channel=TournamentChannel.MIXED)
    assert client.post("/tournaments/КР-1/pair").status_code == 302
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 6


def _refused_entry(client: FlaskClient, make_tournament: Callable[..., Tournament],
                   database: Database, locale: str, enter: Callable[[], TestResponse],
                   status: int) -> None:
    """``enter`` posts an entry into a drawn round robin: refused in ``locale`` with the rule's
    words, with ``status``, and nothing stored."""
    _drawn_round_robin(client, make_tournament, database)
    assert client.post("/locale", data={"locale": locale}).status_code == 302
    before = _stored(database)
    response = enter()
    assert response.status_code == status
    assert REFUSED[locale] in response.get_data(as_text=True)
    assert _stored(database) == before


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_player_cannot_be_entered_by_hand_into_a_drawn_round_robin(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    _refused_entry(organizer_client, make_tournament, database, locale, lambda: organizer_client.post(
        "/tournaments/КР-1/players/new", data=NEWCOMER), 200)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_list_cannot_be_imported_into_a_drawn_round_robin(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    _refused_entry(organizer_client, make_tournament, database, locale, lambda: organizer_client.post(
        "/tournaments/КР-1/players/import",
        data={"file": (io.BytesIO(NEWCOMER_CSV.encode()), "players.csv")},
        content_type="multipart/form-data"), 422)


def test_a_round_robin_takes_entries_until_it_is_drawn(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=4, code="КР-1", channel=TournamentChannel.MIXED)
    assert organizer_client.post("/tournaments/КР-1/players/new",
                                 data=NEWCOMER).status_code == 302
    assert organizer_client.post("/tournaments/КР-1/pair").status_code == 302
    with database.session() as session:
        # Five players, one cycle: every one of the five has four games.
        assert session.scalar(select(func.count()).select_from(Game)) == 10


def test_a_swiss_takes_a_late_entry_between_rounds(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=4, code="ШВ-1", system=TournamentSystem.SWISS,
                    pairing_system="random", channel=TournamentChannel.MIXED)
    assert organizer_client.post("/tournaments/ШВ-1/rounds/pair",
                                 data={"seed": "7"}).status_code == 302
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(PairedRound)) == 1
    response = organizer_client.post("/tournaments/ШВ-1/players/new", data=NEWCOMER)
    assert response.status_code == 302
    with database.session() as session:
        entry = session.scalar(select(Participant).join(Player)
                               .where(Player.email == "novikov@example.org"))
        assert entry is not None and entry.start_number == 5
