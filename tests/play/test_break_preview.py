"""The break a player announces on the web (002 §4.4): the preview, the stored break, the time
chart and the letters say the same dates and count the same days — starting today, in the
future, backdated (counted from the announcement, 002 §4.4.2; timekeeping's reading 17), cut to
30 days, overlapping a break taken, beyond the one break of the year (002 §4.4.1)."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.models import Break, Participant
from tests.play.conftest import START, WebGame

TODAY = START + dt.timedelta(days=2)  # 03.09.2026, the fixture's day


def _preview(client: FlaskClient, game: WebGame, first: str, last: str) -> tuple[int, str]:
    page = client.post(f"/games/{game.game_id}/play",
                       data={"break_first": first, "break_last": last, "action": "preview"})
    return page.status_code, unescape(page.get_data(as_text=True))


def _confirm(client: FlaskClient, game: WebGame, first: str, last: str, html: str) -> int:
    stamp = re.search(r'name="fingerprint"[^>]*value="([0-9a-f]{32})"', html)
    assert stamp, html
    done = client.post(f"/games/{game.game_id}/play",
                       data={"break_first": first, "break_last": last, "action": "confirm",
                             "fingerprint": stamp.group(1)})
    return done.status_code


def _break_box(html: str) -> str:
    found = re.search(r'<div class="warning" role="alert" id="preview-break">(.*?)</div>', html,
                      re.S)
    assert found, html
    return " ".join(found.group(1).split())


def _stored(game: WebGame) -> list[tuple[dt.date, dt.date, dt.date | None]]:
    with game.database.session() as session:
        return [(row.start_date, row.end_date, row.announced_on) for row in session.scalars(
            select(Break).where(Break.participant_id == game.black_id).order_by(Break.id))]


def _english(client: FlaskClient) -> None:
    client.post("/locale", data={"locale": "en"})


def test_a_break_starting_today_counts_in_full(web_game: WebGame) -> None:
    """A notice on the break's first day is on time (002 §4.4.2): every day counts."""
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-09-03", "2026-09-12")
    assert status == 200, html
    box = _break_box(html)
    assert ("Засчитывается: 10 дн., с 03.09.2026 по 12.09.2026; эти дни никому не идут в "
            "обдумывание ни в одной из ваших партий (002 §4.4.2, §4.4.3).") in box
    assert "Не засчитывается" not in box and "раньше сегодняшнего" not in box
    _english(client)
    status, html = _preview(client, web_game, "2026-09-03", "2026-09-12")
    box = _break_box(html)
    assert ("Counted: 10 days, from 03.09.2026 to 12.09.2026, nobody's think time in any of "
            "your games (002 §4.4.2, §4.4.3).") in box
    assert "Not counted" not in box and "before today" not in box
    assert _stored(web_game) == []  # a preview stores nothing
    assert _confirm(client, web_game, "2026-09-03", "2026-09-12", html) == 302
    assert _stored(web_game) == [(dt.date(2026, 9, 3), dt.date(2026, 9, 12), TODAY)]
    [mine] = web_game.outbox(to=web_game.black_email, kind="break_confirmed")
    assert "Перерыв с 03.09.2026 по 12.09.2026: 10 дней, обе даты включены (002 §4.4.3)." \
        in mine.body_text
    assert "после его начала" not in mine.body_text


def test_a_break_in_the_future_counts_in_full_from_its_first_day(web_game: WebGame) -> None:
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-10-01", "2026-10-10")
    assert status == 200, html
    assert "Засчитывается: 10 дн., с 01.10.2026 по 10.10.2026" in _break_box(html)
    _english(client)
    status, html = _preview(client, web_game, "2026-10-01", "2026-10-10")
    assert "Counted: 10 days, from 01.10.2026 to 10.10.2026" in _break_box(html)
    assert _confirm(client, web_game, "2026-10-01", "2026-10-10", html) == 302
    assert _stored(web_game) == [(dt.date(2026, 10, 1), dt.date(2026, 10, 10), TODAY)]


