"""Berger tables for round robins, as FIDE C.05 Annex 1 prints them.

For ``n`` players (an odd field gets a dummy ``n + 1``: whoever meets it rests that round), the
highest number ``m`` sits on board one, black in odd rounds and white in even rounds; the rest
rotate so that in round ``r`` player ``p = ((r - 1) * m / 2) mod (m - 1) + 1`` meets ``m`` and
board ``b`` has ``p + b - 1`` with white against ``p - b + 1`` (numbers taken modulo ``m - 1``
in ``1..m - 1``). In correspondence play all rounds start together (002 §4), but the table
still gives every game its colours.

A double round robin plays the first cycle with its last two rounds swapped and then the table
again with colours reversed, so that nobody gets the same colour three times running (FIDE C.05
Annex 1's advice).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import ScoringError
from scoring.model import Game


class RoundRobinSizeError(ScoringError):
    """A round robin needs at least two players and one or two cycles."""

    def __init__(self, players: int, cycles: int) -> None:
        super().__init__(
            f"a round robin of {players} player(s) in {cycles} cycle(s) is impossible: "
            "at least 2 players and 1 or 2 cycles"
        )
        self.players = players
        self.cycles = cycles


@dataclass(frozen=True)
class Pairing:
    """One game of a round: start numbers of white and black."""

    white: int
    black: int


@dataclass(frozen=True)
class ScheduledRound:
    """One round of the table, board one first; ``resting`` meets the dummy (odd fields)."""

    number: int
    pairings: tuple[Pairing, ...]
    resting: int | None = None


def berger_table(players: int, cycles: int = 1) -> tuple[ScheduledRound, ...]:
    """The Berger table for ``players`` (start numbers ``1..players``) in ``cycles`` cycles."""
    if players < 2 or cycles not in (1, 2):
        raise RoundRobinSizeError(players, cycles)
    size = players + players % 2
    first_cycle = [_berger_round(size, number) for number in range(1, size)]
    if cycles == 2 and len(first_cycle) >= 2:
        first_cycle[-2], first_cycle[-1] = first_cycle[-1], first_cycle[-2]
    rounds = first_cycle
    if cycles == 2:
        rounds = first_cycle + [
            [(black, white) for white, black in pairs] for pairs in (_berger_round(size, n) for n in range(1, size))
        ]
    return tuple(_without_dummy(number, pairs, players) for number, pairs in enumerate(rounds, start=1))


def round_robin_games(start_numbers: list[int], cycles: int = 1) -> tuple[Game, ...]:
    """Pending games of a round robin between ``start_numbers`` taken as Berger numbers 1, 2, …"""
    table = berger_table(len(start_numbers), cycles)
    return tuple(
        Game(scheduled.number, start_numbers[pairing.white - 1], start_numbers[pairing.black - 1])
        for scheduled in table
        for pairing in scheduled.pairings
    )


def _berger_round(size: int, number: int) -> list[tuple[int, int]]:
    rotating = size - 1
    pivot = ((number - 1) * size // 2) % rotating + 1
    pairs = [(pivot, size) if number % 2 else (size, pivot)]
    for board in range(2, size // 2 + 1):
        white = (pivot + board - 2) % rotating + 1
        black = (pivot - board) % rotating + 1
        pairs.append((white, black))
    return pairs


def _without_dummy(number: int, pairs: list[tuple[int, int]], players: int) -> ScheduledRound:
    resting = next((min(pair) for pair in pairs if max(pair) > players), None)
    kept = tuple(Pairing(white, black) for white, black in pairs if max(white, black) <= players)
    return ScheduledRound(number, kept, resting)


def format_table(table: tuple[ScheduledRound, ...]) -> str:
    """The table as text, one round a line: ``Rd 1: 1-6  2-5  3-4``."""
    lines = []
    for scheduled in table:
        games = "  ".join(f"{pairing.white}-{pairing.black}" for pairing in scheduled.pairings)
        rest = f"  (rests: {scheduled.resting})" if scheduled.resting is not None else ""
        lines.append(f"Rd {scheduled.number:2d}: {games}{rest}")
    return "\n".join(lines)
