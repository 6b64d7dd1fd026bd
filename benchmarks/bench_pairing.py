"""Benchmark of the Swiss pairing: one round after eight, and a soak of many events.

Usage::

    .venv/bin/python benchmarks/bench_pairing.py                 # 1,000 and 10,000 players, soak 1,000
    .venv/bin/python benchmarks/bench_pairing.py --sizes 1000 --soak 200 --systems coefficients
    BBPPAIRINGS=/path/to/bbpPairings.exe .venv/bin/python benchmarks/bench_pairing.py --soak 0

For each size and program an event is generated and played for eight rounds with our own
pairings (not timed), then round 9 is paired and its CPU time (``time.process_time``) printed.
The in-run peer is the same engine with the incremental matching switched off (every
feasibility check rebuilds the maximum matching from scratch), run on the 1,000-player field
only.

The external peer is bbpPairings (C++, FIDE Dutch), the reference peer.  When a binary
is found (``--bbp``, else ``$BBPPAIRINGS``, else ``benchmarks/.peers/bbpPairings``, which
``benchmarks/peers/build-bbppairings.sh`` builds), the event of the first program in
``--systems`` is written as TRF-16 (``scoring.trf.write_trf``; withdrawn players carry a
known absence ``Z`` in round 9, which bbpPairings reads as "not to be paired") and paired by
``bbpPairings --dutch input.trf -p``; its CPU time (user + system of the child process) is
printed with the ratio to ours on the same file, and its pairing is re-checked against our
absolute criteria.  TRF-16 has four-digit start numbers, so fields above 9,999 players cannot be
given to it.  Without a binary the issue's quoted figure (about 40 s for 1,000 players) stands in.

The pathological fields stress the colour limits: most players must have black, so many pairs
are impossible and the matching has to work hard.

The soak pairs ``--soak`` generated events (8-200 players, 5-11 rounds, every program,
withdrawals and absences) and re-checks every round against the absolute criteria.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.model import Colour, Game, Tournament, Unpaired  # noqa: E402
from scoring.pairing import matching  # noqa: E402
from scoring.pairing import pool as pool_module  # noqa: E402
from scoring.pairing.checker import check_round, check_tournament  # noqa: E402
from scoring.pairing.engine import pair_round  # noqa: E402
from scoring.pairing.generate import generate_event  # noqa: E402
from scoring.pairing.history import entrants_before  # noqa: E402
from scoring.pairing.model import Entrant, PairingSystem  # noqa: E402
from scoring.result import Result  # noqa: E402
from scoring.trf import write_trf  # noqa: E402

#: The published figure of bbpPairings, used only when no bbpPairings binary is available.
BBPPAIRINGS_QUOTED_1000_SECONDS = 40.0
DEFAULT_BBP = Path(__file__).resolve().parent / ".peers" / "bbpPairings"
TRF16_MAX_START_NO = 9999
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


def time_round(players: int, system: str, seed: int) -> tuple[float, int, Tournament]:
    tournament = generate_event(players, 8, seed, system).tournament
    entrants = entrants_before(tournament, 9)
    start = time.process_time()
    draw = pair_round(entrants, 9, system, seed)
    return time.process_time() - start, len(draw.pairs), tournament


def find_bbp(explicit: str | None) -> Path | None:
    for candidate in (explicit, os.environ.get("BBPPAIRINGS"), str(DEFAULT_BBP)):
        if candidate and os.access(candidate, os.X_OK) and Path(candidate).is_file():
            return Path(candidate)
    return None


def round_nine_file(tournament: Tournament) -> tuple[Tournament, str]:
    """The event as bbpPairings is asked to pair round 9: nine rounds planned, and every
    withdrawn player known absent from round 9 (TRF ``Z``: not paired, no points)."""
    withdrawn = [e.start_no for e in entrants_before(tournament, 9) if e.withdrawn]
    asked = replace(
        tournament,
        rounds=9,
        unpaired=tournament.unpaired + tuple(Unpaired(9, n, Result.ABSENT) for n in withdrawn),
    )
    return asked, write_trf(asked)


def child_cpu(command: list[str], timeout: float) -> tuple[float, subprocess.CompletedProcess[str]]:
    """CPU seconds (user + system) of one child process, and how it ended."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done


