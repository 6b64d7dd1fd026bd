"""The attack on the running service, replayed: each finding's attack, and that it no longer
gets through (on SQLite and PostgreSQL where a database is involved). The postcard race is in
tests/service/test_postcard_race.py, the envelope sender and mail loops in
tests/mail/test_envelope_sender.py, the API-token page in tests/ops/test_token_page.py."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.app import create_app
from corrmail.cli import main
from corrmail.config import Settings, SettingsError
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.letters.outbox import enqueue
from corrmail.mail.tokens import TokenSigner
from corrmail.models import (
    Game,
    GameState,
    OutboxMessage,
    Player,
    Role,
    Tournament,
    TournamentOfficial,
    User,
)
from corrmail.ops.origin import forwarded_client
from corrmail.ops.production import EXAMPLE_SECRETS, MIN_SECRET_BYTES, check_production_settings
from corrmail.ops.security import login_throttle
from corrmail.paths import CHECKOUT_DIR

PASSWORD = "correct horse battery"
GOOD_SECRET = "k" * MIN_SECRET_BYTES
SIGNER = TokenSigner(b"t" * 32, "turnir.example")


def _user_id(database: Database, login: str) -> int:
    with database.session() as session:
        user_id = session.scalar(select(User.id).where(User.login == login))
    assert user_id is not None
    return user_id


def _serve(database: Database, login: str, tournament_id: int, role: Role = Role.REFEREE) -> None:
    with database.transaction() as session:
        session.add(TournamentOfficial(tournament_id=tournament_id,
                                       user_id=_user_id(database, login), role=role))


def _letter(database: Database, *, kind: str, tournament_id: int | None, body: str,
            reply_to: str | None = None) -> int:
    message = EmailMessage()
    message["From"] = "turnir@turnir.example"
    message["To"] = "player@example.org"
    message["Subject"] = f"{kind} letter"
    message["Message-ID"] = f"<{kind}-{tournament_id}-{len(body)}@turnir.example>"
    if reply_to:
        message["Reply-To"] = reply_to
    message.set_content(body)
    with database.transaction() as session:
        return enqueue(session, message, kind=kind, tournament_id=tournament_id).id


# --- 1. the outbox viewer --------------------------------------------------------------------


def _letters_of_two_tournaments(database: Database, own: int, other: int) -> tuple[int, int, int, str]:
    """A move letter of ``own`` with a player's reply address, one of ``other`` and one of no
    tournament; their ids and the reply address's signature."""
    reply = SIGNER.reply_address(7, 8)
    signature = reply.split("-")[-1].split("@")[0]
    mine = _letter(database, kind="move", tournament_id=own, body=f"Reply to: {reply}",
                   reply_to=reply)
    theirs = _letter(database, kind="move", tournament_id=other, body="other tournament")
    loose = _letter(database, kind="refusal", tournament_id=None, body="no tournament")
    return mine, theirs, loose, signature


def test_a_referee_cannot_read_a_reset_letter_nor_other_tournaments_letters(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    make_user: Callable[..., User], database: Database,
) -> None:
    own, other = make_tournament(players=2), make_tournament(players=2)
    referee = login(Role.REFEREE, login="referee")
    _serve(database, "referee", own.id)
    director = login(Role.ORGANIZER, login="director")
    mine, theirs, loose, signature = _letters_of_two_tournaments(database, own.id, other.id)

    # The attack: ask a reset for the director, open the letter, set the password.
    assert referee.post("/password/forgot", data={"login": "director"}).status_code == 302
    with database.session() as session:
        reset = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "password_reset")).one()
        token = reset.body_text.rsplit("#", 1)[1].split()[0]
    listing = referee.get("/admin/outbox").get_data(as_text=True)
    assert f"/admin/outbox/{reset.id}\"" not in listing and token not in listing
    assert referee.get(f"/admin/outbox/{reset.id}").status_code == 404
    assert director.get(f"/admin/outbox/{reset.id}").status_code == 404  # nobody reads it
    assert token not in director.get("/admin/outbox").get_data(as_text=True)

    # Only the letters of the tournaments the referee serves.
    assert f"/admin/outbox/{mine}\"" in listing
    assert f"/admin/outbox/{theirs}\"" not in listing and f"/admin/outbox/{loose}\"" not in listing
    assert referee.get(f"/admin/outbox/{theirs}").status_code == 404
    assert referee.get(f"/admin/outbox/{loose}").status_code == 404
    for message_id in (theirs, loose):
        assert director.get(f"/admin/outbox/{message_id}").status_code == 200

    # The reply address (a credential for the player) only the organizer sees.
    masked = referee.get(f"/admin/outbox/{mine}").get_data(as_text=True)
    assert signature not in masked and "g7-p8-…" in masked
    assert signature in director.get(f"/admin/outbox/{mine}").get_data(as_text=True)


