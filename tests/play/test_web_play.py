"""Moves made on the web are letters of the game's ledger, through the e-mail intake: the
server's dates, the channel ``web``, the same checks, relay letters and notices (002 §4.2)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import Break, Role, Tournament, TournamentOfficial, User
from tests.play.conftest import START, WebGame

D = START + dt.timedelta(days=2)


def test_a_web_move_is_a_letter_of_the_ledger_relayed_to_the_email_partner(web_game: WebGame) -> None:
    assert web_game.play("white", "c3-d4", D) == "move_relayed"
    assert web_game.letters() == [("white", "web", "c3-d4")]
    relay = web_game.outbox(to=web_game.black_email, kind="move")
    assert len(relay) == 1
    # Black answers by e-mail; White answers on the web, repeating is the server's job (002 §4.2.9).
    receipt = web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3))
    assert receipt.outcome == "move_relayed"
    assert web_game.play("white", "g3-h4", D + dt.timedelta(days=5)) == "move_relayed"
    assert web_game.letters() == [("white", "web", "c3-d4"), ("black", "email", "f6-g5"),
                                  ("white", "web", "g3-h4")]
    assert len(web_game.outbox(to=web_game.black_email, kind="move")) == 2


def test_preview_shows_the_letter_and_confirm_stores_exactly_it(web_game: WebGame) -> None:
    client = web_game.client("white")
    page = client.post(f"/games/{web_game.game_id}/play", data={"move": "c3-d4", "action": "preview"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "c3-d4" in text and "03.09.2026" in text
    assert web_game.letters() == []  # a preview stores nothing
    assert web_game.outbox() == []
    stamp = _fingerprint(text)
    assert stamp
    sent = client.post(f"/games/{web_game.game_id}/play",
                       data={"move": "c3-d4", "action": "confirm", "fingerprint": stamp})
    assert sent.status_code == 302
    assert web_game.letters() == [("white", "web", "c3-d4")]


def test_a_stale_preview_is_refused(web_game: WebGame) -> None:
    client = web_game.client("white")
    sent = client.post(f"/games/{web_game.game_id}/play",
                       data={"move": "c3-d4", "action": "confirm", "fingerprint": "0" * 32})
    assert sent.status_code == 409
    assert "002 §4.2.8" in sent.get_data(as_text=True)
    assert web_game.letters() == []


def test_illegal_short_and_out_of_turn_moves_are_refused_with_the_rule(web_game: WebGame) -> None:
    client = web_game.client("white")
    url = f"/games/{web_game.game_id}/play"
    illegal = client.post(url, data={"move": "c3-c5", "action": "preview"})
    assert illegal.status_code == 422 and "002 §4.2.10" in illegal.get_data(as_text=True)
    short = client.post(url, data={"move": "cd4", "action": "preview"})
    assert short.status_code == 422 and "002 §4.2.2" in short.get_data(as_text=True)
    black = web_game.client("black")
    early = black.post(url, data={"move": "f6-g5", "action": "preview"})
    assert early.status_code == 409 and "002 §4.2.8" in early.get_data(as_text=True)
    assert web_game.letters() == [] and web_game.outbox() == []


def test_a_conditional_variant_is_applied_when_the_partner_plays_it(web_game: WebGame) -> None:
    assert web_game.play("white", "c3-d4", D, variants="если f6-g5, то g3-h4") == "move_relayed"
    receipt = web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3))
    assert receipt.outcome == "move_relayed"
    assert web_game.plies() == ["c3-d4", "f6-g5", "g3-h4"]  # 002 §4.2.13


def test_draw_offer_accepted_on_the_web_ends_the_game(web_game: WebGame) -> None:
    assert web_game.play("white", "c3-d4", D, draw_offer=True) == "move_relayed"
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    page = client.post(url, data={"draw_accept": "y", "action": "preview"})
    assert page.status_code == 200, page.get_data(as_text=True)
    stamp = _fingerprint(page.get_data(as_text=True))
    done = client.post(url, data={"draw_accept": "y", "action": "confirm", "fingerprint": stamp})
    assert done.status_code == 302
    assert web_game.state() == ("finished", "draw")


def test_accepting_a_draw_never_offered_is_refused(web_game: WebGame) -> None:
    client = web_game.client("white")
    page = client.post(f"/games/{web_game.game_id}/play", data={"draw_accept": "y"})
    assert page.status_code == 422 and "002 §4.2.3" in page.get_data(as_text=True)


def test_a_break_notice_from_the_game_page(web_game: WebGame) -> None:
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-10-01", "break_last": "2026-10-10"}
    page = client.post(url, data={**data, "action": "preview"})
    assert page.status_code == 200, page.get_data(as_text=True)
    done = client.post(url, data={**data, "action": "confirm",
                                  "fingerprint": _fingerprint(page.get_data(as_text=True))})
    assert done.status_code == 302
    home = client.get("/me").get_data(as_text=True)
    assert "взято 1 из 1 (10 дн." in home  # Russian first
    client.post("/locale", data={"locale": "en"})
    assert "1 of 1 taken (10 days" in client.get("/me").get_data(as_text=True)
    too_long = client.post(url, data={"break_first": "2026-11-01", "break_last": "2026-12-20"})
    assert too_long.status_code == 422 and "002 §4.4.1" in too_long.get_data(as_text=True)


def _fingerprint(html: str) -> str:
    """The fingerprint of the previewed letter, from the confirmation form."""
    found = re.search(r'<input[^>]*name="fingerprint"[^>]*>', html)
    assert found, html
    value = re.search(r'value="([0-9a-f]{32})"', found.group(0))
    assert value, found.group(0)
    return value.group(1)


def test_a_resignation_from_the_game_page_ends_the_game(web_game: WebGame) -> None:
    web_game.play("white", "c3-d4", D)
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    page = client.post(url, data={"resign": "y", "action": "preview"})
    assert page.status_code == 200
    done = client.post(url, data={"resign": "y", "action": "confirm",
                                  "fingerprint": _fingerprint(page.get_data(as_text=True))})
    assert done.status_code == 302
    assert web_game.state() == ("finished", "white_win")
    assert web_game.outbox(to=web_game.white_email, kind="game_over")


def test_my_games_reads_the_same_clock_as_the_dashboard(web_game: WebGame) -> None:
    from corrmail.models import Tournament
    from corrmail.people.player_home import player_home
    from corrmail.tournaments.dashboard import dashboard_rows

    web_game.play("white", "c3-d4", D)
    web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3))
    today = D + dt.timedelta(days=9)
    with web_game.database.session() as session:
        tournament = session.get(Tournament, 1)
        assert tournament is not None
        dashboard = {row.game.id: row for row in dashboard_rows(session, tournament, today)}
        home = player_home(session, tournament.participants[0].player_id, lambda _: today)
        mine = next(row for row in home.games if row.game.id == web_game.game_id)
        board = dashboard[web_game.game_id]
        assert mine.my_move and board.clock is not None and mine.clock is not None
        assert mine.clock.days_left == board.clock.days_left
        assert mine.reply_by == board.clock.last_safe_date
        assert mine.days_used == board.clock.white_used
        assert mine.clock.days_used_in_period == mine.clock.limit - board.clock.days_left


def test_the_game_page_header_and_my_games_read_the_stored_state(
    web_game: WebGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The header of the game page and the player's home show the replay's figures without
    replaying the clock: only the game page's time chart reads the whole ledger."""
    import corrmail.games.page as game_pages
    import corrmail.people.player_home as home_module
    from corrmail.games.page import game_clock
    from corrmail.games.view import GameView
    from corrmail.models import Game, Tournament
    from corrmail.people.player_home import player_home

    web_game.play("white", "c3-d4", D)
    web_game.email("black", "1. c3-d4 f6-g5\nВариант: если b2-c3, то g7-f6",
                   D + dt.timedelta(days=3))
    today = D + dt.timedelta(days=9)
    with web_game.database.session() as session:
        game = session.get(Game, web_game.game_id)
        assert game is not None
        replayed = game_clock(GameView(game), today)
        offered = GameView(game).pending_variants(game.white_id)
        session.rollback()
    assert offered is not None and replayed.to_move is not None

    def replay(*args: object) -> None:
        raise AssertionError("the clock was replayed")

    monkeypatch.setattr(game_pages, "game_clock", replay)
    monkeypatch.setattr(home_module, "game_clock", replay)
    with web_game.database.session() as session:
        tournament = session.get(Tournament, 1)
        assert tournament is not None
        home = player_home(session, tournament.participants[0].player_id, lambda _: today)
        mine = next(row for row in home.games if row.game.id == web_game.game_id)
        assert mine.clock is not None and mine.my_move
        assert (mine.clock.to_move, mine.clock.white_used, mine.clock.black_used,
                mine.clock.days_left, mine.clock.last_safe_date, mine.clock.repeat_due,
                mine.clock.limit) == (
            replayed.to_move, replayed.white_used, replayed.black_used, replayed.days_left,
            replayed.last_safe_date, replayed.repeat_due, replayed.limit)
        assert mine.pending_variants == tuple(variant.text for variant in offered.variants)
        session.rollback()
    web_game.on(today)
    client = web_game.client("white")
    page = client.get(f"/games/{web_game.game_id}")
    assert page.status_code == 200
    assert 'class="time-chart"' in page.get_data(as_text=True)
    assert client.get("/me").status_code == 200