def test_a_backdated_break_counts_from_the_announcement_in_the_preview_the_chart_and_the_letters(
    web_game: WebGame
) -> None:
    """002 §4.4.2: announced after it began, the break counts «со дня его объявления». It is not
    refused (the rule says what follows, and §4.4.5 lets the referee count the earlier days);
    the preview's dates, the stored break, the time chart and the partner's notice agree: 8 days,
    03.09–10.09, and 25.08–02.09 are ordinary days of play."""
    assert web_game.play("white", "c3-d4", START) == "move_relayed"  # Black to move from 01.09
    web_game.on(TODAY)
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-08-25", "2026-09-10")
    assert status == 200, html
    box = _break_box(html)
    assert ("Перерыв начался раньше сегодняшнего дня: он засчитывается только с сегодняшнего "
            "дня, 03.09.2026, — дня объявления (002 §4.4.2).") in box
    assert "Засчитывается: 8 дн., с 03.09.2026 по 10.09.2026" in box
    assert ("Не засчитывается: дни с 25.08.2026 по 02.09.2026, до объявления, — обычные дни "
            "игры; засчитать их может только судья по вашему заявлению в особом случае "
            "(002 §4.4.5).") in box
    _english(client)
    status, html = _preview(client, web_game, "2026-08-25", "2026-09-10")
    box = _break_box(html)
    assert "it counts only from today, 03.09.2026, the day it is announced (002 §4.4.2)" in box
    assert "Counted: 8 days, from 03.09.2026 to 10.09.2026" in box
    assert ("Not counted: the days from 25.08.2026 to 02.09.2026, before the announcement, are "
            "ordinary days of play; only the referee can count them, on your application in a "
            "special case (002 §4.4.5).") in box
    assert _confirm(client, web_game, "2026-08-25", "2026-09-10", html) == 302
    # Stored as written and announced today: the chart counts it from the announcement.
    assert _stored(web_game) == [(dt.date(2026, 8, 25), dt.date(2026, 9, 10), TODAY)]
    [partner] = web_game.outbox(to=web_game.white_email, kind="break_notice")
    body = " ".join(partner.body_text.split())
    assert "он засчитывается со дня объявления, с 03.09.2026 (002 §4.4.2)." in body
    assert "Засчитываются дни с 03.09.2026 по 10.09.2026: 8 дней." in body
    assert "засчитать их может только судья по заявлению игрока в особом случае (002 §4.4.5)" \
        in body
    # Black answers on 12.09: received 01.09, 11 days, of which 03.09–10.09 (8) are the break's:
    # 3 days of think time. Counted from the written 25.08 it would have been 2.
    web_game.on(dt.date(2026, 9, 12))
    move = client.post(f"/games/{web_game.game_id}/play",
                       data={"move": "f6-g5", "action": "preview"})
    total = re.search(r'id="preview-total">(\d+) ', move.get_data(as_text=True))
    assert total is not None and total.group(1) == "3", move.get_data(as_text=True)


def test_a_backdated_break_over_30_days_stands_for_its_first_30_counted_from_today(
    web_game: WebGame
) -> None:
    """002 §4.4.1 then §4.4.2: 20.08–30.09 stands for 20.08–18.09 and counts 03.09–18.09 — the
    preview no longer says «only its first 30 days count, from 20.08» beside «counts from today»."""
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-08-20", "2026-09-30")
    assert status == 200, html
    box = _break_box(html)
    assert ("Перерыв длится 42 дн., а допускается не более 30: перерыв остаётся в силе на "
            "первые 30 дн., с 20.08.2026 по 18.09.2026 (002 §4.4.1).") in box
    assert "засчитываются только первые" not in box
    assert "Засчитывается: 16 дн., с 03.09.2026 по 18.09.2026" in box
    _english(client)
    status, html = _preview(client, web_game, "2026-08-20", "2026-09-30")
    box = _break_box(html)
    assert "it stands for its first 30 days, from 20.08.2026 to 18.09.2026 (002 §4.4.1)" in box
    assert "only its first 30 days count" not in box
    assert "Counted: 16 days, from 03.09.2026 to 18.09.2026" in box
    assert _confirm(client, web_game, "2026-08-20", "2026-09-30", html) == 302
    assert _stored(web_game) == [(dt.date(2026, 8, 20), dt.date(2026, 9, 18), TODAY)]
    [mine] = web_game.outbox(to=web_game.black_email, kind="break_shortened")
    body = " ".join(mine.body_text.split())
    assert "перерыв остаётся в силе на первые 30 дней, с 20.08.2026 по 18.09.2026" in body
    assert "Засчитываются дни с 03.09.2026 по 18.09.2026: 16 дней." in body


