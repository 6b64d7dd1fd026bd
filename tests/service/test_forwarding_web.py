"""The steward records on the game page, or with ``corrmail letter forwarded``, that he posted a
web move to the partner who plays by post (002 §4.1.1); the game page, the dashboard and the
postal player's home then read one figure for that player's clock: the posting day plus the
average transit (docs/rules/mail.md 21)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from html import unescape

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.cli import main
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.games.state import stored_states
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import Channel, Forwarding, Game, Player, Role, TournamentChannel
from corrmail.play.web_moves import WebLetter, submit_web_letter

from .conftest import first_game
from .postcard_steps import appoint_steward

TODAY = dt.date(2026, 9, 20)
WHITE_SENT = dt.date(2026, 9, 2)
#: Black had White's card on 6 September (4 days) and moved on the web on the 8th.
BLACK_RECEIVED, BLACK_SENT = dt.date(2026, 9, 6), dt.date(2026, 9, 8)
POSTED = dt.date(2026, 9, 12)
#: White's receipt: posted on the 12th, plus the game's 4 days in the post.
COUNTS_FROM = POSTED + dt.timedelta(days=4)
#: White used 1 day for his first move (the start is 1 September, 002 §4.3.2).
DAYS_LEFT = 50 - 1 - (TODAY - COUNTS_FROM).days
REPLY_BY = COUNTS_FROM + dt.timedelta(days=49)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY, default_locale="en")


@pytest.fixture
def mixed_game(paired: Callable[..., int], database: Database,
               card: Callable[..., object]) -> int:
    """A mixed game: White plays by post, Black on the web and has moved; his move waits for the
    steward."""
    tournament_id = paired(channel=TournamentChannel.MIXED)
    with database.transaction() as session:
        game = first_game(session, tournament_id)
        game.white.channel, game.black.channel = Channel.POST, Channel.WEB
        game_id = game.id
    card(game_id, "white", WHITE_SENT + dt.timedelta(days=2), moves_text="1. c3-d4",
         sent=f"{WHITE_SENT:%d.%m.%y}", postmark=f"{WHITE_SENT:%d.%m.%y}")
    writer = LetterWriter(MailSettings(domain="t.example", from_address="t@t.example",
                                       secret=b"s"))
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        submit_web_letter(session, game, game.black, WebLetter(move="f6-g5",
                                                               received=BLACK_RECEIVED),
                          today=BLACK_SENT, writer=writer)
    return game_id


@pytest.fixture
def steward(login: Callable[..., FlaskClient], database: Database, mixed_game: int) -> FlaskClient:
    return appoint_steward(login(Role.STEWARD, login="steward1"), database, mixed_game)


def _letter_to_forward(database: Database, game_id: int) -> int:
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return max(letter.id for letter in game.letters)


def _forwardings(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(Forwarding)) or 0


def _page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return unescape(response.get_data(as_text=True))


def _post(client: FlaskClient, database: Database, game_id: int, on: str,
          channel: str = "post") -> tuple[int, str]:
    response = client.post(f"/games/{game_id}/forwardings", data={
        "letter": str(_letter_to_forward(database, game_id)), "channel": channel,
        "forwarded_on": on})
    return response.status_code, unescape(response.get_data(as_text=True))


def _code(database: Database, game_id: int) -> str:
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.tournament.code


def test_the_steward_records_the_posting_and_the_page_shows_it(
    steward: FlaskClient, database: Database, mixed_game: int,
) -> None:
    page = _page(steward, f"/games/{mixed_game}")
    assert 'class="to-forward"' in page and "Record the forwarding" in page
    dashboard = _page(steward, f"/dashboard/{_code(database, mixed_game)}")
    assert "moves to forward by post: 1" in dashboard
    status, _ = _post(steward, database, mixed_game, POSTED.isoformat())
    assert status == 302
    page = _page(steward, f"/games/{mixed_game}")
    assert 'class="to-forward"' not in page
    assert f"forwarded by post to {_white(database, mixed_game)} on 12.09.2026 by Steward1" in page
    assert "Correct the forwarding" in page
    assert "posted by the steward on 12.09.2026, plus the average transit (002 §4.3.3)" in page
    dashboard = _page(steward, f"/dashboard/{_code(database, mixed_game)}")
    assert "moves to forward by post: 1" not in dashboard
    assert 'class="to-forward"' not in dashboard
    # Entering White's card, the steward sees the day his card's first date should give.
    form = _page(steward, f"/games/{mixed_game}/postcards/new")
    assert "forwarded by the steward on 12.09.2026: the card's first date" in form
    # A correction: a new record, the latest counts.
    assert _post(steward, database, mixed_game, "2026-09-13")[0] == 302
    assert _forwardings(database) == 2
    assert "on 13.09.2026 by Steward1" in _page(steward, f"/games/{mixed_game}")


def _white(database: Database, game_id: int) -> str:
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.white.player.name


@pytest.mark.parametrize(("day", "rule", "words"), [
    ("2026-09-07", "002 §4.3.1", "it cannot have been forwarded on 07.09.2026"),
    ("2026-09-22", "002 §4.3.1", "is after today, 20.09.2026"),
], ids=["before the dispatch", "after today"])
def test_a_wrong_day_is_refused_on_the_page_with_its_rule(
    steward: FlaskClient, database: Database, mixed_game: int, day: str, rule: str, words: str,
) -> None:
    status, page = _post(steward, database, mixed_game, day)
    assert status == 422
    assert rule in page and words in page and 'role="alert"' in page
    assert _forwardings(database) == 0
    # The page is the game's, with the box still waiting and the day as it was typed.
    assert 'class="to-forward"' in page and f'value="{day}"' in page


def test_a_player_cannot_record_a_forwarding(
    login: Callable[..., FlaskClient], database: Database, mixed_game: int,
) -> None:
    with database.session() as session:
        game = session.get(Game, mixed_game)
        assert game is not None
        player = session.get(Player, game.white.player_id)
        session.expunge(player)
    client = login(Role.PLAYER, player=player)
    status, _ = _post(client, database, mixed_game, POSTED.isoformat())
    assert status == 403
    assert "Record the forwarding" not in _page(client, f"/games/{mixed_game}")


def test_one_figure_on_the_game_page_the_dashboard_and_the_postal_players_home(
    steward: FlaskClient, login: Callable[..., FlaskClient], database: Database, mixed_game: int,
) -> None:
    assert _post(steward, database, mixed_game, POSTED.isoformat())[0] == 302
    with database.session() as session:
        [state] = stored_states(session, [mixed_game]).values()
        assert (state.to_move, state.counting_from, state.reply_due) == (
            "white", COUNTS_FROM, REPLY_BY)
        game = session.get(Game, mixed_game)
        assert game is not None
        player = game.white.player
        session.expunge(player)
    game_page = _page(steward, f"/games/{mixed_game}")
    assert re.search(rf">{DAYS_LEFT} \(reply by {REPLY_BY:%d\.%m\.%Y}\)", game_page), game_page
    dashboard = _page(steward, f"/dashboard/{_code(database, mixed_game)}")
    row = dashboard[dashboard.index(f'/games/{mixed_game}"'):]
    assert re.search(rf"<td>{DAYS_LEFT}</td>", row[: row.index("</tr>")])
    home = _page(login(Role.PLAYER, player=player), "/me")
    mine = home[home.index(f'data-game="{mixed_game}"'):]
    mine = mine[: mine.index("</tr>")]
    assert f"/ {DAYS_LEFT}</span>" in mine and f"{REPLY_BY:%d.%m.%Y}" in mine


@pytest.fixture
def run(db_url: str) -> Callable[..., Result]:
    def invoke(*args: str) -> Result:
        env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x",
               "CORRMAIL_TODAY": TODAY.isoformat()}
        return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)

    return invoke


def test_the_command_records_corrects_and_refuses(
    run: Callable[..., Result], steward: FlaskClient, database: Database, mixed_game: int,
) -> None:
    game = str(mixed_game)
    refused = run("letter", "forwarded", game, "--on", "2026-09-07", "--by", "steward1")
    assert refused.exit_code == 1 and "002 §4.3.1" in refused.output
    assert "nothing stored" in refused.output and _forwardings(database) == 0
    stranger = run("letter", "forwarded", game, "--on", "2026-09-12", "--by", "nobody")
    assert stranger.exit_code == 2 and _forwardings(database) == 0
    done = run("letter", "forwarded", game, "--on", "2026-09-12", "--by", "steward1")
    assert done.exit_code == 0, done.output
    assert "forwarded by post on 12.09.2026" in done.output
    phoned = run("letter", "forwarded", game, "--on", "2026-09-13", "--channel", "phone",
                 "--by", "steward1")
    assert phoned.exit_code == 0, phoned.output
    with database.session() as session:
        [state] = stored_states(session, [mixed_game]).values()
        # A call's day is the receipt (002 §4.1.2, §4.3.1).
        assert (state.forwarded_on, state.counting_from) == (dt.date(2026, 9, 13),
                                                             dt.date(2026, 9, 13))
    assert _forwardings(database) == 2
    verified = run("games", "verify")
    assert verified.exit_code == 0, verified.output
