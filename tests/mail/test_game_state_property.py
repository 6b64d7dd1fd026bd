"""The stored game state equals the replay of the ledger after every letter, legal or not
(corrmail.games.state): random letters through the real e-mail intake, on SQLite and PostgreSQL.

Each example plays a fresh game between the same two e-mail players: the side to move writes
the partner's last move again and a legal move of its own (002 §4.2.3), or a letter goes wrong —
the player not on move writes, a move that is not legal here (002 §4.2.8–4.2.11: penalty days),
a wrong repetition of the partner's move, a letter with no move, a resignation — and after each
the stored state of the game is compared with a full replay of its ledger.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from corrmail.games.state import StoredGameState, verify
from corrmail.games.view import GameView, load_mail_game
from corrmail.mail.correspondence import numbered
from corrmail.models import Game, GameState
from notation.full import format_full

if TYPE_CHECKING:
    from tests.mail.conftest import EmailGame

LETTER_KINDS = ("legal", "legal", "legal", "legal", "wrong_side", "illegal_move",
                "wrong_repeat", "no_move", "variant", "resign")


def _new_game(email_game: EmailGame) -> EmailGame:
    with email_game.database.transaction() as session:
        first = session.get(Game, email_game.game_id)
        assert first is not None
        game = Game(tournament_id=first.tournament_id, round=1, white_id=first.white_id,
                    black_id=first.black_id, state=GameState.IN_PLAY)
        session.add(game)
        session.flush()
        game_id = game.id
    return dataclasses.replace(email_game, game_id=game_id)


def _letter(game: EmailGame, kind: str, choice: int) -> tuple[str, str] | None:
    """(side, text) of the next letter of this kind; None when the game is over."""
    with game.database.session() as session:
        row = load_mail_game(session, game.game_id)
        assert row is not None
        if row.state is GameState.FINISHED:
            return None
        view = GameView(row)
        position = view.position
        mover = view.side_to_move.value
        other = "black" if mover == "white" else "white"
        legal = position.legal_moves()
        plies = view.plies
        previous = ""
        if plies:
            before = view.positions[-2]
            previous = numbered([(before, move) for move in before.legal_moves()
                                 if format_full(before, move) == plies[-1]][:1], len(plies) - 1)
        session.rollback()
    if not legal:
        return None
    move = legal[choice % len(legal)]
    own = numbered([(position, move)], len(plies))
    if kind == "legal":
        return mover, f"{previous}\r\n{own}".strip()
    if kind == "variant":
        return mover, f"{previous}\r\n{own}\r\nВариант: если a3-b4, то c5:a3".strip()
    if kind == "wrong_side":
        return other, own
    if kind == "illegal_move":
        return mover, f"{previous}\r\n{len(plies) // 2 + 1}. a1-h8".strip()
    if kind == "wrong_repeat" and plies:
        return mover, f"{len(plies) // 2}. h2-g3 {own}"
    if kind == "resign":
        return mover, "Сдаюсь."
    return mover, "Здравствуйте! Письмо без хода."


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(letters=st.lists(st.tuples(st.sampled_from(LETTER_KINDS), st.integers(0, 1000),
                                  st.integers(1, 12)), min_size=1, max_size=14))
def test_stored_state_equals_the_replay_after_every_letter(
    email_game: EmailGame, letters: list[tuple[str, int, int]]
) -> None:
    game = _new_game(email_game)
    day = dt.date(2026, 3, 2)
    with game.database.session() as session:
        assert verify(session, game_ids=[game.game_id]) == []
    for kind, choice, days in letters:
        letter = _letter(game, kind, choice)
        if letter is None:
            break
        day += dt.timedelta(days=days)
        receipt = game.send(letter[0], letter[1], day)
        if kind == "legal":
            assert receipt.outcome == "move_relayed", (letter, receipt)
        with game.database.session() as session:
            differences = verify(session, game_ids=[game.game_id])
            assert differences == [], [item.describe() for item in differences]
            stored = session.scalar(select(StoredGameState).where(
                StoredGameState.game_id == game.game_id))
            assert stored is not None
            row = session.get(Game, game.game_id)
            assert row is not None
            assert stored.letter_count == len(GameView(row).letters)
            session.rollback()
