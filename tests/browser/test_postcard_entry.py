"""The steward's two-step postcard entry in a real browser (Debian's chromium via Playwright),
phone-sized in Russian and desktop in English: a clean card checked then stored; a card that
stops play stored only once the penalty is confirmed; the same card again refused as a
duplicate (002 §4.2.8); impossible dates refused whatever the move (002 §4.3.1)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from corrmail.clock import today
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.games.ledger import to_move
from corrmail.games.view import GameView
from corrmail.models import Game, GameState, Letter, Penalty, Tournament
from corrmail.play.postcards import moves_to_repeat
from corrmail.play.web_moves import legal_choices

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@dataclass(frozen=True)
class Card:
    game_id: int
    mover_id: int
    repeat: str
    own: str
    partner_sent: dt.date
    received: dt.date
    sent: dt.date


def _cards(database: Database) -> list[Card]:
    """Two demo games in play, each with the card its mover would write."""
    cards = []
    with database.session() as session:
        games = session.scalars(
            select(Game).join(Tournament).where(
                Tournament.code == DEMO_CODE, Game.state == GameState.IN_PLAY).order_by(Game.id)
        ).all()
        for game in games:
            mover = to_move(game)
            last = next((letter for letter in reversed(game.letters)
                         if letter.sender_id not in (None, getattr(mover, "id", None))
                         and letter.sent is not None), None)
            if mover is None or last is None or last.sent is None:
                continue
            view = GameView(game)
            on = today(None, game.tournament.time_zone)
            received = min(last.sent + dt.timedelta(days=1), on)
            sent = min(received + dt.timedelta(days=1), on)
            cards.append(Card(game.id, mover.id, moves_to_repeat(view, mover.id),
                              legal_choices(view.position)[0].text, last.sent, received, sent))
            if len(cards) == 2:
                break
    assert len(cards) == 2
    return cards


def _counts(database: Database, game_id: int) -> tuple[int, int]:
    with database.session() as session:
        letters = session.scalar(select(func.count()).select_from(Letter)
                                 .where(Letter.game_id == game_id)) or 0
        days = session.scalar(select(func.coalesce(func.sum(Penalty.days), 0))
                              .where(Penalty.game_id == game_id)) or 0
        return letters, days


def _log_in(page, server: str, locale: str, login: str = "steward") -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator(f"header form.locale button[value={locale}]").click()
    # the switch is a form post: the next goto must not cut it short
    expect(page.locator("html")).to_have_attribute("lang", locale)


def _fill(page, server: str, card: Card, moves: str, *, received: dt.date | None = None,  # type: ignore[no-untyped-def]
          sent: dt.date | None = None) -> None:
    page.goto(f"{server}/games/{card.game_id}/postcards/new")
    page.select_option("select[name=sender]", str(card.mover_id))
    page.fill("input[name=moves_text]", moves)
    page.fill("input[name=partner_sent]", f"{card.partner_sent:%d.%m.%Y}")
    page.fill("input[name=received]", f"{received or card.received:%d.%m.%Y}")
    day = sent or card.sent
    page.fill("input[name=sent]", f"{day:%d.%m.%Y}")
    page.fill("input[name=postmark]", f"{day:%d.%m.%Y}")
    page.click("button[value=check]")


WORDS = {
    "ru": {"stored": "Что будет внесено", "stops": "Игра остановлена", "duplicate": "уже внесена"},
    "en": {"stored": "What will be stored", "stops": "Play stops", "duplicate": "already stored"},
}


@pytest.mark.parametrize(("size", "locale"), [(PHONE, "ru"), (DESKTOP, "en")],
                         ids=["390px-ru", "desktop-en"])
def test_two_step_postcard_entry(live_server: str, browser_page: object, database: Database,
                                 size: dict[str, int], locale: str) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size(size)
    words = WORDS[locale]
    clean, faulty = _cards(database)
    _log_in(page, live_server, locale)

    # The form offers the side to move and shows the move the card must repeat.
    page.goto(f"{live_server}/games/{clean.game_id}/postcards/new")
    expect(page.locator("select[name=sender]")).to_have_value(str(clean.mover_id))
    expect(page.locator("p.partner-move")).to_contain_text(clean.repeat)
    # The whole form fits the screen: a phone does not scroll sideways to reach a date.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], width

    # A clean card: the check shows what will be stored, the store step stores it.
    before = _counts(database, clean.game_id)
    _fill(page, live_server, clean, f"{clean.repeat} {clean.own}")
    check = page.locator("section.postcard-check")
    expect(check).to_contain_text(words["stored"])
    expect(check.locator("code.repeats")).to_have_text(clean.repeat)
    expect(check.locator("code.own-moves")).to_have_text(clean.own)
    expect(check.locator("dd.dates")).to_contain_text(
        f"{clean.partner_sent:%d.%m.%Y} / {clean.received:%d.%m.%Y} / {clean.sent:%d.%m.%Y}")
    expect(check.locator("dd.think-time")).to_be_visible()
    assert _counts(database, clean.game_id) == before  # the check stored nothing
    page.click("button[value=enter]")
    expect(page).to_have_url(re.compile(rf"/games/{clean.game_id}$"))
    assert _counts(database, clean.game_id) == (before[0] + 1, before[1])

    # Impossible dates are refused with their rule, whether the move is right or wrong.
    before = _counts(database, faulty.game_id)
    early = faulty.partner_sent - dt.timedelta(days=3)
    for moves in (f"{faulty.repeat} {faulty.own}", faulty.own):
        _fill(page, live_server, faulty, moves, received=early, sent=faulty.sent)
        errors = page.locator("section.postcard-check ul.errors")
        expect(errors).to_contain_text("002 §4.3.1")
        expect(page.locator("button[value=enter]")).to_have_count(0)
    assert _counts(database, faulty.game_id) == before

    # A card that stops play (the partner's move not repeated): stored once confirmed.
    _fill(page, live_server, faulty, faulty.own)
    check = page.locator("section.postcard-check")
    expect(check.locator("p.stop")).to_contain_text(words["stops"])
    expect(check).to_contain_text("002 §4.2.9")
    page.click("button[value=enter]")  # not confirmed: nothing stored
    expect(page.locator("label.confirm-stop + small.error")).to_be_visible()
    assert _counts(database, faulty.game_id) == before
    page.check("input[name=confirm_stop]")
    page.click("button[value=enter]")
    expect(page).to_have_url(re.compile(rf"/games/{faulty.game_id}$"))
    assert _counts(database, faulty.game_id) == (before[0] + 1, before[1] + 6)
    expect(page.locator("small.as-written").first).to_contain_text(faulty.own)

    # The same card again: refused as a duplicate, nothing stored.
    _fill(page, live_server, faulty, faulty.own)
    errors = page.locator("section.postcard-check ul.errors")
    expect(errors).to_contain_text("002 §4.2.8")
    expect(errors).to_contain_text(words["duplicate"])
    expect(page.locator("button[value=enter]")).to_have_count(0)
    assert _counts(database, faulty.game_id) == (before[0] + 1, before[1] + 6)
