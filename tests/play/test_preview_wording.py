"""The words of the previews shown before an action on a game is confirmed: they follow the
channel (a telephoned move has a call, no postmark and no card, 002 §4.3.1), name the players
instead of «ему»/«him», and say the game ends when the action ends it — in Russian and English."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from html import unescape

from flask.testing import FlaskClient

from corrmail.models import Channel, Game, Participant, Role, User
from corrmail.play.postcards import PostcardEntry, enter_postcard
from tests.play.conftest import START, WebGame
from tests.service.postcard_steps import appoint_steward, check_card, store_card

TODAY = START + dt.timedelta(days=2)  # 03.09.2026


def _text(response: object) -> str:
    from werkzeug.test import TestResponse

    assert isinstance(response, TestResponse)
    return unescape(response.get_data(as_text=True))


def _preview(client: FlaskClient, game: WebGame, **data: str) -> tuple[int, str]:
    page = client.post(f"/games/{game.game_id}/play", data={**data, "action": "preview"})
    return page.status_code, _text(page)


def _words(html: str) -> str:
    """The text a reader sees, without the markup (whose class names say «postcard»)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _english(client: FlaskClient) -> None:
    client.post("/locale", data={"locale": "en"})


def _channels(game: WebGame, white: Channel, black: Channel) -> None:
    with game.database.transaction() as session:
        for participant_id, channel in ((game.white_id, white), (game.black_id, black)):
            participant = session.get(Participant, participant_id)
            assert participant is not None
            participant.channel = channel


def _steward(game: WebGame, make_user: Callable[..., User]) -> FlaskClient:
    make_user("steward", Role.STEWARD)
    return appoint_steward(game.client("steward"), game.database, game.game_id, "steward")


def _white_moves_by(game: WebGame, channel: Channel, **dates: str) -> None:
    """White's first move 1. c3-d4 of 01.09.2026 as the steward enters it (a card or a call)."""
    with game.database.transaction() as session:
        row = session.get(Game, game.game_id)
        assert row is not None
        enter_postcard(session, row, PostcardEntry(
            sender_id=game.white_id, moves_text="1. c3-d4", sent="01.09.26", channel=channel,
            **dates), None, today=START)


def _names(game: WebGame) -> tuple[str, str]:
    with game.database.session() as session:
        white = session.get(Participant, game.white_id)
        black = session.get(Participant, game.black_id)
        assert white is not None and black is not None
        return white.player.name, black.player.name


def test_accepting_a_draw_on_the_web_is_previewed_as_the_end_of_the_game(web_game: WebGame) -> None:
    assert web_game.play("white", "c3-d4", START, draw_offer=True) == "move_relayed"
    web_game.on(TODAY)
    client = web_game.client("black")
    status, html = _preview(client, web_game, draw_accept="y")
    assert status == 200, html
    assert '<p class="result" id="preview-result">Партия окончена: ничья.</p>' in html
    assert "Игра продолжается" not in html
    _english(client)
    status, html = _preview(client, web_game, draw_accept="y")
    assert '<p class="result" id="preview-result">The game ends: draw.</p>' in html
    assert "Play goes on" not in html
    assert web_game.state() == ("in_play", None)  # the preview ended nothing


def test_a_resignation_is_previewed_with_its_result_a_move_as_play_going_on(
    web_game: WebGame
) -> None:
    client = web_game.client("white")
    status, html = _preview(client, web_game, move="c3-d4")
    assert status == 200, html
    assert '<p id="preview-result">Игра продолжается.</p>' in html
    status, html = _preview(client, web_game, resign="y")
    assert "Партия окончена: победа чёрных." in html
    _english(client)
    status, html = _preview(client, web_game, resign="y")
    assert "The game ends: black wins." in html and "Play goes on" not in html
    status, html = _preview(client, web_game, move="c3-d4")
    assert '<p id="preview-result">Play goes on.</p>' in html
    assert web_game.state() == ("in_play", None)


def test_a_move_received_by_telephone_asks_for_the_day_heard_not_a_postmark(
    web_game: WebGame
) -> None:
    """White gives his move by telephone; Black plays by post and answers on the web, so the
    server relayed nothing and Black writes the day he heard it (002 §4.3.1, reading 28)."""
    _channels(web_game, Channel.PHONE, Channel.POST)
    _white_moves_by(web_game, Channel.PHONE)
    client = web_game.client("black")
    page = _text(client.get(f"/games/{web_game.game_id}"))
    assert ("Ход партнёра от 01.09.2026 передан по телефону: укажите день, когда вы его услышали; "
            "у звонка нет штемпеля (002 §4.3.1).") in page
    assert "пришёл по почте" not in page
    status, html = _preview(client, web_game, move="f6-g5")
    assert status == 422, html
    assert ("Ход партнёра передан по телефону: укажите день, когда вы его услышали (у звонка нет "
            "штемпеля). · 002 §4.3.1") in html
    _english(client)
    page = _text(client.get(f"/games/{web_game.game_id}"))
    assert ("Your partner's move of 01.09.2026 was given by telephone: write the day you heard "
            "it; a call has no postmark (002 §4.3.1).") in page
    assert "came by post" not in page
    status, html = _preview(client, web_game, move="f6-g5")
    assert status == 422
    assert "Your partner's move was given by telephone: write the day you heard it" in html