def time_our_process(tournament: Tournament, system: str, seed: int) -> float:
    """Ours as a whole process on the same event: ``python -m scoring pair FILE`` (start-up,
    reading TRF-16, replaying eight rounds, pairing, writing JSON).  Our file keeps withdrawals
    in its ``CMW`` lines, so it needs no ``Z`` for round 9."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "round9.trf")
        source.write_text(write_trf(replace(tournament, rounds=9)), encoding="ascii")
        command = [sys.executable, "-m", "scoring", "pair", str(source), "--system", system]
        cpu, done = child_cpu([*command, "--seed", str(seed), "--format", "json"], 600)
    if done.returncode != 0:
        raise SystemExit(f"python -m scoring pair failed: {done.stderr.strip()}")
    return cpu


def time_bbp(binary: Path, tournament: Tournament, timeout: float) -> tuple[float, int, int]:
    """bbpPairings' CPU seconds for round 9, its pairs, and how many of our absolute criteria
    its pairing breaks (``check_round``; FIDE Dutch keeps stricter colour limits than ours)."""
    asked, text = round_nine_file(tournament)
    with tempfile.TemporaryDirectory() as folder:
        source, output = Path(folder, "round9.trf"), Path(folder, "pairs.txt")
        source.write_text(text, encoding="ascii")
        cpu, done = child_cpu([str(binary), "--dutch", str(source), "-p", str(output)], timeout)
        if done.returncode != 0:
            raise SystemExit(f"bbpPairings failed ({done.returncode}): {done.stderr.strip()}")
        lines = output.read_text(encoding="ascii").split()
    numbers = [int(n) for n in lines[1:]]
    games, bye = [], []
    for white, black in zip(numbers[::2], numbers[1::2], strict=True):
        if black == 0:
            bye.append(Unpaired(9, white, Result.BYE))
        else:
            games.append(Game(9, white, black))
    paired = asked.with_round(games, bye)
    return cpu, len(games), len(check_round(paired, 9))


def time_peer(players: int, system: str, seed: int) -> float:
    original = matching.Matcher
    pool_module.Matcher = _FromScratchMatcher  # type: ignore[attr-defined]
    try:
        return time_round(players, system, seed)[0]
    finally:
        pool_module.Matcher = original  # type: ignore[attr-defined]


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
    parser.add_argument("--bbp", help="bbpPairings binary (default: $BBPPAIRINGS, .peers/)")
    parser.add_argument("--bbp-timeout", type=float, default=1800, help="seconds per run")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    systems = [s for s in args.systems.split(",") if s]
    bbp = find_bbp(args.bbp)
    print("one round (round 9) after eight played rounds, CPU seconds:")
    events: dict[int, tuple[float, Tournament]] = {}
    for players in sizes:
        for system in systems:
            elapsed, pairs, tournament = time_round(players, system, args.seed)
            events.setdefault(players, (elapsed, tournament))
            line = f"  {players:6d} players  {system:<13} {elapsed:7.3f} s  ({pairs} pairs)"
            if players == 1000 and bbp is None:
                ratio = BBPPAIRINGS_QUOTED_1000_SECONDS / elapsed
                line += f"   bbpPairings quoted {BBPPAIRINGS_QUOTED_1000_SECONDS:.0f} s: x{ratio:,.0f}"
            print(line)
    if bbp is None:
        print("bbpPairings: no binary (--bbp, $BBPPAIRINGS or benchmarks/.peers/bbpPairings)")
    else:
        print(f"bbpPairings --dutch on the same TRF-16 file ({systems[0]} event), CPU seconds:")
        for players, (ours, tournament) in events.items():
            if players > TRF16_MAX_START_NO:
                print(
                    f"  {players:6d} players  not run: TRF-16 start numbers have four digits "
                    f"(at most {TRF16_MAX_START_NO:,} players)"
                )
                continue
            cpu, pairs, breaches = time_bbp(bbp, tournament, args.bbp_timeout)
            process = time_our_process(tournament, systems[0], args.seed)
            print(
                f"  {players:6d} players  bbpPairings {cpu:8.2f} s  ({pairs} pairs, {breaches} "
                f"breaches of our absolute criteria)\n"
                f"{'':16}pairing call: ours {ours:.3f} s, bbpPairings x{cpu / ours:,.0f}\n"
                f"{'':16}whole process on the same file (python -m scoring pair): ours "
                f"{process:.2f} s, bbpPairings x{cpu / process:,.0f}"
            )
    if not args.no_peer and 1000 in sizes:
        system = systems[0]
        ours = time_round(1000, system, args.seed)[0]
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
