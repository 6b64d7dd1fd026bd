"""PostgreSQL really restarted while the service is busy: crashed (immediate stop, crash recovery
on start) and shut down fast (open transactions rolled back, clients disconnected).

The server is the tests' own (``private_postgres`` in ``conftest.py``): the shared one serves
every test worker at once and must not go down. Under load — web requests in threads (to the
app in this process, and to ``corrmail serve --gunicorn`` with its worker processes), the inbox
taking letters in as an MTA hands them over, ``corrmail ingest``, the mailer sending — the server
is stopped, left down a moment and started again, and nothing in the service is restarted. While
it is down pages answer 503 with ``Retry-After`` (never a 500), the inbox raises
``TemporaryFailure`` (``ingest`` exits 75) so the MTA delivers again later, and the mailer keeps
its letters. When it is back the pools'
pre-ping replaces the dead connections, and every write is either whole or absent: a stored
letter is processed with all its effects or none, a redelivery changes nothing twice, and the
end state is the one a run without the outage reaches.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner, Result
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, generate_federation
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import EX_TEMPFAIL, Inbox, Source, TemporaryFailure
from corrmail.mail.mailer import Mailer
from corrmail.mail.settings import MailSettings, Security, SmtpSettings
from corrmail.mail.transport import SmtpTransport
from corrmail.migrate import head_revision
from corrmail.models import (
    AuditEntry,
    Game,
    InboundMessage,
    InboundStatus,
    Letter,
    OutboxMessage,
    OutboxStatus,
    Participant,
    Player,
    Role,
    Tournament,
)

from .conftest import T0, TEMPLATE, PrivatePostgres, free_port, put_letters

pytestmark = pytest.mark.postgres

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"r" * 16)
#: Long enough for every worker thread to hit the outage; the tests wait on events, not on it.
DOWN_FOR = 1.0
PATIENCE = 90.0  # seconds before a wait counts as a hang


def wait_until(condition: Callable[[], bool], what: Callable[[], str] | str,
               timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what if isinstance(what, str) else what()}"
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def server_up(private_postgres: PrivatePostgres) -> None:
    """Every test starts with the server running, even after one failed while it was down."""
    if not private_postgres.running():
        private_postgres.start()


@pytest.fixture
def db_url(private_postgres: PrivatePostgres) -> str:
    """A migrated, empty database on the private server."""
    return private_postgres.create_database(TEMPLATE)


def outage(server: PrivatePostgres, mode: str) -> None:
    server.stop(mode)
    time.sleep(DOWN_FOR)
    assert not server.running()
    server.start()


# --- the web app -------------------------------------------------------------------------------


@dataclass
class Load:
    """Threads requesting pages until told to stop; every answer is kept."""

    stop: threading.Event = field(default_factory=threading.Event)
    answers: list[tuple[str, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, request: Callable[[int], tuple[str, int]]) -> None:
        number = 0
        try:
            while not self.stop.is_set():
                number += 1
                answer = request(number)
                with self.lock:
                    self.answers.append(answer)
        except BaseException:  # an exception escaping the app is itself the failure
            self.errors.append(traceback.format_exc())

    def state(self) -> str:
        with self.lock:
            return f"answers {Counter(code for _, code in self.answers)}, errors {len(self.errors)}"

    def count(self, status: int) -> int:
        if self.errors:
            raise AssertionError("the load failed:\n" + "\n".join(self.errors))
        with self.lock:
            return sum(1 for _, code in self.answers if code == status)


def outage_under(load: Load, server: PrivatePostgres, mode: str) -> int:
    """Stop the server under ``load``, start it again, wait for the load to be served again;
    returns how many requests were refused meanwhile."""
    before = load.count(503)
    server.stop(mode)
    wait_until(lambda: load.count(503) >= before + 6,
               lambda: f"requests during the {mode} stop: {load.state()}")
    time.sleep(DOWN_FOR)
    server.start()
    refused = load.count(503) - before
    served, written = load.count(200), load.count(302)
    # Pages and writes succeed again, on the same app and the same pool.
    wait_until(lambda: load.count(200) >= served + 10 and load.count(302) >= written + 2,
               lambda: f"requests after the {mode} stop: {load.state()}")
    return refused


def test_pages_answer_503_while_the_server_is_down_and_recover_without_an_app_restart(
    app: Flask, demo_tournament: Tournament, login: Callable[..., FlaskClient],
    private_postgres: PrivatePostgres, database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    code = demo_tournament.code
    # The entries go to a tournament not drawn yet: a drawn round robin takes none (000 §3.14.3).
    entries = make_tournament(players=2, code="ЗАПИСЬ").code
    pages = ["/tournaments/", f"/tournaments/{code}", "/games/1", "/games/7", "/readyz"]
    readers = [login(Role.ORGANIZER) for _ in range(3)]
    writer = login(Role.ORGANIZER)
    entered: dict[str, int] = {}

    def read(client: FlaskClient) -> Callable[[int], tuple[str, int]]:
        def one(number: int) -> tuple[str, int]:
            page = pages[number % len(pages)]
            return page, client.get(page).status_code
        return one

    def add_player(number: int) -> tuple[str, int]:
        # Each entry writes a player, a participant and an audit row in one transaction.
        name = f"Нагрузка {number:04d}"
        status = writer.post(f"/tournaments/{entries}/players/new", data={
            "name": name, "email": f"load{number}@example.org",
            "postal_address": f"{number} Load Street"}).status_code
        entered[name] = status
        return "players/new", status

    load = Load()
    threads = [threading.Thread(target=load.run, args=(read(client),)) for client in readers]
    threads.append(threading.Thread(target=load.run, args=(add_player,)))
    for thread in threads:
        thread.start()
    refused = Counter[str]()
    try:
        wait_until(lambda: load.count(200) >= 10 and load.count(302) >= 2,
                   lambda: f"the load to run: {load.state()}")
        for mode in ("immediate", "fast"):
            refused[mode] = outage_under(load, private_postgres, mode)
    finally:
        load.stop.set()
        for thread in threads:
            thread.join(PATIENCE)
    assert not load.errors, "\n".join(load.errors)
    statuses = Counter(code for _, code in load.answers)
    assert set(statuses) <= {200, 302, 503}, statuses  # never a 500
    assert min(refused.values()) >= 6, refused

    for client in (*readers, writer):
        for page in pages:
            assert client.get(page).status_code == 200, page
    assert writer.get("/readyz").json == {"status": "ok", "revision": head_revision()}

    with database.session() as session:
        players = {name: player_id for player_id, name in session.execute(
            select(Player.id, Player.name).where(Player.name.like("Нагрузка %")))}
        participants = {player_id: participant_id for player_id, participant_id in session.execute(
            select(Participant.player_id, Participant.id).where(
                Participant.player_id.in_(players.values())))}
        audited = Counter(session.scalars(select(AuditEntry.entity_id).where(
            AuditEntry.action == "participant.add")))
    # Every entry answered 302 is stored; an entry answered 503 is stored whole or not at all
    # (whole if the commit went through and only its answer was lost); nothing else is stored.
    assert {name for name, status in entered.items() if status == 302} <= set(players)
    assert all(entered.get(name) in (302, 503) for name in players), players
    assert set(participants) == set(players.values()), "a player without a participant row"
    assert all(audited[participant] == 1 for participant in participants.values()), audited
    assert sum(audited.values()) == len(participants)


def test_the_outage_page_says_try_again_without_touching_the_database(
    app: Flask, login: Callable[..., FlaskClient], private_postgres: PrivatePostgres,
) -> None:
    client = login(Role.ORGANIZER)
    assert client.get("/tournaments/").status_code == 200
    private_postgres.stop("fast")
    try:
        page = client.get("/tournaments/")
        api = client.get("/api/v1/tournaments", headers={"Authorization": "Bearer any"})
        ready = client.get("/readyz")
    finally:
        private_postgres.start()
    assert page.status_code == 503 and page.headers["Retry-After"] == "30"
    text = page.get_data(as_text=True)
    assert "База данных сейчас не отвечает" in text and "<script" not in text
    assert api.status_code == 503 and api.json == {
        "error": "the database is unavailable; try again later"}
    assert ready.status_code == 503 and (ready.json or {}).get("status") == "unavailable"
    assert client.get("/tournaments/").status_code == 200


# --- the inbox -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def federation(private_postgres: PrivatePostgres) -> str:
    """A template database with 15 games of six players (a third already finished)."""
    url = private_postgres.create_database(TEMPLATE)
    database = Database(url)
    generate_federation(database, FederationSpec(players=6, tournaments=1,
                                                 players_per_tournament=6, cycles=1))
    database.dispose()
    return url.rsplit("/", 1)[1]


def mailbag(database: Database, inbox: Inbox) -> list[bytes]:
    """One resignation per game from its white player (to a finished game as well), and letters
    from strangers, which are refused with a reply."""
    with database.session() as session:
        games = [(game.id, game.white_id, game.white.player.email or "")
                 for game in session.scalars(select(Game).order_by(Game.id))]
    bag = []
    for game_id, white_id, email in games:
        bag.append((f"From: {email}\r\nTo: {inbox.signer.reply_address(game_id, white_id)}\r\n"
                    f"Subject: Re: ход\r\nMessage-ID: <resign{game_id}@example.org>\r\n"
                    "Content-Type: text/plain; charset=utf-8\r\n\r\nСдаюсь.\r\n").encode())
    for number in range(6):
        bag.append((f"From: stranger{number}@example.org\r\nTo: turnir@turnir.example\r\n"
                    f"Subject: ход\r\nMessage-ID: <stranger{number}@example.org>\r\n\r\n"
                    "1. c3-d4\r\n").encode())
    return bag


def message_id(raw: bytes) -> str:
    return str(message_from_bytes(raw)["Message-ID"])


@dataclass(frozen=True)
class Effects:
    """What processing one message left behind, keyed so two databases can be compared."""

    status: InboundStatus
    outcome: str
    ledger_letters: int  # letters entered in the game's ledger from this message
    replies: int  # outbox letters answering it (In-Reply-To)


def effects(database: Database) -> tuple[dict[str, Effects], Counter[int | None]]:
    """Per Message-ID the effects of each stored message, and outbox letters per game."""
    with database.session() as session:
        rows = session.scalars(select(InboundMessage)).all()
        letters = Counter(session.scalars(select(Letter.inbound_message_id).where(
            Letter.inbound_message_id.is_not(None))))
        outbox = session.scalars(select(OutboxMessage)).all()
    replies = Counter(str(message_from_bytes(row.raw)["In-Reply-To"]) for row in outbox)
    per_game = Counter(row.game_id for row in outbox)
    return {
        row.message_id or "": Effects(row.status, row.outcome or "", letters[row.id],
                                      replies[row.message_id or ""])
        for row in rows
    }, per_game


CLOCK = lambda: T0  # noqa: E731 - every run must see the same day


@dataclass(frozen=True)
class Reference:
    bag: list[bytes]
    effects: dict[str, Effects]
    games: Counter[int | None]


@pytest.fixture(scope="module")
def reference(private_postgres: PrivatePostgres, federation: str) -> Reference:
    """The letters and what taking them in leaves behind when the server stays up."""
    calm = Database(private_postgres.create_database(federation))
    inbox = Inbox(calm, LetterWriter(MAIL), clock=CLOCK)
    bag = mailbag(calm, inbox)
    for raw in bag:
        inbox.receive(raw, source=Source.SMTP)
    expected, games = effects(calm)
    calm.dispose()
    assert {e.status for e in expected.values()} == {InboundStatus.PROCESSED, InboundStatus.REFUSED}
    assert sum(e.ledger_letters for e in expected.values()) >= 10  # resignations were entered
    return Reference(bag, expected, games)


@pytest.mark.parametrize("mode", ["immediate", "fast"])
def test_letters_arriving_through_a_restart_are_stored_whole_or_redelivered(
    private_postgres: PrivatePostgres, federation: str, reference: Reference, mode: str,
) -> None:
    database = Database(private_postgres.create_database(federation))
    inbox = Inbox(database, LetterWriter(MAIL), clock=CLOCK)
    tempfailed: Counter[str] = Counter()
    blocked = threading.Semaphore(0)  # released by each MTA thread when it is told to retry
    redeliver = threading.Event()
    errors: list[str] = []
    delivered: list[str] = []

    def mta(letters: list[bytes]) -> None:
        try:
            for raw in letters:
                while True:
                    try:
                        inbox.receive(raw, source=Source.SMTP)
                    except TemporaryFailure:
                        tempfailed[message_id(raw)] += 1
                        blocked.release()
                        redeliver.wait(PATIENCE)  # the MTA's queue: deliver again later
                        continue
                    delivered.append(message_id(raw))
                    break
        except BaseException:  # anything but TemporaryFailure is a bug
            errors.append(traceback.format_exc())
        finally:
            blocked.release()  # a lane that ended must not keep the test waiting

    threads = [threading.Thread(target=mta, args=(reference.bag[index::3],)) for index in range(3)]
    for thread in threads:
        thread.start()
    try:
        wait_until(lambda: len(delivered) >= 5, "the first letters")
        private_postgres.stop(mode)
        for _ in threads:  # every MTA thread has been refused once, or has finished
            assert blocked.acquire(timeout=PATIENCE), "an MTA thread hangs on the stopped server"
        time.sleep(DOWN_FOR)
        private_postgres.start()
        # Before any redelivery: whatever is stored is stored whole.
        midway, midway_games = effects(database)
        for mid, seen in midway.items():
            if seen.status is InboundStatus.STORED:  # stored, its processing rolled back
                assert (seen.ledger_letters, seen.replies) == (0, 0), mid
            else:
                assert seen == reference.effects[mid], mid
        for game, count in midway_games.items():
            if game is not None:  # a game's letters: all of its resignation's, or none
                assert count in (0, reference.games[game]), game
    finally:
        redeliver.set()
        for thread in threads:
            thread.join(PATIENCE)
    assert not errors, "\n".join(errors)
    assert tempfailed, "no letter met the outage"
    assert sorted(delivered) == sorted(message_id(raw) for raw in reference.bag)
    final, final_games = effects(database)
    assert final == reference.effects  # each letter stored once, processed once, answered once
    assert final_games == reference.games
    database.dispose()


# --- the mailer ----------------------------------------------------------------------------------


@dataclass
class SlowRelay:
    """A relay that takes a moment per letter, so the outage finds the mailer mid-batch."""

    message_ids: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(0.03)
        self.message_ids.append(str(message_from_bytes(bytes(envelope.content))["Message-ID"]))
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[SlowRelay, int]]:
    recorder = SlowRelay()
    port = free_port()
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    yield recorder, port
    controller.stop()


def test_the_mailer_rides_out_a_crash_and_sends_every_letter(
    db_url: str, private_postgres: PrivatePostgres, relay: tuple[SlowRelay, int],
) -> None:
    recorder, port = relay
    database = Database(db_url)
    ids = put_letters(database, 30)
    mailer = Mailer(database, lambda: SmtpTransport(SmtpSettings("127.0.0.1", port, Security.NONE,
                                                                 timeout=5)),
                    worker="crash", batch_size=5, lease=dt.timedelta(seconds=4))
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    failures: list[BaseException] = []

    def work() -> None:
        try:
            loop.run_until_complete(mailer.run(stop, interval=0.1))
        except BaseException as error:  # run() must survive the outage itself
            failures.append(error)

    def sent() -> int:
        with database.session() as session:
            return session.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.status == OutboxStatus.SENT)) or 0

    worker = threading.Thread(target=work)
    worker.start()
    try:
        wait_until(lambda: len(recorder.message_ids) >= 8, "the mailer to start sending")
        outage(private_postgres, "immediate")
        wait_until(lambda: sent() == len(ids), "every letter to be sent after the restart")
    finally:
        loop.call_soon_threadsafe(stop.set)
        worker.join(PATIENCE)
        loop.close()
    assert not failures, failures
    received = Counter(recorder.message_ids)
    assert set(received) == set(ids), "every letter reached the relay"
    # The one window SMTP cannot close: the relay accepted a letter and the database died before
    # the mailer recorded it; that letter goes again, with its same Message-ID (mailer docstring).
    assert sum(received.values()) - len(ids) <= 1, received.most_common(3)
    with database.session() as session:
        rows = session.scalars(select(OutboxMessage)).all()
    assert {row.status for row in rows} == {OutboxStatus.SENT}
    assert all(row.lease_owner is None for row in rows)
    database.dispose()


# --- the production processes: gunicorn and `corrmail ingest` ----------------------------------


STRANGER = (b"From: stranger@example.org\r\nTo: turnir@turnir.example\r\nSubject: hello\r\n"
            b"Message-ID: <crash-ingest@example.org>\r\n\r\n1. c3-d4\r\n")


def test_gunicorn_and_ingest_ride_out_a_crash_without_being_restarted(
    db_url: str, private_postgres: PrivatePostgres, tmp_path: Path,
) -> None:
    from corrmail.demo.tournament import DEMO_PASSWORD, load_demo

    database = Database(db_url)
    with database.transaction() as session:
        code = load_demo(session).code
    database.dispose()
    env = {**os.environ, "CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "restart-secret-0123456789-abcdefghij",
           "CORRMAIL_BASE_URL": "https://turnir.example",
           "CORRMAIL_WEB_WORKERS": "2", "CORRMAIL_WEB_THREADS": "2",
           "CORRMAIL_MAIL_DOMAIN": "turnir.example", "CORRMAIL_LOG_FORMAT": "json"}
    command = str(Path(sys.executable).parent / "corrmail")

    def ingest() -> Result:
        # In this process, to save a start-up: the command is the same as the MTA's pipe runs.
        return CliRunner().invoke(main, ["ingest", "--envelope-sender", "stranger@example.org"],
                                  input=STRANGER, env=env)

    port = free_port()
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as stderr:
        server = subprocess.Popen([command, "serve", "--gunicorn", "--port", str(port)],
                                  env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    base = f"http://127.0.0.1:{port}"
    load = Load()
    threads: list[threading.Thread] = []
    clients: list[httpx.Client] = []
    try:
        wait_until(lambda: _answers(f"{base}/readyz"), "gunicorn to come up")
        clients += [httpx.Client(base_url=base, timeout=PATIENCE) for _ in range(3)]
        for client in clients:
            form = client.get("/login").text
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)
            assert token, form
            logged_in = client.post("/login", data={
                "login": "director", "password": DEMO_PASSWORD, "csrf_token": token.group(1)})
            assert logged_in.status_code == 302, logged_in.text
        pages = ["/tournaments/", f"/tournaments/{code}", "/games/1", "/readyz"]

        def read(client: httpx.Client) -> Callable[[int], tuple[str, int]]:
            def one(number: int) -> tuple[str, int]:
                page = pages[number % len(pages)]
                return page, client.get(page).status_code
            return one

        threads = [threading.Thread(target=load.run, args=(read(client),)) for client in clients]
        for thread in threads:
            thread.start()
        wait_until(lambda: load.count(200) >= 10, lambda: f"the load to run: {load.state()}")
        private_postgres.stop("immediate")
        wait_until(lambda: load.count(503) >= 6, lambda: f"503 while down: {load.state()}")
        refused = ingest()  # the MTA hands a letter over while the database is gone
        private_postgres.start()
        served = load.count(200)
        wait_until(lambda: load.count(200) >= served + 10, lambda: f"pages again: {load.state()}")
        stored = ingest()  # the MTA's retry
    finally:
        load.stop.set()
        for thread in threads:
            thread.join(PATIENCE)
        for client in clients:
            client.close()
        server.send_signal(signal.SIGTERM)
        assert server.wait(PATIENCE) == 0
    assert not load.errors, "\n".join(load.errors)
    statuses = Counter(status for _, status in load.answers)
    assert set(statuses) <= {200, 503}, statuses  # never a 500, from gunicorn's workers either
    access = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert not [e for e in access if e.get("status", 0) >= 500 and e.get("status") != 503]
    assert refused.exit_code == EX_TEMPFAIL, refused.output
    assert "temporary failure" in refused.output
    assert stored.exit_code == 0, stored.output
    database = Database(db_url)
    with database.session() as session:
        (row,) = session.scalars(select(InboundMessage).where(
            InboundMessage.message_id == "<crash-ingest@example.org>")).all()
        replies = [r for r in session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "refusal"))]
    assert row.status is InboundStatus.REFUSED and row.raw == STRANGER
    assert len(replies) == 1
    database.dispose()


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.TransportError:
        return False
