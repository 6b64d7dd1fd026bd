"""A whole tournament from an empty database, as the people do it — no demo, no SQL.

The first organizer is made with ``corrmail user add``; everything else happens in the browser
(accounts with an invitation, the tournament, its players, officials, publishing with start
sheets) or where the people's letters really come in: two e-mail players play through
``corrmail ingest``, the steward enters a postal player's card and a telephone call, the daily
``corrmail sweep`` opens the adjudication at the end of play, the referee decides it, and the
organizer closes the tournament and reads the final report. The director works in Russian, the
referee in English; the steward uses a phone-sized window (390 px).

The test reads the database only to find what a person would read in his letters (a game's
address on the start sheet); it never writes to it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator
from email.utils import format_datetime, make_msgid

import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.mail.settings import MailSettings
from corrmail.models import Game, GameResult, GameState, OutboxMessage, Tournament, TournamentStatus
from tests.browser.fixtures import browser_page, chromium, db_url, serving

__all__ = ["browser_page", "chromium", "db_url"]

pytestmark = pytest.mark.browser

CODE = "ЗКР-2026"
START, END = dt.date(2026, 9, 1), dt.date(2027, 3, 1)
MOSCOW = dt.timezone(dt.timedelta(hours=3))
PASSWORD = "organizer's long secret"
MAIL = {"CORRMAIL_MAIL_SECRET": "journey-secret", "CORRMAIL_MAIL_DOMAIN": "turnir.example",
        "CORRMAIL_SMTP_HOST": ""}
PETROV, SEDOV, ORLOV = "Петров Иван", "Седов Сергей", "Орлов Олег"


@pytest.fixture
def journey(app: Flask, db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The app on an empty (migrated) database behind a real server; the CLI shares its
    environment (database, secret key, mail secret)."""
    for name, value in {**MAIL, "CORRMAIL_DATABASE_URL": db_url,
                        "CORRMAIL_SECRET_KEY": app.config["SECRET_KEY"]}.items():
        monkeypatch.setenv(name, value)
    # The server starts in this environment: the app parses its mail settings at start-up and
    # its requests read that copy, as a production start does.
    app.config["CORRMAIL_MAIL_SETTINGS"] = MailSettings.from_env(
        secret_fallback=app.config["SECRET_KEY"])
    with serving(app) as url:
        yield url


def _corrmail(*args: str, input: str | bytes | None = None) -> str:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _set_today(app: Flask, day: dt.date) -> None:
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(app.config["CORRMAIL_SETTINGS"], today=day)


def _log_in(page, server: str, login: str, password: str, locale: str = "ru") -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator(f"header form.locale button[value={locale}]").click()
    # the switch is a form post: the next goto must not cut it short
    expect(page.locator("html")).to_have_attribute("lang", locale)


def _flash(page, text: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    expect(page.locator("main").get_by_text(text, exact=False).first).to_be_visible()


def _ingest(sender: str, to: str, text: str, day: dt.date) -> None:
    when = dt.datetime.combine(day, dt.time(10, 0), MOSCOW)
    raw = "\r\n".join([
        f"From: {sender}", f"To: {to}", "Subject: Re: ход", f"Date: {format_datetime(when)}",
        f"Message-ID: {make_msgid(domain='mail.example')}", "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", text, ""])
    output = _corrmail("ingest", "--received-at", when.isoformat(), input=raw.encode())
    assert "processed" in output, output


def _address_on_sheet(database: Database, email: str, game_id: int) -> str:
    """The game's own address, as the start sheet the player received prints it."""
    with database.session() as session:
        sheet = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "start_sheet", OutboxMessage.recipient == email)).one()
    found = re.search(rf"turnir\+g{game_id}-p\d+-[0-9a-z]+@turnir\.example", sheet.body_text)
    assert found is not None, sheet.body_text
    return found[0]


def _reply_address(database: Database, email: str, game_id: int) -> str:
    """The Reply-To of the last letter about ``game_id`` the player got (the partner's move)."""
    with database.session() as session:
        letter = session.scalars(select(OutboxMessage).where(
            OutboxMessage.recipient == email, OutboxMessage.game_id == game_id)
            .order_by(OutboxMessage.id.desc())).first()
        assert letter is not None
        found = re.search(rb"Reply-To: (\S+)", letter.raw)
    assert found is not None
    return found[1].decode()


