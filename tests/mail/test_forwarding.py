"""The steward forwards an e-mail move to a partner who plays by post (002 §4.1.1).

White plays by post, Black by e-mail. White's first card is relayed to Black the day the steward
enters it; Black's e-mail answer is not e-mailed to White: the steward posts it and records the
day (the game core's ``record_forwarding``). From then on the move is no longer "to forward" on
the dashboard, and White's receipt, until his card gives it, is estimated from the posting day
plus the game's average transit — not from Black's dispatch (docs/rules/mail.md 21). The stored
state, the dashboard, the sweep's warnings and the weekly reminder read the same figure; a
refused forwarding stores nothing; ``corrmail games verify`` finds every state equal to its
replay (the ``email_game`` fixture checks it after each test).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from sqlalchemy import func, select

from corrmail import games
from corrmail.games import ForwardingRefused, record_forwarding
from corrmail.games.state import stored_states, verify
from corrmail.games.view import GameView
from corrmail.models import (
    AppendOnlyViolation,
    AuditEntry,
    Channel,
    Forwarding,
    Game,
    GameResult,
    Letter,
    Participant,
    ResultKind,
    Tournament,
    User,
)
from corrmail.play.postcards import PostcardEntry, check_postcard, enter_postcard
from corrmail.referee.case_letters import case_letter_writer
from corrmail.sweep import sweep
from corrmail.tournaments.dashboard import dashboard_rows
from timekeeping import repeat_due, reply_clock

from .conftest import MAIL_SETTINGS, EmailGame

#: White posts his first move on D; the steward enters the card (and it is relayed) on ENTERED.
D = dt.date(2026, 3, 2)
ENTERED = D + dt.timedelta(days=5)
#: Black answers by e-mail; the steward posts his move four days later.
REPLIED = ENTERED + dt.timedelta(days=2)
POSTED = REPLIED + dt.timedelta(days=4)
#: The game's average transit: White's card took 5 days to reach Black (D → ENTERED).
TRANSIT = dt.timedelta(days=5)


def _white_opens_by_post(email_game: EmailGame) -> None:
    """White plays by post (his address stays on file: the weekly reminder uses it); his first
    card is entered on ENTERED and e-mailed to Black that day."""
    with email_game.database.transaction() as session:
        white = session.get(Participant, email_game.white_id)
        assert white is not None
        white.channel = Channel.POST
    card = PostcardEntry(sender_id=email_game.white_id, moves_text="1. c3-d4",
                         sent=f"{D:%d.%m.%y}", postmark=f"{D:%d.%m.%y}")
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        enter_postcard(session, game, card, None, today=ENTERED, writer=email_game.writer)


@pytest.fixture
def waiting(email_game: EmailGame) -> EmailGame:
    """Black's e-mail move waits for the steward to post it to White."""
    _white_opens_by_post(email_game)
    assert email_game.send("black", "1. c3-d4 f6-g5", REPLIED).outcome == "move_relayed"
    assert email_game.outbox(to=email_game.white_email, kind="move") == []
    return email_game


def _steward(session: object) -> User:
    user = session.scalar(select(User).where(User.login == "steward"))  # type: ignore[attr-defined]
    assert isinstance(user, User)
    return user


def _forward(email_game: EmailGame, on: dt.date, *, channel: Channel = Channel.POST,
             today: dt.date | None = None, letter_id: int | None = None) -> Forwarding:
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        row = record_forwarding(session, game, letter_id=letter_id, on=on, channel=channel,
                                today=today or on, user=_steward(session))
        session.flush()
        session.expunge(row)
    return row


def _state(email_game: EmailGame) -> tuple[dt.date | None, dt.date | None, dt.date | None]:
    """(forwarded_on, counting_from, reply_due) of the stored state."""
    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        return state.forwarded_on, state.counting_from, state.reply_due


def _row(email_game: EmailGame, on: dt.date) -> tuple[bool, int | None]:
    """The dashboard's (to forward, days left) of the game on ``on``."""
    with email_game.database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None
        [row] = dashboard_rows(session, tournament, on)
        return row.to_forward, row.days_left


def _replayed_clock(email_game: EmailGame) -> tuple[dt.date, dt.date | None]:
    """White's clock from timekeeping over the game's ledger: (counts from, reply by)."""
    with email_game.database.session() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        view = GameView(game)
        clock = reply_clock(view.ledger(), view.side_to_move)
        return clock.counting_from, clock.last_safe_reply_date()


def _letters(email_game: EmailGame) -> list[Letter]:
    with email_game.database.session() as session:
        rows = list(session.scalars(select(Letter).where(Letter.game_id == email_game.game_id)
                                    .order_by(Letter.sequence)))
        session.expunge_all()
    return rows


def _stored(email_game: EmailGame) -> tuple[int, int]:
    """How many forwardings and forwarding audit entries are on record."""
    with email_game.database.session() as session:
        return (session.scalar(select(func.count()).select_from(Forwarding)) or 0,
                session.scalar(select(func.count()).select_from(AuditEntry).where(
                    AuditEntry.action == "letter.forwarded")) or 0)


