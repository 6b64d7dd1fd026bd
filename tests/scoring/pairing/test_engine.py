"""Absolute criteria, byes, absences, errors and floats of the pairing engine."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.errors import ScoringError
from scoring.model import Colour
from scoring.pairing.engine import pair_round, parse_system
from scoring.pairing.errors import EntrantError, NoLegalPairingError, UnknownSystemError
from scoring.pairing.history import entrants_before
from scoring.pairing.model import Entrant, Float, FloatDirection, Pair, PairingSystem

from .conftest import EventFactory

W, B = Colour.WHITE, Colour.BLACK


def test_unknown_system_is_named_with_the_known_ones() -> None:
    with pytest.raises(UnknownSystemError) as caught:
        parse_system("dutch")
    assert caught.value.name == "dutch"
    assert "coefficients" in str(caught.value) and "000 §3.18" in str(caught.value)
    assert isinstance(caught.value, ScoringError)
    assert parse_system(" Buchholz ") is PairingSystem.BUCHHOLZ


@pytest.mark.parametrize(
    ("entrants", "player", "fragment"),
    [
        ([Entrant(1), Entrant(1)], 1, "used twice"),
        ([Entrant(0)], 0, "begin at 1"),
        ([Entrant(1, opponents=(1,), colours=(W,))], 1, "meeting himself"),
        ([Entrant(1, opponents=(9,), colours=(W,))], 1, "not in the event"),
        ([Entrant(1, opponents=(2,), colours=(W,)), Entrant(2)], 1, "does not list"),
        ([Entrant(1, opponents=(2,)), Entrant(2, opponents=(1,), colours=(B,))], 1, "colours"),
        (
            [
                Entrant(1, opponents=(2, 2), colours=(W, B)),
                Entrant(2, opponents=(1, 1), colours=(B, W)),
            ],
            1,
            "same opponent twice",
        ),
    ],
)
def test_impossible_histories_are_rejected(
    entrants: list[Entrant], player: int, fragment: str
) -> None:
    with pytest.raises(EntrantError) as caught:
        pair_round(entrants, 2, "coefficients")
    assert caught.value.start_no == player
    assert fragment in str(caught.value)


def test_round_numbers_start_at_one() -> None:
    with pytest.raises(NoLegalPairingError):
        pair_round([Entrant(1), Entrant(2)], 0, "random")


def _round_robin_done() -> list[Entrant]:
    # Four players after a complete round robin: nobody has a new opponent left.
    met = {1: (2, 3, 4), 2: (1, 4, 3), 3: (4, 1, 2), 4: (3, 2, 1)}
    colours = {1: (W, B, W), 2: (B, W, B), 3: (W, B, W), 4: (B, W, B)}
    return [Entrant(n, 1.5, 0, met[n], colours[n]) for n in range(1, 5)]


def test_no_legal_pairing_names_the_players_and_the_rule() -> None:
    with pytest.raises(NoLegalPairingError) as caught:
        pair_round(_round_robin_done(), 4, "coefficients")
    error = caught.value
    assert error.round_no == 4
    assert "000 §3.18.2" in str(error)
    assert "[1, 2, 3, 4] cannot meet anyone" in str(error)


def test_no_legal_pairing_reports_a_tutte_barrier() -> None:
    # 1, 2 and 3 met one another; each can meet only 4.
    met = {1: (2, 3), 2: (1, 3), 3: (1, 2), 4: ()}
    colours = {1: (W, B), 2: (B, W), 3: (W, B), 4: ()}
    extra = [Entrant(5, withdrawn=True), Entrant(6, withdrawn=True)]
    entrants = [Entrant(n, 1.0, 0, met[n], colours[n], had_point_without_play=n == 4) for n in met]
    with pytest.raises(NoLegalPairingError) as caught:
        pair_round(entrants + extra, 3, "buchholz")
    assert caught.value.barrier == (4,)
    assert "[4]" in caught.value.reason


def test_bye_goes_to_the_lowest_classified_without_a_point_without_play() -> None:
    # 000 §3.18.2: 5 is lowest but already had "+" (a forfeit win); 4 gets the bye.
    entrants = [Entrant(1, 1.0), Entrant(2, 1.0), Entrant(3, 0.0), Entrant(4, 0.0)]
    draw = pair_round(entrants + [Entrant(5, 0.0, had_point_without_play=True)], 2, "coefficients")
    assert draw.bye == 4
    assert any("bye" in note and "000 §3.18.2" in note for note in draw.notes)


def test_every_player_already_had_a_point_without_play() -> None:
    entrants = [Entrant(n, had_point_without_play=True) for n in range(1, 4)]
    with pytest.raises(NoLegalPairingError) as caught:
        pair_round(entrants, 2, "random")
    assert "point without play" in str(caught.value)


def test_withdrawn_are_left_out_and_absent_listed_with_zero() -> None:
    # 000 §3.18.2, 004.
    entrants = [
        Entrant(1),
        Entrant(2, withdrawn=True),
        Entrant(3, absent=True),
        Entrant(4),
        Entrant(5),
    ]
    draw = pair_round(entrants, 1, "coefficients", seed=3)
    paired = {n for p in draw.pairs for n in (p.white, p.black)}
    assert paired | {draw.bye} == {1, 4, 5}
    assert draw.absent == (3,)
    assert draw.bye == 5
    assert any("player 3 is absent" in note for note in draw.notes)


def test_a_third_colour_running_only_when_nothing_else_works() -> None:
    # 1 and 2 both had black, white, white: they can only meet each other.  A third white for
    # one of them is the exceptional case of 002; the note says who.
    met = {1: (3, 4, 5), 2: (6, 7, 8)}
    others = {3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2}
    entrants = [Entrant(n, 2.0, 0, met[n], (B, W, W)) for n in (1, 2)]
    for n, opponent in others.items():
        entrants.append(Entrant(n, 0.0, 0, (opponent,), (W,), withdrawn=True))
    draw = pair_round(entrants, 4, "coefficients")
    assert draw.pairs == (Pair(2, 1),) or draw.pairs == (Pair(1, 2),)
    assert any("exceptional" in note for note in draw.notes)


def _two_with_histories(first: tuple[Colour, ...], second: tuple[Colour, ...]) -> list[Entrant]:
    """Players 1 and 2 with these colours against withdrawn opponents 11.., 21..."""
    entrants = []
    for player, colours, base in ((1, first, 10), (2, second, 20)):
        opponents = tuple(base + i for i in range(1, len(colours) + 1))
        entrants.append(Entrant(player, 2.0, 0, opponents, colours))
        for opponent, colour in zip(opponents, colours, strict=True):
            entrants.append(
                Entrant(opponent, 0.0, 0, (player,), (colour.opposite,), withdrawn=True)
            )
    return entrants


def test_colours_follow_the_rule_within_the_limits() -> None:
    # Equal whites, equal last game; one game earlier 2 had black: white to 2 (000 §3.18.2).
    draw = pair_round(_two_with_histories((B, W, W), (W, B, W)), 4, "coefficients")
    assert draw.pairs == (Pair(2, 1),)


def test_fourth_colour_running_is_refused_even_if_it_leaves_no_pairing() -> None:
    # Both had B, W, W, W: a fourth white is never allowed (000 §3.18.2) and a third more white
    # than black neither (002); both need black, so they cannot meet.
    with pytest.raises(NoLegalPairingError) as caught:
        pair_round(_two_with_histories((B, W, W, W), (B, W, W, W)), 5, "coefficients")
    assert "colour" in str(caught.value)
    assert caught.value.blocked == (1, 2)


def test_a_third_colour_is_allowed_only_to_the_players_who_need_it() -> None:
    # 1, 2 (3 points), 3, 4 (2 points) all had black, white, white; 5 and 6 had no game.  Four
    # need black and only two can take white, so one of the four must have a third white.  Only
    # one gets it (002: exceptional case), the highest classified of the obstruction: 1, against
    # 2; 3 and 4 take black against 5 and 6.
    entrants = _two_with_histories((B, W, W), (B, W, W))
    entrants = [replace(e, score=3.0) if e.start_no in (1, 2) else e for e in entrants]
    for player, base in ((3, 30), (4, 40)):
        opponents = (base + 1, base + 2, base + 3)
        entrants.append(Entrant(player, 2.0, 0, opponents, (B, W, W)))
        entrants += [
            Entrant(o, 0.0, 0, (player,), (c.opposite,), withdrawn=True)
            for o, c in zip(opponents, (B, W, W), strict=True)
        ]
    entrants += [Entrant(5, 0.0), Entrant(6, 0.0)]
    draw = pair_round(entrants, 4, "coefficients")
    assert Pair(1, 2) in draw.pairs
    assert draw.opponent_of(3) in (5, 6) and draw.opponent_of(4) in (5, 6)
    assert {p.black for p in draw.pairs if p.white in (5, 6)} == {3, 4}
    thirds = [note for note in draw.notes if "third game running" in note]
    assert len(thirds) == 1


def test_downfloat_goes_to_someone_who_does_not_owe_one() -> None:
    # 002: a float down is compensated by a float up; 3 floated down last round, so in the odd
    # group [1, 2, 3] it is 2, not 3, who goes down (coefficients, odd round: last first).
    owed = (Float(2, 3, FloatDirection.DOWN),)
    entrants = [
        Entrant(1, 1.0),
        Entrant(2, 1.0),
        Entrant(3, 1.0, floats=owed),
        Entrant(4, 0.0),
    ]
    draw = pair_round(entrants, 3, "coefficients")
    assert {f.start_no for f in draw.floats if f.direction is FloatDirection.DOWN} == {2}
    assert entrants[2].float_balance == 1


def test_forced_floats_are_not_counted() -> None:
    forced = (Float(2, 1, FloatDirection.DOWN, forced=True), Float(3, 1, FloatDirection.UP))
    assert Entrant(1, floats=forced).float_balance == -1


def test_pairing_is_complete_and_never_repeats(make_event: EventFactory) -> None:
    event = make_event(6, "1-4 1-0; 2-5 1-0; 3-6 1-0", "1-2 1-0; 4-3 1-0; 5-6 1-0")
    for system in PairingSystem:
        draw = pair_round(entrants_before(event, 3), 3, system, seed=1)
        assert len(draw.pairs) == 3
        met = {frozenset(p) for p in [(1, 4), (2, 5), (3, 6), (1, 2), (4, 3), (5, 6)]}
        assert all(frozenset((p.white, p.black)) not in met for p in draw.pairs)
        assert draw.as_dict()["round"] == 3


def test_a_history_beyond_the_limits_gets_a_third_colour_instead_of_a_hang() -> None:
    # Player 4 had four whites, then two blacks: under two running (002) black is closed by the
    # run and white by the difference (000 §3.18.2, 002), so no colour is left unless he may
    # have a third black.  The engine used to loop for ever looking for whom to relax.
    rows = {
        1: ((9, 3, 4, 7), "bbbb"),
        2: ((5, 8, 6, 9, 3, 7, 4, 10), "bwbwbwww"),
        3: ((8, 1, 9, 10, 2, 5), "bwwbww"),
        4: ((7, 5, 10, 1, 8, 2), "wwwwbb"),
        5: ((2, 4, 8, 3), "wbwb"),
        6: ((10, 2, 8, 9, 7), "wwbbw"),
        7: ((4, 9, 10, 1, 2, 6), "bwbwbb"),
        8: ((3, 2, 5, 4, 6), "wbbww"),
        9: ((1, 7, 3, 2, 6), "wbbbw"),
        10: ((6, 7, 4, 3, 2), "bwbwb"),
    }
    field = [
        Entrant(n, float(len(met) % 3), 0, met, tuple(Colour(c) for c in colours))
        for n, (met, colours) in rows.items()
    ]
    draw = pair_round(field, 9, "coefficients", 2350)
    assert len(draw.pairs) == 5 and draw.bye is None
    assert 4 in {pair.black for pair in draw.pairs}
    assert any(note.startswith("player 4 has black for the third game running") for note in draw.notes)
    for pair in draw.pairs:
        assert pair.black not in rows[pair.white][0]
