"""The steward's postcard entry in two steps: Check shows what will be stored, Enter stores
exactly the checked card (its fingerprint), a card already stored is refused (002 §4.2.8), and
impossible dates are refused whether the move is right or wrong (002 §4.3.1)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from html import unescape

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.games.view import GameView
from corrmail.models import Game, Letter, Penalty, Role

from .conftest import first_game
from .postcard_steps import appoint_steward, check_card, fingerprint_of, store_card

TODAY = dt.date(2026, 11, 25)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY, default_locale="en")


@pytest.fixture
def game_id(paired: Callable[..., int], database: Database, card: Callable[..., object]) -> int:
    """White moved 1. c3-d4 on 15.11.2026; Black is to move."""
    tournament_id = paired()
    with database.transaction() as session:
        game_id = first_game(session, tournament_id).id
    card(game_id, "white", dt.date(2026, 11, 16), moves_text="1. c3-d4", sent="15.11.26",
         postmark="15.11.26", declared_white_days=0, declared_black_days=0)
    return game_id


@pytest.fixture
def steward(login: Callable[..., FlaskClient], database: Database, game_id: int) -> FlaskClient:
    return appoint_steward(login(Role.STEWARD, login="steward1"), database, game_id)


def _black(database: Database, game_id: int, **fields: str) -> dict[str, str]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        black = game.black_id
    return {"sender": str(black), "corrects": "0", "declaration": "none", "channel": "post",
            **fields}


def _counts(database: Database, game_id: int) -> tuple[int, int]:
    with database.transaction() as session:
        letters = session.scalar(select(func.count()).select_from(Letter)
                                 .where(Letter.game_id == game_id)) or 0
        penalties = session.scalar(select(func.coalesce(func.sum(Penalty.days), 0))
                                   .where(Penalty.game_id == game_id)) or 0
        return letters, penalties


CLEAN = {"moves_text": "1. c3-d4 f6-g5", "partner_sent": "15.11.26", "received": "20.11.26",
         "sent": "22.11.26", "postmark": "22.11.26", "declared_white_days": "75",
         "declared_black_days": "2"}
FAULTY = {**CLEAN, "moves_text": "h6-g5"}  # the partner's move not repeated: play stops


def test_the_form_shows_the_partners_move_and_defaults_to_the_side_to_move(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    page = unescape(steward.get(f"/games/{game_id}/postcards/new").get_data(as_text=True))
    assert "The card must repeat (002 §4.2.9): <code>1. c3-d4</code>" in page
    black = _black(database, game_id)["sender"]
    assert f'<option selected value="{black}">' in page


def test_check_shows_what_will_be_stored_and_stores_nothing(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    response = check_card(steward, game_id, _black(database, game_id, **CLEAN))
    page = unescape(response.get_data(as_text=True))
    assert response.status_code == 200
    assert '<code class="repeats">1. c3-d4</code>' in page
    assert '<code class="own-moves">f6-g5</code>' in page
    assert "15.11.2026 / 20.11.2026 / 22.11.2026" in page
    assert "before the card: 75/0; with it: 75/2" in page
    assert "No penalty days; play goes on." in page
    assert fingerprint_of(page)
    assert _counts(database, game_id) == (1, 0)


def test_enter_without_a_check_stores_nothing(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    data = {**_black(database, game_id, **CLEAN), "action": "enter"}
    response = steward.post(f"/games/{game_id}/postcards/new", data=data)
    assert response.status_code == 200 and "Store the checked card" in response.get_data(as_text=True)
    assert _counts(database, game_id) == (1, 0)


def test_a_clean_card_is_stored_with_what_was_typed(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    assert store_card(steward, game_id, _black(database, game_id, **CLEAN)).status_code == 302
    assert _counts(database, game_id) == (2, 0)


def test_a_card_that_stops_play_needs_confirmation_then_stores_the_typed_moves(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    data = _black(database, game_id, **FAULTY)
    checked = unescape(check_card(steward, game_id, data).get_data(as_text=True))
    assert "002 §4.2.9" in checked and "Play stops: 6 penalty days" in checked
    unconfirmed = store_card(steward, game_id, data, confirm=False)
    assert unconfirmed.status_code == 422 and _counts(database, game_id) == (1, 0)
    assert store_card(steward, game_id, data).status_code == 302
    assert _counts(database, game_id) == (2, 6)
    page = unescape(steward.get(f"/games/{game_id}").get_data(as_text=True))
    assert 'as written: <code>h6-g5</code>' in page


def test_the_same_card_twice_is_refused_as_a_duplicate(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    data = _black(database, game_id, **FAULTY)
    assert store_card(steward, game_id, data).status_code == 302
    again = store_card(steward, game_id, data)
    assert again.status_code == 422
    text = unescape(again.get_data(as_text=True))
    assert "002 §4.2.8" in text and "already stored as letter 2" in text
    assert _counts(database, game_id) == (2, 6)


def test_a_card_changed_after_its_check_is_not_stored(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    data = _black(database, game_id, **CLEAN)
    stamp = fingerprint_of(check_card(steward, game_id, data).get_data(as_text=True))
    changed = {**data, "sent": "23.11.26", "postmark": "23.11.26", "fingerprint": stamp,
               "action": "enter"}
    response = steward.post(f"/games/{game_id}/postcards/new", data=changed)
    assert response.status_code == 422
    assert "changed since the check" in response.get_data(as_text=True)
    assert _counts(database, game_id) == (1, 0)


@pytest.mark.parametrize("moves", ["1. c3-d4 f6-g5", "h6-g5"], ids=["right move", "wrong move"])
def test_impossible_dates_are_refused_whatever_the_move(
        steward: FlaskClient, database: Database, game_id: int, moves: str) -> None:
    data = _black(database, game_id, **{**CLEAN, "moves_text": moves, "received": "10.11.26",
                                        "sent": "18.11.26", "postmark": "18.11.26"})
    checked = check_card(steward, game_id, data)
    assert checked.status_code == 422
    page = unescape(checked.get_data(as_text=True))
    assert "002 §4.3.1" in page and "before the partner's dispatch" in page
    assert "Store the checked card" not in page
    data = {**_black(database, game_id, **CLEAN), "moves_text": moves, "received": "20.11.26",
            "sent": "18.11.26", "postmark": "18.11.26"}
    page = unescape(check_card(steward, game_id, data).get_data(as_text=True))
    assert "before the letter it answers was received" in page
    assert store_card(steward, game_id, data).status_code == 422
    assert _counts(database, game_id) == (1, 0)


def test_the_steward_re_enters_his_mistyped_card_and_the_player_keeps_his_days(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    """The steward typed h6-g5 for the card's f6-g5 and stored it with its stop and 6 days. On
    the form he corrects that letter, says it was his wrong entry, and the correction's sender is
    the corrected letter's (not the player to move, which White now is): the card is judged
    before the wrong entry, stored, and the 6 days are void (002 §4.2.5; a steward's slip
    costs the player nothing)."""
    assert store_card(steward, game_id, _black(database, game_id, **FAULTY)).status_code == 302
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        wrong, white = game.letters[-1].id, game.white_id
    asked = check_card(steward, game_id, {**_black(database, game_id, **CLEAN),
                                          "corrects": str(wrong)})
    assert asked.status_code == 422 and _counts(database, game_id) == (2, 6)
    assert ("Say why the letter is replaced: your wrong entry of the same card, or the sender's "
            "new card (002 §4.2.5).") in unescape(asked.get_data(as_text=True))
    data = {**CLEAN, "sender": str(white), "corrects": str(wrong), "correction": "entry_error",
            "declaration": "none", "channel": "post"}
    checked = unescape(check_card(steward, game_id, data).get_data(as_text=True))
    assert "two letters in a row" not in checked and "goes backwards" not in checked
    assert store_card(steward, game_id, data).status_code == 302
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        last = game.letters[-1]
        assert (last.sender_id, last.moves_text, last.entry_error) == (game.black_id, "f6-g5", True)
        assert GameView(game).chart().totals.black == 2  # the card's 2 days, no penalty
    # The game page shows the wrong entry's 6 days struck through, saying why they do not count.
    page = unescape(steward.get(f"/games/{game_id}").get_data(as_text=True))
    row = page.split(f'id="letter-{wrong}"')[1].split("</tr>")[0]
    assert "<s>6</s>" in row and "not counted: the steward's wrong entry, corrected" in row
