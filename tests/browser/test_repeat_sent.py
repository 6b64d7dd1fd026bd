"""The steward watches a repeat go out in a real browser, on the phone in Russian (002 §4.3.4):
the dashboard lists the game as overdue for its repeat; the calendar repeats the move, to the
steward because the player to move plays by post (002 §4.1.1); the dashboard then shows the day
of the repeat and the next due date, and no longer counts the game as overdue. A second pass of
the calendar the next day sends nothing."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from corrmail.clock import today
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.letters.scheduled import Schedule
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Channel,
    Game,
    GameState,
    OutboxMessage,
    Tournament,
    TournamentChannel,
    User,
)
from corrmail.tournaments.dashboard import DashboardFilter, dashboard_rows
from timekeeping import repeat_due

from .test_postcard_entry import PHONE, _log_in

pytestmark = pytest.mark.browser


def _calendar(database: Database, on: dt.date) -> int:
    writer = LetterWriter(MailSettings(domain="t.example", from_address="t@t.example",
                                       secret=b"browser"))
    with database.transaction() as session:
        return Schedule(writer).run(session, on).repeats


def _overdue_count(page: object) -> int:
    link = page.locator("p.attention a", has_text="повтор")  # type: ignore[attr-defined]
    return int(re.findall(r"\d+", link.inner_text())[-1]) if link.count() else 0


def test_the_dashboard_shows_the_repeat_sent_on_the_phone_in_russian(
    live_server: str, browser_page: object, database: Database,
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size(PHONE)
    game_id, on, steward_email = _overdue_game_by_post(database)
    _log_in(page, live_server, "ru")
    page.goto(f"{live_server}/dashboard/{DEMO_CODE}?filter=repeat_overdue&per_page=all")
    row = page.locator(f"table.dashboard tbody tr:has(a[href$='/games/{game_id}'])")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("просрочено")
    before = _overdue_count(page)
    assert before >= 1

    assert _calendar(database, on) >= 1
    with database.session() as session:
        to_steward = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "repeat", OutboxMessage.game_id == game_id,
            OutboxMessage.recipient == steward_email)).all()
    assert len(to_steward) == 1 and "почтой для" in to_steward[0].subject

    page.goto(f"{live_server}/dashboard/{DEMO_CODE}?filter=repeat_overdue&per_page=all")
    expect(row).to_have_count(0)
    assert _overdue_count(page) < before
    page.goto(f"{live_server}/dashboard/{DEMO_CODE}?per_page=all")
    expect(row).to_have_count(1)
    expect(row.locator("small.repeated")).to_have_text(f"повтор отправлен {on:%d.%m.%Y}")
    expect(row).to_contain_text(f"{repeat_due(on):%d.%m.%Y}")
    expect(row).not_to_contain_text("просрочено")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # the table scrolls in its own box, the page does not
    row.locator("small.repeated").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/repeat-sent-390-ru.png")

    # The next day's pass sends nothing more in this game: the repeat is on record (002 §4.3.4).
    sent = _repeats_of(database, game_id)
    _calendar(database, on + dt.timedelta(days=1))
    assert _repeats_of(database, game_id) == sent


def _overdue_game_by_post(database: Database) -> tuple[int, dt.date, str]:
    """A demo game in play whose last move waits past its repeat date today; the demo is made a
    mixed tournament where the player to move plays by post and the waiting one by e-mail, and
    the steward has an address. Returns the game, today and the steward's address."""
    with database.transaction() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
        assert tournament is not None
        on = today(None, tournament.time_zone)
        rows = [row for row in dashboard_rows(session, tournament, on,
                                              wanted=DashboardFilter.REPEAT_OVERDUE)
                if row.game.state is GameState.IN_PLAY and row.to_move is not None]
        assert rows, "the demo has a move unanswered past its repeat date"
        game: Game = rows[0].game
        tournament.channel = TournamentChannel.MIXED
        mover = rows[0].to_move
        assert mover is not None
        mover.channel = Channel.POST
        waiting = game.partner_of(mover.id)
        waiting.channel = Channel.EMAIL
        waiting.player.email = waiting.player.email or "waiting@demo.example"
        steward = session.scalar(select(User).where(User.login == "steward"))
        assert steward is not None
        steward.email = steward.email or "steward@demo.example"  # he gets the postal players' letters
        return game.id, on, steward.email


def _repeats_of(database: Database, game_id: int) -> list[int]:
    with database.session() as session:
        return list(session.scalars(select(OutboxMessage.id).where(
            OutboxMessage.kind == "repeat", OutboxMessage.game_id == game_id)))