# --- 3. links from the base URL, nginx's default server -------------------------------------


def test_a_reset_link_ignores_the_host_header(app: Flask, settings: Settings,
                                              make_user: Callable[..., User],
                                              database: Database) -> None:
    configured = create_app(replace(settings, base_url="https://turnir.example.org"))
    make_user("director", Role.ORGANIZER)
    answer = configured.test_client().post("/password/forgot", data={"login": "director"},
                                           headers={"Host": "evil.example"})
    assert answer.status_code == 302
    with database.session() as session:
        body = session.scalars(select(OutboxMessage.body_text)).one()
    assert "https://turnir.example.org/password/reset#" in body
    assert "evil.example" not in body


def test_gunicorn_refuses_to_start_without_a_base_url_or_with_an_example_secret() -> None:
    runner = CliRunner()
    for env, named in (
        ({"CORRMAIL_SECRET_KEY": GOOD_SECRET}, "CORRMAIL_BASE_URL"),
        ({"CORRMAIL_SECRET_KEY": "change-me", "CORRMAIL_BASE_URL": "https://t.example"},
         "CORRMAIL_SECRET_KEY"),
        ({"CORRMAIL_SECRET_KEY": "short-key-0123", "CORRMAIL_BASE_URL": "https://t.example"},
         "CORRMAIL_SECRET_KEY"),
        ({"CORRMAIL_SECRET_KEY": GOOD_SECRET, "CORRMAIL_MAIL_SECRET": "change-me-too",
          "CORRMAIL_BASE_URL": "https://t.example"}, "CORRMAIL_MAIL_SECRET"),
    ):
        result = runner.invoke(main, ["serve", "--gunicorn"],
                               env={"CORRMAIL_MAIL_SECRET": "", "CORRMAIL_BASE_URL": "", **env})
        assert result.exit_code != 0, env
        assert "not starting" in result.output and named in result.output, result.output
        assert "change-me" not in result.output  # a refused secret is not echoed


def test_the_shipped_nginx_file_drops_unknown_hosts() -> None:
    conf = (CHECKOUT_DIR / "deploy" / "nginx" / "corrmail.conf").read_text()
    defaults = re.findall(r"listen [^;]*default_server[^;]*;", conf)
    assert len(defaults) >= 4, defaults  # 80 and 443, IPv4 and IPv6
    assert "return 444;" in conf
    assert "https://$host" not in conf  # a redirect never follows the Host header


# --- 4. example and short secrets -----------------------------------------------------------


