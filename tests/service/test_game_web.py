"""The game page and postal entry through the web."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from html import unescape
from xml.etree import ElementTree

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import Channel, Game, Letter, Role

from .postcard_steps import appoint_steward, store_card

TODAY = dt.date(2026, 9, 20)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY, default_locale="en")


@pytest.fixture
def steward(login: Callable[..., FlaskClient], database: Database, game_id: int) -> FlaskClient:
    return appoint_steward(login(Role.STEWARD, login="steward1"), database, game_id)


def _form(database: Database, game_id: int, sender: str, **fields: str) -> dict[str, str]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        sender_id = game.white_id if sender == "white" else game.black_id
    return {"sender": str(sender_id), "corrects": "0", "declaration": "none", **fields}


def _count(database: Database) -> int:
    with database.transaction() as session:
        return session.scalar(select(func.count()).select_from(Letter)) or 0


def test_check_shows_short_notation_and_stores_nothing(steward: FlaskClient, database: Database,
                                                       game_id: int) -> None:
    data = _form(database, game_id, "white", moves_text="1. cd4", sent="01.09.26", action="check")
    page = steward.post(f"/games/{game_id}/postcards/new", data=data)
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "002 §4.2.2" in text and "short notation" in text and "6 penalty days" in text
    assert _count(database) == 0


def test_enter_stores_and_the_page_shows_board_chart_and_plot(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    data = _form(database, game_id, "white", moves_text="1. c3-d4", sent="01.09.26",
                 postmark="01.09.26")
    response = store_card(steward, game_id, data)
    assert response.status_code == 302
    data = _form(database, game_id, "black", moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
                 received="05.09", sent="08.09", postmark="08.09", declared_white_days="0",
                 declared_black_days="3")
    assert store_card(steward, game_id, data).status_code == 302
    page = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'class="chart-plot"' in page and 'class="time-chart"' in page
    plot = page[page.index('<svg xmlns="http://www.w3.org/2000/svg" class="chart-plot"'):]
    plot = ElementTree.fromstring(plot[: plot.index("</svg>") + len("</svg>")])
    lines = {line.get("class"): line.get("points") for line in plot.iter(f"{SVG}polyline")}
    assert set(lines) == {"limit", "white", "black"}
    # Black's 3 days after his first move: from the origin to one point above the axis.
    assert len(lines["black"].split()) == 2 and len(lines["white"].split()) == 2
    assert "c3-d4" in page and "cd4" in page  # full and short notation
    assert "<svg" in page and "after ply 2 of 2" in page
    assert "Days left before an overstep" in page
    first = steward.get(f"/games/{game_id}?ply=1").get_data(as_text=True)
    assert "after ply 1 of 2" in first
    pdn = steward.get(f"/games/{game_id}/game.pdn")
    assert pdn.status_code == 200 and "1. c3-d4 f6-g5" in pdn.get_data(as_text=True)


def test_enter_refused_shows_errors_and_stores_nothing(steward: FlaskClient, database: Database,
                                                       game_id: int) -> None:
    data = _form(database, game_id, "white", moves_text="1. c3-d4", sent="31.02.26",
                 action="enter")
    response = steward.post(f"/games/{game_id}/postcards/new", data=data)
    assert response.status_code == 422
    assert "Not entered" in response.get_data(as_text=True)
    assert _count(database) == 0


def test_steward_of_another_tournament_and_players_may_not_enter(
        login: Callable[..., FlaskClient], game_id: int, database: Database) -> None:
    outsider = login(Role.STEWARD)
    assert outsider.get(f"/games/{game_id}/postcards/new").status_code == 403
    referee = login(Role.REFEREE)
    assert referee.get(f"/games/{game_id}/postcards/new").status_code == 403
    assert referee.get(f"/games/{game_id}/game.pdn").status_code == 403
    data = _form(database, game_id, "white", moves_text="c3-d4", sent="01.09.26", action="enter")
    assert outsider.post(f"/games/{game_id}/postcards/new", data=data).status_code == 403
    assert _count(database) == 0




def test_chart_notes_are_in_the_readers_language(
        steward: FlaskClient, database: Database, game_id: int, card: Callable[..., object]) -> None:
    """timekeeping notes a first omission and the estimated receipt (002 §4.3.3) as a code and its
    values; the game page words them in Russian or English, dates as dd.mm.yyyy."""
    card(game_id, "white", dt.date(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
         postmark="01.09.26", declared_white_days=0, declared_black_days=0)
    card(game_id, "black", dt.date(2026, 9, 12), moves_text="1. c3-d4 f6-g5", sent="08.09",
         postmark="08.09")
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    russian = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert ("002 §4.3.3: письмо 2: чёрные: первый пропуск даты — только уведомление, без штрафа"
            in russian)
    assert ("002 §4.3.3: письмо 2: дата получения не указана, принята 01.09.2026 (времени в пути "
            "в записях нет: 0 дней)") in russian
    assert "first omission" not in russian and "estimated as" not in russian
    with steward.session_transaction() as session:
        session["locale"] = "en"
    english = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert "002 §4.3.3: letter 2: black: first omission of a date: a notice only, no penalty" in english
    assert ("002 §4.3.3: letter 2: receipt date missing, estimated as 01.09.2026 (no transit on "
            "record: 0 days)") in english


def test_chart_errors_and_sides_are_in_the_readers_language(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    """Two letters in a row from White break 002 §4.3.1 (each letter answers the partner's); the
    page words the chart's rule error, its From column and the plot in Russian or English."""
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        for sequence, (moves, sent) in enumerate((("c3-d4", dt.date(2026, 9, 1)),
                                                   ("f6-g5", dt.date(2026, 9, 8))), start=1):
            session.add(Letter(game_id=game_id, sequence=sequence, sender_id=game.white_id,
                               channel=Channel.POST, moves_text=moves, sent=sent,
                               received=dt.date(2026, 9, 5) if sequence == 2 else None))
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    russian = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert ("002 §4.3.1: письмо 2: белые: два письма подряд, а каждое письмо отвечает на письмо "
            "партнёра (1)") in russian
    assert ("002 §4.2.14: письмо 2: белые: номер хода идёт назад: ход 1 после хода 1 (1)"
            in russian)
    start = russian.index('class="time-chart"')
    chart = russian[start:russian.index("</table>", start)]
    assert chart.count("<td>белые</td>") == 2 and "white" not in chart
    assert "<title>белые 1: 0</title>" in russian
    assert "two letters in a row" not in russian and "goes backwards" not in russian
    with steward.session_transaction() as session:
        session["locale"] = "en"
    english = unescape(steward.get(f"/games/{game_id}").get_data(as_text=True))
    assert ("002 §4.3.1: letter 2: two letters in a row from white: each letter answers the "
            "partner's (1)") in english
    assert "002 §4.2.14: letter 2: move number goes backwards: white's move 1 after move 1 (1)" in english
    start = english.index('class="time-chart"')
    chart = english[start:english.index("</table>", start)]
    assert chart.count("<td>white</td>") == 2


def test_overstep_names_the_side_in_the_readers_language(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    """Black thinking four months over his first move oversteps the limit (002 §4.3.5)."""
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        session.add(Letter(game_id=game_id, sequence=1, sender_id=game.white_id,
                           channel=Channel.POST, moves_text="c3-d4", sent=dt.date(2026, 9, 1)))
        session.add(Letter(game_id=game_id, sequence=2, sender_id=game.black_id,
                           channel=Channel.POST, moves_text="f6-g5", received=dt.date(2026, 9, 3),
                           sent=dt.date(2026, 12, 31)))
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    russian = steward.get(f"/games/{game_id}").get_data(as_text=True)
    overstep = russian[russian.index("<dt>Просрочка</dt>"):]
    assert overstep.startswith('<dt>Просрочка</dt><dd class="warning">чёрные: 119 &gt; ')
    with steward.session_transaction() as session:
        session["locale"] = "en"
    english = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert '<dt>Overstep</dt><dd class="warning">black: 119 &gt; ' in english


def test_postcard_check_words_the_charts_rule_error_in_russian(
        steward: FlaskClient, database: Database, game_id: int,
        card: Callable[..., object]) -> None:
    """A reply sent before the card it answers was received (002 §4.3.1) is refused with the
    chart's error in the steward's language, dates as dd.mm.yyyy."""
    card(game_id, "white", dt.date(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
         postmark="01.09.26", declared_white_days=0, declared_black_days=0)
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    data = _form(database, game_id, "black", moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
                 received="09.09", sent="08.09", postmark="08.09", action="check")
    page = steward.post(f"/games/{game_id}/postcards/new", data=data).get_data(as_text=True)
    assert ("<strong>002 §4.3.1</strong>: отправлено 08.09.2026, раньше получения письма, на "
            "которое оно отвечает (09.09.2026)<") in page
    assert "2026-09-08" not in page  # the raw ISO value is the command line's, not the steward's
    assert "before the letter it answers" not in page
    assert _count(database) == 1


def test_postcard_check_words_an_unreadable_date_in_russian(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    """A dispatch date that names no day (002 §4.3.1) is refused in the steward's language."""
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    data = _form(database, game_id, "white", moves_text="1. c3-d4", sent="31.02.26", action="check")
    page = unescape(steward.post(f"/games/{game_id}/postcards/new", data=data).get_data(as_text=True))
    assert "не удаётся прочесть дату '31.02.26': такого дня нет" in page
    assert "cannot read the date" not in page and _count(database) == 0


def test_the_elements_a_card_lacks_are_ticked_on_the_form_and_named_in_russian(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    """002 §4.2.3: the steward ticks what the card lacks; the check names each element in his
    language, and the card is stored all the same."""
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    data = _form(database, game_id, "white", moves_text="1. c3-d4", sent="01.09.26",
                 postmark="01.09.26", declared_white_days="0", declared_black_days="0",
                 lacks_tournament_code="y", lacks_return_address="y")
    page = unescape(steward.post(f"/games/{game_id}/postcards/new",
                                 data={**data, "action": "check"}).get_data(as_text=True))
    assert "002 §4.2.3" in page
    assert "в письме нет: шифр турнира, обратный адрес" in page
    assert _count(database) == 0
    assert store_card(steward, game_id, data).status_code == 302 and _count(database) == 1
