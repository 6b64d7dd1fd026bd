"""The generated federation of the load benchmark: every letter of every game is a legal move
in full notation (002 §4.2.2) sent by the side on move, games are 20 plies on average (the
issue's 100,000 games and 2 million letters), and the pool of games depends only on the seed."""

from __future__ import annotations

import datetime as dt
import statistics

from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, game_pool, generate_federation
from corrmail.models import Game, GameState, Letter, Player, Tournament
from notation.full import parse_full
from notation.position import Position
from notation.rules import GameType

SPEC = FederationSpec(players=12, tournaments=2, players_per_tournament=6, cycles=2, seed=7)


def _replays_legally(moves: tuple[str, ...] | list[str]) -> Position:
    position = Position.initial(GameType.RUSSIAN)
    for written in moves:
        position = position.play(parse_full(position, written))  # raises on an illegal move
    return position


def test_the_pool_holds_legal_games_of_10_to_30_plies_20_on_average() -> None:
    pool = game_pool(2026)
    lengths = [len(game.moves) for game in pool]
    assert min(lengths) == 10 and max(lengths) == 30 and statistics.mean(lengths) == 20
    for game in pool:
        after = _replays_legally(game.moves)
        parse_full(after, game.next_move)  # the benchmark's extra letter is a legal reply


def test_the_pool_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    game_pool.cache_clear()
    first = game_pool(2026)
    game_pool.cache_clear()
    assert game_pool(2026) == first
    assert game_pool(2027, 21) != first[:21]


def test_every_generated_letter_is_a_legal_move_dated_before_2027(db_url: str) -> None:
    database = Database(db_url)
    summary = generate_federation(database, SPEC)
    games_per_tournament = 6 * 5  # a double round robin of 6
    assert (summary.players, summary.tournaments, summary.games) == (12, 2, 2 * games_per_tournament)
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Player)) == 12
        assert session.scalar(select(func.count()).select_from(Tournament)) == 2
        assert session.scalar(select(func.count()).select_from(Letter)) == summary.letters
        games = list(session.scalars(select(Game).order_by(Game.id)))
        for game in games:
            letters = sorted(game.letters, key=lambda letter: letter.sequence)
            _replays_legally([letter.moves_text for letter in letters])
            senders = [letter.sender_id for letter in letters]
            assert senders[::2] == [game.white_id] * len(senders[::2])
            assert senders[1::2] == [game.black_id] * len(senders[1::2])
            last = max(letter.sent for letter in letters if letter.sent is not None)
            assert last < dt.date(2027, 1, 1)
            if game.state is GameState.FINISHED:
                assert game.result is not None and game.result_on is not None and game.result_on > last
    database.dispose()
    assert 10 * len(games) <= summary.letters <= 30 * len(games)


def test_each_game_replays_the_pool_game_its_id_picks(db_url: str) -> None:
    database = Database(db_url)
    generate_federation(database, SPEC)
    with database.session() as session:
        rows = session.execute(
            select(Letter.game_id, Letter.moves_text).order_by(Letter.game_id, Letter.sequence)
        ).all()
    database.dispose()
    by_game: dict[int, list[str]] = {}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row.moves_text)
    pool = game_pool(SPEC.seed)
    assert len(by_game) == 2 * 6 * 5
    for game_id, moves in by_game.items():
        assert tuple(moves) == pool[game_id % len(pool)].moves
