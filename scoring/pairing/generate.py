"""Random Swiss events played to the end with our own pairings, for tests and benchmarks.

Everything comes from one seed: ratings, the classification lots of ``000 §3.18.5.1``,
withdrawals, absences, forfeits and results.  An event whose next round cannot be paired
legally (too many rounds for too few players) stops there; :attr:`Generated.stopped` says why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.pairing.engine import lot_for, pair_round, parse_system
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.history import (
    Competitor,
    Game,
    Outcome,
    RoundRecord,
    SwissEvent,
    entrants_before,
)
from scoring.pairing.model import Draw, PairingSystem

__all__ = ["Generated", "classify", "generate_event", "play_round"]


@dataclass
class Generated:
    event: SwissEvent
    draws: list[Draw]
    stopped: NoLegalPairingError | None = None


def classify(ratings: Sequence[int], lot: random.Random) -> list[int]:
    """``000 §3.18.5.1``: indexes of ``ratings`` in classification order: rated by rating
    descending, equal ratings by lot, then the unrated (rating 0) by lot."""
    keys = {index: lot.random() for index in range(len(ratings))}
    return sorted(
        range(len(ratings)),
        key=lambda i: (ratings[i] <= 0, -ratings[i], keys[i]),
    )


def generate_event(
    players: int,
    rounds: int,
    seed: int,
    system: PairingSystem | str = PairingSystem.COEFFICIENTS,
    *,
    withdrawal_rate: float = 0.01,
    absence_rate: float = 0.02,
    forfeit_rate: float = 0.02,
    play_last_round: bool = True,
) -> Generated:
    """A ``players``-player, ``rounds``-round event paired by ``system`` and played out."""
    program = parse_system(system)
    chance = random.Random(f"corrmail-generate:{seed}")
    ratings = [chance.choice([0, *range(1000, 2400, 7)]) for _ in range(players)]
    order = classify(ratings, lot_for(seed, 0))
    competitors = [
        Competitor(start_no=position, name=f"Player {position}", rating=ratings[index])
        for position, index in enumerate(order, start=1)
    ]
    event = SwissEvent(competitors=competitors, total_rounds=rounds)
    draws: list[Draw] = []
    for round_no in range(1, rounds + 1):
        active = [c for c in event.competitors if c.withdrawn_from is None]
        if round_no > 1:
            for competitor in active:
                if chance.random() < withdrawal_rate:
                    event.competitors[competitor.start_no - 1] = Competitor(
                        competitor.start_no, competitor.name, competitor.rating, round_no
                    )
        absent = [
            c.start_no
            for c in event.competitors
            if c.withdrawn_from is None and round_no > 1 and chance.random() < absence_rate
        ]
        try:
            draw = pair_round(entrants_before(event, round_no, absent), round_no, program, seed)
        except NoLegalPairingError as error:
            return Generated(event, draws, error)
        draws.append(draw)
        played = round_no < rounds or play_last_round
        event.rounds.append(play_round(draw, event, chance, forfeit_rate, played))
    return Generated(event, draws)


def play_round(
    draw: Draw,
    event: SwissEvent,
    chance: random.Random,
    forfeit_rate: float,
    played: bool = True,
) -> RoundRecord:
    """Results for a draw: the higher rated wins more often; a few games are forfeited."""
    rating = {c.start_no: c.rating or 1200 for c in event.competitors}
    games = []
    for pair in draw.pairs:
        outcome: Outcome | None = None
        if played:
            roll = chance.random()
            if roll < forfeit_rate / 2:
                outcome = Outcome.WHITE_WINS_BY_FORFEIT
            elif roll < forfeit_rate:
                outcome = Outcome.BLACK_WINS_BY_FORFEIT
            else:
                expected = 1 / (1 + 10 ** ((rating[pair.black] - rating[pair.white]) / 400))
                roll = chance.random()
                if roll < expected * 0.7:
                    outcome = Outcome.WHITE_WINS
                elif roll > 1 - (1 - expected) * 0.7:
                    outcome = Outcome.BLACK_WINS
                else:
                    outcome = Outcome.DRAW
        games.append(Game(pair.white, pair.black, outcome))
    return RoundRecord(draw.round_no, tuple(games), draw.bye, draw.absent)
