"""A director corrects an entered player's details from the web — name, e-mail, postal address,
channel — before the draw and after it: validated as an entry is (every problem at once),
recorded in the audit log, and after the draw with the warning that the start sheets already
sent give the old address (002 §4.3.2)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Channel,
    Participant,
    Player,
    Role,
    Tournament,
    TournamentChannel,
)
from corrmail.tournaments.start_sheets import pair_round_robin

from .test_form_errors_at_once import _errors


def _entry(database: Database, tournament: Tournament, number: int) -> tuple[int, int]:
    with database.session() as session:
        participant = session.scalars(select(Participant).where(
            Participant.tournament_id == tournament.id,
            Participant.start_number == number)).one()
        return participant.id, participant.player_id


def _details(database: Database, participant_id: int) -> tuple[object, ...]:
    with database.session() as session:
        participant = session.get(Participant, participant_id)
        assert participant is not None
        player = participant.player
        return (player.name, player.email, player.postal_address, player.club,
                participant.rating, participant.channel)


def test_the_director_corrects_a_player_before_the_draw(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    tournament = make_tournament(players=3, code="T-1", channel=TournamentChannel.MIXED)
    participant_id, _player = _entry(database, tournament, 2)
    listing = organizer_client.get("/tournaments/T-1").get_data(as_text=True)
    url = f"/tournaments/T-1/players/{participant_id}/edit"
    assert listing.count(f'href="{url}"') == 1  # the players' table links each to his edit page, once
    form = organizer_client.get(url).get_data(as_text=True)
    assert "Данные игрока" in form and 'value="p' in form  # filled with what is on record
    saved = organizer_client.post(url, data={
        "name": "Кузнецов  Олег", "email": "Kuz@Example.org", "postal_address": "Тула, ул. Мира 1",
        "club": "Тула", "rating": "2150", "channel": "post"}, follow_redirects=True)
    page = saved.get_data(as_text=True)
    assert "Данные игрока Кузнецов Олег сохранены." in page
    assert "стартовых листах" not in page  # no games yet: no sheet named the old address
    assert _details(database, participant_id) == (
        "Кузнецов Олег", "kuz@example.org", "Тула, ул. Мира 1", "Тула", 2150, Channel.POST)
    with database.session() as session:
        entry = session.scalars(select(AuditEntry).where(
            AuditEntry.action == "participant.update")).one()
        assert entry.entity_id == participant_id and entry.tournament_id == tournament.id
        assert entry.user is not None and entry.user.has_role(Role.ORGANIZER)
        changes = entry.detail["changes"]
        assert set(changes) == {"name", "email", "postal_address", "club", "rating", "channel"}
        assert changes["channel"] == [None, "post"] and changes["rating"] == [None, "2150"]
        assert entry.detail["after_draw"] is False
    again = organizer_client.post(url, data={
        "name": "Кузнецов Олег", "email": "kuz@example.org", "postal_address": "Тула, ул. Мира 1",
        "club": "Тула", "rating": "2150", "channel": "post"}, follow_redirects=True)
    assert "Ничего не изменено." in again.get_data(as_text=True)
    with database.session() as session:
        assert len(session.scalars(select(AuditEntry).where(
            AuditEntry.action == "participant.update")).all()) == 1


def test_a_correction_is_refused_with_every_problem_and_changes_nothing(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    tournament = make_tournament(players=3, code="T-1", channel=TournamentChannel.MIXED)
    outsider = make_tournament(players=1, code="T-2")
    participant_id, _player = _entry(database, tournament, 2)
    before = _details(database, participant_id)
    url = f"/tournaments/T-1/players/{participant_id}/edit"
    taken = _details(database, _entry(database, tournament, 3)[0])[1]
    refused = organizer_client.post(url, data={
        "name": "", "email": str(taken), "postal_address": "", "rating": "-3", "channel": "post"})
    assert refused.status_code == 422
    errors = _errors(refused.get_data(as_text=True))
    assert errors == {
        "Фамилия, имя": ["Обязательное поле."],
        "Эл. почта": [f"{taken} уже участвует"],
        "Почтовый адрес": ["игроку по почте нужен почтовый адрес (002 §4.3.2)"],
        "Рейтинг": ["Значение должно быть между 0 и 4000."],
    }, errors
    # The e-mail of another entrant, and of a player of another tournament.
    clash = organizer_client.post(url, data={"name": "Кузнецов Олег", "email": str(taken)})
    assert _errors(clash.get_data(as_text=True)) == {
        "Эл. почта": [f"{taken} уже участвует"]}
    other = _details(database, _entry(database, outsider, 1)[0])
    foreign = organizer_client.post(url, data={"name": "Кузнецов Олег", "email": str(other[1])})
    [message] = _errors(foreign.get_data(as_text=True))["Эл. почта"]
    assert html.unescape(message) == (f"{other[1]} — адрес другого игрока, {other[0]}: один адрес — "
                                      "один человек во всех турнирах сервиса")
    assert _details(database, participant_id) == before
    assert organizer_client.get(f"/tournaments/T-2/players/{participant_id}/edit").status_code \
        == 404  # an entry of another tournament
    with database.session() as session:
        assert session.scalars(select(AuditEntry).where(
            AuditEntry.action == "participant.update")).all() == []


def test_after_the_draw_the_director_is_told_the_start_sheets_had_the_old_address(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    tournament = make_tournament(players=3, code="T-1", channel=TournamentChannel.MIXED)
    with database.transaction() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        pair_round_robin(session, row, None)
    participant_id, player_id = _entry(database, tournament, 1)
    url = f"/tournaments/T-1/players/{participant_id}/edit"
    form = organizer_client.get(url).get_data(as_text=True)
    assert "Партии уже разведены" in form
    saved = organizer_client.post(url, data={
        "name": "Player 1.1", "email": "new@example.org", "postal_address": "Омск",
        "channel": "email"}, follow_redirects=True)
    page = saved.get_data(as_text=True)
    assert ("В разосланных стартовых листах у партнёров старый адрес (002 §4.3.2): сообщите им "
            "новый.") in page
    with database.session() as session:
        player = session.get(Player, player_id)
        assert player is not None and player.email == "new@example.org"
        entry = session.scalars(select(AuditEntry).where(
            AuditEntry.action == "participant.update")).one()
        assert entry.detail["after_draw"] is True
        assert re.search(r"#1 Player 1\.1: email, postal_address, channel \(after the draw\)",
                         entry.summary), entry.summary


def test_only_an_organizer_edits_players(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    tournament = make_tournament(players=2, code="T-1")
    participant_id, _player = _entry(database, tournament, 1)
    steward = login(Role.STEWARD)
    assert steward.get(f"/tournaments/T-1/players/{participant_id}/edit").status_code == 403
