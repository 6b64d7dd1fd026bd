"""A synthetic federation, generated straight into the database: for load benchmarks and
restore drills, at any scale (the issue's target: 1,000 players, 200 tournaments, 100,000
games, about a million letters — see docs/benchmarks/load.md).

Every game replays one of the demo's legal games (:data:`corrmail.demo_moves.DEMO_MOVES`) letter
by letter, with posting dates that advance like real post, so game pages, boards and time charts
work on every generated game. A third of the games carry a result. Rows are written with bulk
Core inserts in batches, ids assigned here, so millions of rows take minutes, not hours; the
generator is deterministic for a given :class:`FederationSpec`.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.orm import Session

from corrmail.db import Database
from corrmail.demo_moves import DEMO_MOVES
from corrmail.models import (
    Base,
    Channel,
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
from scoring.roundrobin import round_robin_games

__all__ = ["FederationSpec", "FederationSummary", "generate_federation", "CODE_PREFIX"]

CODE_PREFIX = "FED-"
_BATCH = 5000
_RESULTS = (GameResult.WHITE_WIN, GameResult.DRAW, GameResult.BLACK_WIN)


@dataclass(frozen=True, slots=True)
class FederationSpec:
    players: int = 1000
    tournaments: int = 200
    #: Entrants of each round robin; 23 in a double round robin give 506 games (200 → 101,200).
    players_per_tournament: int = 23
    #: 2: a double round robin (the Berger table twice, colours swapped).
    cycles: int = 2
    seed: int = 2026
    start: dt.date = dt.date(2025, 9, 1)

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
    with database.transaction() as session:
        next_id = {
            model: (session.scalar(select(func.max(model.id))) or 0) + 1
            for model in (Player, Tournament, Participant, Game, Letter)
        }
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
            games.append({
                "id": game_id, "tournament_id": tournament_id, "round": pairing.round,
                "white_id": white, "black_id": black,
                "state": GameState.FINISHED if finished else GameState.IN_PLAY,
                "result": _RESULTS[game_id % 9 // 3] if finished else None,
                "result_kind": ResultKind.PLAYED if finished else None,
                "result_on": start + dt.timedelta(days=200) if finished else None,
                "version": 1,
            })
            moves = DEMO_MOVES[game_id % len(DEMO_MOVES)]
            for row in _letters(game_id, white, black, moves, start, rng):
                row["id"] = letter_id
                letter_id += 1
                letters.append(row)
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
    _advance_sequences(database)
    return FederationSummary(**counts)


def _letters(game_id: int, white: int, black: int, moves: tuple[str, ...], start: dt.date,
             rng: random.Random) -> Iterator[dict[str, Any]]:
    sent = start + dt.timedelta(days=rng.randint(0, 3))
    partner_sent: dt.date | None = None
    received: dt.date | None = None
    for ply, move in enumerate(moves):
        yield {
            "game_id": game_id, "sequence": ply + 1, "sender_id": white if ply % 2 == 0 else black,
            "channel": Channel.POST, "raw_text": f"Мой ход: {move}.", "partner_sent": partner_sent,
            "received": received, "sent": sent, "postmark_date": sent, "registered": False,
            "moves_text": move, "variants_text": "", "penalty_days": 0, "entered_at": utcnow(),
        }
        partner_sent = sent
        received = sent + dt.timedelta(days=rng.randint(2, 6))
        sent = received + dt.timedelta(days=rng.randint(1, 8))


def _bulk(session: Session, model: type[Base], rows: Iterable[dict[str, Any]]) -> None:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= _BATCH:
            session.execute(insert(model), batch)
            batch = []
    if batch:
        session.execute(insert(model), batch)


def _advance_sequences(database: Database) -> None:
    """Ids were assigned here; PostgreSQL's sequences must continue after them."""
    if database.engine.dialect.name != "postgresql":
        return
    with database.transaction() as session:
        for model in (Player, Tournament, Participant, Game, Letter):
            name = model.__tablename__
            session.execute(text(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 1) FROM {name}))"
            ))