def _env_example() -> dict[str, str]:
    lines = (CHECKOUT_DIR / "deploy" / "corrmail.env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_every_secret_of_the_shipped_example_is_refused() -> None:
    example = _env_example()
    for variable in ("CORRMAIL_SECRET_KEY", "CORRMAIL_MAIL_SECRET"):
        assert example[variable].lower() in EXAMPLE_SECRETS, variable
        env = {"CORRMAIL_SECRET_KEY": GOOD_SECRET, "CORRMAIL_BASE_URL": "https://t.example",
               variable: example[variable]}
        with pytest.raises(SettingsError) as refused:
            check_production_settings(env)
        assert refused.value.variable == variable
    assert example.get("CORRMAIL_BASE_URL", "").startswith("https://")
    assert example.get("CORRMAIL_TRUSTED_PROXIES") == "1"
    with pytest.raises(SettingsError, match="shorter than 32 bytes"):
        check_production_settings({"CORRMAIL_SECRET_KEY": "x" * 31,
                                   "CORRMAIL_BASE_URL": "https://t.example"})
    check_production_settings({"CORRMAIL_SECRET_KEY": GOOD_SECRET,
                               "CORRMAIL_BASE_URL": "https://t.example"})


# --- 5. the tournament's PDN ----------------------------------------------------------------


def test_the_tournament_pdn_discloses_no_game_to_whoever_may_not_see_it(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database,
) -> None:
    with database.transaction() as session:
        games = session.scalars(select(Game).order_by(Game.id)).all()
        running = next(game for game in games if game.state is GameState.IN_PLAY)
        player = session.get(Player, running.white.player_id)
        assert player is not None
        for user in session.scalars(select(User).where(User.player_id == player.id)):
            user.player_id = None  # the demo's own login for this player steps aside
        own_games = {game.id for game in games
                     if player.id in (game.white.player_id, game.black.player_id)}
        total = len(games)
    outsider = login(Role.PLAYER)  # a player of no game here
    assert "[White " not in outsider.get(f"/tournaments/{DEMO_CODE}/games.pdn").get_data(as_text=True)
    own = login(Role.PLAYER, player=player).get(f"/tournaments/{DEMO_CODE}/games.pdn")
    assert own.get_data(as_text=True).count("[White ") == len(own_games) < total
    director = login(Role.ORGANIZER).get(f"/tournaments/{DEMO_CODE}/games.pdn")
    assert director.get_data(as_text=True).count("[White ") == total


# --- 6. the client's address, back-off ------------------------------------------------------


def test_only_the_trusted_proxys_entry_of_x_forwarded_for_counts() -> None:
    # nginx appends the address it saw; what the client wrote before it is ignored.
    assert forwarded_client("127.0.0.1", "203.0.113.5, 198.51.100.9", 1) == "198.51.100.9"
    assert forwarded_client("127.0.0.1", "198.51.100.9", 1) == "198.51.100.9"
    assert forwarded_client("127.0.0.1", "203.0.113.5, 198.51.100.9", 0) == "127.0.0.1"
    assert forwarded_client("127.0.0.1", None, 1) == "127.0.0.1"
    assert forwarded_client("127.0.0.1", "a, b, c", 2) == "b"


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime.now(dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


def test_an_attacker_behind_the_proxy_does_not_lock_out_the_director(
    settings: Settings, make_user: Callable[..., User],
) -> None:
    app = create_app(replace(settings, trusted_proxies=1))
    make_user("director", Role.ORGANIZER)
    attacker = app.test_client()
    for attempt in range(10):
        # Whatever the attacker writes into the header, nginx appends his real address.
        forged = {"X-Forwarded-For": f"203.0.113.5, 198.51.100.{66 + attempt % 2}"}
        answer = attacker.post("/login", data={"login": "director", "password": f"guess{attempt}"},
                               headers=forged)
        assert answer.status_code in (401, 429)
    assert attacker.post("/login", data={"login": "director", "password": PASSWORD},
                         headers={"X-Forwarded-For": "198.51.100.66"}).status_code == 429
    director = app.test_client().post("/login", data={"login": "director", "password": PASSWORD},
                                      headers={"X-Forwarded-For": "203.0.113.5"})
    assert director.status_code == 302


def test_failures_from_many_addresses_slow_the_login_down_but_never_deny_it(
    app: Flask, make_user: Callable[..., User],
) -> None:
    make_user("director", Role.ORGANIZER)
    clock = Clock()
    with app.app_context():
        login_throttle().clock = clock
    for number in range(40):
        app.test_client().post("/login", data={"login": "director", "password": "x"},
                               environ_base={"REMOTE_ADDR": f"10.0.{number}.1"})
        clock.now += dt.timedelta(seconds=1)
    director = app.test_client()
    right = {"login": "director", "password": PASSWORD}
    assert director.post("/login", data=right).status_code == 429  # backing off
    clock.now += dt.timedelta(minutes=1)
    assert director.post("/login", data=right).status_code == 302  # after at most a minute


# --- 7. sessions end with logout and a new password -----------------------------------------


def _copy_cookies(source: FlaskClient, target: FlaskClient, *names: str) -> None:
    for name in names:
        cookie = source.get_cookie(name)
        assert cookie is not None, name
        target.set_cookie(name, cookie.value)


def test_a_copied_session_cookie_dies_with_logout(app: Flask, login: Callable[..., FlaskClient],
                                                  database: Database) -> None:
    victim = login(Role.ORGANIZER, login="director")
    thief = app.test_client()
    _copy_cookies(victim, thief, "session")
    assert thief.get("/admin/outbox").status_code == 200  # the copy works while it lasts
    victim.post("/logout")
    assert thief.get("/admin/outbox").status_code == 302
    assert victim.get("/admin/outbox").status_code == 302


def test_a_copied_remember_cookie_dies_with_a_new_password(
    app: Flask, make_user: Callable[..., User], database: Database,
) -> None:
    make_user("director", Role.ORGANIZER)
    victim = app.test_client()
    assert victim.post("/login", data={"login": "director", "password": PASSWORD,
                                       "remember": "y"}).status_code == 302
    thief = app.test_client()
    _copy_cookies(victim, thief, "remember_token")
    assert thief.get("/admin/outbox").status_code == 200
    with database.transaction() as session:
        user = session.scalar(select(User).where(User.login == "director"))
        assert user is not None
        user.set_password("a brand new passphrase")
    fresh = app.test_client()
    _copy_cookies(victim, fresh, "remember_token")
    assert fresh.get("/admin/outbox").status_code == 302
    assert victim.get("/admin/outbox").status_code == 302


# --- 9. reset letters per account and address -----------------------------------------------


def test_twenty_five_reset_requests_send_three_letters(
    client: FlaskClient, make_user: Callable[..., User], database: Database,
) -> None:
    make_user("director", Role.ORGANIZER)
    for number in range(25):
        wanted = "director" if number % 2 else "director@example.org"
        answer = client.post("/password/forgot", data={"login": wanted},
                             environ_base={"REMOTE_ADDR": f"192.0.2.{number}"})
        assert answer.status_code == 302  # the same answer every time
    with database.session() as session:
        sent = session.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.kind == "password_reset"))
    assert sent == 3


