"""Benchmark: recompute the time charts of a federation's archive (target: 100,000 games < 10 s).

Each generated game has 40 moves a side, i.e. 80 letters, with what a real archive holds: post
taking 1-9 days, replies the same day or after weeks, postmarks on most letters (some differing
from the declared date, half of those corrected), a few omitted receipt dates, penalties, late
repeats, a start sheet received late, and a break in about a third of the games (some notified
late or never). Games are generated in batches outside the timed region.

The peer, in the same run, is the straightforward referee's method: walk every day from the
receipt to the reply and skip it if it is a break day, on ``datetime.date`` objects, with the
same rules. It is timed on the first ``--peer-games`` games and its totals and oversteps are
compared with :func:`timekeeping.compute_chart`'s for every one of those games.

Run: .venv/bin/python benchmarks/bench_timekeeping.py [--games N] [--moves M] [--peer-games K]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Iterator
from datetime import date, timedelta

from timekeeping import Break, Ledger, LetterEntry, Side, TimeChart, compute_chart

W, B = Side.WHITE, Side.BLACK
BATCH = 1_000


def generate_game(rng: random.Random, moves: int) -> Ledger:
    start = date(2020, 1, 1) + timedelta(days=rng.randrange(6 * 365))
    sheets = {B: start + timedelta(days=rng.randint(1, 5))} if rng.random() < 0.1 else {}
    letters = [LetterEntry(W, 1, sent=start + timedelta(days=rng.choice((0, 0, 0, 2))))]
    current = letters[0].sent
    for index in range(1, 2 * moves):
        sender = B if index % 2 else W
        postmark = current + timedelta(days=1) if rng.random() < 0.02 else current
        received = postmark + timedelta(days=rng.randint(1, 9))
        think = rng.choice((0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 8, 12))
        current = received + timedelta(days=think)
        letters.append(LetterEntry(
            sender, index // 2 + 1, sent=current,
            received=None if rng.random() < 0.02 else received,
            partner_sent_postmark=postmark if rng.random() < 0.8 else None,
            corrects_partner=postmark != letters[-1].sent and rng.random() < 0.5,
            penalty_days_charged_to_partner=6 if rng.random() < 0.01 else 0,
            repeat_sent=current + timedelta(days=rng.randint(25, 40)) if rng.random() < 0.01 else None,
        ))
    breaks: tuple[Break, ...] = ()
    if rng.random() < 0.3:
        first = start + timedelta(days=rng.randrange(400))
        notice = rng.choice((first - timedelta(days=10), first - timedelta(days=10), first + timedelta(days=4), None))
        breaks = (Break(rng.choice((W, B)), first, first + timedelta(days=rng.randint(5, 29)), notice),)
    return Ledger(start_date=start, end_date=start + timedelta(days=3 * 365), start_sheet_received=sheets,
                  breaks=breaks, letters=tuple(letters))


def batches(games: int, moves: int, seed: int = 1) -> Iterator[list[Ledger]]:
    rng = random.Random(seed)
    for first in range(0, games, BATCH):
        yield [generate_game(rng, moves) for _ in range(min(BATCH, games - first))]


def naive_chart(ledger: Ledger) -> tuple[int, int, tuple[Side, int, int] | None]:
    """The referee's method, day by day, with a row (letter, days, white total, black total) per
    letter: returns (white total, black total, (player, letter, total) of the first overstep)."""
    break_days: set[date] = set()
    for brk in ledger.breaks:
        first = (brk.first_day if brk.counts_in_full or brk.notice_postmark is None
                 or brk.notice_postmark <= brk.first_day else brk.notice_postmark)
        if brk.notice_postmark is None and not brk.counts_in_full:
            continue
        day = first
        while day <= brk.last_day:
            break_days.add(day)
            day += timedelta(days=1)

    def count(after: date, through: date) -> int:
        days, day = 0, after + timedelta(days=1)
        while day <= through:
            if day not in break_days and (ledger.end_date is None or day <= ledger.end_date):
                days += 1
            day += timedelta(days=1)
        return days

    letters = ledger.letters
    sent = [letter.sent for letter in letters]
    for index in range(1, len(letters)):
        postmark = letters[index].partner_sent_postmark
        if letters[index].corrects_partner and postmark is not None and postmark != letters[index - 1].sent:
            sent[index - 1] = postmark
    # Every generated game alternates, so letter i answers letter i - 1.
    dispatch = [letters[0].sent] + [letters[i].partner_sent_postmark or sent[i - 1] for i in range(1, len(letters))]
    transits = [(received - dispatch[i]).days for i in range(1, len(letters))
                if (received := letters[i].received) is not None and received >= dispatch[i]]
    average = round_half_up(sum(transits), len(transits)) if transits else 0
    starts = {side: ledger.start_date for side in Side}
    for side, day in ledger.start_sheet_received.items():
        if day > ledger.start_date:
            starts[side] = day + timedelta(days=1)
    totals = {W: 0, B: 0}
    rows: list[tuple[int, int, int, int]] = []
    overstep = None
    for index, letter in enumerate(letters):
        if index == 0:
            received = starts[letter.sender]
        else:
            estimate = min(dispatch[index] + timedelta(days=average), letter.sent)
            received = max(letter.received or estimate, starts[letter.sender])
        days = count(received, sent[index])
        totals[letter.sender] += days
        if overstep is None and totals[letter.sender] > ledger.control.limit(letter.move - letter.uncounted_moves):
            overstep = (letter.sender, index + 1, totals[letter.sender])
        if letter.repeat_sent is not None:
            due, free = sent[index], 0
            while free < 30:
                due += timedelta(days=1)
                free += due not in break_days
            totals[letter.sender] += count(due, letter.repeat_sent)
        if letter.penalty_days_charged_to_partner and index > 0:
            totals[letter.sender.partner] += 6
        rows.append((index + 1, days, totals[W], totals[B]))
    return totals[W], totals[B], overstep


def summary(chart: TimeChart) -> tuple[int, int, tuple[Side, int, int] | None, int]:
    step = chart.overstep
    return (chart.totals.white, chart.totals.black,
            None if step is None else (step.player, step.letter, step.total), len(chart.rows))


def round_half_up(total: int, count: int) -> int:
    return (2 * total + count) // (2 * count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=40, help="moves a side (letters = 2 x moves)")
    parser.add_argument("--peer-games", type=int, default=10_000)
    arguments = parser.parse_args()

    ours_cpu = ours_wall = peer_cpu = 0.0
    peer_games = mismatches = letters = oversteps = 0
    for batch in batches(arguments.games, arguments.moves):
        # The batch's ledgers live for the whole batch: keep the cyclic collector from walking
        # them again and again while the charts are allocated (both implementations alike).
        gc.collect()
        gc.freeze()
        wall, cpu = time.perf_counter(), time.process_time()
        # What an archive recompute keeps of each chart: its totals, overstep and row count.
        summaries = [summary(compute_chart(ledger)) for ledger in batch]
        ours_cpu += time.process_time() - cpu
        ours_wall += time.perf_counter() - wall
        letters += sum(rows for _, _, _, rows in summaries)
        oversteps += sum(step is not None for _, _, step, _ in summaries)
        peer_batch = batch[: max(0, arguments.peer_games - peer_games)]
        if peer_batch:
            cpu = time.process_time()
            expected = [naive_chart(ledger) for ledger in peer_batch]
            peer_cpu += time.process_time() - cpu
            mismatches += sum(ours[:3] != theirs for ours, theirs in zip(summaries, expected, strict=False))
            peer_games += len(peer_batch)
        gc.unfreeze()

    per_game_ours = ours_cpu / arguments.games
    print(f"timekeeping.compute_chart: {arguments.games:,} games x {2 * arguments.moves} letters "
          f"({letters:,} letters, {oversteps:,} oversteps): {ours_cpu:.2f} s CPU ({ours_wall:.2f} s wall), "
          f"{per_game_ours * 1e6:.0f} us/game; target < 10 s: {'met' if ours_cpu < 10 else 'NOT met'}")
    if peer_games:
        per_game_peer = peer_cpu / peer_games
        print(f"naive day-by-day peer: {peer_games:,} games: {peer_cpu:.2f} s CPU, {per_game_peer * 1e6:.0f} us/game "
              f"(~{per_game_peer * arguments.games:.1f} s for {arguments.games:,}); "
              f"ours is {per_game_peer / per_game_ours:.1f}x faster; "
              f"results differing: {mismatches} of {peer_games:,}")


if __name__ == "__main__":
    main()
