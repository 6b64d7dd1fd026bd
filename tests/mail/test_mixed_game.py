"""A game between a postal player and an e-mail player (a mixed tournament, 002 §4.1.1).

The steward enters White's postcards; Black plays by e-mail. White's card reaches the steward
days after its postmark, and the server relays its move to Black the day it is entered: that is
the day Black receives it (002 §4.3.1, second date), so his think time counts from then, not
from the card's postmark. The relayed letter, the stored letter of Black's reply, the game's
stored clock and the referee's desk read the same day.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from corrmail.games.state import stored_states
from corrmail.models import Channel, Game, Letter, Participant, Tournament
from corrmail.play.postcards import Declaration, PostcardEntry, enter_postcard
from corrmail.play.web_moves import WebLetter, WebLetterRefused, submit_web_letter
from corrmail.tournaments.dashboard import ATTENTION, DashboardFilter, dashboard_rows

from .conftest import EmailGame

#: White posts his first move on D; the card reaches the steward five days later.
D = dt.date(2026, 3, 2)
ENTERED = D + dt.timedelta(days=5)


def _white_plays_by_post(email_game: EmailGame) -> None:
    with email_game.database.transaction() as session:
        white = session.get(Participant, email_game.white_id)
        assert white is not None
        white.channel = Channel.POST
        white.player.email = None


def _enter_first_card(email_game: EmailGame, *, relay: bool = True) -> Letter:
    entry = PostcardEntry(sender_id=email_game.white_id, moves_text="1. c3-d4",
                          sent=f"{D:%d.%m.%y}", postmark=f"{D:%d.%m.%y}")
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        _, letter = enter_postcard(session, game, entry, None, today=ENTERED,
                                   writer=email_game.writer if relay else None)
        session.flush()
        session.expunge(letter)
    return letter


def _letters(email_game: EmailGame) -> list[Letter]:
    with email_game.database.session() as session:
        letters = list(session.scalars(select(Letter).where(
            Letter.game_id == email_game.game_id).order_by(Letter.sequence)))
        session.expunge_all()
    return letters


def test_a_postcard_is_relayed_to_the_email_partner_the_day_it_is_entered(
    email_game: EmailGame,
) -> None:
    _white_plays_by_post(email_game)
    card = _enter_first_card(email_game)
    assert card.channel is Channel.POST and card.sent == D and card.relayed_on == ENTERED

    [relayed] = email_game.outbox(to=email_game.black_email, kind="move")
    assert "c3-d4" in relayed.body_text
    # The card's dates are its own, and Black is told his time runs from the relay day.
    assert f"{D:%d.%m.%Y}" in relayed.body_text
    assert "по карточке партнёра и почтовому штемпелю" in relayed.body_text
    assert f"ход переслан вам {ENTERED:%d.%m.%Y}" in relayed.body_text
    # 50 days from the relay day (002 §4.3.1), not from the card's postmark.
    deadline = ENTERED + dt.timedelta(days=50)
    assert f"до {deadline:%d.%m.%Y} включительно" in relayed.body_text

    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        assert (state.to_move, state.counting_from, state.reply_due) == ("black", ENTERED, deadline)


def test_the_email_reply_to_a_postcard_counts_from_the_relay_day(email_game: EmailGame) -> None:
    _white_plays_by_post(email_game)
    _enter_first_card(email_game)
    replied = ENTERED + dt.timedelta(days=2)
    receipt = email_game.send("black", "1. c3-d4 f6-g5", replied)
    assert receipt.outcome == "move_relayed"

    [card, reply] = _letters(email_game)
    # First date: White's dispatch by the postmark; second: the day the server relayed it.
    assert (reply.partner_sent, reply.received, reply.sent) == (D, ENTERED, replied)
    # The partner plays by post: the server does not relay Black's move (the steward posts it).
    assert reply.relayed_on is None
    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        # White moved the day after the start (002 §4.3.2); Black used two days, none of
        # the five the card spent in the post.
        assert (state.white_total, state.black_total) == (1, 2)


def test_a_card_entered_without_a_relay_leaves_the_receipt_to_the_next_letter(
    email_game: EmailGame,
) -> None:
    """A check of the card's bookkeeping alone writes no letter: nothing claims a relay."""
    _white_plays_by_post(email_game)
    card = _enter_first_card(email_game, relay=False)
    assert card.relayed_on is None
    assert email_game.outbox(to=email_game.black_email, kind="move") == []


