"""Round trips per received letter: an upper bound on the SQL statements and commits one
:meth:`Inbox.receive` costs, on SQLite and PostgreSQL.

Ingest speed is bounded by round trips to the database, not by CPU (docs/benchmarks/ingest.md):
this test counts statements, which is deterministic, so a change that brings back a lazy load
per relationship or a reload per letter fails here rather than only in a benchmark.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, select

from corrmail.mail.correspondence import numbered
from corrmail.models import Game, InboundStatus, Letter, User
from notation.full import format_full
from notation.game_position import GamePosition
from notation.move import Move
from notation.playouts import random_game
from notation.position import Position
from notation.rules import GameType as BoardType

#: One statement each: store (INSERT … ON CONFLICT … RETURNING), claim (UPDATE … RETURNING),
#: game with tournament, participants, players (with their locales) and its stored state,
#: letters, breaks, INSERT letter, INSERT outbox, INSERT audit entry, UPDATE inbound row,
#: UPDATE outbox (the bounce address needs the outbox id), UPDATE of the game's stored state
#: (corrmail.games.state, written in the same transaction as the letter). A game with
#: penalties reads them too (the stored state counts them). Before the ingest pass a move
#: letter took 24; before the stored state, 12, then 13 with it until the locales came with
#: the players and the penalties of a game without any were no longer read.
MOVE_LETTER_STATEMENTS = 11
#: The raw store, then the processing (claim, letter, answer, mark processed) as one.
COMMITS_PER_LETTER = 2
#: A letter delivered again after it was processed: the conflicting insert, the stored outcome.
DUPLICATE_STATEMENTS = 2
PLIES = 12


@contextmanager
def counting(engine: Any) -> Iterator[dict[str, list[str] | int]]:
    seen: dict[str, list[str] | int] = {"statements": [], "commits": 0}

    def statement(conn: Any, cursor: Any, text: str, *args: Any) -> None:
        statements = seen["statements"]
        assert isinstance(statements, list)
        statements.append(" ".join(text.split())[:120])

    def commit(conn: Any) -> None:
        seen["commits"] = int(seen["commits"]) + 1  # type: ignore[call-overload]

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(engine, "commit", commit)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(engine, "commit", commit)


def _plies(seed: int = 11) -> list[tuple[GamePosition, Move]]:
    rng = random.Random(seed)
    while True:
        moves = random_game(BoardType.RUSSIAN, rng, max_plies=PLIES)
        if len(moves) == PLIES:
            break
    position = Position.initial(BoardType.RUSSIAN)
    plies = []
    for move in moves:
        plies.append((position, move))
        position = position.play(move)
    return plies


def test_a_move_letter_costs_a_bounded_number_of_statements(email_game) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        # A player with an account: the locale query finds a row (and must not load its roles).
        game = session.get(Game, email_game.game_id)
        session.add(User(login="petrov", display_name="Петров", password_hash="-", locale="ru",
                         player_id=game.white.player_id))
    plies = _plies()
    engine = email_game.database.engine
    day = dt.date(2026, 3, 2)
    per_letter = []
    for ply in range(PLIES):
        # Each letter repeats the partner's last move and makes its own (002 §4.2.9).
        body = numbered(plies[max(ply - 1, 0): ply + 1], max(ply - 1, 0))
        side = "white" if ply % 2 == 0 else "black"
        with counting(engine) as seen:
            receipt = email_game.send(side, f"Здравствуйте!\n{body}\nС уважением.",
                                      day + dt.timedelta(days=2 * ply))
        assert (receipt.status, receipt.outcome) == (InboundStatus.PROCESSED, "move_relayed"), (
            ply, receipt)
        statements = seen["statements"]
        assert isinstance(statements, list)
        assert len(statements) <= MOVE_LETTER_STATEMENTS, (ply, len(statements), statements)
        assert seen["commits"] == COMMITS_PER_LETTER, (ply, seen["commits"])
        per_letter.append(len(statements))
    # The ledger came out whole: every ply once, in order, from the locked append path.
    game = email_game.game()
    assert [letter.sequence for letter in game.letters] == list(range(1, PLIES + 1))
    assert len({letter.id for letter in game.letters}) == PLIES
    assert all(letter.inbound_message_id is not None for letter in game.letters)
    assert len(email_game.outbox(kind="move")) == PLIES


def test_the_penalties_of_a_game_with_penalties_are_read_with_each_letter(email_game) -> None:  # type: ignore[no-untyped-def]
    """The stored state counts a game's penalty rows: a game without any reads none for a
    letter, a game charged one reads it (and the stored totals count it: the fixture compares
    every stored state with the replay of its ledger at the end)."""
    from corrmail import games
    from corrmail.games.state import StoredGameState

    plies = _plies()
    day = dt.date(2026, 3, 2)
    engine = email_game.database.engine
    read_penalties = []
    for ply in range(4):
        if ply == 2:
            with email_game.database.transaction() as session:
                game = session.get(Game, email_game.game_id)
                games.charge_penalty(session, game, email_game.white_id, 6, rule="002 §4.2.11",
                                     reason="penalty under test", on=day, user=None)
        body = numbered(plies[max(ply - 1, 0): ply + 1], max(ply - 1, 0))
        with counting(engine) as seen:
            receipt = email_game.send("white" if ply % 2 == 0 else "black",
                                      f"Здравствуйте!\n{body}\nС уважением.",
                                      day + dt.timedelta(days=2 * ply))
        assert receipt.outcome == "move_relayed", receipt
        statements = seen["statements"]
        assert isinstance(statements, list)
        read_penalties.append(any("FROM penalties" in text or "penalties.id" in text
                                  for text in statements))
    assert read_penalties == [False, False, True, True]
    with email_game.database.transaction() as session:
        state = session.get(StoredGameState, email_game.game_id)
        assert state is not None and state.penalty_count == 1


def test_a_duplicate_delivery_reads_its_outcome_and_changes_nothing(email_game) -> None:  # type: ignore[no-untyped-def]
    when = dt.datetime(2026, 3, 2, 10, tzinfo=dt.timezone(dt.timedelta(hours=3)))
    position, move = _plies()[0]
    raw = email_game.raw("white", numbered([(position, move)], 0), when=when)
    first = email_game.inbox.receive(raw, source="pipe", received_at=when)
    assert first.outcome == "move_relayed"
    with counting(email_game.database.engine) as seen:
        again = email_game.inbox.receive(raw, source="pipe", received_at=when)
    assert (again.duplicate, again.outcome) == (True, "move_relayed")
    statements = seen["statements"]
    assert isinstance(statements, list)
    assert len(statements) <= DUPLICATE_STATEMENTS, statements
    assert not any(text.startswith(("INSERT INTO letters", "INSERT INTO outbox", "UPDATE"))
                   for text in statements), statements
    with email_game.database.session() as session:
        assert session.scalar(select(Letter.id).where(Letter.game_id == email_game.game_id)
                              .order_by(Letter.id.desc())) is not None
        assert len(list(session.scalars(select(Letter)))) == 1


def test_two_letters_for_one_game_at_once_are_applied_one_after_the_other(email_game) -> None:  # type: ignore[no-untyped-def]
    """The game is locked when it is loaded, not only when the letter is appended: a second
    letter arriving while the first is being applied waits and then reads the game as the first
    left it (here: White has moved, so White's second move is refused, 002 §4.2.8)."""
    when = dt.datetime(2026, 3, 2, 10, tzinfo=dt.timezone(dt.timedelta(hours=3)))
    position, move = _plies()[0]
    text = numbered([(position, move)], 0)
    first_raw = email_game.raw("white", text, when=when)
    second_raw = email_game.raw("white", text + "\n", when=when)  # another message, same move
    correspondence = email_game.inbox.correspondence
    original = correspondence.handle
    loaded, go = threading.Event(), threading.Event()

    def paused(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "first":
            loaded.set()  # the game is loaded (and locked) in the first transaction
            assert go.wait(30)
        return original(*args, **kwargs)

    correspondence.handle = paused
    receipts: dict[str, Any] = {}

    def deliver(name: str, raw: bytes) -> None:
        receipts[name] = email_game.inbox.receive(raw, source="pipe", received_at=when)

    first = threading.Thread(target=deliver, args=("first", first_raw), name="first")
    second = threading.Thread(target=deliver, args=("second", second_raw), name="second")
    first.start()
    assert loaded.wait(30)
    second.start()
    second.join(1.0)  # it waits for the first transaction (unlocked, it would run ahead)
    go.set()
    first.join(30)
    second.join(30)
    assert not first.is_alive() and not second.is_alive()
    assert receipts["first"].outcome == "move_relayed"
    assert receipts["second"].outcome == "not_to_move"
    game = email_game.game()
    assert [(letter.sequence, letter.moves_text) for letter in game.letters] == [(1, format_full(position, move))]
