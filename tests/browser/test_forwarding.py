"""The steward records in a real browser that he posted a web move to the partner who plays by
post (002 §4.1.1, docs/rules/mail.md 21): a day before the move's dispatch is refused with its
rule and nothing stored; the right day replaces the "to forward" box with who forwarded it when,
and the dashboard no longer counts the game — on the phone in Russian and on the desktop in
English."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import func, select

from corrmail.clock import today
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import Channel, Forwarding, Game, Participant, User
from corrmail.play.web_moves import WebLetter, submit_web_letter

from .test_mixed_game_relay import _mixed
from .test_postcard_entry import DESKTOP, PHONE, _cards, _log_in

pytestmark = pytest.mark.browser

WORDS = {
    "ru": {"box": "Переслать почтой", "record": "Записать пересылку", "done": "Переслано",
           "note": "переслан почтой", "flash": "отправлен почтой", "by": "записал",
           "count": "ходы переслать почтой: 1", "estimate": "староста отправил его"},
    "en": {"box": "To forward by post", "record": "Record the forwarding", "done": "Forwarded",
           "note": "forwarded by post", "flash": "posted to", "by": "by",
           "count": "moves to forward by post: 1", "estimate": "posted by the steward on"},
}


def _web_move(database: Database, game_id: int, mover_id: int, received: dt.date,
              on: dt.date) -> None:
    writer = LetterWriter(MailSettings(domain="t.example", from_address="t@t.example",
                                       secret=b"browser"))
    with database.transaction() as session:
        game = session.get(Game, game_id)
        mover = session.get(Participant, mover_id)
        assert game is not None and mover is not None
        submit_web_letter(session, game, mover, WebLetter(
            move=_cards_move(database, game_id), received=received), today=on, writer=writer)


def _cards_move(database: Database, game_id: int) -> str:
    return next(card.own for card in _cards(database) if card.game_id == game_id)


def _steward_name(database: Database) -> str:
    with database.session() as session:
        name = session.scalar(select(User.display_name).where(User.login == "steward"))
        assert name
        return name


def _forwardings(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(Forwarding)) or 0


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ru"), (DESKTOP, "en")],
                         ids=["390px-ru", "desktop-en"])
def test_the_steward_records_a_forwarding_and_a_wrong_day_is_refused(
    live_server: str, browser_page: object, database: Database, size: dict[str, int], locale: str,
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size(size)
    words = WORDS[locale]
    card, _ = _cards(database)
    _mixed(database, card.game_id, card.mover_id, locale,
           mover_plays=Channel.WEB, partner_plays=Channel.POST)
    with database.session() as session:
        game = session.get(Game, card.game_id)
        assert game is not None
        on = today(None, game.tournament.time_zone)
    _web_move(database, card.game_id, card.mover_id, card.received, on)

    _log_in(page, live_server, locale)
    page.goto(f"{live_server}/dashboard/{DEMO_CODE}")
    expect(page.locator("p.attention")).to_contain_text(words["count"])
    page.goto(f"{live_server}/games/{card.game_id}")
    box = page.locator("section.to-forward")
    expect(box.locator("h2")).to_have_text(words["box"])

    # The day before the move was sent: refused with its rule, nothing stored, the box stays.
    before = on - dt.timedelta(days=1)
    box.locator("input[name=forwarded_on]").fill(before.isoformat())
    box.locator("button[type=submit]").click()
    alert = page.locator("section.to-forward ul.errors[role=alert]")
    expect(alert).to_contain_text("002 §4.3.1")
    expect(alert).to_contain_text(f"{before:%d.%m.%Y}")
    assert _forwardings(database) == 0
    expect(page.locator("section.to-forward input[name=forwarded_on]")).to_have_value(
        before.isoformat())
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], width

    # The day of the postmark: stored, and the page says who forwarded it and when.
    page.locator("section.to-forward input[name=forwarded_on]").fill(on.isoformat())
    page.locator("section.to-forward select[name=channel]").select_option("post")
    page.locator("section.to-forward button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/games/{card.game_id}$"))
    expect(page.locator("main")).to_contain_text(words["flash"])
    expect(page.locator("section.to-forward")).to_have_count(0)
    done = page.locator("section.forwarded")
    expect(done.locator("h2")).to_have_text(words["done"])
    note = done.locator("p.forwarded-note")
    expect(note).to_contain_text(words["note"])
    expect(note).to_contain_text(f"{on:%d.%m.%Y}")
    expect(note).to_contain_text(f"{words['by']} {_steward_name(database)}")
    # His clock counts from the posting day plus the transit, and the header says so.
    expect(page.locator("small.estimate")).to_contain_text(words["estimate"])
    expect(page.locator("small.estimate")).to_contain_text(f"{on:%d.%m.%Y}")
    assert _forwardings(database) == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], width

    page.goto(f"{live_server}/dashboard/{DEMO_CODE}")
    expect(page.locator("p.attention")).not_to_contain_text(words["count"])
