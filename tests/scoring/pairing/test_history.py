"""The state before a round, read from the shared tournament model."""

from __future__ import annotations

from scoring.model import Colour
from scoring.pairing.generate import generate_event
from scoring.pairing.history import draw_as_round, entrants_before, entrants_each_round, met_before
from scoring.pairing.model import Draw, FloatDirection, Pair, PairingSystem
from scoring.result import Result

from .conftest import EventFactory

W, B = Colour.WHITE, Colour.BLACK


def test_forfeits_are_neither_meetings_nor_colours_but_a_point_without_play(
    make_event: EventFactory,
) -> None:
    # 000 §3.18.2, 004: a game not played may be paired again and its colour is ignored.
    event = make_event(4, "1-2 +/-; 3-4 1-0", "2-1 =; 4-3 0-1")
    before = {e.start_no: e for e in entrants_before(event, 2)}
    assert before[1].opponents == () and before[1].colours == ()
    assert before[1].had_point_without_play and not before[2].had_point_without_play
    assert before[1].score == 1.0 and before[3].score == 1.0
    after = {e.start_no: e for e in entrants_before(event, 3)}
    assert after[1].opponents == (2,) and after[1].colours == (B,)
    assert after[3].colours == (W, B) and after[3].score == 2.0
    assert met_before(event, 3)[1] == {2}


def test_bye_counts_a_point_without_play(make_event: EventFactory) -> None:
    event = make_event(3, "1-2 0-1; 3 bye")
    before = {e.start_no: e for e in entrants_before(event, 2)}
    assert before[3].had_point_without_play and before[3].score == 1.0
    assert before[3].colours == ()


def test_withdrawn_from_the_round_after_and_absence_recorded_in_the_file(
    make_event: EventFactory,
) -> None:
    event = make_event(4, "1-2 1-0; 3-4 1-0", "1-3 =; 2 absent; 4 bye", withdrawals=[(4, 2)])
    round_two = {e.start_no: e for e in entrants_before(event, 2)}
    assert round_two[2].absent and not round_two[4].withdrawn
    assert {e.start_no: e for e in entrants_before(event, 3)}[4].withdrawn
    assert {e.start_no: e for e in entrants_before(event, 3, absent=[1])}[1].absent


def test_floats_are_replayed_with_forced_ones_marked(make_event: EventFactory) -> None:
    # Round 2: 1 (1 point) met 3 (0): 1 floats down, 3 up.  1 could have met 2 (1 point)?  No:
    # 2 lost.  The other 1-pointer is 4, whom 1 had not met: the float is not forced.
    event = make_event(4, "1-2 1-0; 4-3 1-0", "1-3 1-0; 4-2 1-0")
    before = {e.start_no: e for e in entrants_before(event, 3)}
    assert [(f.round_no, f.direction, f.forced) for f in before[1].floats] == [
        (2, FloatDirection.DOWN, False)
    ]
    assert before[1].float_balance == 1 and before[3].float_balance == -1
    assert before[4].floats[0].direction is FloatDirection.DOWN


def test_draw_becomes_pending_games_bye_and_absences() -> None:
    draw = Draw(3, PairingSystem.RANDOM, (Pair(4, 1),), bye=2, absent=(5,))
    games, unpaired = draw_as_round(draw)
    assert [(g.round, g.white, g.black) for g in games] == [(3, 4, 1)]
    assert {(u.player, u.result) for u in unpaired} == {(2, Result.BYE), (5, Result.ABSENT)}


def test_one_replay_of_every_round_equals_replaying_each_round_afresh(
    make_event: EventFactory,
) -> None:
    # The checker walks the rounds with one replay; each round must look exactly as
    # entrants_before shows it: withdrawals dated, absences of that round, floats, forfeits.
    event = make_event(
        5, "1-2 +/-; 3-4 1-0; 5 bye", "2-1 =; 4-5 0-1; 3 absent", "1-3 1-0; 5-2 0-1",
        withdrawals=[(4, 2)],
    )
    assert list(entrants_each_round(event)) == [
        (round_no, entrants_before(event, round_no)) for round_no in (1, 2, 3)
    ]
    generated = generate_event(30, 7, 5, "solkoff", withdrawal_rate=0.05, absence_rate=0.1)
    tournament = generated.tournament
    assert list(entrants_each_round(tournament)) == [
        (round_no, entrants_before(tournament, round_no))
        for round_no in range(1, tournament.last_round + 1)
    ]


def test_a_game_still_in_play_is_a_meeting_with_its_colours(make_event: EventFactory) -> None:
    """000 §3.18.2: a correspondence Swiss may draw the next round before every game of the last
    one ends (the regulations allow it); a pair still playing has met and is not drawn again,
    and their colours are used — only the points wait for the result."""
    event = make_event(4, "1-3 *; 4-2 1-0")
    before = {e.start_no: e for e in entrants_before(event, 2)}
    assert before[1].opponents == (3,) and before[1].colours == (W,)
    assert before[3].opponents == (1,) and before[3].colours == (B,)
    assert before[1].score == 0.0 and before[3].score == 0.0 and before[4].score == 1.0
    assert met_before(event, 2)[1] == {3}
