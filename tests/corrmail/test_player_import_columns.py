"""The CSV import names each problem by its line and by the column as the user's file heads it
(or, for a column the file lacks, by its name in the reader's language), never by the service's
internal names (`email`, `postal_address`)."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.models import Channel, Participant, Player, Tournament, TournamentChannel
from corrmail.tournaments.player_import import COLUMNS

# A federation's list headed its own way, with no address column, for a postal tournament.
BAD_CSV = (
    "Фамилия Имя Отчество;Электронная почта;Рейтинг\n"
    "Кузнецов Олег Ильич;kuz@;много\n"
    "Орлова Анна;orlova@example.org;\n"
)
EXPECTED = {
    "ru": [
        "строка 2, столбец «Рейтинг»: много — не целое число",
        "строка 2, столбец «Электронная почта»: kuz@ — не адрес эл. почты",
        "строка 2, столбец «Почтовый адрес»: в турнире по почте нужен почтовый адрес "
        "(002 §4.3.2)",
        "строка 3, столбец «Почтовый адрес»: в турнире по почте нужен почтовый адрес "
        "(002 §4.3.2)",
    ],
    "en": [
        "line 2, column “Рейтинг”: много is not a whole number",
        "line 2, column “Электронная почта”: kuz@ is not an e-mail address",
        "line 2, column “Postal address”: a postal tournament needs the address (002 §4.3.2)",
        "line 3, column “Postal address”: a postal tournament needs the address (002 §4.3.2)",
    ],
}
INTERNAL_NAMES = [key for key in COLUMNS if "_" in key or key in ("email", "name")]


def _problems(page: str) -> list[str]:
    """The items of the refusal box, as the user reads them."""
    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, re.S)
    assert box is not None, page
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", box[1], re.S)]


def _import(client: FlaskClient, text: str, locale: str) -> tuple[int, list[str]]:
    assert client.post("/locale", data={"locale": locale}).status_code == 302
    response = client.post(
        "/tournaments/T-1/players/import",
        data={"file": (io.BytesIO(text.encode()), "players.csv")},
        content_type="multipart/form-data",
    )
    return response.status_code, _problems(response.get_data(as_text=True))


def _no_internal_names(problems: list[str]) -> None:
    for problem in problems:
        where = problem.split(":", 1)[0]
        assert not any(re.search(rf"\b{name}\b", where) for name in INTERNAL_NAMES), problem


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_problem_names_the_line_and_the_users_column(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    database: Database, locale: str,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    status, problems = _import(organizer_client, BAD_CSV, locale)
    assert status == 422
    assert problems == EXPECTED[locale]
    _no_internal_names(problems)
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Participant)) == 0
        assert session.scalar(select(func.count()).select_from(Player)) == 0


@pytest.mark.parametrize(("locale", "expected"), [
    ("ru", "строка 2, столбец «Mail»: ivanov@example.org уже участвует"),
    ("en", "line 2, column “Mail”: ivanov@example.org is already entered"),
])
def test_a_clash_with_the_entries_names_the_users_column(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    locale: str, expected: str,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.EMAIL)
    assert organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Иванов Пётр", "email": "ivanov@example.org"}).status_code == 302
    status, problems = _import(organizer_client, "Player,Mail\nИванов Пётр,ivanov@example.org\n",
                               locale)
    assert status == 422 and problems == [expected]


@pytest.mark.parametrize(("locale", "expected"), [
    ("ru", [
        "строка 1, столбец «Город»: неизвестный столбец; ожидаются Фамилия, имя; Эл. почта; "
        "Почтовый адрес; Рейтинг; Клуб; Играет; Язык писем",
        "строка 1, столбец «Почтовый адрес»: столбец Почтовый адрес указан дважды",
    ]),
    ("en", [
        "line 1, column “Город”: unknown column; expected Name; E-mail; Postal address; Rating; "
        "Club; Plays by; Language of letters",
        "line 1, column “Почтовый адрес”: column Postal address appears twice",
    ]),
])
def test_header_problems_name_the_columns_in_the_readers_language(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
    locale: str, expected: list[str],
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    status, problems = _import(
        organizer_client, "ФИО;Город;Адрес;Почтовый адрес\nИванов Пётр;Тула;Тула;Тула\n", locale)
    assert status == 422 and problems == expected
    _no_internal_names(problems)


CHANNEL_CSV = (
    "ФИО;Эл. почта;Адрес;Способ игры\n"
    "Кузнецов Олег;kuz@example.org;Тула;почта\n"
    "Орлова Анна;orlova@example.org;Орёл;по почте\n"
    "Седов Сергей;sedov@example.org;;e-mail\n"
    "Белов Иван;belov@example.org;;эл. почта\n"
    "Жуков Пётр;zhukov@example.org;;Email\n"
    "Лебедев Олег;lebedev@example.org;;сайт\n"
    "Титов Ян;titov@example.org;;web\n"
    "Ершов Лев;ershov@example.org;Омск;Post\n"
    "Павлов Ян;pavlov@example.org;Орёл;\n"
)


def test_the_channel_column_reads_russian_and_english_words(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    """«почта» is the post (002 §4.1.1 а), not e-mail; a blank cell follows the tournament's
    channel."""
    tournament = make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    form = organizer_client.get("/tournaments/T-1/players/import").get_data(as_text=True)
    assert ("Столбец способа игры говорит, как играет каждый: почта / post, e-mail / эл. почта, "
            "сайт / web, телефон / phone; пустая клетка — как в турнире.") in form
    assert "<code>способ игры</code>" in form
    response = organizer_client.post(
        "/tournaments/T-1/players/import",
        data={"file": (io.BytesIO(CHANNEL_CSV.encode()), "players.csv")},
        content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    with database.session() as session:
        entries = session.scalars(select(Participant).where(
            Participant.tournament_id == tournament.id)).all()
        channels = {entry.player.name: entry.channel for entry in entries}
    assert channels == {
        "Кузнецов Олег": Channel.POST, "Орлова Анна": Channel.POST, "Ершов Лев": Channel.POST,
        "Седов Сергей": Channel.EMAIL, "Белов Иван": Channel.EMAIL, "Жуков Пётр": Channel.EMAIL,
        "Лебедев Олег": Channel.WEB, "Титов Ян": Channel.WEB, "Павлов Ян": None,
    }


@pytest.mark.parametrize(("locale", "expected"), [
    ("ru", [
        "строка 2, столбец «Канал»: «голубями» — не способ игры; напишите одно из: почта / post, "
        "e-mail / эл. почта, сайт / web, телефон / phone",
        "строка 3, столбец «Адрес»: игроку по почте нужен почтовый адрес (002 §4.3.2)",
        "строка 4, столбец «Эл. почта»: игроку, который играет на сайте, нужен адрес эл. почты: "
        "для входа и для ходов партнёров (002 §4.1.1)",
    ]),
    ("en", [
        "line 2, column “Канал”: «голубями» is no way of playing; write one of: почта / post, "
        "e-mail / эл. почта, сайт / web, телефон / phone",
        "line 3, column “Адрес”: a player who plays by post needs the postal address (002 §4.3.2)",
        "line 4, column “Эл. почта”: a player who plays on the site needs an e-mail address for "
        "his login and his partners' moves (002 §4.1.1)",
    ]),
])
def test_an_unknown_channel_or_its_missing_address_names_the_row_and_value(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
    locale: str, expected: list[str],
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    status, problems = _import(organizer_client, (
        "ФИО;Эл. почта;Адрес;Канал\n"
        "Кузнецов Олег;kuz@example.org;Тула;голубями\n"
        "Орлова Анна;orlova@example.org;;почта\n"
        "Седов Сергей;;Омск;сайт\n"), locale)
    assert status == 422 and problems == expected
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Participant)) == 0
