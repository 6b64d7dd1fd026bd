"""Fixtures of the service tests: a paired postal round robin, and postcards entered as a
steward would."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.orm import Session

from corrmail.db import Database
from corrmail.models import Game, Tournament
from corrmail.play.postcards import PostcardCheck, PostcardEntry, enter_postcard
from corrmail.tournaments.start_sheets import pair_round_robin


@pytest.fixture
def paired(make_tournament: Callable[..., Tournament], database: Database) -> Callable[..., int]:
    """paired(players=2, **columns) -> the id of a round robin with its games created."""

    def make(players: int = 2, **columns: Any) -> int:
        tournament = make_tournament(players=players, **columns)
        with database.transaction() as session:
            pair_round_robin(session, session.get(Tournament, tournament.id), None)
        return tournament.id

    return make


@pytest.fixture
def game_id(paired: Callable[..., int], database: Database) -> int:
    """The first game of a freshly paired two-player round robin."""
    tournament_id = paired()
    with database.transaction() as session:
        return first_game(session, tournament_id).id


@pytest.fixture
def card(database: Database) -> Callable[..., PostcardCheck]:
    """card(game_id, sender="white"|"black", today=date, **PostcardEntry fields): enter one card
    in its own transaction; PostcardRejected propagates (and nothing is committed)."""

    def enter(game_id: int, sender: str, today: dt.date, **fields: Any) -> PostcardCheck:
        with database.transaction() as session:
            game = session.get(Game, game_id)
            assert game is not None
            sender_id = game.white_id if sender == "white" else game.black_id
            check, _ = enter_postcard(
                session, game, PostcardEntry(sender_id=sender_id, **fields), None, today=today
            )
            return check

    return enter


def first_game(session: Session, tournament_id: int) -> Game:
    tournament = session.get(Tournament, tournament_id)
    assert tournament is not None
    return tournament.games[0]