# --- 10. timing, CSV, import ----------------------------------------------------------------


def test_an_unknown_login_costs_a_password_hash_like_a_known_one(
    client: FlaskClient, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch,
) -> None:
    import corrmail.models.people as people

    make_user("director", Role.ORGANIZER)
    hashed: list[str] = []
    real = people.check_password_hash

    def counting(stored: str, password: str) -> bool:
        hashed.append(password)
        return real(stored, password)

    monkeypatch.setattr(people, "check_password_hash", counting)
    client.post("/login", data={"login": "director", "password": "wrong one"})
    client.post("/login", data={"login": "nobody-here", "password": "wrong two"})
    assert hashed == ["wrong one", "wrong two"]


def test_standings_csv_neutralises_formulas_in_every_cell(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database,
) -> None:
    nasty = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3",
             "@SUM(A1)", "\tTAB", "\rCR"]
    with database.transaction() as session:
        players = session.scalars(select(Player).order_by(Player.id)).all()
        for player, name in zip(players, nasty, strict=False):
            player.name = name
        players[-1].club = "=1+1"
    body = login(Role.ORGANIZER).get(f"/tournaments/{DEMO_CODE}/standings.csv").data
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    cells = [cell for row in rows for cell in row]
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells), cells
    assert all(not cell.startswith("-") or re.fullmatch(r"-[\d.,]+", cell) or cell == "-"
               for cell in cells), cells
    assert "'=HYPERLINK(\"http://evil.example\",\"x\")" in cells and "'=1+1" in cells


def test_a_huge_player_import_is_refused_before_anything_is_written(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database, tmp_path: Path,
) -> None:
    from corrmail.tournaments.player_import import MAX_ROWS

    tournament = make_tournament(players=0)
    lines = ["name;email;address"] + [f"P{n};p{n}@example.org;{n} Street" for n in range(MAX_ROWS + 1)]
    director = login(Role.ORGANIZER)
    answer = director.post(f"/tournaments/{tournament.code}/players/import",
                           data={"file": (io.BytesIO("\n".join(lines).encode()), "big.csv")},
                           content_type="multipart/form-data")
    assert answer.status_code == 422
    assert str(MAX_ROWS) in answer.get_data(as_text=True)
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Player)) == 0


def test_a_player_import_goes_in_by_chunks_and_reports_progress(
    make_tournament: Callable[..., Tournament], database: Database, app: Flask,
) -> None:
    from corrmail.models import TournamentChannel
    from corrmail.tournaments.player_import import read_player_csv
    from corrmail.tournaments.registration import IMPORT_CHUNK, import_participants

    tournament = make_tournament(players=0, channel=TournamentChannel.EMAIL)
    total = IMPORT_CHUNK * 2 + 7
    data = "\n".join(["name;email"] + [f"P{n};p{n}@example.org" for n in range(total)]).encode()
    seen: list[tuple[int, int]] = []
    with app.test_request_context(), database.transaction() as session:
        parsed = read_player_csv(data, TournamentChannel.EMAIL)
        found = session.get(Tournament, tournament.id)
        assert found is not None
        entered = import_participants(session, found, parsed, None,
                                      progress=lambda done, of: seen.append((done, of)))
    assert seen == [(IMPORT_CHUNK, total), (IMPORT_CHUNK * 2, total), (total, total)]
    assert [p.start_number for p in entered] == list(range(1, total + 1))
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Player)) == total


def test_a_steward_reads_his_tournaments_letters_and_no_others(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament],
    database: Database,
) -> None:
    """The steward checks the letters his entries sent (a card relayed to an e-mail partner):
    his tournament's, with the reply addresses masked; not another tournament's, nor letters of
    none, nor any letter that carries a set-password link."""
    own, other = make_tournament(players=2), make_tournament(players=2)
    steward = login(Role.STEWARD, login="steward")
    _serve(database, "steward", own.id, role=Role.STEWARD)
    mine, theirs, loose, signature = _letters_of_two_tournaments(database, own.id, other.id)
    invitation = _letter(database, kind="invitation", tournament_id=own.id, body="set-password link")
    listing = steward.get("/admin/outbox")
    assert listing.status_code == 200
    page = listing.get_data(as_text=True)
    assert 'href="/admin/outbox"' in page  # the menu leads him there
    assert f"/admin/outbox/{mine}\"" in page
    for hidden in (theirs, loose, invitation):
        assert f"/admin/outbox/{hidden}\"" not in page
        assert steward.get(f"/admin/outbox/{hidden}").status_code == 404
    masked = steward.get(f"/admin/outbox/{mine}").get_data(as_text=True)
    assert signature not in masked and "g7-p8-…" in masked