def test_email_letters_between_email_players_keep_the_arrival_day_as_the_relay(
    email_game: EmailGame,
) -> None:
    assert email_game.send("white", "1. c3-d4", D).outcome == "move_relayed"
    replied = D + dt.timedelta(days=3)
    assert email_game.send("black", "1. c3-d4 f6-g5", replied).outcome == "move_relayed"
    first, second = _letters(email_game)
    assert (first.sent, first.relayed_on) == (D, D)
    assert (second.partner_sent, second.received, second.sent, second.relayed_on) == (
        D, D, replied, replied)


def test_a_postal_partner_with_an_address_on_file_gets_his_moves_from_the_steward(
    email_game: EmailGame,
) -> None:
    """Both play by post (the tournament's channel), and both gave an address: a card entered is
    not e-mailed to the partner, and no relay day is kept — his own card states his receipt."""
    with email_game.database.transaction() as session:
        for participant_id in (email_game.white_id, email_game.black_id):
            participant = session.get(Participant, participant_id)
            assert participant is not None
            participant.channel = Channel.POST
    card = _enter_first_card(email_game)
    assert card.relayed_on is None
    assert email_game.outbox(to=email_game.black_email) == []


def _to_forward(email_game: EmailGame, on: dt.date) -> list[bool]:
    with email_game.database.session() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        tournament = session.get(Tournament, game.tournament_id)
        assert tournament is not None
        return [row.to_forward for row in dashboard_rows(session, tournament, on)]


def test_the_dashboard_lists_an_email_move_the_steward_must_post(email_game: EmailGame) -> None:
    """Black's e-mail move is not relayed to White, who plays by post: the game is the steward's
    to forward (002 §4.1.1) until White's next card is entered."""
    assert DashboardFilter.TO_FORWARD in ATTENTION
    _white_plays_by_post(email_game)
    _enter_first_card(email_game)
    assert _to_forward(email_game, ENTERED) == [False]  # Black, by e-mail, is to move
    replied = ENTERED + dt.timedelta(days=2)
    assert email_game.send("black", "1. c3-d4 f6-g5", replied).outcome == "move_relayed"
    assert _to_forward(email_game, replied) == [True]
    entry = PostcardEntry(sender_id=email_game.white_id, moves_text="1... f6-g5 2. g3-f4",
                          partner_sent=f"{replied:%d.%m.%y}",
                          received=f"{replied + dt.timedelta(days=4):%d.%m.%y}",
                          sent=f"{replied + dt.timedelta(days=5):%d.%m.%y}",
                          postmark=f"{replied + dt.timedelta(days=5):%d.%m.%y}")
    later = replied + dt.timedelta(days=9)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        enter_postcard(session, game, entry, None, today=later, writer=email_game.writer)
    assert _to_forward(email_game, later) == [False]


