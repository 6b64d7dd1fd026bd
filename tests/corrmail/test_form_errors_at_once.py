"""A form shows every one of its errors at once: the form's own checks (a required field, a
number's range) and registration's (an address the channel needs, dates in order, a code
taken) together, not the second set only once the first is fixed."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.models import Participant, Tournament, TournamentChannel

from .test_registration import FORM


def _errors(page: str) -> dict[str, list[str]]:
    """Each field's errors by its label, as the reader sees them."""
    found: dict[str, list[str]] = {}
    for label, body in re.findall(r'<label class="has-error">\s*<span>([^<]*)</span>(.*?)</label>',
                                  page, re.S):
        found[html.unescape(label)] = [html.unescape(error) for error in re.findall(
            r'<small class="error" role="alert">([^<]*)</small>', body)]
    return found


def test_the_player_form_shows_all_its_errors_at_once(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    response = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "", "email": "kuz@", "postal_address": "", "rating": "99999", "channel": "post"})
    assert response.status_code == 200
    errors = _errors(response.get_data(as_text=True))
    assert set(errors) == {"Фамилия, имя", "Эл. почта", "Почтовый адрес", "Рейтинг"}, errors
    assert errors["Эл. почта"] == ["kuz@ — не адрес эл. почты"]
    assert errors["Почтовый адрес"] == ["игроку по почте нужен почтовый адрес (002 §4.3.2)"]
    assert all(len(messages) == 1 for messages in errors.values()), errors  # none twice
    # Fixed as shown, the form is accepted: nothing was left for a second pass.
    fixed = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Кузнецов Олег", "email": "kuz@example.org", "postal_address": "Тула",
        "rating": "2100", "channel": "post"})
    assert fixed.status_code == 302
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Participant)) == 1


def test_the_player_forms_invitation_and_channel_are_refused_together(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament],
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    response = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Кузнецов Олег", "postal_address": "Тула", "channel": "email", "invite": "y"})
    errors = _errors(response.get_data(as_text=True))
    assert errors == {"Эл. почта": [
        "игроку по электронной почте нужен адрес эл. почты (002 §4.1.1 б)",
        "для приглашения нужен адрес эл. почты"]}, errors


def test_the_tournament_form_shows_all_its_errors_at_once(
    organizer_client: FlaskClient, database: Database,
) -> None:
    assert organizer_client.post("/tournaments/new", data=FORM).status_code == 302
    response = organizer_client.post("/tournaments/new", data={
        **FORM, "title": "", "end_date": "2026-01-01", "time_control_days": "0",
        "time_zone": "Mars/Olympus", "tiebreak_order": "koya, koya"})
    assert response.status_code == 200
    errors = _errors(response.get_data(as_text=True))
    assert errors == {
        "Шифр": ["шифр ЧР-2027 уже занят"],
        "Название": ["Обязательное поле."],
        "Окончание игры": ["окончание игры должно быть позже начала"],
        "Дней": ["Значение должно быть между 1 и 1000."],
        "Дополнительные показатели по порядку (через запятую)": ["показатель указан дважды"],
        "Часовой пояс": ["неизвестный часовой пояс Mars/Olympus"],
    }
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == 1
