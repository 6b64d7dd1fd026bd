"""Properties on generated events and an exhaustive search on small fields.

The thousands-of-tournaments run lives in ``benchmarks/bench_pairing.py --soak``; here a bounded,
derandomized sample keeps this folder well under a minute.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.model import Colour
from scoring.pairing.checker import check_tournament
from scoring.pairing.colours import can_split, permitted_colours
from scoring.pairing.engine import pair_round
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.generate import generate_event
from scoring.pairing.model import Entrant, PairingSystem

SYSTEMS = [system.value for system in PairingSystem]
BOUNDED = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@BOUNDED
@given(
    players=st.integers(8, 60),
    rounds=st.integers(5, 11),
    seed=st.integers(0, 10_000),
    system=st.sampled_from(SYSTEMS),
    withdrawals=st.sampled_from([0.0, 0.02, 0.05]),
    absences=st.sampled_from([0.0, 0.03, 0.08]),
)
def test_generated_events_keep_every_absolute_criterion(
    players: int, rounds: int, seed: int, system: str, withdrawals: float, absences: float
) -> None:
    generated = generate_event(
        players, rounds, seed, system, withdrawal_rate=withdrawals, absence_rate=absences
    )
    report = check_tournament(generated.tournament)
    assert report.violations == []
    # Only a field too small for its rounds may run out of legal pairings.
    assert generated.stopped is None or players <= 12


@pytest.mark.parametrize("system", SYSTEMS)
def test_two_hundred_players_eleven_rounds(system: str) -> None:
    generated = generate_event(200, 11, 2024, system, withdrawal_rate=0.02, absence_rate=0.03)
    assert generated.stopped is None
    assert check_tournament(generated.tournament, system, 2024).clean


def random_field(rng: random.Random, size: int) -> list[Entrant]:
    """A small field after a few random rounds: random meetings, random colours."""
    met: dict[int, list[int]] = {n: [] for n in range(1, size + 1)}
    colours: dict[int, list[Colour]] = {n: [] for n in range(1, size + 1)}
    for _ in range(rng.randint(0, size - 1)):
        order = list(met)
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=False):
            if b in met[a] or rng.random() < 0.2:
                continue
            white, black = (a, b) if rng.random() < 0.5 else (b, a)
            met[a].append(b)
            met[b].append(a)
            colours[white].append(Colour.WHITE)
            colours[black].append(Colour.BLACK)
    return [
        Entrant(
            start_no=n,
            score=float(rng.randint(0, 4)),
            opponents=tuple(met[n]),
            colours=tuple(colours[n]),
            had_point_without_play=rng.random() < 0.3,
        )
        for n in met
    ]


def legal(a: Entrant, b: Entrant) -> bool:
    return b.start_no not in a.opponents and can_split(
        permitted_colours(a.colours), permitted_colours(b.colours)
    )


def perfect_matchings(players: list[Entrant]) -> Iterator[list[tuple[Entrant, Entrant]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        if legal(first, other):
            for tail in perfect_matchings(rest[:index] + rest[index + 1 :]):
                yield [(first, other), *tail]


def brute_force_exists(field: list[Entrant]) -> bool:
    if len(field) % 2 == 0:
        return next(perfect_matchings(field), None) is not None
    return any(
        next(perfect_matchings([e for e in field if e is not bye]), None) is not None
        for bye in field
        if not bye.had_point_without_play
    )


@pytest.mark.parametrize("seed", range(150))
def test_a_legal_pairing_is_found_exactly_when_one_exists(seed: int) -> None:
    rng = random.Random(seed)
    field = random_field(rng, rng.randint(2, 9))
    system = SYSTEMS[seed % len(SYSTEMS)]
    exists = brute_force_exists(field)
    try:
        draw = pair_round(field, 5, system, seed)
    except NoLegalPairingError as error:
        assert not exists, f"missed a legal pairing: {error}"
        assert error.blocked or "point without play" in error.reason
        return
    assert exists
    by_number = {e.start_no: e for e in field}
    paired = [n for pair in draw.pairs for n in (pair.white, pair.black)]
    assert sorted(paired + ([draw.bye] if draw.bye else [])) == sorted(by_number)
    if draw.bye is not None:
        assert not by_number[draw.bye].had_point_without_play
    for pair in draw.pairs:
        white, black = by_number[pair.white], by_number[pair.black]
        assert legal(white, black)
        assert Colour.WHITE in permitted_colours(white.colours)
        assert Colour.BLACK in permitted_colours(black.colours)


def test_exhaustive_search_agrees_on_every_field_of_four() -> None:
    # Every meeting graph on four players (64 of them), colours alternating, nobody with a bye.
    pairs = list(itertools.combinations(range(1, 5), 2))
    for mask in range(1 << len(pairs)):
        chosen = [p for i, p in enumerate(pairs) if mask >> i & 1]
        met: dict[int, list[int]] = {n: [] for n in range(1, 5)}
        for a, b in chosen:
            met[a].append(b)
            met[b].append(a)
        field = [
            Entrant(
                n,
                0.0,
                0,
                tuple(met[n]),
                tuple(Colour.WHITE if i % 2 else Colour.BLACK for i in range(len(met[n]))),
            )
            for n in met
        ]
        exists = brute_force_exists(field)
        try:
            pair_round(field, 4, "coefficients")
            assert exists
        except NoLegalPairingError:
            assert not exists
