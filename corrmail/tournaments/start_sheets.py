"""Games of a tournament from `scoring`'s tables, and each player's start sheet (002 §4.3.2)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.models import (
    Game,
    GameState,
    PairedRound,
    Participant,
    Tournament,
    TournamentSystem,
    User,
)
from corrmail.tournaments.lock import lock_tournament
from scoring.roundrobin import round_robin_games

CYCLES = {TournamentSystem.ROUND_ROBIN_SINGLE: 1, TournamentSystem.ROUND_ROBIN_DOUBLE: 2}


class PairingRefused(ValueError):
    def __init__(self, tournament_code: str, reason: str) -> None:
        super().__init__(f"{tournament_code}: {reason}")
        self.tournament_code = tournament_code
        self.reason = reason


def pair_round_robin(session: Session, tournament: Tournament, user: User | None) -> list[Game]:
    """Create every game of a round robin from the Berger table, start numbers as Berger numbers.

    Refused when the tournament is not a round robin, already has games, or has under two
    players: pairing twice would double every game.
    """
    lock_tournament(session, tournament.id)
    cycles = CYCLES.get(tournament.system)
    if cycles is None:
        raise PairingRefused(
            tournament.code, _("only a round robin is paired from the Berger table")
        )
    existing = session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    )
    if existing:
        raise PairingRefused(
            tournament.code, _("the tournament already has %(count)s games", count=existing)
        )
    entries = session.scalars(
        select(Participant)
        .where(Participant.tournament_id == tournament.id, Participant.withdrawn_on.is_(None))
        .order_by(Participant.start_number)
    ).all()
    if len(entries) < 2:
        raise PairingRefused(tournament.code, _("a round robin needs at least two players"))
    by_number = {entry.start_number: entry for entry in entries}
    numbers = [entry.start_number for entry in entries if entry.start_number is not None]
    if len(numbers) != len(entries):
        raise PairingRefused(tournament.code, _("every player needs a start number first"))
    games = [
        Game(
            tournament_id=tournament.id,
            round=scheduled.round,
            white_id=by_number[scheduled.white].id,
            black_id=by_number[scheduled.black].id,
            state=GameState.NOT_STARTED,
        )
        for scheduled in round_robin_games(numbers, cycles)
    ]
    session.add_all(games)
    session.flush()
    record(
        session, user=user, action="tournament.pair", entity="tournament", entity_id=tournament.id,
        tournament_id=tournament.id, rule="000 §3 (Berger table)",
        summary=f"{len(games)} games in {cycles} cycle(s)",
    )  # fmt: skip
    return games


@dataclass(frozen=True)
class StartSheetGame:
    round: int
    colour: str  # "white" / "black"
    partner: Participant
    board: int | None = None  # team events
    # A Swiss round published on its own starts then (corrmail.rounds); None: the tournament's start.
    starts_on: dt.date | None = None


@dataclass(frozen=True)
class StartSheet:
    """What 002 §4.3.2 sends each player: dates, pairings, colours and partners' addresses."""

    tournament: Tournament
    participant: Participant
    start_date: dt.date
    end_date: dt.date
    games: tuple[StartSheetGame, ...]


def start_sheets(session: Session, tournament: Tournament) -> list[StartSheet]:
    games = session.scalars(
        select(Game).where(Game.tournament_id == tournament.id).order_by(Game.round, Game.id)
    ).all()
    round_starts = {
        number: starts_on
        for number, starts_on in session.execute(
            select(PairedRound.number, PairedRound.starts_on).where(
                PairedRound.tournament_id == tournament.id, PairedRound.published_at.is_not(None)
            )
        ).tuples()
    }
    sheets = []
    for participant in tournament.participants:
        own = tuple(
            StartSheetGame(game.round, "white" if game.white_id == participant.id else "black",
                           game.partner_of(participant.id), game.board,
                           round_starts.get(game.round))
            for game in games
            if participant.id in (game.white_id, game.black_id)
        )  # fmt: skip
        sheets.append(
            StartSheet(tournament, participant, tournament.start_date, tournament.end_date, own)
        )
    return sheets
