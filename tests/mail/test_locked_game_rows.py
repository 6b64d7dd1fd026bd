"""The intake's locked game read as Core rows (:func:`corrmail.games.view.load_mail_game` in a
session that holds nothing yet) is the game the ORM's joined loading gives — every object, every
column, every loaded relationship, persistent and unchanged — and a letter is checked from the
stored state without playing the game from its first move, a restated own move included
(002 §4.2.9, docs/rules/notation.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import delete, insert
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from corrmail.games.append import holds_lock, load_locked_game
from corrmail.games.state import FIELDS, replay_values
from corrmail.games.view import GameView, _mail_game_options, load_mail_game
from corrmail.models import Break, Case, CaseType, Game, InboundStatus
from notation.game_position import position_fen

D = dt.date(2026, 3, 2)


def _orm_mail_game(session: Session, game_id: int) -> Game:
    """The game as the ORM loads it for a letter (the path taken when the session already holds
    objects): the locked joined query, then both players' breaks."""
    game = load_locked_game(session, game_id, *_mail_game_options())
    assert game is not None
    for participant in (game.white, game.black):
        set_committed_value(participant, "breaks", sorted(
            session.query(Break).filter_by(participant_id=participant.id),
            key=lambda item: item.start_date))
    return game


def _graph(game: Game) -> list[tuple[str, Any]]:
    """Every object the intake reads, with its columns and the names of its loaded attributes."""
    found: list[tuple[str, Any]] = []

    def add(label: str, item: Any) -> None:
        if item is None:
            found.append((label, None))
            return
        state = sa_inspect(item)
        assert state.persistent, (label, item)
        columns = {prop.key: getattr(item, prop.key) for prop in state.mapper.column_attrs}
        loaded = sorted(key for key in state.mapper.relationships.keys() if key in item.__dict__)
        assert not state.modified, (label, item)
        found.append((label, (type(item).__name__, columns, loaded)))

    add("game", game)
    add("tournament", game.__dict__["tournament"])
    add("state", game.__dict__["stored_state"])
    for index, claim in enumerate(game.__dict__["overstep_claims"]):
        add(f"claim {index}", claim)
    for index, letter in enumerate(game.__dict__["letters"]):
        add(f"letter {index}", letter)
    for side in ("white", "black"):
        participant = game.__dict__[side]
        add(side, participant)
        add(f"{side} player", participant.__dict__["player"])
        for index, item in enumerate(participant.__dict__["breaks"]):
            add(f"{side} break {index}", item)
    return found


@pytest.mark.parametrize("with_extras", [False, True])
def test_the_locked_game_read_as_rows_is_the_game_the_orm_loads(email_game, with_extras: bool) -> None:  # type: ignore[no-untyped-def]
    for side, day, text in (("white", D, "1. c3-d4"), ("black", D + dt.timedelta(days=1),
                                                      "1. c3-d4 f6-e5"),
                            ("white", D + dt.timedelta(days=2), "1... f6-e5 2. d4:f6")):
        assert email_game.send(side, text, day).status is InboundStatus.PROCESSED
    if with_extras:
        with email_game.database.transaction() as session:
            game = session.get(Game, email_game.game_id)
            assert game is not None
            for start in (dt.date(2026, 6, 1), dt.date(2026, 5, 1)):
                session.add(Break(participant_id=game.black_id, start_date=start,
                                  end_date=start + dt.timedelta(days=5), announced_on=D))
            tournament_id = game.tournament_id
        with email_game.database.transaction() as session:
            # Rows only, written after the breaks' state was recomputed, and deleted before
            # the end: no claim the ledger could read (the rows are for the loading alone).
            cases = [{"case_type": CaseType.OVERSTEP_CLAIM, "payload": {"n": number}}
                     for number in range(2)]
            # A case of another kind is no overstep claim: not loaded with the game.
            cases.insert(1, {"case_type": CaseType.DISPUTE, "payload": {}})
            session.execute(insert(Case.__table__), [
                {**case, "tournament_id": tournament_id, "game_id": email_game.game_id,
                 "state": "open", "revision": 0, "letter_text": "", "version": 1,
                 "opened_at": dt.datetime(2026, 3, 5, 12, tzinfo=dt.UTC)} for case in cases])

    with email_game.database.session() as session, session.begin():
        assert not session.identity_map
        rows = load_mail_game(session, email_game.game_id)
        assert rows is not None and holds_lock(session, rows)
        from_rows = _graph(rows)
        assert not session.new and not session.dirty
        held = set(session.identity_map.keys())
        session.rollback()
    with email_game.database.session() as session, session.begin():
        loaded = _orm_mail_game(session, email_game.game_id)
        from_orm = _graph(loaded)
        assert set(session.identity_map.keys()) == held
        session.rollback()
    assert from_rows == from_orm
    claims = [label for label, _ in from_rows if label.startswith("claim")]
    breaks = [item for label, item in from_rows if "break" in label]
    assert (len(claims), len(breaks)) == ((2, 2) if with_extras else (0, 0))
    if with_extras:
        assert [item[1]["start_date"] for item in breaks] == [dt.date(2026, 5, 1),
                                                              dt.date(2026, 6, 1)]
        with email_game.database.transaction() as session:
            session.execute(delete(Case.__table__))


