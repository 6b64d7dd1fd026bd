"""Where a player's letter language is set: the director's registration form, the CSV import
(an optional column) and the player's own /me page — each refusing, in words, a language letters
are not written in."""

from __future__ import annotations

import html
import io
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.models import Participant, Player, Role, Tournament, TournamentChannel, User

from .test_player_import_columns import _import


def _languages(database: Database) -> dict[str, str]:
    with database.session() as session:
        return {player.name: player.language for player in session.scalars(select(Player))}


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_director_registers_a_player_who_reads_english(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    page = organizer_client.get("/tournaments/T-1/players/new").get_data(as_text=True)
    assert '<option value="en">English</option>' in page
    assert organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "John Smith", "postal_address": "1 High Street, Leeds", "language": "en",
    }).status_code == 302
    assert organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Иванов Пётр", "postal_address": "Тверь, ул. Мира, 1"}).status_code == 302
    assert _languages(database) == {"John Smith": "en", "Иванов Пётр": "ru"}


@pytest.mark.parametrize(("locale", "message"), [
    ("ru", "Письма пишутся по-русски (ru) или по-английски (en), а не «de»."),
    ("en", "Letters are written in Russian (ru) or English (en), not «de»."),
])
def test_a_forged_language_on_the_registration_form_is_refused(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str, message: str,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    response = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "John Smith", "postal_address": "1 High Street, Leeds", "language": "de"})
    assert response.status_code == 200
    assert message in html.unescape(response.get_data(as_text=True))
    assert _languages(database) == {}


