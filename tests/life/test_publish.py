"""Publishing: completeness named exactly, the round robin drawn, start sheets with one reply
address per game (002 §4.3.2), postal sheets listed for the steward; idempotent; resend."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from email import message_from_bytes, policy
from email.utils import format_datetime, make_msgid

from click.testing import Result
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.games.view import GameView
from corrmail.models import (
    Game,
    GameState,
    Letter,
    OutboxMessage,
    Participant,
    Tournament,
    TournamentStatus,
)
from timekeeping import Side, effective_start

CODE = "ЗКР-2026"  # the draft fixture's tournament
MOSCOW = dt.timezone(dt.timedelta(hours=3))


def _outbox(database: Database, kind: str) -> list[OutboxMessage]:
    with database.session() as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == kind)
                                    .order_by(OutboxMessage.id)))


def _tournament(database: Database) -> Tournament:
    with database.session() as session:
        found = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert found is not None
        found.games, found.participants  # noqa: B018
        session.expunge_all()
        return found


def test_incomplete_tournament_is_refused_naming_what_is_missing(
    corrmail: Callable[..., Result], draft: int, database: Database
) -> None:
    refused = corrmail("tournament", "publish", CODE, "--today", "2026-08-25")
    assert refused.exit_code == 1
    assert f"{CODE} not published; missing:" in refused.output
    assert "officials: no referee appointed (002 §4.1.6)" in refused.output
    tournament = _tournament(database)
    assert tournament.status is TournamentStatus.DRAFT and not tournament.games
    assert not _outbox(database, "start_sheet")


def test_other_gaps_are_named(corrmail: Callable[..., Result], draft: int, database: Database) -> None:
    with database.transaction() as session:
        tournament = session.get(Tournament, draft)
        assert tournament is not None
        tournament.end_date = tournament.start_date
        tournament.time_control_days = 0
        orlov = next(p for p in tournament.participants if p.start_number == 3)
        orlov.player.postal_address = None
    refused = corrmail("tournament", "publish", CODE)
    assert refused.exit_code == 1
    for message in ("dates: the end of play 01.09.2026 is not after the start 01.09.2026",
                    "time control: 0 days per 10 moves is not a control (002 §4.3.1)",
                    "postal address: none for Орлов Олег, who plays by post",
                    "officials: no referee appointed"):
        assert message in refused.output, refused.output


def test_publish_pairs_starts_and_sends_sheets_once(
    corrmail: Callable[..., Result], draft: int, database: Database
) -> None:
    assert corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1").exit_code == 0
    published = corrmail("tournament", "publish", CODE, "--today", "2026-08-25")
    assert published.exit_code == 0, published.output
    assert f"{CODE}: 3 games created" in published.output
    assert f"{CODE}: running" in published.output
    assert f"{CODE}: 2 start sheet(s) e-mailed" in published.output
    assert "for the steward: №3 Орлов Олег (to post)" in published.output
    tournament = _tournament(database)
    assert tournament.status is TournamentStatus.RUNNING and len(tournament.games) == 3
    sheets = _outbox(database, "start_sheet")
    assert sorted(sheet.recipient for sheet in sheets) == ["petrov@mail.example", "sedov@mail.example"]
    petrov = next(p for p in tournament.participants if p.start_number == 1)
    own = [g for g in tournament.games if petrov.id in (g.white_id, g.black_id)]
    sheet = next(s for s in sheets if s.recipient == "petrov@mail.example")
    parsed = message_from_bytes(sheet.raw, policy=policy.default)
    for game in own:
        # Each game's own signed reply address is on the sheet.
        assert f"turnir+g{game.id}-p{petrov.id}-" in sheet.body_text
    assert "+g" in str(parsed["Reply-To"])
    with database.session() as session:
        assert session.get(Participant, petrov.id).start_sheet_sent_on == dt.date(2026, 8, 25)  # type: ignore[union-attr]

    again = corrmail("tournament", "publish", CODE, "--today", "2026-08-26")
    assert again.exit_code == 0 and f"{CODE}: 0 start sheet(s) e-mailed" in again.output
    assert "games created" not in again.output
    assert len(_outbox(database, "start_sheet")) == 2

    resent = corrmail("tournament", "publish", CODE, "--resend", "1", "--today", "2026-08-27")
    assert resent.exit_code == 0 and "1 start sheet(s) e-mailed" in resent.output
    assert [s.recipient for s in _outbox(database, "start_sheet")][-1] == "petrov@mail.example"
    unknown = corrmail("tournament", "publish", CODE, "--resend", "nobody")
    assert unknown.exit_code == 1 and "'nobody' plays no game" in unknown.output


def test_a_reply_to_the_sheet_is_whites_first_move(
    corrmail: Callable[..., Result], draft: int, database: Database
) -> None:
    corrmail("tournament", "officials", CODE, "--referee", "ref")
    assert corrmail("tournament", "publish", CODE, "--today", "2026-08-25").exit_code == 0
    with database.session() as session:
        tournament = session.get(Tournament, draft)
        assert tournament is not None
        # Whoever of the e-mail players has a White game first: his sheet answers to it.
        white_game = next(g for g in tournament.games if g.white.player.email)
        game_id, white_id, email = white_game.id, white_game.white_id, white_game.white.player.email
    sheet = next(s for s in _outbox(database, "start_sheet") if s.recipient == email)
    reply_to = str(message_from_bytes(sheet.raw, policy=policy.default)["Reply-To"])
    assert f"+g{game_id}-p{white_id}-" in reply_to
    when = dt.datetime(2026, 9, 1, 10, 0, tzinfo=MOSCOW)
    raw = "\r\n".join([
        f"From: {email}", f"To: {reply_to}", f"Subject: Re: {sheet.subject}",
        f"Date: {format_datetime(when)}", f"Message-ID: {make_msgid(domain='mail.example')}",
        f"In-Reply-To: <{sheet.message_id.strip('<>')}>", "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "",
        "1. c3-d4", "", "> Стартовый лист турнира", ""]).encode()
    ingested = corrmail("ingest", "--received-at", when.isoformat(), input=raw)
    assert ingested.exit_code == 0, ingested.output
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        letters = list(session.scalars(select(Letter).where(Letter.game_id == game.id)))
        assert [(letter.sender_id, letter.moves_text) for letter in letters] == [
            (white_id, "c3-d4")]
        assert game.state is GameState.IN_PLAY
        # 002 §4.3.2: started on the start date, so the first move costs White nothing.
        chart = GameView(game).chart()
        assert chart.totals.white == 0


def test_postal_sheet_is_printed_and_its_posting_recorded(
    corrmail: Callable[..., Result], draft: int, database: Database, app  # type: ignore[no-untyped-def]
) -> None:
    corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1")
    corrmail("tournament", "publish", CODE, "--today", "2026-08-25")
    steward = app.test_client()
    assert steward.post("/login", data={"login": "stew1", "password": "correct horse battery"}).status_code == 302
    listing = steward.get(f"/tournaments/{CODE}/start-sheets/mailing")
    assert listing.status_code == 200
    with database.session() as session:
        orlov = session.scalar(select(Participant).where(Participant.start_number == 3))
        assert orlov is not None
        orlov_id = orlov.id
    # The steward's dashboard names the sheets he has still to post and leads to their list.
    dashboard = steward.get(f"/dashboard/{CODE}").get_data(as_text=True)
    assert "Стартовые листы ещё не отправлены по почте или не зачитаны по телефону (002 §4.3.2)" in dashboard
    assert "Орлов" in dashboard.split("sheets-to-post", 1)[1].split("</p>", 1)[0]
    assert '/start-sheets/mailing">Распечатать и записать день отправки</a>' in dashboard
    page = steward.get(f"/tournaments/{CODE}/start-sheets/{orlov_id}/print")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "size: A4" in text
    assert "620000, Екатеринбург, ул. Ленина, 1" in text and "Петров Иван" in text
    posted = steward.post(f"/tournaments/{CODE}/start-sheets/{orlov_id}/posted",
                          data={"posted_on": "2026-08-26"})
    assert posted.status_code == 302
    with database.session() as session:
        assert session.get(Participant, orlov_id).start_sheet_sent_on == dt.date(2026, 8, 26)  # type: ignore[union-attr]
    after = steward.get(f"/dashboard/{CODE}").get_data(as_text=True)
    assert "Орлов" not in after.split("sheets-to-post", 1)[-1].split("</p>", 1)[0]
    by_cli = corrmail("tournament", "sheet-posted", CODE, "3", "--on", "2026-08-27")
    assert by_cli.exit_code == 0 and "posted 27.08.2026" in by_cli.output
    outsider = app.test_client()
    outsider.post("/login", data={"login": "stew2", "password": "correct horse battery"})
    assert outsider.get(f"/tournaments/{CODE}/start-sheets/{orlov_id}/print").status_code == 403


def test_a_sheet_posted_in_the_future_is_refused_and_changes_nothing(
    corrmail: Callable[..., Result], draft: int, database: Database, app  # type: ignore[no-untyped-def]
) -> None:
    """The steward mistypes the month: the day still to come is refused with the rule, the
    day recorded before stays."""
    import dataclasses

    corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1")
    corrmail("tournament", "publish", CODE, "--today", "2026-08-25")
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(app.config["CORRMAIL_SETTINGS"],
                                                          today=dt.date(2026, 8, 27))
    steward = app.test_client()
    assert steward.post("/login", data={"login": "stew1", "password": "correct horse battery"}).status_code == 302
    with database.session() as session:
        orlov = session.scalar(select(Participant).where(Participant.start_number == 3))
        assert orlov is not None
        orlov_id = orlov.id
    url = f"/tournaments/{CODE}/start-sheets/{orlov_id}/posted"
    assert steward.post(url, data={"posted_on": "2026-08-26"}).status_code == 302
    refused = steward.post(url, data={"posted_on": "2026-09-26"}, follow_redirects=True)
    page = refused.get_data(as_text=True)
    assert "дата отправки 26.09.2026 позже сегодняшней (27.08.2026)" in page, page
    assert "(002 §4.3.2)" in page
    with database.session() as session:
        assert session.get(Participant, orlov_id).start_sheet_sent_on == dt.date(2026, 8, 26)  # type: ignore[union-attr]
    after = steward.get(f"/dashboard/{CODE}").get_data(as_text=True)
    assert "Орлов" not in after.split("sheets-to-post", 1)[-1].split("</p>", 1)[0]
    # One day of grace, for a steward already in tomorrow east of the tournament's time zone;
    # the day after that is a slip again.
    assert "позже сегодняшней" in steward.post(
        url, data={"posted_on": "2026-08-29"}, follow_redirects=True).get_data(as_text=True)
    assert steward.post(url, data={"posted_on": "2026-08-28"}).status_code == 302
    with database.session() as session:
        assert session.get(Participant, orlov_id).start_sheet_sent_on == dt.date(2026, 8, 28)  # type: ignore[union-attr]


def test_a_swiss_published_before_its_first_round_says_the_games_come_by_round(
    organizer_client: FlaskClient, draft: int, database: Database,
    corrmail: Callable[..., Result],
) -> None:
    """A Swiss starts without games: the start sheet says each round's games come in a round
    sheet, instead of an empty «Ваши партии:» list (002 §4.3.2, 004)."""
    from corrmail.models import TournamentSystem

    with database.transaction() as session:
        tournament = session.get(Tournament, draft)
        assert tournament is not None
        tournament.system = TournamentSystem.SWISS
    corrmail("tournament", "officials", CODE, "--referee", "ref", "--steward", "stew1")
    assert organizer_client.post(f"/tournaments/{CODE}/publish").status_code == 302
    sheets = _outbox(database, "start_sheet")
    assert sheets and not _tournament(database).games
    for sheet in sheets:
        assert "Партий пока нет: партии каждого тура придут отдельным листом тура" in sheet.body_text
    with database.session() as session:
        postal = session.scalar(select(Participant).where(Participant.player.has(email=None)))
        assert postal is not None
        printed = organizer_client.get(f"/tournaments/{CODE}/start-sheets/{postal.id}/print")
    assert "Партий пока нет" in printed.get_data(as_text=True)


def test_publish_button(organizer_client: FlaskClient, draft: int, database: Database,
                        corrmail: Callable[..., Result]) -> None:
    page = organizer_client.get(f"/tournaments/{CODE}/publish")
    assert page.status_code == 200
    assert "судейство: не назначен судья (002 §4.1.6)" in page.get_data(as_text=True)  # Russian first
    refused = organizer_client.post(f"/tournaments/{CODE}/publish")
    assert refused.status_code == 422
    assert _tournament(database).status is TournamentStatus.DRAFT
    corrmail("tournament", "officials", CODE, "--referee", "ref")
    done = organizer_client.post(f"/tournaments/{CODE}/publish")
    assert done.status_code == 302
    assert _tournament(database).status is TournamentStatus.RUNNING
    assert len(_outbox(database, "start_sheet")) == 2
    # No mail server in the tests: the page says the sheets wait in the outbox, not «e-mailed»,
    # and every official's page says no letter leaves the server.
    shown = organizer_client.get(done.location).get_data(as_text=True)
    assert ("стартовых листов для эл. почты — 2, но они лежат в исходящих (почтовый сервер не "
            "настроен)") in shown
    assert "отправлено по эл. почте" not in shown
    assert ("Почтовый сервер не настроен (CORRMAIL_SMTP_HOST): письма с сервера не уходят, все они "
            "ждут здесь неотправленными.") in shown
    assert '<a href="/admin/outbox">Просмотреть ждущие письма</a>' in shown
    # The list of sheets does not call them sent either: each e-mail sheet waits in the outbox.
    assert shown.count(", ждёт неотправленным в исходящих") == 2


def test_outbox_list(corrmail: Callable[..., Result], draft: int) -> None:
    corrmail("tournament", "officials", CODE, "--referee", "ref")
    corrmail("tournament", "publish", CODE, "--today", "2026-08-25")
    listed = corrmail("outbox", "list", "--tournament", CODE, "--status", "pending", "--format", "json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)
    assert {row["kind"] for row in rows} == {"start_sheet"} and len(rows) == 2
    assert all(row["status"] == "pending" for row in rows)
    text = corrmail("outbox", "list", "--kind", "start_sheet")
    assert "petrov@mail.example" in text.output
    assert corrmail("outbox", "list", "--status", "sent", "--format", "json").output.strip() == "[]"
    bad = corrmail("outbox", "list", "--status", "lost")
    assert bad.exit_code == 2 and "'lost' is not one of" in bad.output


def test_a_sheet_e_mailed_after_the_start_date_starts_play_the_day_after(
    corrmail: Callable[..., Result], draft: int, database: Database
) -> None:
    """002 §4.3.2: a player who gets his start sheet after the start date starts the next day.
    An e-mail arrives the day it is sent: published on 03.09 for a start on 01.09, the e-mail
    players' sheets are received on 03.09 and their clocks count from 04.09; the postal player's
    receipt waits for his card."""
    assert corrmail("tournament", "officials", CODE, "--referee", "ref").exit_code == 0
    late = dt.date(2026, 9, 3)
    assert corrmail("tournament", "publish", CODE, "--today", late.isoformat()).exit_code == 0
    with database.session() as session:
        tournament = session.get(Tournament, draft)
        assert tournament is not None and tournament.start_date == dt.date(2026, 9, 1)
        received = {p.start_number: p.start_sheet_received for p in tournament.participants}
        assert received == {1: late, 2: late, 3: None}
        white_game = next(g for g in tournament.games if g.white.player.email)
        assert effective_start(GameView(white_game).ledger(), Side.WHITE) == late + dt.timedelta(days=1)