def test_a_session_holding_objects_reads_the_game_afresh(email_game) -> None:  # type: ignore[no-untyped-def]
    """Loaded into a session that already holds the game: the ORM's loading, which refreshes
    the objects the session holds rather than making second copies."""
    email_game.send("white", "1. c3-d4", D)
    with email_game.database.session() as session, session.begin():
        game = session.get(Game, email_game.game_id)
        assert game is not None
        white = game.white
        set_committed_value(game, "letters", [])  # a stale copy: read again under the lock
        loaded = load_mail_game(session, email_game.game_id)
        assert loaded is game and game.white is white and holds_lock(session, game)
        assert [letter.moves_text for letter in game.letters] == ["c3-d4"]
        session.rollback()


def test_a_letter_is_checked_from_the_stored_state_without_replaying_the_game(
        email_game, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The stored position stands before the partner's plies and the mover's own ply before
    them, so neither a plain letter nor one restating its own move plays the game from the
    start: the replay from the first move is made to fail, and every letter still goes through
    with the same stored state as the full replay."""
    letters = [("white", "1. c3-d4"), ("black", "1. c3-d4 f6-e5"),
               ("white", "1. c3-d4 f6-e5 2. d4:f6"),  # the move pair written whole
               ("black", "2. d4:f6 g7:e5"), ("white", "2... g7:e5 3. g3-f4")]
    email_game.send(*letters[0], D)

    def no_full_replay(view: GameView) -> None:
        raise AssertionError(f"game {view.game.id} replayed from its first move")

    real_played = GameView.__dict__["played"]
    monkeypatch.setattr(GameView, "played", property(no_full_replay))
    for number, (side, text) in enumerate(letters[1:], start=1):
        receipt = email_game.send(side, text, D + dt.timedelta(days=number))
        assert (receipt.status, receipt.outcome) == (InboundStatus.PROCESSED, "move_relayed"), \
            (text, receipt)
    monkeypatch.setattr(GameView, "played", real_played)
    with email_game.database.session() as session:
        game = load_mail_game(session, email_game.game_id)
        assert game is not None
        stored = game.stored_state
        assert [letter.moves_text for letter in game.letters] == [
            "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4"]
        assert stored is not None and stored.ply_count == 5
        # Black to move, repeating g3-f4: the stored position stands before his own g7:e5.
        assert stored.fen_before == position_fen(GameView(game).played.positions[3])
        assert {name: getattr(stored, name) for name in FIELDS} == replay_values(game)
        session.rollback()
    # (The fixture also compares every stored state with a fresh replay at the end.)