def test_a_forwarded_move_counts_from_the_posting_day_and_leaves_the_dashboard(
    waiting: EmailGame,
) -> None:
    # Before: White's receipt is estimated from Black's dispatch, and the game is to forward.
    assert _state(waiting)[:2] == (None, REPLIED + TRANSIT)
    assert _row(waiting, POSTED)[0] is True
    row = _forward(waiting, POSTED, today=POSTED + dt.timedelta(days=1))
    assert (row.channel, row.forwarded_on) == (Channel.POST, POSTED)
    _, reply = _letters(waiting)
    assert row.letter_id == reply.id
    forwarded_on, counting_from, reply_due = _state(waiting)
    assert (forwarded_on, counting_from) == (POSTED, POSTED + TRANSIT)
    # The stored state is timekeeping's figure over the same ledger.
    assert (counting_from, reply_due) == _replayed_clock(waiting)
    to_forward, days_left = _row(waiting, POSTED + TRANSIT + dt.timedelta(days=10))
    assert to_forward is False
    assert days_left == 50 - 1 - 10  # White used 1 day for his first move (002 §4.3.2)
    with waiting.database.session() as session:
        assert verify(session) == []
        entry = session.scalar(select(AuditEntry).where(AuditEntry.action == "letter.forwarded"))
        assert entry is not None and entry.rule == "002 §4.1.1"
        assert entry.user_id == _steward(session).id
        assert entry.detail["on"] == POSTED.isoformat() and entry.detail["corrects"] is None


def test_a_correction_is_a_new_record_and_the_latest_counts(waiting: EmailGame) -> None:
    first = _forward(waiting, POSTED)
    second = _forward(waiting, POSTED + dt.timedelta(days=1))
    assert second.id > first.id
    assert _state(waiting)[:2] == (POSTED + dt.timedelta(days=1),
                                   POSTED + dt.timedelta(days=1) + TRANSIT)
    assert _stored(waiting) == (2, 2)
    with waiting.database.session() as session:
        kept = session.get(Forwarding, first.id)
        assert kept is not None
        kept.forwarded_on = POSTED - dt.timedelta(days=1)
        with pytest.raises(AppendOnlyViolation):
            session.flush()
        session.rollback()
        corrected = session.scalars(select(AuditEntry).where(
            AuditEntry.action == "letter.forwarded").order_by(AuditEntry.id)).all()
        assert corrected[-1].detail["corrects"] == POSTED.isoformat()


def test_a_move_telephoned_is_received_the_day_of_the_call(waiting: EmailGame) -> None:
    _forward(waiting, POSTED, channel=Channel.PHONE)
    assert _state(waiting)[:2] == (POSTED, POSTED)


def test_a_day_after_today_has_one_day_of_grace(waiting: EmailGame) -> None:
    _forward(waiting, POSTED + dt.timedelta(days=1), today=POSTED)
    assert _state(waiting)[0] == POSTED + dt.timedelta(days=1)


def _white_card(email_game: EmailGame) -> int:
    return _letters(email_game)[0].id


def _finish(email_game: EmailGame) -> None:
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        games.record_result(session, game, GameResult.DRAW, ResultKind.PLAYED, on=POSTED,
                            user=None)


