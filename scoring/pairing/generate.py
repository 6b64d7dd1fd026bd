"""Random Swiss events played to the end with our own pairings, for tests and benchmarks.

Everything comes from one seed: ratings, the classification lots of ``000 §3.18.5.1``,
withdrawals, absences, forfeits and results.  An event whose next round cannot be paired
legally (too many rounds for too few players) stops there; :attr:`Generated.stopped` says why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.model import Game, Player, Tournament, Unpaired, Withdrawal
from scoring.pairing.engine import lot_for, pair_round, parse_system
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.history import Replay, draw_as_round, round_entries
from scoring.pairing.model import Draw, Entrant, PairingSystem
from scoring.result import GameResult

__all__ = ["Generated", "classify", "generate_event", "play_draw"]


@dataclass
class Generated:
    """The event as played; if a round could not be paired, ``stopped`` says why and
    ``stopped_field`` holds the entrants that round was asked to pair (for re-checking)."""

    tournament: Tournament
    draws: list[Draw]
    stopped: NoLegalPairingError | None = None
    stopped_field: tuple[Entrant, ...] = ()


def classify(ratings: Sequence[int], lot: random.Random) -> list[int]:
    """``000 §3.18.5.1``: indexes of ``ratings`` in classification order: rated by rating
    descending, equal ratings by lot, then the unrated (rating 0) by lot."""
    keys = [lot.random() for _ in ratings]
    return sorted(range(len(ratings)), key=lambda i: (ratings[i] <= 0, -ratings[i], keys[i]))


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
    """A ``players``-player, ``rounds``-round event paired by ``system`` and played out.

    From round 2 on each active player withdraws with ``withdrawal_rate`` and is announced
    absent with ``absence_rate``; ``forfeit_rate`` of the games end ``+/−``.
    """
    program = parse_system(system)
    chance = random.Random(f"corrmail-generate:{seed}")
    ratings = [chance.choice([0, *range(1000, 2400, 7)]) for _ in range(players)]
    order = classify(ratings, lot_for(seed, 0))
    tournament = Tournament(
        players=tuple(
            Player(start_no=position, name=f"Player {position}", rating=ratings[index] or None)
            for position, index in enumerate(order, start=1)
        ),
        rounds=rounds,
        name=f"Generated {program.value} Swiss, seed {seed}",
    )
    # The rounds are gathered here and the tournament built once at the end: building it
    # after every round would re-validate every game so far, quadratic in the rounds.
    games_so_far: list[Game] = []
    unpaired_so_far: list[Unpaired] = []
    withdrawals: list[Withdrawal] = []
    draws: list[Draw] = []
    withdrawn: set[int] = set()
    replay = Replay(tournament)

    def played() -> Tournament:
        return replace(
            tournament,
            games=tuple(games_so_far),
            unpaired=tuple(unpaired_so_far),
            withdrawals=tuple(withdrawals),
        )

    for round_no in range(1, rounds + 1):
        absent: list[int] = []
        if round_no > 1:
            leaving = [
                p.start_no
                for p in tournament.players
                if p.start_no not in withdrawn and chance.random() < withdrawal_rate
            ]
            withdrawn.update(leaving)
            withdrawals += [Withdrawal(n, round_no - 1) for n in leaving]
            absent = [
                p.start_no
                for p in tournament.players
                if p.start_no not in withdrawn and chance.random() < absence_rate
            ]
        entrants = replay.entrants(withdrawn, absent)
        try:
            draw = pair_round(entrants, round_no, program, seed)
        except NoLegalPairingError as error:
            return Generated(played(), draws, error, tuple(entrants))
        draws.append(draw)
        games, unpaired = draw_as_round(draw)
        if round_no < rounds or play_last_round:
            games = play_draw(games, tournament, chance, forfeit_rate)
        games_so_far += games
        unpaired_so_far += unpaired
        replay.play(round_no, round_entries(games, unpaired))
    return Generated(played(), draws)


def play_draw(
    games: Sequence[Game], tournament: Tournament, chance: random.Random, forfeit_rate: float
) -> tuple[Game, ...]:
    """Results for paired games: the higher rated wins more often; a few are forfeited."""
    rating = {p.start_no: p.rating or 1200 for p in tournament.players}
    played = []
    for game in games:
        roll = chance.random()
        if roll < forfeit_rate / 2:
            result = GameResult.WHITE_FORFEIT_WIN
        elif roll < forfeit_rate:
            result = GameResult.BLACK_FORFEIT_WIN
        else:
            expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
            roll = chance.random()
            if roll < expected * 0.7:
                result = GameResult.WHITE_WINS
            elif roll > 1 - (1 - expected) * 0.7:
                result = GameResult.BLACK_WINS
            else:
                result = GameResult.DRAW
        played.append(Game(game.round, game.white, game.black, result))
    return tuple(played)
