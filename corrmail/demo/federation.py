"""A synthetic federation, generated straight into the database: for load benchmarks and
restore drills, at any scale (the federation's scale: 1,000 players, 200 tournaments, 100,000
games, 2 million letters — see docs/benchmarks/load.md).

Every game replays, letter by letter, one game of a pool of legal Russian-draughts games
(:func:`game_pool`: seeded random playouts of 10–30 plies, 20 on average, made once with
``notation``), with posting dates that advance like real post, so game pages, boards and time
charts work on every generated game. A third of the games carry a result. Rows are written with bulk
Core inserts in batches, ids assigned here, so millions of rows take minutes, not hours; the
generator is deterministic for a given :class:`FederationSpec`.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from corrmail.db import Database
from corrmail.demo.bulk import GENERATED_TABLES, advance_sequences, first_free_id, in_batches
from corrmail.demo.posting import posted_move, posting_dates
from corrmail.models import (
    Base,
    Game,
    GameResult,
    GameState,
    GameType,
    Letter,
    Participant,
    Player,
    ResultKind,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
    utcnow,
)
from notation.full import format_full
from notation.position import Position
from notation.rules import GameType as NotationGameType
from scoring.roundrobin import round_robin_games

__all__ = [
    "CODE_PREFIX", "FederationSpec", "FederationSummary", "PooledGame", "game_pool",
    "generate_federation",
]

CODE_PREFIX = "FED-"
_BATCH = 5000
_RESULTS = (GameResult.WHITE_WIN, GameResult.DRAW, GameResult.BLACK_WIN)
#: Games replayed in turn: enough variety for pages and caches, cheap to make (≈0.2 s).
POOL_SIZE = 315
#: Replayed lengths run 10..30 plies in turn, 20 on average: 100,000 games make 2 million letters.
_SHORTEST, _LONGEST = 10, 30


@dataclass(frozen=True, slots=True)
class PooledGame:
    """One legal game of the pool: ``moves`` are replayed as letters; ``next_move`` is a legal
    reply to the last of them (by the side on move), for benchmarks that post one more letter."""

    moves: tuple[str, ...]
    next_move: str


@lru_cache(maxsize=4)
def game_pool(seed: int, size: int = POOL_SIZE) -> tuple[PooledGame, ...]:
    """``size`` legal Russian-draughts games in full notation (``002 §4.2.2``), deterministic
    for ``seed``: uniformly random legal moves from the initial position; the ``i``-th game is
    ``10 + i % 21`` plies long, and playouts that end before one more move are drawn again."""
    rng = random.Random(seed)
    pool: list[PooledGame] = []
    while len(pool) < size:
        length = _SHORTEST + len(pool) % (_LONGEST - _SHORTEST + 1)
        position = Position.initial(NotationGameType.RUSSIAN)
        written: list[str] = []
        for _ in range(length + 1):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            written.append(format_full(position, move))
            position = position.play(move)
        if len(written) == length + 1:
            pool.append(PooledGame(tuple(written[:-1]), written[-1]))
    return tuple(pool)


@dataclass(frozen=True, slots=True)
class FederationSpec:
    players: int = 1000
    tournaments: int = 200
    #: Entrants of each round robin; 23 in a double round robin give 506 games (200 → 101,200).
    players_per_tournament: int = 23
    #: 2: a double round robin (the Berger table twice, colours swapped).
    cycles: int = 2
    seed: int = 2026
    #: Tournaments start weekly over a year from here; 30 plies of post take up to ≈14 months,
    #: so every generated letter is dated before the end of 2026.
    start: dt.date = dt.date(2024, 9, 1)

    def __post_init__(self) -> None:
        if self.players_per_tournament > self.players:
            raise ValueError(
                f"players_per_tournament {self.players_per_tournament} exceeds players {self.players}"
            )
        if min(self.players, self.tournaments, self.players_per_tournament, self.cycles) < 1:
            raise ValueError(f"every count of {self} must be at least 1")


@dataclass(frozen=True, slots=True)
class FederationSummary:
    players: int
    tournaments: int
    games: int
    letters: int


def generate_federation(database: Database, spec: FederationSpec) -> FederationSummary:
    """Add the federation to ``database`` (a migrated one; existing rows are kept)."""
    rng = random.Random(spec.seed)
    pool = game_pool(spec.seed)
    with database.transaction() as session:
        next_id = {model: first_free_id(session, model) for model in GENERATED_TABLES}
    counts = {"players": 0, "tournaments": 0, "games": 0, "letters": 0}
    player_ids = list(range(next_id[Player], next_id[Player] + spec.players))
    with database.transaction() as session:
        _bulk(session, Player, (
            {"id": pid, "name": f"Игрок {pid:05d}", "email": f"player{pid}@federation.example",
             "postal_address": f"{pid} Почтовая ул.", "rating": 1200 + rng.randint(0, 1200),
             "club": f"Клуб {pid % 40}"}
            for pid in player_ids
        ))
    counts["players"] = spec.players

    participant_id = next_id[Participant]
    game_id = next_id[Game]
    letter_id = next_id[Letter]
    for number in range(spec.tournaments):
        tournament_id = next_id[Tournament] + number
        start = spec.start + dt.timedelta(days=7 * (number % 52))
        entrants = rng.sample(player_ids, spec.players_per_tournament)
        participants = list(range(participant_id, participant_id + len(entrants)))
        participant_id += len(entrants)
        games: list[dict[str, Any]] = []
        letters: list[dict[str, Any]] = []
        # The Berger table from `scoring`, start numbers 1..n: every round pairs each player once.
        for pairing in round_robin_games(list(range(1, len(participants) + 1)), spec.cycles):
            white, black = participants[pairing.white - 1], participants[pairing.black - 1]
            finished = game_id % 3 == 0
            moves = pool[game_id % len(pool)].moves
            played = list(_letters(game_id, white, black, moves, start, rng))
            for row in played:
                row["id"] = letter_id
                letter_id += 1
            letters.extend(played)
            games.append({
                "id": game_id, "tournament_id": tournament_id, "round": pairing.round,
                "white_id": white, "black_id": black,
                "state": GameState.FINISHED if finished else GameState.IN_PLAY,
                "result": _RESULTS[game_id % 9 // 3] if finished else None,
                "result_kind": ResultKind.PLAYED if finished else None,
                # The result is recorded after the last letter, as a director would.
                "result_on": played[-1]["sent"] + dt.timedelta(days=10) if finished else None,
                "version": 1,
            })
            game_id += 1
        with database.transaction() as session:
            _bulk(session, Tournament, [{
                "id": tournament_id, "code": f"{CODE_PREFIX}{number + 1:04d}",
                "title": f"Заочный турнир {number + 1}", "game_type": GameType.RUSSIAN,
                "system": TournamentSystem.ROUND_ROBIN_DOUBLE if spec.cycles == 2
                else TournamentSystem.ROUND_ROBIN_SINGLE,
                "channel": TournamentChannel.EMAIL if number % 2 else TournamentChannel.POST,
                "start_date": start, "end_date": start + dt.timedelta(days=730),
                "time_control_days": 50, "time_control_moves": 10, "tiebreak_order": [],
                "breaks_per_year": 1, "break_max_days": 30, "time_zone": "Europe/Moscow",
                "status": TournamentStatus.RUNNING, "created_at": utcnow(),
                "points_win": 1, "points_draw": 0.5, "points_loss": 0,
            }])
            _bulk(session, Participant, [
                {"id": pid, "tournament_id": tournament_id, "player_id": player,
                 "start_number": start_number}
                for start_number, (pid, player) in enumerate(zip(participants, entrants, strict=True), 1)
            ])
            _bulk(session, Game, games)
            _bulk(session, Letter, letters)
        counts["tournaments"] += 1
        counts["games"] += len(games)
        counts["letters"] += len(letters)
    with database.transaction() as session:
        advance_sequences(session)
    return FederationSummary(**counts)


def _letters(game_id: int, white: int, black: int, moves: tuple[str, ...], start: dt.date,
             rng: random.Random) -> Iterator[dict[str, Any]]:
    dates = posting_dates(rng, start + dt.timedelta(days=rng.randint(0, 3)))
    # The dates come first in the zip (endless, so not strict): the seed's games have always
    # drawn a letter's dates before looking for its move.
    for ply, (when, move) in enumerate(zip(dates, moves, strict=False)):
        yield posted_move(game_id, ply + 1, white if ply % 2 == 0 else black, move, when, utcnow())


def _bulk(session: Session, model: type[Base], rows: Iterable[dict[str, Any]]) -> None:
    for batch in in_batches(rows, _BATCH):
        session.execute(insert(model), batch)