REFUSALS: dict[str, tuple[str, str, dict[str, object], Callable[[EmailGame], None] | None]] = {
    "before the move's dispatch": ("002 §4.3.1", "before_dispatch",
                                   {"on": REPLIED - dt.timedelta(days=1)}, None),
    "after today and its day of grace": ("002 §4.3.1", "after_today",
                                         {"on": POSTED + dt.timedelta(days=2), "today": POSTED},
                                         None),
    "a letter that is not the one waiting": ("002 §4.1.1", "not_waiting",
                                             {"letter": "white's card"}, None),
    "neither post nor telephone": ("002 §4.1.1", "channel", {"channel": Channel.EMAIL}, None),
    "a finished game": ("002 §4.5", "finished", {}, _finish),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_refused_forwarding_stores_nothing(waiting: EmailGame, case: str) -> None:
    rule, code, arguments, before = REFUSALS[case]
    if before is not None:
        before(waiting)
    state = _state(waiting)
    letter_id = _white_card(waiting) if arguments.get("letter") else None
    on = arguments.get("on", POSTED)
    today = arguments.get("today", POSTED)
    channel = arguments.get("channel", Channel.POST)
    assert isinstance(on, dt.date) and isinstance(today, dt.date)
    assert isinstance(channel, Channel)
    with waiting.database.transaction() as session:
        game = session.get(Game, waiting.game_id)
        assert game is not None
        with pytest.raises(ForwardingRefused) as refused:
            record_forwarding(session, game, letter_id=letter_id, on=on, channel=channel,
                              today=today, user=_steward(session))
        session.rollback()
    assert (refused.value.rule, refused.value.code) == (rule, code)
    assert refused.value.message
    assert _stored(waiting) == (0, 0)
    assert _state(waiting) == state


def test_no_move_waits_while_the_email_player_is_to_move(email_game: EmailGame) -> None:
    """White's card was e-mailed to Black: the server relayed it, nothing is the steward's."""
    _white_opens_by_post(email_game)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        with pytest.raises(ForwardingRefused) as refused:
            record_forwarding(session, game, letter_id=None, on=ENTERED, channel=Channel.POST,
                              today=ENTERED, user=None)
        assert refused.value.code == "not_waiting"


def test_the_repeat_is_due_thirty_days_after_the_posting(waiting: EmailGame) -> None:
    with waiting.database.session() as session:
        [state] = stored_states(session, [waiting.game_id]).values()
        assert state.repeat_due == repeat_due(REPLIED)
    _forward(waiting, POSTED)
    with waiting.database.session() as session:
        [state] = stored_states(session, [waiting.game_id]).values()
        assert state.repeat_due == repeat_due(POSTED)


def _white_replies(email_game: EmailGame, *, first_date: dt.date, check_only: bool = False,
                   ) -> list[tuple[str, str]]:
    received = POSTED + dt.timedelta(days=3)
    sent = POSTED + dt.timedelta(days=6)
    entry = PostcardEntry(sender_id=email_game.white_id, moves_text="1... f6-g5 2. g3-f4",
                          partner_sent=f"{first_date:%d.%m.%y}", received=f"{received:%d.%m.%y}",
                          sent=f"{sent:%d.%m.%y}", postmark=f"{sent:%d.%m.%y}")
    today = sent + dt.timedelta(days=3)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        check = check_postcard(game, entry, today=today)
        assert check.accepted, check.errors
        if not check_only:
            enter_postcard(session, game, entry, None, today=today, writer=email_game.writer)
        found = [(finding.rule, finding.code) for finding in check.findings]
        if any(code == "forwarded_first_date" for _, code in found):
            [finding] = [f for f in check.findings if f.code == "forwarded_first_date"]
            assert f"{first_date:%d.%m.%Y}" in finding.problem
            assert f"{POSTED:%d.%m.%Y}" in finding.problem and "Steward" in finding.problem
    return found


def test_the_card_check_points_out_a_first_date_other_than_the_posting_day(
    waiting: EmailGame,
) -> None:
    _forward(waiting, POSTED)
    assert ("002 §4.3.1", "forwarded_first_date") in _white_replies(
        waiting, first_date=POSTED + dt.timedelta(days=1), check_only=True)
    # The card quoting the posting day: nothing to point out, nothing to correct.
    assert ("002 §4.3.1", "forwarded_first_date") not in _white_replies(waiting,
                                                                       first_date=POSTED)
    with waiting.database.session() as session:
        [state] = stored_states(session, [waiting.game_id]).values()
        # Black's two days stand (his dispatch is the server's day); White thought 3 days.
        assert (state.white_total, state.black_total) == (1 + 3, 2)
    assert _row(waiting, POSTED + dt.timedelta(days=9))[0] is False


def test_a_card_with_another_first_date_is_kept_and_corrects_nothing(waiting: EmailGame) -> None:
    _forward(waiting, POSTED)
    found = _white_replies(waiting, first_date=POSTED + dt.timedelta(days=1))
    assert ("002 §4.3.1", "forwarded_first_date") in found
    # The time chart's note says the same; the check tells it once.
    assert [code for _, code in found].count("forwarded_first_date") == 1
    with waiting.database.session() as session:
        [state] = stored_states(session, [waiting.game_id]).values()
        assert (state.white_total, state.black_total) == (1 + 3, 2)
        game = session.get(Game, waiting.game_id)
        assert game is not None
        notes = [note.code for note in GameView(game).chart().notes]
        assert "forwarded_postmark_differs" in notes and "dispatch_corrected" not in notes


def test_the_sweep_and_the_weekly_reminder_read_the_same_figure(waiting: EmailGame) -> None:
    """Unforwarded, White's estimate from Black's dispatch brings him near an overstep on
    NEAR; posted four days later, the sweep sees four days more, as the dashboard does, and so
    does the Monday reminder he gets."""
    near = REPLIED + TRANSIT + dt.timedelta(days=44)  # 50 - 1 - 44 = 5 days left
    writer, case_writer = waiting.writer, case_letter_writer(MAIL_SETTINGS)

    def flags() -> list[int]:
        with waiting.database.transaction() as session:
            report = sweep(session, case_writer=case_writer, mail_writer=writer, today=near)
            session.rollback()
        return [flag.days_left for flag in report.flags]

    assert flags() == [5] and _row(waiting, near)[1] == 5
    _forward(waiting, POSTED)
    assert flags() == [] and _row(waiting, near)[1] == 9
    monday = near + dt.timedelta(days=(7 - near.isoweekday()) % 7 + 1)
    assert monday.isoweekday() == 1
    with waiting.database.transaction() as session:
        sweep(session, case_writer=case_writer, mail_writer=writer, today=monday)
    [digest] = waiting.outbox(to=waiting.white_email, kind="digest")
    left = _row(waiting, monday)[1]
    assert left is not None
    found = re.search(r"до просрочки (\d+)", digest.body_text)
    assert found is not None and int(found[1]) == left
