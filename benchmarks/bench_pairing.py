"""Benchmark of the Swiss pairing (issue 5): one round after eight, and a soak of many events.

Usage::

    .venv/bin/python benchmarks/bench_pairing.py                 # 1,000 and 10,000 players, soak 1,000
    .venv/bin/python benchmarks/bench_pairing.py --sizes 1000 --soak 200 --systems coefficients

For each size and program an event is generated and played for eight rounds with our own
pairings (not timed), then round 9 is paired and its CPU time (``time.process_time``) printed.
The in-run peer is the same engine with the incremental matching switched off (every
feasibility check rebuilds the maximum matching from scratch), run on the 1,000-player field
only.  The external anchor is bbpPairings (C++, FIDE Dutch): about 40 s CPU for one round of
1,000 players on this kind of machine, as quoted in issue 5 (not runnable here: no binary).

The pathological fields stress the colour limits: most players must have black, so many pairs
are impossible and the matching has to work hard.

The soak pairs ``--soak`` generated events (8-200 players, 5-11 rounds, every program,
withdrawals and absences) and re-checks every round against the absolute criteria.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.model import Colour  # noqa: E402
from scoring.pairing import matching  # noqa: E402
from scoring.pairing import pool as pool_module  # noqa: E402
from scoring.pairing.checker import check_tournament  # noqa: E402
from scoring.pairing.engine import pair_round  # noqa: E402
from scoring.pairing.generate import generate_event  # noqa: E402
from scoring.pairing.history import entrants_before  # noqa: E402
from scoring.pairing.model import Entrant, PairingSystem  # noqa: E402

BBPPAIRINGS_1000_SECONDS = 40.0
W, B = Colour.WHITE, Colour.BLACK


class _FromScratchMatcher(matching.Matcher):
    """The peer: every removal is checked by rebuilding a maximum matching from nothing."""

    def try_remove(self, vertices, max_exposed=0):  # type: ignore[no-untyped-def]
        removed = set(vertices)
        rest = [v for v in self._active if v not in removed]
        rebuilt = matching.Matcher(rest, self._allowed)
        if rebuilt.exposed_count() > max_exposed:
            return False
        self.__dict__.update(rebuilt.__dict__)
        return True


def time_round(players: int, system: str, seed: int) -> tuple[float, int]:
    tournament = generate_event(players, 8, seed, system).tournament
    entrants = entrants_before(tournament, 9)
    start = time.process_time()
    draw = pair_round(entrants, 9, system, seed)
    return time.process_time() - start, len(draw.pairs)


def time_peer(players: int, system: str, seed: int) -> float:
    original = matching.Matcher
    pool_module.Matcher = _FromScratchMatcher  # type: ignore[misc]
    try:
        return time_round(players, system, seed)[0]
    finally:
        pool_module.Matcher = original  # type: ignore[misc]


def time_pathological(players: int, share: float, seed: int) -> tuple[float, int]:
    """A field where ``share`` of the players had black, white, white (must have black under
    002's "two running") and the rest mixed histories; their old opponents have withdrawn."""
    rng = random.Random(seed)
    entrants: list[Entrant] = []
    spare = players + 1
    mixed = [(W, B, W), (B, W, B), (W, B, B)]
    for start_no in range(1, players + 1):
        colours = (B, W, W) if rng.random() < share else rng.choice(mixed)
        opponents = tuple(range(spare, spare + 3))
        spare += 3
        entrants.append(Entrant(start_no, float(rng.randint(0, 3)), 0, opponents, colours))
        entrants += [
            Entrant(o, 0.0, 0, (start_no,), (c.opposite,), withdrawn=True)
            for o, c in zip(opponents, colours, strict=True)
        ]
    start = time.process_time()
    draw = pair_round(entrants, 4, "coefficients", seed)
    thirds = sum(1 for note in draw.notes if "third game running" in note)
    return time.process_time() - start, thirds


def soak(count: int, seed: int) -> None:
    rng = random.Random(seed)
    systems = [s.value for s in PairingSystem]
    start = time.perf_counter()
    rounds_checked = stopped = 0
    for index in range(count):
        players = rng.randint(8, 200)
        generated = generate_event(
            players,
            rng.randint(5, 11),
            rng.randrange(10**9),
            systems[index % len(systems)],
            withdrawal_rate=rng.choice([0.0, 0.01, 0.03]),
            absence_rate=rng.choice([0.0, 0.02, 0.05]),
        )
        report = check_tournament(generated.tournament)
        if report.violations:
            raise SystemExit(f"event {index}: {report.violations[0]}")
        rounds_checked += generated.tournament.last_round
        stopped += generated.stopped is not None
    elapsed = time.perf_counter() - start
    print(
        f"soak: {count} events, {rounds_checked} rounds re-checked, 0 breaches of the absolute "
        f"criteria, {stopped} stopped early (no legal pairing), {elapsed:.1f} s wall"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--systems", default=",".join(s.value for s in PairingSystem))
    parser.add_argument("--soak", type=int, default=1000, help="events in the soak (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    systems = [s for s in args.systems.split(",") if s]
    print("one round (round 9) after eight played rounds, CPU seconds:")
    for players in sizes:
        for system in systems:
            elapsed, pairs = time_round(players, system, args.seed)
            line = f"  {players:6d} players  {system:<13} {elapsed:7.3f} s  ({pairs} pairs)"
            if players == 1000:
                line += f"   bbpPairings anchor {BBPPAIRINGS_1000_SECONDS:.0f} s: x{BBPPAIRINGS_1000_SECONDS / elapsed:,.0f}"
            print(line)
    if not args.no_peer and 1000 in sizes:
        system = systems[0]
        ours, _ = time_round(1000, system, args.seed)
        peer = time_peer(1000, system, args.seed)
        print(
            f"peer (same engine, matching rebuilt for every check), 1000 players, {system}: "
            f"{peer:.3f} s vs ours {ours:.3f} s: incremental is x{peer / ours:,.1f} faster"
        )
    print("pathological colours (round 4, coefficients), CPU seconds:")
    for players, share in ((2000, 0.7), (2000, 1.0)):
        elapsed, thirds = time_pathological(players, share, args.seed)
        print(
            f"  {players:6d} players, {share:.0%} must have black: {elapsed:7.3f} s "
            f"({thirds} allowed a third colour running)"
        )
    if args.soak:
        soak(args.soak, args.seed)


if __name__ == "__main__":
    main()
