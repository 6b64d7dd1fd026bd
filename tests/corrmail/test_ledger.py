"""Appending letters, corrections, and who is to move (002 §4.1.13, §4.2.5)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.db import Database
from corrmail.games.ledger import (
    CorrectionSenderError,
    CorrectionTargetError,
    LedgerConflict,
    LetterInput,
    SenderNotInGameError,
    append_letter,
    effective_letters,
    to_move,
)
from corrmail.models import Channel, Game, GameState, Letter, Participant, Tournament


@pytest.fixture
def game(session: Session, make_tournament: Callable[..., Tournament]) -> Game:
    tournament = session.get(Tournament, make_tournament(players=3).id)
    assert tournament is not None
    white, black, _ = tournament.participants
    row = Game(
        tournament_id=tournament.id, round=1, white_id=white.id, black_id=black.id,
        state=GameState.IN_PLAY,
    )  # fmt: skip
    session.add(row)
    session.flush()
    return row


def test_letters_are_numbered_in_order(session: Session, game: Game) -> None:
    first = append_letter(
        session, game, LetterInput(game.white_id, Channel.POST, moves_text="c3-d4"), None
    )
    second = append_letter(
        session, game, LetterInput(game.black_id, Channel.POST, moves_text="f6-g5"), None
    )
    assert (first.sequence, second.sequence) == (1, 2)


def test_white_moves_first_then_turns_alternate(session: Session, game: Game) -> None:
    assert to_move(game) is game.white
    append_letter(session, game, LetterInput(game.white_id, Channel.POST, moves_text="c3-d4"), None)
    session.refresh(game)
    assert to_move(game) is game.black
    # A letter without a move (a break announcement) does not pass the turn.
    append_letter(
        session, game, LetterInput(game.white_id, Channel.POST, raw_text="беру перерыв"), None
    )
    session.refresh(game)
    assert to_move(game) is game.black
    game.state = GameState.FINISHED
    assert to_move(game) is None


def test_correction_replaces_the_original_in_place(session: Session, game: Game) -> None:
    a = append_letter(
        session, game, LetterInput(game.white_id, Channel.POST, moves_text="c3-d4"), None
    )
    b = append_letter(
        session, game, LetterInput(game.black_id, Channel.POST, moves_text="f6-g5"), None
    )
    c = append_letter(
        session,
        game,
        LetterInput(game.white_id, Channel.POST, moves_text="c3-b4", corrects_letter_id=a.id),
        None,
    )
    d = append_letter(
        session,
        game,
        LetterInput(game.white_id, Channel.POST, moves_text="a3-b4", corrects_letter_id=c.id),
        None,
    )
    assert effective_letters([a, b, c, d]) == [d, b]
    assert a.moves_text == "c3-d4"  # the original stays as it was written


def test_correction_must_target_a_letter_of_the_same_game(
    session: Session, game: Game, make_tournament: Callable[..., Tournament]
) -> None:
    with pytest.raises(CorrectionTargetError, match="not a letter of game"):
        append_letter(
            session, game, LetterInput(game.white_id, Channel.POST, corrects_letter_id=12345), None
        )


def test_sender_must_play_the_game(session: Session, game: Game) -> None:
    outsider = game.tournament.participants[2]
    with pytest.raises(SenderNotInGameError) as caught:
        append_letter(
            session, game, LetterInput(outsider.id, Channel.POST, moves_text="c3-d4"), None
        )
    assert caught.value.participant_id == outsider.id


def test_concurrent_appends_never_fork_the_ledger(
    db_url: str, database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    """Two stewards at once: the game row lock makes the second wait and take the next place."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serialises writers itself; the row lock under test is PostgreSQL's")
    tournament_id = make_tournament(players=2).id
    with database.transaction() as session:
        white, black = session.scalars(
            select(Participant).where(Participant.tournament_id == tournament_id)
        )
        game = Game(tournament_id=tournament_id, round=1, white_id=white.id, black_id=black.id)
        session.add(game)
        session.flush()
        game_id = game.id
    first_holds_lock = threading.Event()
    errors: list[BaseException] = []

    def second_steward() -> None:
        try:
            first_holds_lock.wait(10)
            with database.transaction() as other:
                stored = other.get(Game, game_id)
                assert stored is not None
                append_letter(
                    other,
                    stored,
                    LetterInput(stored.black_id, Channel.POST, moves_text="f6-g5"),
                    None,
                )
        except BaseException as error:  # reported to the main thread
            errors.append(error)

    thread = threading.Thread(target=second_steward)
    thread.start()
    with database.transaction() as session:
        stored = session.get(Game, game_id)
        assert stored is not None
        append_letter(
            session, stored, LetterInput(stored.white_id, Channel.POST, moves_text="c3-d4"), None
        )
        first_holds_lock.set()
        thread.join(0.5)  # the second steward is now waiting on the game row
        assert thread.is_alive()
    thread.join(10)
    assert errors == []
    with database.session() as session:
        rows = session.execute(
            select(Letter.sequence, Letter.moves_text)
            .where(Letter.game_id == game_id)
            .order_by(Letter.sequence)
        ).all()
    assert [tuple(row) for row in rows] == [(1, "c3-d4"), (2, "f6-g5")]


def test_a_taken_place_is_reported_as_a_conflict(
    database: Database, make_tournament: Callable[..., Tournament], monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the lock is bypassed (e.g. a stale max), the unique key refuses the fork."""
    tournament_id = make_tournament(players=2).id
    with database.transaction() as session:
        white, black = session.scalars(
            select(Participant).where(Participant.tournament_id == tournament_id)
        )
        game = Game(tournament_id=tournament_id, round=1, white_id=white.id, black_id=black.id)
        session.add(game)
        session.flush()
        append_letter(session, game, LetterInput(white.id, Channel.POST, moves_text="c3-d4"), None)
        monkeypatch.setattr(Session, "scalar", lambda self, *a, **k: 0)  # a stale "last sequence"
        with pytest.raises(LedgerConflict, match="entered by someone else"):
            append_letter(
                session, game, LetterInput(black.id, Channel.POST, moves_text="f6-g5"), None
            )


def test_correction_keeps_the_sender_of_the_letter_it_corrects(
    session: Session, game: Game
) -> None:
    first = append_letter(
        session, game, LetterInput(game.white_id, Channel.POST, moves_text="c3-d4"), None
    )
    with pytest.raises(CorrectionSenderError, match="002 §4.2.5"):
        append_letter(
            session,
            game,
            LetterInput(
                game.black_id, Channel.POST, moves_text="f6-g5", corrects_letter_id=first.id
            ),
            None,
        )