def test_a_postal_player_moving_on_the_web_writes_the_day_the_card_reached_him(
    email_game: EmailGame,
) -> None:
    """Both play by post; Black answers White's card on the web. The server did not relay the
    card, so only Black knows when it reached him: the letter states it (002 §4.3.1, second
    date), and a missing, early or future day is refused with nothing stored."""
    with email_game.database.transaction() as session:
        for participant_id in (email_game.white_id, email_game.black_id):
            participant = session.get(Participant, participant_id)
            assert participant is not None
            participant.channel = Channel.POST
    _enter_first_card(email_game)
    today = ENTERED + dt.timedelta(days=1)
    refusals = {
        None: "receipt_missing",
        D - dt.timedelta(days=1): "receipt_before_dispatch",
        today + dt.timedelta(days=1): "receipt_in_future",
    }
    for received, code in refusals.items():
        with email_game.database.transaction() as session:
            game = session.get(Game, email_game.game_id)
            black = session.get(Participant, email_game.black_id)
            assert game is not None and black is not None
            with pytest.raises(WebLetterRefused) as refused:
                submit_web_letter(session, game, black,
                                  WebLetter(move="f6-g5", received=received),
                                  today=today, writer=email_game.writer)
            assert (refused.value.code, refused.value.rule) == (code, "002 §4.3.1")
        assert len(_letters(email_game)) == 1
    arrived = D + dt.timedelta(days=3)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        black = session.get(Participant, email_game.black_id)
        assert game is not None and black is not None
        outcome = submit_web_letter(session, game, black, WebLetter(move="f6-g5", received=arrived),
                                    today=today, writer=email_game.writer)
    assert outcome.code == "move_relayed"
    # White plays by post: the steward sends him the move, the server e-mails him nothing.
    assert email_game.outbox(to=email_game.white_email, kind="move") == []
    [_, reply] = _letters(email_game)
    assert (reply.channel, reply.partner_sent, reply.received, reply.sent) == (
        Channel.WEB, D, arrived, today)
    assert f"Ход партнёра получен {arrived:%d.%m.%Y}." in reply.raw_text
    with email_game.database.session() as session:
        [state] = stored_states(session, [email_game.game_id]).values()
        # Black's days run from the day the card reached him (D + 3) to his reply (D + 6).
        assert state.black_total == 3


def test_the_end_of_play_reaches_a_postal_player_through_the_steward(
    email_game: EmailGame,
) -> None:
    """Black resigns by e-mail; White plays by post with an e-mail address on file. White hears
    of the end as of Black's moves, from the steward, who gets the notice to post (002 §4.1.1);
    White's own address gets nothing, Black (by e-mail) his notice."""
    with email_game.database.transaction() as session:
        white = session.get(Participant, email_game.white_id)
        assert white is not None
        white.channel = Channel.POST  # his address stays on file
    white_email = email_game.email_of("white")
    _enter_first_card(email_game)
    assert email_game.send("black", "Сдаюсь.", ENTERED + dt.timedelta(days=1)).outcome == "resigned"

    assert email_game.outbox(to=white_email, kind="game_over") == []
    [to_post] = email_game.outbox(to=email_game.steward_email, kind="game_over")
    assert "почтой для" in to_post.subject
    assert "играет по почте: отправьте ему, пожалуйста, это извещение" in to_post.body_text
    assert "Чёрные" in to_post.body_text and "сдали партию" in to_post.body_text
    [told] = email_game.outbox(to=email_game.black_email, kind="game_over")
    assert "почтой для" not in told.subject and "сдали партию" in told.body_text


def test_the_steward_who_enters_a_resigning_card_gets_no_notice_of_it(
    email_game: EmailGame,
) -> None:
    """White (by post) resigns on a card the steward enters: Black (by e-mail) is told; the
    steward, who holds the card, is not written to about his own entry."""
    _white_plays_by_post(email_game)
    _enter_first_card(email_game)
    assert email_game.send("black", "1. c3-d4 f6-g5", ENTERED + dt.timedelta(days=1)).outcome \
        == "move_relayed"
    answered, posted = ENTERED + dt.timedelta(days=1), ENTERED + dt.timedelta(days=3)
    entry = PostcardEntry(sender_id=email_game.white_id, declaration=Declaration.RESIGNS,
                          partner_sent=f"{answered:%d.%m.%y}", received=f"{posted:%d.%m.%y}",
                          sent=f"{posted:%d.%m.%y}", postmark=f"{posted:%d.%m.%y}")
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        enter_postcard(session, game, entry, None, today=ENTERED + dt.timedelta(days=6),
                       writer=email_game.writer)
    [told] = email_game.outbox(to=email_game.black_email, kind="game_over")
    assert "Белые" in told.body_text and "сдали партию" in told.body_text
    assert email_game.outbox(to=email_game.steward_email, kind="game_over") == []
