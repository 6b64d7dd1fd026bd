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
from corrmail.models import Participant, Player, Tournament, TournamentChannel
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
        "Почтовый адрес; Рейтинг; Клуб; Язык писем",
        "строка 1, столбец «Почтовый адрес»: столбец Почтовый адрес указан дважды",
    ]),
    ("en", [
        "line 1, column “Город”: unknown column; expected Name; E-mail; Postal address; Rating; "
        "Club; Language of letters",
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
