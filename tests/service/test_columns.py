"""Column draughts by post (002 §4.1.4): a Bashni and a Lasca tournament are created,
paired, and a game of each is played card by card through postal entry."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.games.view import GameView
from corrmail.models import (
    Game,
    GameResult,
    GameState,
    GameType,
    Role,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)
from corrmail.play.postcards import Declaration, PostcardEntry, PostcardRejected, enter_postcard
from corrmail.tournaments.player_import import PlayerRow
from corrmail.tournaments.registration import TournamentSpec, add_participant, create_tournament
from corrmail.tournaments.start_sheets import pair_round_robin
from notation.full import format_full

START = dt.date(2026, 9, 1)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=dt.date(2026, 10, 1))


def _create(database: Database, game_type: GameType, code: str) -> int:
    with database.transaction() as session:
        tournament = create_tournament(session, TournamentSpec(
            code=code, title=f"{game_type.value} by post", game_type=game_type,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.POST,
            start_date=START, end_date=dt.date(2027, 8, 31),
        ), None)
        # Under way, as publishing would leave it: the regulations carry no status.
        tournament.status = TournamentStatus.RUNNING
        for name in ("Башнин", "Ласкер"):
            add_participant(session, tournament, PlayerRow(name, postal_address="Москва"), None)
        session.flush()
        session.refresh(tournament)
        (game,) = pair_round_robin(session, tournament, None)
        return game.id


def _play(database: Database, game_id: int, plies: int) -> list[str]:
    """Plies chosen from the legal moves, each card repeating the partner's last move."""
    written: list[str] = []
    previous_sent: dt.date | None = None
    for index in range(plies):
        with database.transaction() as session:
            game = session.get(Game, game_id)
            assert game is not None
            view = GameView(game)
            position = view.position
            move = list(position.legal_moves())[-1]
            text = format_full(position, move)
            repeated = written[-1:]
            sender = "white" if index % 2 == 0 else "black"
            sent = START + dt.timedelta(days=3 * index)
            received = previous_sent + dt.timedelta(days=2) if previous_sent else None
            entry = PostcardEntry(
                sender_id=game.white_id if sender == "white" else game.black_id,
                moves_text=" ".join([*repeated, text]),
                partner_sent=f"{previous_sent:%d.%m.%y}" if previous_sent else "",
                received=f"{received:%d.%m.%y}" if received else "",
                sent=f"{sent:%d.%m.%y}",
            )
            # Each reply takes a day; White's opening none: 0/0, 0/1, 1/1, 1/2, …
            entry = dataclasses.replace(entry, declared_white_days=index // 2,
                                        declared_black_days=(index + 1) // 2)
            check, _ = enter_postcard(session, game, entry, None, today=sent)
            assert check.findings == [] and check.own_moves == text, check
            written.append(text)
            previous_sent = sent
    return written


@pytest.mark.parametrize(("game_type", "code"), [(GameType.COLUMN_RUSSIAN, "БАШНИ-1"),
                                                  (GameType.COLUMN_INTERNATIONAL, "LASCA-1")])
def test_a_column_game_by_post(database: Database, login: Callable[..., FlaskClient],
                               game_type: GameType, code: str) -> None:
    game_id = _create(database, game_type, code)
    plies = _play(database, game_id, 4)
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert GameView(game).plies == plies
        assert GameView(game).chart().rows[-1].move == 2
        # An impossible move is refused by the column rules too (002 §4.2.10).
        with pytest.raises(PostcardRejected):
            enter_postcard(session, game, PostcardEntry(
                sender_id=game.white_id, moves_text="", sent="20.09.26"), None,
                today=dt.date(2026, 9, 21))
        check, _ = enter_postcard(session, game, PostcardEntry(
            sender_id=game.white_id, sent="20.09.26", declaration=Declaration.RESIGNS), None,
            today=dt.date(2026, 9, 21))
        assert check.result is GameResult.BLACK_WIN
        assert game.state is GameState.FINISHED
        tournament = session.get(Tournament, game.tournament_id)
        assert tournament is not None and tournament.game_type is game_type
    organizer = login(Role.ORGANIZER)
    page = organizer.get(f"/games/{game_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "<svg" in text and plies[0] in text and 'class="chart-plot"' in text
    pdn = organizer.get(f"/games/{game_id}/game.pdn").get_data(as_text=True)
    assert "0-1" in pdn and plies[1] in pdn
