"""Play suspended by an overstep claim counts for nobody (002 §4.3.6): the days between the
claim and the decision that resumed play are off the clock of the player to move, on the game
page, the dashboard (stored state) and the time chart alike."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from corrmail.games.ledger import LetterInput, append_letter
from corrmail.games.page import game_clock
from corrmail.games.state import StoredClock, StoredGameState
from corrmail.games.view import GameView
from corrmail.models import Channel, GameState

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

IN_TIME = [("c3-d4", dt.date(2026, 9, 1), None),
           ("f6-g5", dt.date(2026, 9, 20), dt.date(2026, 9, 5))]
CLAIMED = dt.date(2026, 10, 10)
DECIDED = dt.date(2026, 11, 9)  # thirty days of suspension: 11.10–09.11


def _clocks(cup: Cup, on: dt.date) -> tuple[int | None, int | None, dt.date | None]:
    """White's days left on the game page's clock and the dashboard's, and his reply date."""
    with cup.database.session() as session:
        game = cup.game(session, 1, 6)
        page = game_clock(GameView(game), on)
        state = session.get(StoredGameState, game.id)
        assert state is not None
        stored = StoredClock.of(state, on)
        assert stored is not None
        assert page.last_safe_date == stored.last_safe_date
        return page.days_left, stored.days_left, stored.last_safe_date


def _silent_white_claimed_and_rejected(cup: Cup, set_today) -> tuple[int, dt.date]:
    cup.play(1, 6, IN_TIME)  # White received Black's f6-g5 (sent 20.09); he is to move
    set_today(CLAIMED)
    before, stored_before, due_before = _clocks(cup, CLAIMED)
    assert before == stored_before and before is not None and before >= 0
    assert due_before is not None
    # Black claims White overstepped; he holds no reply (he is not to move).
    response = cup.client("player6").post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": cup.games[(1, 6)], "overstep-claimant": "black",
        "overstep-evidence": ["offender_letters", "registered_receipts", "game_record",
                              "time_chart", "overstep_notice"],
        "overstep-letter": "Белые молчат."})
    assert response.status_code == 303, response.data.decode()
    case_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with cup.database.session() as session:
        game = cup.game(session, 1, 6)
        assert game.state is GameState.SUSPENDED
        # While the game waits for the referee nobody is to move: no days run.
        state = session.get(StoredGameState, game.id)
        assert state is not None and state.to_move is None and state.reply_due is None
        # The desk reads the clock as it stood on the day of the claim.
        frozen = game_clock(GameView(game), CLAIMED, as_it_stood=True)
        assert frozen.days_left == before
    set_today(DECIDED)
    decided = cup.client("referee").post(f"/cases/{case_id}/decide", data={
        "revision": cup.revision(case_id), "ruling": "rejected",
        "reasons": "White has days left (002 §4.3.5)"})
    assert decided.status_code == 303, decided.data.decode()
    return before, due_before


def test_the_days_of_suspension_are_not_counted_against_the_player_to_move(
        cup: Cup, set_today) -> None:
    before, due_before = _silent_white_claimed_and_rejected(cup, set_today)
    page, stored, due = _clocks(cup, DECIDED)
    # Without the fix White had lost the thirty days of the referee's examination.
    assert page == stored == before
    assert due == due_before + dt.timedelta(days=30)
    # The day after the decision his clock runs again.
    assert _clocks(cup, DECIDED + dt.timedelta(days=1))[:2] == (before - 1, before - 1)


def test_the_time_chart_leaves_the_suspension_out_of_the_reply_and_says_why(
        cup: Cup, set_today) -> None:
    _silent_white_claimed_and_rejected(cup, set_today)
    with cup.database.transaction() as session:
        game = cup.game(session, 1, 6)
        append_letter(session, game, LetterInput(
            sender_id=game.white_id, channel=Channel.POST, moves_text="d4-c5",
            partner_sent=dt.date(2026, 9, 20), received=dt.date(2026, 9, 25),
            sent=DECIDED + dt.timedelta(days=2), postmark_date=DECIDED + dt.timedelta(days=2)),
            None)
    with cup.database.session() as session:
        chart = GameView(cup.game(session, 1, 6)).chart()
        reply = chart.rows[-1]
        # Received 25.09, sent 11.11: 47 calendar days, of which 30 were the suspension.
        assert reply.days == 47 - 30
        assert "play_suspended" in [note.code for note in chart.notes]
    referee = cup.client("referee")
    with referee.session_transaction() as stored:
        stored["locale"] = "ru"
    page = referee.get(f"/games/{cup.games[(1, 6)]}").data.decode()
    assert "игра приостановлена" in page