def test_a_telephoned_move_is_previewed_with_its_call_and_the_players_names(
    web_game: WebGame, make_user: Callable[..., User]
) -> None:
    """The steward enters Black's telephoned move that does not repeat White's (002 §4.2.9): the
    preview gives the call's day, not a postmark, and says who gets the penalty days and who
    tells whom — by name, not «ему»."""
    _channels(web_game, Channel.POST, Channel.PHONE)
    _white_moves_by(web_game, Channel.POST, postmark="01.09.26")
    white, black = _names(web_game)
    steward = _steward(web_game, make_user)
    card = {"sender": str(web_game.black_id), "channel": "phone", "moves_text": "1... f6-g5",
            "partner_sent": "01.09.26", "received": "02.09.26", "sent": "03.09.26",
            "declaration": "none", "corrects": "0"}
    page = _text(check_card(steward, web_game.game_id, card))
    section = re.search(r'<section class="postcard-check".*?</section>', page, re.S)
    assert section, page
    text = _words(section.group(0))
    assert "01.09.2026 / 02.09.2026 / 03.09.2026; звонок 03.09.2026" in text
    assert "штемпель" not in text and "открытк" not in text
    assert "до звонка: " in text and "со звонком: " in text
    assert (f"Игра остановлена: игроку {black} — 6 штрафных дн. (002 §4.2.11); {white} сообщает "
            f"игроку {black} об ошибке до 06.09.2026 (002 §4.2.9).") in text
    assert "ему" not in text.split()
    _english(steward)
    page = _text(check_card(steward, web_game.game_id, card))
    section = re.search(r'<section class="postcard-check".*?</section>', page, re.S)
    assert section
    text = _words(section.group(0))
    assert "01.09.2026 / 02.09.2026 / 03.09.2026; call on 03.09.2026" in text
    assert "postmark" not in text and "card" not in text
    assert (f"Play stops: 6 penalty days to {black} (002 §4.2.11); {white} points the fault out "
            f"to {black} by 06.09.2026 (002 §4.2.9).") in text
    assert " him " not in text and " his " not in text


def test_a_draw_accepted_by_postcard_is_previewed_as_the_end_of_the_game(
    web_game: WebGame, make_user: Callable[..., User]
) -> None:
    """A result ends the game: the check says so, never «игра продолжается» beside it."""
    _channels(web_game, Channel.WEB, Channel.POST)
    assert web_game.play("white", "c3-d4", START, draw_offer=True) == "move_relayed"
    web_game.on(TODAY)
    steward = _steward(web_game, make_user)
    card = {"sender": str(web_game.black_id), "channel": "post", "moves_text": "",
            "partner_sent": "01.09.26", "received": "02.09.26", "sent": "03.09.26",
            "postmark": "03.09.26", "declaration": "accepts_draw", "corrects": "0"}
    response = check_card(steward, web_game.game_id, card)
    page = _text(response)
    assert response.status_code == 200, page
    assert '<p class="result">Партия окончена: ничья</p>' in page
    assert "Штрафных дней нет." in page and "игра продолжается" not in page
    _english(steward)
    page = _text(check_card(steward, web_game.game_id, card))
    assert '<p class="result">The game ends: draw</p>' in page
    assert "No penalty days." in page and "play goes on" not in page
    assert web_game.state() == ("in_play", None)


def test_a_telephoned_move_once_stored_is_told_as_a_call_naming_the_partner(
    web_game: WebGame, make_user: Callable[..., User]
) -> None:
    """White plays on the web, Black by telephone: the stored call is no «postcard», and White,
    whom the server e-mails the move, is named instead of «him»."""
    _channels(web_game, Channel.WEB, Channel.PHONE)
    assert web_game.play("white", "c3-d4", START) == "move_relayed"
    web_game.on(TODAY)
    white, _black = _names(web_game)
    steward = _steward(web_game, make_user)
    _english(steward)
    card = {"sender": str(web_game.black_id), "channel": "phone", "moves_text": "1. c3-d4 f6-g5",
            "partner_sent": "01.09.26", "received": "02.09.26", "sent": "03.09.26",
            "declared_white_days": "0", "declared_black_days": "1", "declaration": "none",
            "corrects": "0"}
    stored = store_card(steward, web_game.game_id, card)
    assert stored.status_code == 302, _text(stored)
    page = _words(_text(steward.get(f"/games/{web_game.game_id}")))
    assert (f"Move by telephone entered as letter 2; it is e-mailed to {white} today, and the "
            f"time of {white} counts from today (002 §4.3.1).") in page
    assert "Postcard entered" not in page