def test_scores_are_printed_with_halves() -> None:
    from decimal import Decimal

    from corrmail.standings.exports import format_points, reader_points

    assert [reader_points(v) for v in (None, 0, 0.5, 6, 6.5, 12.25, Decimal("2.5"), 3.1)] == \
        ["", "0", "½", "6", "6½", "12¼", "2½", "3.1"]
    assert format_points(6.5) == "6.5"  # files keep the decimal point programs read


def test_a_break_over_30_days_is_warned_of_in_the_preview_and_stands_for_30(
    web_game: WebGame
) -> None:
    """(D) One rule for every channel (002 §4.4.1, timekeeping's reading 16): on the web, as by
    e-mail, a break over 30 days stands for its first 30. The preview says so before anything
    is sent, in the reader's language; it used to refuse the break with a message saying the
    opposite ("counted for its first 30")."""
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-11-01", "break_last": "2026-12-20"}
    page = client.post(url, data={**data, "action": "preview"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200, text
    assert ("Перерыв длится 50 дн., а допускается не более 30: засчитываются только первые 30 "
            "дн., с 01.11.2026 по 30.11.2026 (002 §4.4.1).") in text
    assert "lasts" not in text and "at most" not in text  # no English on a Russian page
    assert web_game.outbox() == [] and _breaks(web_game) == []  # a preview stores nothing
    client.post("/locale", data={"locale": "en"})
    english = client.post(url, data={**data, "action": "preview"}).get_data(as_text=True)
    assert ("Your break lasts 50 days, and at most 30 are allowed: only its first 30 days count, "
            "from 01.11.2026 to 30.11.2026 (002 §4.4.1).") in english
    done = client.post(url, data={**data, "action": "confirm", "fingerprint": _fingerprint(english)})
    assert done.status_code == 302
    assert _breaks(web_game) == [(dt.date(2026, 11, 1), dt.date(2026, 11, 30), D)]
    [told] = web_game.outbox(to=web_game.black_email, kind="break_shortened")
    assert "с 01.11.2026 по 30.11.2026 (002 §4.4.1)" in told.body_text
    [partner] = web_game.outbox(to=web_game.white_email, kind="break_notice")
    assert "сообщает: «беру перерыв с 01.11.2026 по 20.12.2026»." in partner.body_text


def test_the_same_break_by_e_mail_and_on_the_web_stands_the_same(web_game: WebGame,
                                                                  other_game_id: int) -> None:
    """(D) The web's preview and the e-mail intake ask the game core the same question."""
    assert web_game.email("white", "Беру перерыв с 01.11.2026 по 20.12.2026", D).outcome == \
        "break_recorded"
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-11-01", "break_last": "2026-12-20"}
    page = client.post(url, data={**data, "action": "preview"})
    client.post(url, data={**data, "action": "confirm",
                           "fingerprint": _fingerprint(page.get_data(as_text=True))})
    assert _breaks(web_game, "white") == _breaks(web_game, "black") == [
        (dt.date(2026, 11, 1), dt.date(2026, 11, 30), D)]


def test_a_break_that_ended_before_today_is_refused_before_anything_is_sent(
    web_game: WebGame
) -> None:
    """(A) 002 §4.4.2: the preview refuses a break already over, says why in the reader's
    language, and nothing is stored or sent; the break of the year stays to be taken."""
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-09-01", "break_last": "2026-09-02", "action": "preview"}
    page = client.post(url, data=data)
    text = page.get_data(as_text=True)
    assert page.status_code == 422, text
    assert ("Перерыв не предоставлен, ничего не записано: он окончился 02.09.2026, раньше, чем "
            "объявлен сегодня, 03.09.2026: о перерыве сообщают до его начала, а объявленный после "
            "окончания не засчитывается ни в одной партии · 002 §4.4.2") in text
    confirm = client.post(url, data={**data, "action": "confirm", "fingerprint": "0" * 32})
    assert confirm.status_code == 422
    assert _breaks(web_game) == [] and web_game.outbox() == []
    assert "взято 0 из 1 (0 дн." in client.get("/me").get_data(as_text=True)


def test_a_break_that_began_yesterday_is_warned_to_count_from_today(web_game: WebGame) -> None:
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-09-02", "break_last": "2026-09-10", "action": "preview"}
    text = client.post(url, data=data).get_data(as_text=True)
    assert ("Перерыв начался раньше сегодняшнего дня: он засчитывается только с сегодняшнего "
            "дня, 03.09.2026, — дня объявления (002 §4.4.2).") in text


def test_a_break_joining_the_one_taken_is_refused_on_the_web(web_game: WebGame) -> None:
    """(B) 002 §4.4.1: a break of next year beginning inside (or the day after) the break taken
    is one break over 30 days."""
    assert web_game.email("black", "Беру перерыв с 20.12.2026 по 31.01.2027", D).outcome == \
        "break_recorded"
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    page = client.post(url, data={"break_first": "2027-01-15", "break_last": "2027-01-25",
                                  "action": "preview"})
    text = page.get_data(as_text=True)
    assert page.status_code == 422, text
    assert ("Перерыв не предоставлен, ничего не записано: он пересекается с вашим перерывом с "
            "20.12.2026 по 18.01.2027 или продолжает его без дня игры между ними, а один перерыв "
            "длится не более 30 дн. · 002 §4.4.1") in text
    assert _breaks(web_game) == [(dt.date(2026, 12, 20), dt.date(2027, 1, 18), D)]
    # The break across the new year is 2026's, for its 30 days (reading 15); the refused one
    # counts nowhere.
    assert "взято 1 из 1 (30 дн." in client.get("/me").get_data(as_text=True)


def test_a_steward_without_e_mail_sees_the_breaks_on_his_dashboard(
    web_game: WebGame, make_user: Callable[..., User]
) -> None:
    """(C) 002 §4.4.2 «и старосте»: a steward with no address learns of a break on the web —
    his dashboard lists every break announced, with its dates and the day it counts from."""
    steward = make_user("quiet", Role.STEWARD)
    with web_game.database.transaction() as session:
        tournament = session.scalar(select(Tournament).where(
            Tournament.code == web_game.tournament_code))
        assert tournament is not None
        session.add(TournamentOfficial(tournament_id=tournament.id, user_id=steward.id,
                                       role=Role.STEWARD))
        user = session.get(User, steward.id)
        assert user is not None
        user.email = None
    assert web_game.email("black", "Беру перерыв с 01.09.2026 по 10.09.2026", D).outcome == \
        "break_recorded"
    client = web_game.client("quiet")
    page = client.get(f"/dashboard/{web_game.tournament_code}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Объявленные перерывы (002 §4.4.2)" in text
    row = re.search(r'<tr class="in-force">(.*?)</tr>', text, re.S)
    assert row, text
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    name = web_game.black_name()
    assert cells == [name, "01.09.2026–10.09.2026", "10", "03.09.2026", "03.09.2026",
                     "действует"], cells


def _breaks(web_game: WebGame, side: str = "black") -> list[tuple[dt.date, dt.date, dt.date | None]]:
    with web_game.database.session() as session:
        participant = web_game.black_id if side == "black" else web_game.white_id
        return [(row.start_date, row.end_date, row.announced_on) for row in session.scalars(
            select(Break).where(Break.participant_id == participant).order_by(Break.id))]


def test_a_refused_letter_comes_back_as_written_to_be_corrected(web_game: WebGame) -> None:
    """A refusal must not lose what the player typed: his move, his variants, his offer."""
    client = web_game.client("white")
    url = f"/games/{web_game.game_id}/play"
    page = client.post(url, data={"move": "c3-d4", "variants": "если что-нибудь, то посмотрим",
                                  "draw_offer": "y", "action": "preview"})
    text = page.get_data(as_text=True)
    assert page.status_code == 422 and "002 §4.2.7" in text
    assert re.search(r'<input[^>]*name="move"[^>]*value="c3-d4"', text)
    assert re.search(r'<textarea[^>]*name="variants"[^>]*>\s*если что-нибудь, то посмотрим'
                     r'</textarea>', text)
    assert re.search(r'<input[^>]*checked[^>]*name="draw_offer"|<input[^>]*name="draw_offer"'
                     r'[^>]*checked', text)
    assert 'id="preview-button"' in text and 'id="confirm-button"' not in text
    assert web_game.letters() == []


def test_announcing_the_same_break_again_is_not_refused_as_a_second_break(
    web_game: WebGame
) -> None:
    """The break is the player's in all his games and every partner is told at once
    (002 §4.4.1–4.4.2): the same dates sent again are answered so, not as a second break."""
    client = web_game.client("black")
    url = f"/games/{web_game.game_id}/play"
    data = {"break_first": "2026-10-01", "break_last": "2026-10-10"}
    page = client.post(url, data={**data, "action": "preview"})
    done = client.post(url, data={**data, "action": "confirm",
                                  "fingerprint": _fingerprint(page.get_data(as_text=True))})
    assert done.status_code == 302
    again = client.post(url, data={**data, "action": "preview"})
    text = again.get_data(as_text=True)
    assert again.status_code == 409, text
    assert "Ваш перерыв с 01.10.2026 по 10.10.2026 уже объявлен" in text and "002 §4.4.2" in text
    assert "second break" not in text


def test_a_preview_says_when_the_letter_would_overstep_before_it_is_sent(
    web_game: WebGame,
) -> None:
    """The player sees the overstep (002 §4.3.5) in the preview, while he can still not send."""
    assert web_game.play("white", "c3-d4", D) == "move_relayed"
    assert web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3)).outcome == \
        "move_relayed"
    client = web_game.client("white")
    url = f"/games/{web_game.game_id}/play"
    web_game.on(D + dt.timedelta(days=10))
    on_time = client.post(url, data={"move": "g3-h4", "action": "preview"}).get_data(as_text=True)
    assert 'id="preview-overstep"' not in on_time
    web_game.on(D + dt.timedelta(days=60))
    late = client.post(url, data={"move": "g3-h4", "action": "preview"}).get_data(as_text=True)
    warning = re.search(r'id="preview-overstep">([^<]*)<', late)
    assert warning is not None
    assert "это просрочка (002 §4.3.5)" in warning.group(1)
    assert "больше предела в 50" in warning.group(1)
    assert 'id="confirm-button"' in late  # a warning, not a refusal: he may still send it
    assert web_game.letters() == [("white", "web", "c3-d4"), ("black", "email", "f6-g5")]
    client.post("/locale", data={"locale": "en"})
    english = client.post(url, data={"move": "g3-h4", "action": "preview"}).get_data(as_text=True)
    assert "over the limit of 50: an overstep (002 §4.3.5)" in english


def test_the_archive_says_a_web_letter_was_written_by_the_player_not_the_mail_server(
    web_game: WebGame,
) -> None:
    web_game.play("white", "c3-d4", D)
    page = web_game.client("black").get(f"/games/{web_game.game_id}").get_data(as_text=True)
    assert "игрок, на сайте" in page and "почтовый сервер" not in page


def test_a_move_typed_with_its_number_is_the_move(web_game: WebGame) -> None:
    """Players type the number as on a card («1. c3-d4», «1... f6-g5»): the board knows the
    number, so the move is read without it; the letter is the one the plain move makes."""
    client = web_game.client("white")
    url = f"/games/{web_game.game_id}/play"
    page = client.post(url, data={"move": "1. c3-d4", "action": "preview"})
    assert page.status_code == 200, page.get_data(as_text=True)[:400]
    sent = client.post(url, data={"move": "1. c3-d4", "action": "confirm",
                                  "fingerprint": _fingerprint(page.get_data(as_text=True))})
    assert sent.status_code == 302
    assert web_game.play("black", "1... f6-g5", D + dt.timedelta(days=3)) == "move_relayed"
    assert web_game.play("white", "2)g3-h4", D + dt.timedelta(days=5)) == "move_relayed"
    assert web_game.letters() == [("white", "web", "c3-d4"), ("black", "web", "f6-g5"),
                                  ("white", "web", "g3-h4")]


def test_a_move_written_wrongly_says_how_to_write_it(web_game: WebGame) -> None:
    """Two squares with a space, or a numbered short move: the refusal says what full notation
    is (002 §4.2.2), in the reader's language, and stores nothing."""
    client = web_game.client("white")
    url = f"/games/{web_game.game_id}/play"
    spaced = client.post(url, data={"move": "c3 d4", "action": "preview"})
    assert spaced.status_code == 422
    assert ("Напишите один ход в полной нотации: два поля через «-» для хода или через «:» для "
            "взятия — c3-d4, c3:e5. (c3 d4) · 002 §4.2.3") in spaced.get_data(as_text=True)
    short = client.post(url, data={"move": "1. cd4", "action": "preview"})
    assert short.status_code == 422 and "002 §4.2.2" in short.get_data(as_text=True)
    assert "а не в краткой" in short.get_data(as_text=True)
    assert web_game.letters() == [] and web_game.outbox() == []


def test_penalty_days_stand_in_the_chart_against_the_side_they_count_for(web_game: WebGame) -> None:
    """White's letter without the repetition (002 §4.2.9) costs White 6 days (002 §4.2.11),
    charged after it and shown in the next row, Black's: that row names White, and its own
    days stay Black's 3 (the referee's evidence, 002 §4.3.6)."""
    assert web_game.play("white", "c3-d4", D) == "move_relayed"
    assert web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3)).outcome == "move_relayed"
    assert web_game.email("white", "2. g3-h4", D + dt.timedelta(days=5)).outcome == "repetition_missing"
    assert web_game.email("white", "1... f6-g5 2. g3-h4", D + dt.timedelta(days=6)).outcome == "move_relayed"
    page = web_game.client("white").get(f"/games/{web_game.game_id}").get_data(as_text=True)
    table = page[page.index('class="time-chart"'):]
    rows = re.findall(r"<tr>(.*?)</tr>", table[:table.index("</table>")], re.S)
    black_row = next(row for row in rows if "<td>чёрные</td>" in row)
    days = re.sub(r"\s+", " ", re.findall(r"<td>(.*?)</td>", black_row, re.S)[6])
    assert days == '3<br><small class="charge">+6 — белые (002 §4.2.11)</small>'
    assert "<td>8/3</td>" in black_row


def test_my_breaks_count_the_year_of_play_not_the_calendars_before_the_start(
    make_tournament: Callable[..., Tournament], database: Database,
) -> None:
    """Published in December for a January start: the break he can take is the first year of
    play's (002 §4.4.1), and after the end of play the last year's stands."""
    from corrmail.people.player_home import player_home

    tournament = make_tournament(players=2, start_date=dt.date(2027, 1, 10),
                                 end_date=dt.date(2028, 3, 1))
    with database.session() as session:
        loaded = session.get(Tournament, tournament.id)
        assert loaded is not None
        player_id = loaded.participants[0].player_id
        for today, year in ((dt.date(2026, 12, 3), 2027), (dt.date(2027, 6, 1), 2027),
                            (dt.date(2028, 1, 5), 2028), (dt.date(2029, 2, 1), 2028)):
            [allowance] = player_home(session, player_id, lambda _, day=today: day).breaks
            assert allowance.year == year, today
