"""Berger tables against FIDE C.05 Annex 1 (printed tables and FIDE's rotation rule), 3–24 players."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from scoring.roundrobin import berger_table, round_robin_games

# FIDE C.05 Annex 1, as printed.
FIDE_TABLES = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1",
    ],
}


def _as_text(players: int) -> list[str]:
    return [" ".join(f"{p.white}-{p.black}" for p in r.pairings) for r in berger_table(players)]


@pytest.mark.parametrize("players", sorted(FIDE_TABLES))
def test_printed_fide_tables(players: int) -> None:
    assert _as_text(players) == FIDE_TABLES[players]


def _fide_rotation(size: int) -> list[list[tuple[int, int]]]:
    """FIDE's construction, independent of ours: round 1 is 1-n, 2-(n-1), …; each next round adds
    n/2 to every number but n (modulo n-1) and turns board one round."""
    current = [(1, size)] + [(board, size + 1 - board) for board in range(2, size // 2 + 1)]
    rounds = [current]
    for _ in range(size - 2):
        shift = [
            tuple(x if x == size else (x - 1 + size // 2) % (size - 1) + 1 for x in pair) for pair in current
        ]
        first = shift[0]
        current = [(first[1], first[0])] + [(w, b) for w, b in shift[1:]]
        rounds.append(current)
    return rounds


@pytest.mark.parametrize("players", range(3, 25))
def test_tables_equal_fide_rotation_for_3_to_24_players(players: int) -> None:
    size = players + players % 2
    expected = [[(w, b) for w, b in r if max(w, b) <= players] for r in _fide_rotation(size)]
    table = berger_table(players)
    assert [[(p.white, p.black) for p in r.pairings] for r in table] == expected
    pairs = [frozenset((p.white, p.black)) for r in table for p in r.pairings]
    assert len(pairs) == len(set(pairs)) == players * (players - 1) // 2
    if players % 2:
        assert sorted(r.resting for r in table if r.resting is not None) == list(range(1, players + 1))


@pytest.mark.parametrize("players", range(3, 25))
def test_double_round_robin_reverses_colours_without_three_in_a_row(players: int) -> None:
    table = berger_table(players, cycles=2)
    assert len(table) == 2 * (players + players % 2 - 1)
    games = [(p.white, p.black) for r in table for p in r.pairings]
    assert sorted(games) == sorted((b, w) for w, b in games)
    for player in range(1, players + 1):
        colours = "".join("w" if p.white == player else "b" for r in table for p in r.pairings if player in (p.white, p.black))
        assert "www" not in colours and "bbb" not in colours, (player, colours)


def test_games_for_start_numbers() -> None:
    games = round_robin_games([11, 12, 13])
    assert [(g.round, g.white, g.black) for g in games] == [(1, 12, 13), (2, 11, 12), (3, 13, 11)]


@pytest.mark.parametrize("players,cycles", [(1, 1), (0, 1), (4, 3)])
def test_impossible_round_robin(players: int, cycles: int) -> None:
    with pytest.raises(ScoringError, match="impossible"):
        berger_table(players, cycles)
