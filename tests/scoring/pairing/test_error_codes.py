"""Every refusal of the pairing engine carries a code and its values beside its English, which
stays as it was (the command line prints it): a service words the code in its reader's language
(docs/architecture.md). Each case provokes the refusal through the engine's own entry points."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.errors import START_NUMBER_VALUES, ErrorValue, ScheduleError, ScoringError
from scoring.model import Colour
from scoring.pairing import (
    Draw,
    Entrant,
    Pair,
    PairingSystem,
    check_round,
    entrants_before,
    pair_round,
    parse_system,
    redraw,
    team_entrants_before,
    validate_entrants,
)
from scoring.pairing.cli import next_round, run_pair
from scoring.teams import scheveningen_schedule
from scoring.trf import write_trf

from .conftest import build_event

W, B = Colour.WHITE, Colour.BLACK


def _raised(call: Callable[[], object]) -> ScoringError:
    with pytest.raises(ScoringError) as raised:
        call()
    return raised.value


def _pair_next(players: int, *rounds: str) -> Callable[[], object]:
    event = build_event(players, *rounds)
    number = len(rounds) + 1
    return lambda: pair_round(entrants_before(event, number), number, "coefficients")


def _cli_pair(tmp_path: Path, absent: str) -> Callable[[], object]:
    path = tmp_path / "event.trf"
    path.write_text(write_trf(build_event(4, "1-2 1-0; 3-4 1-0")), encoding="utf-8")
    args = argparse.Namespace(file=str(path), system="coefficients", seed=0, absent=absent,
                              format="json", teams=False)
    return lambda: run_pair(args)


def _redraw_without(gone: int) -> Callable[[], object]:
    """Three players: round 2 (3-1, bye 2) published, then player 3 is known absent."""
    event = build_event(3, "1-2 1-0; 3 bye", "3-1 *; 2 bye")
    published = Draw(2, PairingSystem.COEFFICIENTS, (Pair(3, 1),), bye=2)
    return lambda: redraw(entrants_before(event, 2, absent=[gone]), published)


#: (what provokes it, its code, its values, its English as the engine has always written it).
CASES: dict[str, tuple[Callable[[Path], Callable[[], object]], dict[str, ErrorValue], str]] = {
    "start_number_below_one": (
        lambda _: lambda: validate_entrants([Entrant(0), Entrant(1)]),
        {"player": 0}, "player 0: start numbers begin at 1 (000 §3.18.5.1)"),
    "start_number_twice": (
        lambda _: lambda: validate_entrants([Entrant(1), Entrant(1)]),
        {"player": 1}, "player 1: start number used twice (000 §3.18.5.1)"),
    "colours_not_games": (
        lambda _: lambda: validate_entrants([Entrant(1, opponents=(2,)), Entrant(2)]),
        {"player": 1, "games": 1, "colours": 0}, "player 1: 1 games played but 0 colours"),
    "met_twice": (
        lambda _: lambda: validate_entrants([Entrant(1, opponents=(2, 2), colours=(W, B))]),
        {"player": 1}, "player 1: met the same opponent twice (000 §3.18.2)"),
    "meets_himself": (
        lambda _: lambda: validate_entrants([Entrant(1, opponents=(1,), colours=(W,))]),
        {"player": 1}, "player 1: recorded as meeting himself"),
    "opponent_not_in_event": (
        lambda _: lambda: validate_entrants([Entrant(1, opponents=(5,), colours=(W,))]),
        {"player": 1, "opponent": 5}, "player 1: opponent 5 is not in the event"),
    "game_not_in_history": (
        lambda _: lambda: validate_entrants([Entrant(1, opponents=(2,), colours=(W,)),
                                             Entrant(2)]),
        {"player": 1, "opponent": 2}, "player 1: met 2, whose history does not list the game"),
    "absent_not_in_event": (
        lambda tmp: _cli_pair(tmp, "9"),
        {"player": 9}, "player 9: named absent (--absent) but not in the tournament"),
    "absent_not_a_number": (
        lambda tmp: _cli_pair(tmp, "x"),
        {"text": "x"}, "--absent: 'x' is not a start number"),
    "unknown_system": (
        lambda _: lambda: parse_system("dutch"),
        {"name": "dutch", "known": ("random", "coefficients", "solkoff", "buchholz")},
        "unknown pairing system 'dutch'; known: random, coefficients, solkoff, buchholz "
        "(000 §3.18.3-3.18.7)"),
    "no_teams": (
        lambda _: lambda: team_entrants_before(build_event(4), 1),
        {}, "the tournament has no teams (000 §3.17.1)"),
    "round_below_one": (
        lambda _: lambda: pair_round([Entrant(1), Entrant(2)], 0, "random"),
        {"round": 0}, "round 0: no legal pairing: rounds are numbered from 1"),
    "every_bye_taken": (
        lambda _: _pair_next(3, "1-3 =; 2 bye", "2-3 =; 1 bye", "1-2 =; 3 bye"),
        {"round": 4},
        "round 4: no legal pairing: odd number of players and every one has already had a point "
        "without play (000 §3.18.2)"),
    "cannot_meet_anyone": (
        lambda _: _pair_next(4, "2-1 =; 4-3 =", "4-1 =; 2-3 ="),
        {"round": 3, "players": (1, 2, 3, 4)},
        "round 3: no legal pairing: player(s) [1, 2, 3, 4] cannot meet anyone: every other "
        "player already met (000 §3.18.2) or no colour within the limits (000 §3.18.2, 002)"),
    "no_legal_opponent": (
        lambda _: _pair_next(6, "1-5 =; 4-2 =; 6-3 =", "6-5 =; 3-2 =; 4-1 =",
                             "4-6 =; 5-2 =; 3-1 ="),
        {"round": 4, "players": (5, 6)},
        "round 4: no legal pairing: players [5, 6] have no legal opponent left "
        "(000 §3.18.2, 002)"),
    "odd_blocks": (
        lambda _: _pair_next(6, "4-5 =; 6-1 =; 2-3 =", "4-1 =; 2-6 =; 5-3 =",
                             "6-5 =; 2-1 =; 4-3 ="),
        {"round": 4, "players": (1, 2), "count": 1, "others": (5,)},
        "round 4: no legal pairing: players [1, 2] may meet only one another (in blocks of odd "
        "size) or the 1 player(s) [5], too few for them, so one is left over (never the same "
        "pair twice, colour limits: 000 §3.18.2, 002)"),
    "redraw_blocked": (
        lambda _: _redraw_without(3),
        {"round": 2, "players": (1, 2)},
        "round 2: no legal pairing: the players [1, 2] cannot be paired again without breaking "
        "000 §3.18.2"),
    "results_missing": (
        lambda _: lambda: next_round(build_event(4, "1-2 *; 3-4 1-0")),
        {"round": 2, "previous": 1, "whites": (1,)},
        "round 2: round 1 still has games without a result (white [1]); a Swiss round is paired "
        "from the results of the previous one (000 §3.18.1)"),
    "all_rounds_paired": (
        lambda _: lambda: next_round(build_event(4, "1-2 1-0; 3-4 1-0", total_rounds=1)),
        {"round": 2, "rounds": 1}, "round 2: the event has 1 rounds, all paired"),
    "scheveningen_size": (
        lambda _: lambda: scheveningen_schedule(0),
        {"size": 0}, "a Scheveningen match needs at least one player(s) a team, not 0"),
    "semi_scheveningen_size": (
        lambda _: lambda: scheveningen_schedule(3, semi=True),
        {"size": 3}, "a semi-Scheveningen match needs an even number of player(s) a team, not 3"),
}


@pytest.mark.parametrize("code", list(CASES))
def test_every_refusal_carries_its_code_and_values(tmp_path: Path, code: str) -> None:
    provoke, values, english = CASES[code]
    error = _raised(provoke(tmp_path))
    assert (error.code, dict(error.values), str(error)) == (code, values, english)


def test_matching_refusals_name_who_could_not_take_the_bye() -> None:
    """An odd field whose bye nobody can take without stranding the rest (000 §3.18.2)."""
    error = _raised(_pair_next(5, "2-5 =; 4-3 =; 1 bye", "1-5 =; 3-2 =; 4 bye",
                               "3-1 =; 4-5 =; 2 bye"))
    assert error.code == "no_legal_opponent"
    assert dict(error.values) == {"round": 4, "players": (3, 4), "bye_candidates": (3, 5)}
    assert str(error) == (
        "round 4: no legal pairing: players [3, 4] have no legal opponent left (000 §3.18.2, "
        "002) whoever of [3, 5] takes the bye (000 §3.18.2: never a second point without play)")


#: A round published against an absolute criterion: (players, earlier rounds, withdrawals, the
#: round, the breaches' codes and values, the English of each).
BREACHES = [
    (4, ["1-2 1-0; 3-4 1-0"], [], "2-1 *; 4-3 *",
     [("met_before", {"white": 2, "black": 1}, "round 2: 2 and 1 have met before (000 §3.18.2)"),
      ("met_before", {"white": 4, "black": 3}, "round 2: 4 and 3 have met before (000 §3.18.2)")]),
    (4, [], [(4, 0)], "1-2 *; 3-4 *",
     [("withdrawn_paired", {"player": 4},
       "round 1: player 4 has withdrawn but is paired (000 §3.18.2)")]),
    (4, ["1-2 1-0; 3-4 1-0", "1-3 1-0; 2-4 1-0"], [], "1-4 *; 3-2 *",
     [("colour_limits", {"player": 1, "colour": "white"},
       "round 3: player 1 gets white beyond the colour limits (never four in a row, whites and "
       "blacks at most two apart) (000 §3.18.2, 002)"),
      ("colour_limits", {"player": 4, "colour": "black"},
       "round 3: player 4 gets black beyond the colour limits (never four in a row, whites and "
       "blacks at most two apart) (000 §3.18.2, 002)")]),
    (5, ["1-2 1-0; 3-4 1-0; 5 bye"], [], "1-3 *; 2 bye; 4 bye",
     [("byes", {"count": 2}, "round 2: 2 byes in one round; at most one (000 §3.18.2)"),
      ("incomplete", {"players": (5,)},
       "round 2: players [5] are neither paired nor absent: the draw is incomplete (002)")]),
    (5, ["1-2 1-0; 3-4 1-0; 5 bye"], [], "1-3 *; 4-2 *; 5 bye",
     [("second_point_without_play", {"player": 5},
       "round 2: player 5 gets a second point without play (000 §3.18.2)")]),
    (6, [], [(6, 0)], "1-2 *; 3-4 *; 5 absent; 6 bye",
     [("withdrawn_bye", {"player": 6},
       "round 1: player 6 has withdrawn but gets the bye (000 §3.18.2)"),
      ("bye_even_number", {}, "round 1: a bye with an even number of players (000 §3.18.2)")]),
    (4, [], [], "1-2 *; 3 bye",
     [("bye_even_number", {}, "round 1: a bye with an even number of players (000 §3.18.2)"),
      ("incomplete", {"players": (4,)},
       "round 1: players [4] are neither paired nor absent: the draw is incomplete (002)")]),
]


@pytest.mark.parametrize(("players", "before", "withdrawals", "published", "breaches"), BREACHES)
def test_every_breach_of_a_published_round_carries_its_code_and_values(
    players: int, before: list[str], withdrawals: list[tuple[int, int]], published: str,
    breaches: list[tuple[str, dict[str, ErrorValue], str]],
) -> None:
    event = build_event(players, *before, published, withdrawals=withdrawals)
    found = check_round(event, len(before) + 1)
    assert [(v.code, dict(v.values), str(v)) for v in found] == breaches


def test_start_numbers_are_named_as_such() -> None:
    """A service shows these values with the players' names; nothing else is a start number."""
    assert {"player", "players", "opponent", "others", "white", "black", "whites",
            "bye_candidates"} == START_NUMBER_VALUES
    assert isinstance(_raised(lambda: scheveningen_schedule(0)), ScheduleError)
