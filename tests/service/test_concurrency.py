"""Two stewards enter the same postcard at once (Evidence: no forked ledger)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import Game, Letter
from corrmail.play.postcards import PostcardEntry, PostcardRejected, enter_postcard

from .conftest import first_game


def test_the_same_card_entered_twice_at_once_is_stored_once(
        db_url: str, database: Database, paired: Callable[..., int]) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers itself; the row lock under test is PostgreSQL's")
    with database.transaction() as session:
        game_id = first_game(session, paired()).id
    first_holds_lock = threading.Event()
    outcome: list[BaseException | None] = []

    def card(session_game: Game) -> PostcardEntry:
        return PostcardEntry(sender_id=session_game.white_id, moves_text="1. c3-d4",
                             sent="01.09.26")

    def second_steward() -> None:
        try:
            first_holds_lock.wait(10)
            with database.transaction() as other:
                game = other.get(Game, game_id)
                assert game is not None
                enter_postcard(other, game, card(game), None, today=dt.date(2026, 9, 3))
            outcome.append(None)
        except BaseException as error:  # reported to the main thread
            outcome.append(error)

    thread = threading.Thread(target=second_steward)
    thread.start()
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        enter_postcard(session, game, card(game), None, today=dt.date(2026, 9, 3))
        first_holds_lock.set()
        thread.join(0.5)  # the second steward waits on the game row
        assert thread.is_alive()
    thread.join(10)
    (error,) = outcome
    assert isinstance(error, PostcardRejected) and "002 §4.2.8" in str(error)
    with database.session() as session:
        texts = session.scalars(select(Letter.moves_text).where(Letter.game_id == game_id)).all()
    assert texts == ["c3-d4"]
