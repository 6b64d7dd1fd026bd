"""A double click on «Publish» or «Pair the games» sends the same request twice, a few
milliseconds apart (SQLite file and PostgreSQL): the round robin is drawn once, each start sheet
written once, the tournament published once; the second request finds the first's work done.
Closing twice at once closes once and issues one final report (002 §4.1.7)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable

from click.testing import Result
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail import games
from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    BulletinIssue,
    Game,
    GameResult,
    OutboxMessage,
    ResultKind,
    Role,
    Tournament,
    TournamentStatus,
)

CODE = "ЗКР-2026"  # the draft fixture's tournament
CLICKS = 4


def _at_once(clients: list[FlaskClient], path: str) -> list[int]:
    start = threading.Barrier(len(clients))
    statuses: list[int] = []
    lock = threading.Lock()

    def click(client: FlaskClient) -> None:
        start.wait(10)
        response = client.post(path)
        with lock:
            statuses.append(response.status_code)

    threads = [threading.Thread(target=click, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return sorted(statuses)


def _count(database: Database, model: type, *where: object) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def test_publish_clicked_twice_at_once_draws_the_round_robin_once(
    corrmail: Callable[..., Result], draft: int, database: Database,
    login: Callable[..., FlaskClient],
) -> None:

    assert corrmail("tournament", "officials", CODE, "--referee", "ref").exit_code == 0
    directors = [login(Role.ORGANIZER) for _ in range(CLICKS)]
    statuses = _at_once(directors, f"/tournaments/{CODE}/publish")
    assert statuses == [302] * CLICKS, statuses  # none is a server error
    assert _count(database, Game, Game.tournament_id == draft) == 3  # three players, once
    assert _count(database, OutboxMessage, OutboxMessage.kind == "start_sheet") == 2
    assert _count(database, AuditEntry, AuditEntry.action == "tournament.published") == 1


def test_pair_clicked_twice_at_once_pairs_once(
    draft: int, database: Database, login: Callable[..., FlaskClient],
) -> None:

    directors = [login(Role.ORGANIZER) for _ in range(CLICKS)]
    statuses = _at_once(directors, f"/tournaments/{CODE}/pair")
    assert statuses == [302] * CLICKS, statuses
    assert _count(database, Game, Game.tournament_id == draft) == 3
    # The later clicks are told why nothing more was paired.
    page = directors[0].get(f"/tournaments/{CODE}").get_data(as_text=True)
    assert "Партий пока нет" not in page


def test_close_clicked_twice_at_once_closes_once(
    corrmail: Callable[..., Result], draft: int, database: Database,
    login: Callable[..., FlaskClient],
) -> None:

    assert corrmail("tournament", "officials", CODE, "--referee", "ref").exit_code == 0
    assert corrmail("tournament", "publish", CODE, "--today", "2026-08-25").exit_code == 0
    with database.transaction() as session:
        # Every game decided, so the tournament may close.
        for game in session.scalars(select(Game).where(Game.tournament_id == draft)):
            games.record_result(session, game, GameResult.DRAW, ResultKind.PLAYED,
                                on=dt.date(2026, 10, 1), user=None, rule="002 §4.5.1")
    directors = [login(Role.ORGANIZER) for _ in range(CLICKS)]
    statuses = _at_once(directors, f"/tournaments/{CODE}/close")
    assert sorted(statuses) == [302] + [409] * (CLICKS - 1), statuses
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == CODE))
        assert tournament is not None and tournament.status is TournamentStatus.FINISHED
    assert _count(database, BulletinIssue, BulletinIssue.tournament_id == draft) == 1