def test_the_csv_language_column_takes_codes_and_names_in_either_language(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    response = organizer_client.post("/tournaments/T-1/players/import", data={"file": (io.BytesIO((
        "ФИО;Адрес;Язык писем\n"
        "Иванов Пётр;Тверь;ru\n"
        "Петров Иван;Тула;Русский\n"
        "John Smith;Leeds;EN\n"
        "Jane Doe;York; english \n"
        "Сидоров Олег;Омск;\n"
    ).encode()), "players.csv")}, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _languages(database) == {"Иванов Пётр": "ru", "Петров Иван": "ru", "John Smith": "en",
                                    "Jane Doe": "en", "Сидоров Олег": "ru"}


@pytest.mark.parametrize(("locale", "expected"), [
    ("ru", ["строка 3, столбец «Language»: «deutsch» — не язык писем: напишите ru (русский) "
            "или en (English)"]),
    ("en", ["line 3, column “Language”: «deutsch» is not a language of letters: write ru "
            "(русский) or en (English)"]),
])
def test_an_unknown_language_in_the_csv_names_its_row_and_imports_nothing(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str, expected: list[str],
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    status, problems = _import(organizer_client, (
        "Name,Address,Language\nJohn Smith,Leeds,en\nHans Meier,Bern,deutsch\n"), locale)
    assert (status, problems) == (422, expected)
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Participant)) == 0


def _player_client(login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
                   database: Database) -> tuple[FlaskClient, int]:
    tournament = make_tournament(players=2)
    with database.session() as session:
        player = session.scalars(select(Player).join(Participant)
                                 .where(Participant.tournament_id == tournament.id)).first()
        assert player is not None
        session.expunge(player)
    return login(Role.PLAYER, login="ivanov", player=player), player.id


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_player_chooses_his_letter_language_on_his_page(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    client, player_id = _player_client(login, make_tournament, database)
    assert client.post("/locale", data={"locale": locale}).status_code == 302
    page = client.get("/me").get_data(as_text=True)
    assert 'id="letter-language"' in page and '<option selected value="ru">' in page
    response = client.post("/me/language", data={"language": "en"}, follow_redirects=True)
    assert response.status_code == 200
    said = {"ru": "Ваши письма будут писаться по-английски.",
            "en": "Your letters will be written in English."}[locale]
    assert said in response.get_data(as_text=True)
    with database.session() as session:
        player = session.get(Player, player_id)
        account = session.scalar(select(User).where(User.login == "ivanov"))
        assert player is not None and player.language == "en"
        assert account is not None and account.locale == "en", "his pages follow his letters"


def test_a_forged_language_on_the_players_page_is_refused(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    client, player_id = _player_client(login, make_tournament, database)
    assert client.post("/locale", data={"locale": "en"}).status_code == 302
    response = client.post("/me/language", data={"language": "fr"})
    assert response.status_code == 422
    assert "Letters are written in Russian (ru) or English (en), not «fr»." in html.unescape(
        response.get_data(as_text=True))
    with database.session() as session:
        player = session.get(Player, player_id)
        assert player is not None and player.language == "ru"


def test_an_official_without_a_players_entry_has_no_letter_language_to_set_here(
    organizer_client: FlaskClient,
) -> None:
    assert organizer_client.post("/me/language", data={"language": "en"}).status_code == 404


def _first_entry(database: Database, tournament: Tournament) -> int:
    with database.session() as session:
        entry = session.scalar(select(Participant).where(
            Participant.tournament_id == tournament.id, Participant.start_number == 1))
        assert entry is not None
        return entry.id


def _on_record(database: Database, entry: int, **changes: str) -> dict[str, str]:
    """The edit form as the page fills it (every field of the player's details), with
    ``changes``: the one form corrects the e-mail, rating and channel too."""
    with database.session() as session:
        participant = session.get(Participant, entry)
        assert participant is not None
        player = participant.player
        form = {"name": player.name, "email": player.email or "",
                "postal_address": player.postal_address or "", "club": player.club or "",
                "rating": "" if participant.rating is None else str(participant.rating),
                "channel": participant.channel.value if participant.channel else "",
                "language": player.language}
    return {**form, **changes}


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_director_changes_a_registered_players_letter_language(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    tournament = make_tournament(players=2, code="T-1")
    entry = _first_entry(database, tournament)
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    show = organizer_client.get("/tournaments/T-1").get_data(as_text=True)
    assert f"/tournaments/T-1/players/{entry}/edit" in show
    form = organizer_client.get(f"/tournaments/T-1/players/{entry}/edit").get_data(as_text=True)
    assert '<option selected value="ru">' in form and "1 Test Street" in form
    saved = organizer_client.post(f"/tournaments/T-1/players/{entry}/edit", data=_on_record(
        database, entry, name="Player  One", postal_address="1 Test Street", club="", language="en"))
    assert saved.status_code == 302
    with database.session() as session:
        player = session.get(Participant, entry).player  # type: ignore[union-attr]
        assert (player.name, player.language, player.club) == ("Player One", "en", None)


@pytest.mark.parametrize(("data", "status", "message"), [
    ({"name": "Player One", "postal_address": "1 Test Street", "language": "xx"}, 422,
     "Letters are written in Russian (ru) or English (en), not «xx»."),
    ({"name": "Player One", "postal_address": "", "language": "en"}, 422,
     "a postal tournament needs the address (002 §4.3.2)"),
    ({"name": "  ", "postal_address": "1 Test Street", "language": "en"}, 422,
     "This field is required."),
])
def test_a_wrong_correction_of_a_player_is_refused_and_changes_nothing(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, data: dict[str, str], status: int, message: str,
) -> None:
    tournament = make_tournament(players=2, code="T-1", channel=TournamentChannel.POST)
    entry = _first_entry(database, tournament)
    assert organizer_client.post("/locale", data={"locale": "en"}).status_code == 302
    refused = organizer_client.post(f"/tournaments/T-1/players/{entry}/edit",
                                    data=_on_record(database, entry, **data))
    assert refused.status_code == status
    assert message in html.unescape(refused.get_data(as_text=True))
    with database.session() as session:
        player = session.get(Participant, entry).player  # type: ignore[union-attr]
        assert (player.language, player.postal_address) == ("ru", "1 Test Street")


def test_only_the_director_corrects_a_player(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    tournament = make_tournament(players=2, code="T-1")
    entry = _first_entry(database, tournament)
    steward = login(Role.STEWARD)
    assert steward.post(f"/tournaments/T-1/players/{entry}/edit", data={
        "name": "X", "language": "en"}).status_code == 403
    other = make_tournament(players=2, code="T-2")
    organizer = login(Role.ORGANIZER)
    assert organizer.get(f"/tournaments/T-2/players/{entry}/edit").status_code == 404
    assert other is not None


@pytest.mark.parametrize(("language", "subject"), [
    ("en", "Invitation to corrmail: account smith"),
    ("ru", "Приглашение в corrmail: учётная запись smith"),
])
def test_the_invitation_is_in_the_players_language_not_the_directors(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, language: str, subject: str,
) -> None:
    from corrmail.models import OutboxMessage

    make_tournament(players=0, code="T-1", channel=TournamentChannel.EMAIL)
    director = "ru" if language == "en" else "en"
    assert organizer_client.post("/locale", data={"locale": director}).status_code == 302
    assert organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "John Smith", "email": "smith@example.org", "language": language, "invite": "y",
    }).status_code == 302
    with database.session() as session:
        [invitation] = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "invitation")).all()
        account = session.scalar(select(User).where(User.login == "smith"))
        assert account is not None and account.locale == language
    assert invitation.subject == subject
    assert "smith" in invitation.body_text
