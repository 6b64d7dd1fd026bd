"""A mixed tournament in a real browser: the steward enters a postal player's card and the
partner, who plays by e-mail, gets its move the same day, with his time counted from that day
(002 §4.1.1, §4.3.1, docs/rules/mail.md 19) — on the phone in Russian and on the desktop in
English."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from corrmail.clock import today
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.games.state import stored_states
from corrmail.models import (
    Channel,
    Game,
    Letter,
    OutboxMessage,
    Participant,
    Tournament,
    TournamentChannel,
    User,
)

from .test_postcard_entry import DESKTOP, PHONE, _cards, _fill, _log_in

pytestmark = pytest.mark.browser


def _mixed(database: Database, game_id: int, mover_id: int, locale: str,
           mover_plays: Channel = Channel.POST, partner_plays: Channel = Channel.EMAIL) -> str:
    """The demo made a mixed tournament: the mover plays by post, his partner by e-mail (reading
    letters in ``locale``), unless told otherwise; the partner's address."""
    with database.transaction() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
        assert tournament is not None
        tournament.channel = TournamentChannel.MIXED
        game = session.get(Game, game_id)
        assert game is not None
        mover = session.get(Participant, mover_id)
        assert mover is not None
        partner = game.partner_of(mover_id)
        mover.channel, partner.channel = mover_plays, partner_plays
        account = session.scalar(select(User).where(User.player_id == partner.player_id))
        assert account is not None and partner.player.email
        partner.player.language = locale  # the letters' language is the player's own
        return partner.player.email


ENTERED_FLASH = {"ru": "отправлен", "en": "is e-mailed to"}

WORDS = {
    "ru": ("по карточке партнёра и почтовому штемпелю", "ход переслан вам"),
    "en": ("as your partner's card and its postmark give them", "the move was relayed to you on"),
}


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ru"), (DESKTOP, "en")],
                         ids=["390px-ru", "desktop-en"])
def test_a_card_entered_reaches_the_email_partner_the_same_day(
    live_server: str, browser_page: object, database: Database, size: dict[str, int], locale: str,
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size(size)
    card, _ = _cards(database)
    partner_email = _mixed(database, card.game_id, card.mover_id, locale)
    _log_in(page, live_server, locale)

    _fill(page, live_server, card, f"{card.repeat} {card.own}")
    # The check says before anything is stored that the partner gets the move by e-mail.
    expect(page.locator("section.postcard-check p.relay")).to_contain_text("002 §4.3.1")
    page.click("button[value=enter]")
    expect(page).to_have_url(re.compile(rf"/games/{card.game_id}$"))
    expect(page.locator("main")).to_contain_text(ENTERED_FLASH[locale])

    with database.session() as session:
        game = session.get(Game, card.game_id)
        assert game is not None
        entered_on = today(None, game.tournament.time_zone)
        stored = session.scalars(select(Letter).where(Letter.game_id == card.game_id)
                                 .order_by(Letter.sequence.desc())).first()
        assert stored is not None and stored.sent == card.sent
        assert stored.relayed_on == entered_on
        [relayed] = session.scalars(select(OutboxMessage).where(
            OutboxMessage.recipient == partner_email, OutboxMessage.kind == "move",
            OutboxMessage.game_id == card.game_id)).all()
        [state] = stored_states(session, [card.game_id]).values()
        assert state.counting_from == entered_on
        assert state.reply_due is not None
        reply_due = state.reply_due
    dates, relay = WORDS[locale]
    assert card.own in relayed.body_text and dates in relayed.body_text
    assert f"{relay} {entered_on:%d.%m.%Y}" in relayed.body_text
    assert f"{reply_due:%d.%m.%Y}" in relayed.body_text

    # The game page reads the same reply date as the letter the partner got, a known day.
    page.goto(f"{live_server}/games/{card.game_id}")
    expect(page.locator("main")).to_contain_text(f"{reply_due:%d.%m.%Y}")
    expect(page.locator("small.estimate")).to_have_count(0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], width
    assert reply_due - entered_on <= dt.timedelta(days=50)


def _login_of(database: Database, participant_id: int) -> str:
    with database.session() as session:
        participant = session.get(Participant, participant_id)
        assert participant is not None
        login = session.scalar(select(User.login).where(User.player_id == participant.player_id))
        assert login is not None
        return login


FORWARD = {
    "ru": ("староста перешлёт ему ход", "ходы переслать почтой: 1", "переслать почтой",
           "перешлите его почтой или по телефону (002 §4.1.1)"),
    "en": ("the steward forwards it to him", "moves to forward by post: 1", "forward by post",
           "forward it by post or telephone (002 §4.1.1)"),
}


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ru"), (DESKTOP, "en")],
                         ids=["390px-ru", "desktop-en"])
def test_a_web_move_to_a_postal_partner_is_on_the_stewards_dashboard(
    live_server: str, browser_page: object, database: Database, size: dict[str, int], locale: str,
) -> None:
    """The player moves on the web; his partner plays by post, so nothing is e-mailed to him:
    the player is told the steward forwards it, and the steward's dashboard counts and marks the
    game until the partner's card comes (002 §4.1.1)."""
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size(size)
    card, _ = _cards(database)
    _mixed(database, card.game_id, card.mover_id, locale,
           mover_plays=Channel.WEB, partner_plays=Channel.POST)
    told, counted, marked, hint = FORWARD[locale]

    _log_in(page, live_server, locale, _login_of(database, card.mover_id))
    page.goto(f"{live_server}/games/{card.game_id}")
    page.fill("#move-input", card.own)
    # The partner's card was not relayed: the player writes when it reached him (002 §4.3.1).
    expect(page.locator("p.receipt small")).to_contain_text("002 §4.3.1")
    page.click("#preview-button")  # without the day: refused with the rule, the move kept
    expect(page.locator("p.errors[role=alert]")).to_contain_text("002 §4.3.1")
    expect(page.locator("#move-input")).to_have_value(card.own)
    page.fill("#received-input", card.received.isoformat())
    page.click("#preview-button")
    expect(page.locator("dl.letter-preview")).to_contain_text(f"{card.received:%d.%m.%Y}")
    page.click("#confirm-button")
    expect(page).to_have_url(re.compile(rf"/games/{card.game_id}$"))
    expect(page.locator("main")).to_contain_text(told)

    page.context.clear_cookies()
    _log_in(page, live_server, locale)
    with database.session() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.code == DEMO_CODE))
    page.goto(f"{live_server}/dashboard/{code}")
    expect(page.locator("p.attention")).to_contain_text(counted)
    page.locator("p.attention a").filter(has_text=counted).click()
    expect(page.locator("table.dashboard tbody tr")).to_have_count(1)
    marker = page.locator("table.dashboard small.to-forward")
    expect(marker).to_have_text(marked)
    assert hint in (marker.get_attribute("title") or "")
    # The game page says what to send and where.
    page.locator("table.dashboard tbody tr a").first.click()
    section = page.locator("section.to-forward")
    expect(section).to_contain_text("002 §4.1.1")
    # The postal player's clock counts from an estimated receipt, and the page says so.
    expect(page.locator("small.estimate")).to_contain_text("002 §4.3.3")
    expect(section.locator("code.forward-moves")).to_have_text(card.own)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], width