def test_a_tournament_from_an_empty_database(
    journey: str, app: Flask, browser_page: object, database: Database
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page, server = browser_page, journey
    page.set_viewport_size({"width": 1280, "height": 900})

    # 1. The first organizer, from the command line.
    made = _corrmail("user", "add", "director", "--name", "Иван Директоров", "--email",
                     "director@federation.example", "--role", "organizer", "--password-stdin",
                     input=f"{PASSWORD}\n")
    assert "user director created (organizer)" in made
    _set_today(app, dt.date(2026, 8, 20))
    _log_in(page, server, "director", PASSWORD)

    # 2. Accounts: the referee is invited, the steward gets a password; a duplicate is refused.
    page.get_by_role("link", name="Учётные записи").click()
    for login, name, email, role, password in (
        ("referee", "Судья Петрова", "referee@federation.example", "referee", ""),
        ("steward", "Староста Сидоров", "steward@federation.example", "steward", "steward's secret"),
    ):
        page.fill("input[name=login]", login)
        page.fill("input[name=name]", name)
        page.fill("input[name=email]", email)
        page.check(f"input[name=roles][value={role}]")
        page.fill("input[name=password]", password)
        page.click("button[name=create]")
        _flash(page, f"Учётная запись {login} создана")
    page.fill("input[name=login]", "Steward")
    page.fill("input[name=name]", "Другой")
    page.fill("input[name=email]", "other@federation.example")
    page.check("input[name=roles][value=steward]")
    page.click("button[name=create]")
    _flash(page, "Логин Steward занят")

    # The referee's invitation reaches his mailbox; the outbox viewer never opens a letter with
    # a set-password link, not even for the organizer. Its link sets his password.
    page.get_by_role("link", name="Исходящие").click()
    expect(page.get_by_role("link", name=re.compile("Приглашение в corrmail"))).to_have_count(0)
    with database.session() as session:
        invitation = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "invitation",
            OutboxMessage.recipient == "referee@federation.example")).one()
    link = re.search(r"http://\S+/password/welcome#\S+", invitation.body_text)
    assert link is not None
    invited = page.context.browser.new_context()  # type: ignore[union-attr]
    referee_page = invited.new_page()
    referee_page.goto(link[0])
    referee_page.fill("input[name=password]", "referee's own secret")
    referee_page.fill("input[name=again]", "referee's own secret")
    referee_page.click("main button[type=submit]")
    invited.close()

    # 3. The tournament, its players (one invited to log in), its officials.
    page.goto(f"{server}/tournaments/new")
    page.fill("input[name=code]", CODE)
    page.fill("input[name=title]", "Заочный кубок")
    page.select_option("select[name=channel]", "mixed")
    page.fill("input[name=start_date]", START.isoformat())
    page.fill("input[name=end_date]", END.isoformat())
    page.locator("main button[type=submit]").click()
    expect(page.get_by_role("heading", name=f"{CODE} — Заочный кубок")).to_be_visible()
    for name, email, address, channel, invite in (
        (PETROV, "petrov@mail.example", "", "email", True),
        (SEDOV, "sedov@mail.example", "", "email", False),
        (ORLOV, "", "620000, Екатеринбург, ул. Ленина, 1", "post", False),
    ):
        page.get_by_role("link", name="Добавить участника").click()
        page.fill("input[name=name]", name)
        page.fill("input[name=email]", email)
        page.fill("textarea[name=postal_address]", address)
        page.select_option("select[name=channel]", channel)
        if invite:
            page.check("input[name=invite]")
        page.locator("main button[type=submit]").click()
        expect(page.get_by_role("cell", name=name)).to_be_visible()

    # Publishing without officials says exactly what is missing and changes nothing.
    page.get_by_role("link", name="Опубликовать").click()
    expect(page.locator("ul.missing")).to_contain_text("не назначен судья")
    page.get_by_role("link", name=CODE).click()
    page.get_by_role("link", name="Судьи и старосты").click()
    page.select_option("select[name=referee]", "referee")
    page.select_option("select[name=stewards]", ["steward"])
    page.locator("main form.stacked button[type=submit]").click()
    expect(page.locator("table.officials tr[data-login=steward]")).to_be_visible()

    # 4. Publish: the round robin is drawn, e-mail sheets are written (and, with no mail server in
    # this test, wait in the outbox, which the flash says), the postal one waits for the steward.
    page.get_by_role("link", name=CODE).click()
    page.get_by_role("link", name="Опубликовать").click()
    page.click("button[name=publish]")
    _flash(page, "стартовых листов для эл. почты — 2, но они лежат в исходящих")
    expect(page.locator("tr[data-channel=post] td.sent")).to_contain_text("отправить по почте")

    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert tournament is not None and tournament.status is TournamentStatus.RUNNING
        games = {frozenset((g.white.player.name, g.black.player.name)): (g.id, g.white.player.name)
                 for g in tournament.games}
    assert len(games) == 3
    email_game, email_white = games[frozenset((PETROV, SEDOV))]
    postal_game, postal_white = games[frozenset((PETROV, ORLOV))]
    phone_game, phone_white = games[frozenset((SEDOV, ORLOV))]
    emails = {PETROV: "petrov@mail.example", SEDOV: "sedov@mail.example"}

    # 5. The steward, on his phone, posts Орлов's sheet and records the day.
    _log_in(page, server, "steward", "steward's secret")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/tournaments/{CODE}/start-sheets/mailing")
    row = page.locator("tr[data-channel=post]")
    row.locator("input[name=posted_on]").fill("2026-08-21")
    row.get_by_role("button", name="Записать").click()
    expect(page.locator("tr[data-channel=post] td.sent")).to_contain_text("21.08.2026")
    page.set_viewport_size({"width": 1280, "height": 900})

    # 6. The two e-mail players play by replying to their sheets and to the server's letters.
    email_black = SEDOV if email_white == PETROV else PETROV
    _ingest(emails[email_white], _address_on_sheet(database, emails[email_white], email_game),
            "1. c3-d4", dt.date(2026, 9, 1))
    _ingest(emails[email_black], _reply_address(database, emails[email_black], email_game),
            "1. c3-d4 f6-g5", dt.date(2026, 9, 3))  # the partner's move repeated (002 §4.2.9)
    _ingest(emails[email_white], _reply_address(database, emails[email_white], email_game),
            "1... f6-g5 2. b2-c3", dt.date(2026, 9, 5))
    _ingest(emails[email_black], _reply_address(database, emails[email_black], email_game),
            "Сдаюсь.", dt.date(2026, 9, 8))

    # 7. The postal player's card and the telephone call, through the steward.
    def steward_enters(game_id: int, sender: str, moves: str, sent: str, channel: str,
                       received: str = "", declaration: str = "none") -> None:
        page.goto(f"{server}/games/{game_id}/postcards/new")
        value = page.locator("select[name=sender] option", has_text=sender).get_attribute("value")
        page.select_option("select[name=sender]", value)
        page.select_option("select[name=channel]", channel)
        page.fill("input[name=moves_text]", moves)
        page.fill("input[name=sent]", sent)
        if channel == "post":
            page.fill("input[name=postmark]", sent)
        page.fill("input[name=received]", received)
        page.select_option("select[name=declaration]", declaration)
        page.click("button[value=check]")  # the check shows the card, the store step stores it
        page.click("button[value=enter]")
        expect(page).to_have_url(re.compile(rf"/games/{game_id}$"))

    _set_today(app, dt.date(2026, 9, 20))
    if postal_white == ORLOV:
        steward_enters(postal_game, ORLOV, "1. c3-d4", "05.09.26", "post")
    else:
        _ingest(emails[PETROV], _address_on_sheet(database, emails[PETROV], postal_game),
                "1. c3-d4", dt.date(2026, 9, 2))
        steward_enters(postal_game, ORLOV, "1. c3-d4 f6-g5", "06.09.26", "post", received="05.09.26")
    if phone_white == ORLOV:
        steward_enters(phone_game, ORLOV, "1. c3-d4", "07.09.26", "phone")
    else:
        _ingest(emails[SEDOV], _address_on_sheet(database, emails[SEDOV], phone_game),
                "1. c3-d4", dt.date(2026, 9, 2))
        steward_enters(phone_game, ORLOV, "1. c3-d4 f6-g5", "07.09.26", "phone", received="03.09.26")
    # Орлов resigns that game by telephone the next week.
    steward_enters(phone_game, ORLOV, "", "14.09.26", "phone", declaration="resigns")

    with database.session() as session:
        states = {g.id: (g.state, g.result) for g in session.scalars(select(Game))}
        letters = {g.id: [(letter.channel.value, letter.moves_text) for letter in g.letters]
                   for g in session.scalars(select(Game))}
    assert states[email_game][0] is GameState.FINISHED
    assert states[phone_game][0] is GameState.FINISHED
    assert states[postal_game][0] is GameState.IN_PLAY
    assert ("phone", "c3-d4") in letters[phone_game] or ("phone", "f6-g5") in letters[phone_game]
    assert any(channel == "post" for channel, _ in letters[postal_game])

    # Closing now is refused, naming the game still in play.
    _log_in(page, server, "director", PASSWORD)
    page.goto(f"{server}/tournaments/{CODE}/close")
    page.click("button[name=close]")
    expect(page.locator("ul.blockers")).to_contain_text(f"партия {postal_game}")

    # 8. The end of play: the daily sweep opens the adjudication; the referee decides it.
    _corrmail("sweep", "--today", END.isoformat())
    _set_today(app, END + dt.timedelta(days=11))
    _log_in(page, server, "referee", "referee's own secret", locale="en")
    page.goto(f"{server}/cases/")
    page.get_by_role("link", name=re.compile(r"#\d+")).first.click()
    page.select_option("select[name=ruling]", "draw")
    page.fill("textarea[name=reasons]", "Equal material, no way through: a draw.")
    page.click("button[name=decide]")
    _flash(page, "Done.")  # the decision's redirect has landed before the page is read again
    _set_today(app, END + dt.timedelta(days=22))
    page.reload()
    page.get_by_role("button", name="Close: the decision is final").click()
    with database.session() as session:
        game = session.get(Game, postal_game)
        assert game is not None and game.result is GameResult.DRAW

    # 9. The organizer closes the tournament and reads the final report.
    _log_in(page, server, "director", PASSWORD, locale="en")
    page.goto(f"{server}/tournaments/{CODE}/close")
    page.click("button[name=close]")
    _flash(page, "final report is queued (002 §4.1.7)")
    expect(page.locator("main")).to_contain_text(CODE)
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert tournament is not None and tournament.status is TournamentStatus.FINISHED
        assert tournament.final_table is not None
        assert session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "final_report")).first() is not None
    response = page.request.get(f"{server}/tournaments/{CODE}/standings.csv")
    assert response.ok and "filename*=UTF-8''" in response.headers["content-disposition"]