def test_a_backdated_break_whose_first_30_days_are_over_is_refused_saying_so(
    web_game: WebGame
) -> None:
    """01.08–15.09 stands at most for 01.08–30.08 (002 §4.4.1), over before 03.09: announced
    after its end, it counts in no game (002 §4.4.2) and is refused; nothing is stored."""
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-08-01", "2026-09-15")
    assert status == 422, html
    assert ("он длится больше 30 дн., поэтому в силе остаются только первые 30, а они "
            "окончились 30.08.2026 (002 §4.4.1), раньше, чем перерыв объявлен сегодня, "
            "03.09.2026") in html
    assert "002 §4.4.2" in html
    _english(client)
    status, html = _preview(client, web_game, "2026-08-01", "2026-09-15")
    assert status == 422
    assert ("it lasts more than 30 days, so it stands for its first 30, which ended on "
            "30.08.2026 (002 §4.4.1), before it is announced today, 03.09.2026") in html
    assert _stored(web_game) == [] and web_game.outbox() == []


def test_a_break_overlapping_the_break_taken_is_refused_in_both_languages(
    web_game: WebGame
) -> None:
    assert web_game.email("black", "Беру перерыв с 10.10.2026 по 20.10.2026", TODAY).outcome \
        == "break_recorded"
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-10-15", "2026-10-25")
    assert status == 422, html
    assert "Перерыв не предоставлен, ничего не записано:" in html
    assert "он пересекается с вашим перерывом с 10.10.2026 по 20.10.2026" in html
    assert "002 §4.4.1" in html
    _english(client)
    status, html = _preview(client, web_game, "2026-10-15", "2026-10-25")
    assert status == 422
    assert "it overlaps your break from 10.10.2026 to 20.10.2026" in html
    assert _stored(web_game) == [(dt.date(2026, 10, 10), dt.date(2026, 10, 20), TODAY)]


def test_a_second_break_in_the_year_is_refused_in_both_languages(web_game: WebGame) -> None:
    """The tournament's allowance, one break a calendar year (002 §4.4.1), is used up."""
    assert web_game.email("black", "Беру перерыв с 01.10.2026 по 05.10.2026", TODAY).outcome \
        == "break_recorded"
    client = web_game.client("black")
    status, html = _preview(client, web_game, "2026-12-01", "2026-12-05")
    assert status == 422, html
    assert "перерыв 2026 года у вас уже взят, а перерыв — один в календарный год" in html
    assert "002 §4.4.1" in html
    _english(client)
    status, html = _preview(client, web_game, "2026-12-01", "2026-12-05")
    assert status == 422
    assert ("you have already taken your break of 2026: one break per calendar year"
            in html), html
    with web_game.database.session() as session:
        black = session.get(Participant, web_game.black_id)
        assert black is not None and len(black.breaks) == 1
    assert _stored(web_game) == [(dt.date(2026, 10, 1), dt.date(2026, 10, 5), TODAY)]


def test_a_backdated_break_by_e_mail_is_confirmed_with_the_days_counted_in_english(
    web_game: WebGame
) -> None:
    """The e-mail intake judges and words the same break as the web's preview (one verdict)."""
    with web_game.database.transaction() as session:
        black = session.get(Participant, web_game.black_id)
        assert black is not None
        black.player.language = "en"
    receipt = web_game.email("black", "Беру перерыв с 25.08.2026 по 10.09.2026", TODAY)
    assert receipt.outcome == "break_recorded"
    assert _stored(web_game) == [(dt.date(2026, 8, 25), dt.date(2026, 9, 10), TODAY)]
    [mine] = web_game.outbox(to=web_game.black_email, kind="break_confirmed")
    body = " ".join(mine.body_text.split())
    assert ("It was announced after it began, so it counts from the day of the announcement, "
            "03.09.2026 (002 §4.4.2). Counted: 8 days, from 03.09.2026 to 10.09.2026. The days "
            "before the announcement are ordinary days of play; only the referee can count them, "
            "on the player's application in a special case (002 §4.4.5).") in body


def test_a_backdated_break_by_e_mail_whose_first_30_days_are_over_is_refused_saying_so(
    web_game: WebGame
) -> None:
    receipt = web_game.email("black", "Беру перерыв с 01.08.2026 по 15.09.2026", TODAY)
    assert receipt.outcome == "break_refused"
    assert _stored(web_game) == []
    [refused] = web_game.outbox(to=web_game.black_email, kind="break_refused")
    body = " ".join(refused.body_text.split())
    assert ("(перерыв длиннее 30 дней мог остаться в силе только на первые 30, по 30.08.2026, "
            "002 §4.4.1)") in body
    assert "002 §4.4.2: перерыв объявлен после его окончания" in body
