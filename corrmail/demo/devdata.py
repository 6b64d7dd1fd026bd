"""A generated federation database for benchmarks and load tests: many players, many
tournaments, finished ones with every kind of result and running ones with letters on record.

Rows go in with bulk inserts (a few seconds for 100,000 games on SQLite); the tournaments are
real double round robins paired by `scoring`'s Berger table and the letters carry legal moves
(`corrmail.demo.moves`, checked with `notation`), so every page and command can read them.
Reproducible: the same seed gives the same database.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from corrmail.demo.bulk import advance_sequences, first_free_id, in_batches
from corrmail.demo.moves import DEMO_MOVES
from corrmail.demo.posting import posted_move, posting_dates
from corrmail.models import (
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
)
from scoring.roundrobin import round_robin_games

__all__ = ["Federation", "FederationSpec", "generate_federation"]

SURNAMES = ("Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов",
            "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев",
            "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев")
FIRST_NAMES = ("Александр", "Сергей", "Дмитрий", "Андрей", "Алексей", "Иван", "Михаил",
               "Николай", "Юрий", "Олег")
CLUBS = ("Казань", "Москва", "Уфа", "Якутск", "Киев", "Харьков", "Минск", "Самара")

# Finished games: white wins, black wins, draws, forfeits (002 §4.5.8), adjudications (§4.5).
OUTCOMES = (
    (GameResult.WHITE_WIN, ResultKind.PLAYED, 34),
    (GameResult.BLACK_WIN, ResultKind.PLAYED, 28),
    (GameResult.DRAW, ResultKind.PLAYED, 30),
    (GameResult.WHITE_WIN, ResultKind.FORFEIT, 2),
    (GameResult.BLACK_WIN, ResultKind.OVERSTEP, 2),
    (GameResult.DRAW, ResultKind.ADJUDICATED, 3),
    (GameResult.DOUBLE_LOSS, ResultKind.FORFEIT, 1),
)


@dataclass(frozen=True)
class FederationSpec:
    players: int = 1000
    games: int = 100_000
    field: int = 23
    """Players per tournament: a double round robin of 23 has 506 games."""
    running: int = 20
    """The newest tournaments are running: some games finished, the rest in play with letters."""
    today: dt.date = dt.date(2026, 11, 20)
    seed: int = 0


@dataclass(frozen=True)
class Federation:
    players: int
    tournaments: int
    games: int
    letters: int
    running_codes: tuple[str, ...]
    finished_codes: tuple[str, ...]


class _Ids:
    """Explicit primary keys, so bulk inserts need no round trip per row."""

    def __init__(self, session: Session, model: Any) -> None:
        self.next = first_free_id(session, model)

    def take(self) -> int:
        value = self.next
        self.next += 1
        return value


def generate_federation(session: Session, spec: FederationSpec = FederationSpec()) -> Federation:
    """Add the federation to ``session``'s database (flushes; the caller commits)."""
    rng = random.Random(spec.seed)
    per_tournament = spec.field * (spec.field - 1)  # double round robin
    count = -(-spec.games // per_tournament)
    player_ids = _Ids(session, Player)
    players = [
        {"id": player_ids.take(),
         "name": f"{rng.choice(SURNAMES)} {rng.choice(FIRST_NAMES)} №{number}",
         "email": f"player{number}@federation.example", "rating": rng.randint(1600, 2500),
         "club": rng.choice(CLUBS), "postal_address": f"{number} Почтовая ул."}
        for number in range(1, spec.players + 1)
    ]
    session.execute(insert(Player), players)

    tournament_ids, participant_ids = _Ids(session, Tournament), _Ids(session, Participant)
    game_ids, letter_ids = _Ids(session, Game), _Ids(session, Letter)
    tournaments: list[dict[str, Any]] = []
    participants: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    letters: list[dict[str, Any]] = []
    running_codes: list[str] = []
    finished_codes: list[str] = []
    games_left = spec.games
    for index in range(count):
        running = index >= count - spec.running
        code = f"ФЕД-{index + 1:04d}"
        (running_codes if running else finished_codes).append(code)
        start = (spec.today - dt.timedelta(days=150 - 5 * (index - count + spec.running))
                 if running else spec.today - dt.timedelta(days=900 + 7 * (count - index)))
        tournament_id = tournament_ids.take()
        tournaments.append({
            "id": tournament_id, "code": code, "title": f"Чемпионат федерации {index + 1}",
            "game_type": GameType.RUSSIAN, "system": TournamentSystem.ROUND_ROBIN_DOUBLE,
            "channel": TournamentChannel.POST, "start_date": start,
            "end_date": start + dt.timedelta(days=730),
            "status": TournamentStatus.RUNNING if running else TournamentStatus.FINISHED,
            "tiebreak_order": ["sonneborn_berger", "wins"],
        })
        by_number = {}
        for number, player in enumerate(rng.sample(players, spec.field), start=1):
            by_number[number] = participant_ids.take()
            participants.append({"id": by_number[number], "tournament_id": tournament_id,
                                 "player_id": player["id"], "start_number": number,
                                 "rating": player["rating"]})
        for pairing in round_robin_games(list(by_number), cycles=2)[:games_left]:
            game_id = game_ids.take()
            row: dict[str, Any] = {
                "id": game_id, "tournament_id": tournament_id, "round": pairing.round,
                "white_id": by_number[pairing.white], "black_id": by_number[pairing.black],
                "state": GameState.IN_PLAY, "result": None, "result_kind": None,
                "result_rule": None, "result_on": None, "board": None, "version": 1,
            }
            if running and rng.random() < 0.6:
                letters += _letters(rng, letter_ids, row, start, spec.today)
            else:
                result, kind, = rng.choices([o[:2] for o in OUTCOMES],
                                            weights=[o[2] for o in OUTCOMES])[0]
                row.update(state=GameState.FINISHED, result=result, result_kind=kind,
                           result_on=min(spec.today, start + dt.timedelta(days=rng.randint(60, 700))),
                           result_rule=None if kind is ResultKind.PLAYED else "002 §4.5")
            games.append(row)
        games_left -= min(games_left, per_tournament)
    batches: tuple[tuple[Any, list[dict[str, Any]]], ...] = (
        (Tournament, tournaments), (Participant, participants), (Game, games), (Letter, letters)
    )
    for model, rows in batches:
        for batch in in_batches(rows, 20_000):
            session.execute(insert(model), batch)
    advance_sequences(session)
    session.flush()
    return Federation(len(players), len(tournaments), len(games), len(letters),
                      tuple(running_codes), tuple(finished_codes))


def _letters(rng: random.Random, ids: _Ids, game: dict[str, Any], start: dt.date,
             today: dt.date) -> list[dict[str, Any]]:
    """One ply per letter, White first, with the three dates of 002 §4.2.3."""
    moves = rng.choice(DEMO_MOVES)
    sides = (game["white_id"], game["black_id"])
    rows = []
    dates = posting_dates(rng, start + dt.timedelta(days=rng.randint(0, 5)))
    played = moves[:rng.randint(1, len(moves))]
    # The dates come first in the zip (endless, so not strict): the seed's games have always
    # drawn a letter's dates before looking for its move.
    for ply, (when, move) in enumerate(zip(dates, played, strict=False)):
        if when.sent >= today:
            break
        entered_at = dt.datetime.combine(when.sent, dt.time(12), tzinfo=dt.UTC)
        rows.append({"id": ids.take(),
                     **posted_move(game["id"], ply + 1, sides[ply % 2], move, when, entered_at)})
    return rows
