"""Protests by e-mail that contested no case were kept as rows of ``cases`` (type ``protest``):
a case with no state of its own that every reader of the case table had to skip. Migration
0015 moves each into ``protest_letters`` with its text, its day received (002 §4.1.12: its days
count from that day) and where it was filed, and removes it from ``cases``; downgrading puts
them back. Both directions on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import select, text

from corrmail import games
from corrmail.db import Database, make_engine
from corrmail.migrate import downgrade, upgrade
from corrmail.models import (
    Game,
    GameType,
    Participant,
    Player,
    ProtestLetter,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)


def _tournament_with_a_game(database: Database) -> tuple[int, int, int]:
    with database.transaction() as session:
        tournament = Tournament(code="P-1", title="Protests", game_type=GameType.RUSSIAN,
                                system=TournamentSystem.ROUND_ROBIN_SINGLE,
                                channel=TournamentChannel.EMAIL, start_date=dt.date(2026, 9, 1),
                                end_date=dt.date(2027, 8, 31), status=TournamentStatus.RUNNING)
        session.add(tournament)
        session.flush()
        sides = []
        for number, name in ((1, "Белов"), (2, "Чернов")):
            player = Player(name=name, email=f"p{number}@example.org")
            session.add(player)
            session.flush()
            participant = Participant(tournament_id=tournament.id, player_id=player.id,
                                      start_number=number)
            session.add(participant)
            session.flush()
            sides.append(participant.id)
        game = Game(tournament_id=tournament.id, round=1, white_id=sides[0], black_id=sides[1])
        session.add(game)
        session.flush()
        return tournament.id, game.id, sides[1]


def _letters(url: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT game_id, participant_id, text, protest, received, filed_case_id "
                "FROM protest_letters ORDER BY id")).mappings().all()
            # SQLite hands a raw date back as text, PostgreSQL as a date: compare the text.
            return [{**row, "received": str(row["received"])} for row in rows]
    finally:
        engine.dispose()


def test_protest_letters_move_out_of_the_case_table_and_back(empty_db_url: str) -> None:
    url = empty_db_url
    upgrade(url)
    database = Database(url)
    try:
        tournament_id, game_id, black_id = _tournament_with_a_game(database)
        with database.transaction() as session:
            games.receive_protest_letter(
                session, tournament_id=tournament_id, game_id=game_id, participant_id=black_id,
                text="Уважаемый судья! ПРОТЕСТ: позиция ничейная", protest="позиция ничейная",
                received=dt.date(2027, 9, 14))
    finally:
        database.dispose()
    before = _letters(url)

    downgrade(url, "0014_game_state")
    engine = make_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT case_type, game_id, participant_id, state, payload FROM cases")).all()
    engine.dispose()
    assert len(rows) == 1
    case_type, row_game, row_participant, state, payload = rows[0]
    payload = json.loads(payload) if isinstance(payload, str) else payload
    assert (case_type, row_game, row_participant, state) == ("protest", game_id, black_id,
                                                             "received")
    assert payload == {"text": "Уважаемый судья! ПРОТЕСТ: позиция ничейная",
                       "protest": "позиция ничейная", "received": "2027-09-14"}

    upgrade(url)
    assert _letters(url) == before == [{
        "game_id": game_id, "participant_id": black_id,
        "text": "Уважаемый судья! ПРОТЕСТ: позиция ничейная", "protest": "позиция ничейная",
        "received": "2027-09-14", "filed_case_id": None}]
    engine = make_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM cases")).scalar_one() == 0
    engine.dispose()
    database = Database(url)
    try:
        with database.session() as session:
            letter = session.scalars(select(ProtestLetter)).one()
            assert letter.filed_at is None and letter.game.id == game_id
    finally:
        database.dispose()
