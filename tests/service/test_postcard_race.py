"""Eight stewards post the same postcard at once through the web app (SQLite file and
PostgreSQL): exactly one letter is stored, the other seven are refused with the rule's message
(002 §4.2.8), none is a server error, and the ledger stays legal."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import Game, Letter, Role, TournamentOfficial, User

from .conftest import first_game
from .postcard_steps import check_card, fingerprint_of

TODAY = dt.date(2026, 9, 20)
SUBMISSIONS = 8


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY, default_locale="en")


def test_eight_parallel_submissions_of_one_card_store_it_once(
    app: Flask, db_url: str, database: Database, paired: Callable[..., int],
    login: Callable[..., FlaskClient],
) -> None:
    with database.transaction() as session:
        game = first_game(session, paired())
        game_id, white_id, tournament_id = game.id, game.white_id, game.tournament_id
    stewards = []
    for number in range(SUBMISSIONS):
        name = f"steward{number}"
        stewards.append(login(Role.STEWARD, login=name))
        with database.transaction() as session:
            user = session.scalar(select(User).where(User.login == name))
            assert user is not None
            session.add(TournamentOfficial(tournament_id=tournament_id, user_id=user.id,
                                           role=Role.STEWARD))
    card = {"sender": str(white_id), "corrects": "0", "declaration": "none",
            "moves_text": "1. c3-d4", "sent": "01.09.26", "postmark": "01.09.26"}
    # Every steward checked the same card on the same ledger: the same fingerprint.
    stamp = fingerprint_of(check_card(stewards[0], game_id, card).get_data(as_text=True))
    assert stamp
    card = {**card, "fingerprint": stamp, "action": "enter"}
    start = threading.Barrier(SUBMISSIONS)
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def submit(client: FlaskClient) -> None:
        start.wait(10)
        response = client.post(f"/games/{game_id}/postcards/new", data=card)
        with lock:
            answers.append((response.status_code, response.get_data(as_text=True)))

    threads = [threading.Thread(target=submit, args=(client,)) for client in stewards]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [302] + [422] * (SUBMISSIONS - 1), (db_url.split(":")[0], statuses)
    refusals = [text for status, text in answers if status == 422]
    assert all("002 §4.2.8" in text for text in refusals)
    with database.session() as session:
        letters = session.scalars(select(Letter).where(Letter.game_id == game_id)).all()
        assert [(letter.sequence, letter.moves_text) for letter in letters] == [(1, "c3-d4")]
        stored = session.get(Game, game_id)
        assert stored is not None and stored.state.value == "in_play"
