"""An overstep claimed by e-mail keeps the claimant's reply for the referee (002 §4.3.6) and the
referee's rejection forwards it to the accused (002 §4.3.7) — through `Inbox.receive`."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.games.view import GameView
from corrmail.letters.write import LetterWriter
from corrmail.mail.inbox import Inbox
from corrmail.mail.settings import MailSettings
from corrmail.models import Case, Game, GameState, Tournament, TournamentChannel
from tests.cases.test_mail_claims import send

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

START = dt.date(2026, 9, 1)
CLAIMED = START + dt.timedelta(days=20)


class Claim:
    """White and Black of the cup's first game playing by e-mail through the server's inbox."""

    def __init__(self, cup: Cup) -> None:
        with cup.database.transaction() as session:
            tournament = session.get(Tournament, cup.tournament_id)
            assert tournament is not None
            tournament.channel = TournamentChannel.EMAIL
            game = cup.game(session, *sorted(cup.games)[0])
            self.game_id = game.id
            self.ids = {"white": game.white.id, "black": game.black.id}
            self.emails = {"white": game.white.player.email, "black": game.black.player.email}
        self.cup = cup
        self.writer = LetterWriter(MailSettings(domain="turnir.example",
                                                from_address="turnir@turnir.example",
                                                secret=b"test-secret"))
        self.inbox = Inbox(cup.database, self.writer)

    def send(self, side: str, text: str, day: dt.date) -> str:
        return send(self.cup, self.inbox, self.writer, self.game_id, self.ids[side],
                    self.emails[side], text, day)

    def case(self) -> tuple[int, dict[str, object]]:
        with self.cup.database.session() as session:
            row = session.scalars(select(Case)).one()
            return row.id, dict(row.payload)

    def mail_to(self, side: str, kind: str) -> list[str]:
        with self.cup.database.session() as session:
            return [m.body_text for m in self.cup.outbox(session, kind)
                    if m.recipient == self.emails[side]]


def test_the_held_reply_is_kept_and_forwarded_when_the_claim_is_rejected(
    cup: Cup, set_today
) -> None:
    claim = Claim(cup)
    assert claim.send("white", "1. c3-d4", START) == "move_relayed"
    assert claim.send("black", "1. c3-d4 f6-g5", START + dt.timedelta(days=3)) == "move_relayed"
    # White repeats Black's move and writes his reply — for the referee, not for Black.
    letter = "Объявляю просрочку времени.\n1... f6-g5\n2. g3-h4"
    assert claim.send("white", letter, CLAIMED) == "overstep_claimed"
    case_id, payload = claim.case()
    assert payload["held_move"] == "g3-h4"
    [received] = claim.mail_to("white", "notice")[-1:]
    assert "g3-h4" in received and "002 §4.3.6" in received
    assert all("g3-h4" not in body for body in claim.mail_to("black", "overstep_notice"))
    with cup.database.session() as session:
        game = session.get(Game, claim.game_id)
        assert game is not None and GameView(game).plies == ["c3-d4", "f6-g5"]

    set_today(CLAIMED)
    cup.act("referee", case_id, "decide", ruling="rejected")
    with cup.database.session() as session:
        game = session.get(Game, claim.game_id)
        assert game is not None and game.state is GameState.IN_PLAY
        assert GameView(game).plies == ["c3-d4", "f6-g5", "g3-h4"]  # 002 §4.3.7
        forwarded = game.letters[-1]
        assert (forwarded.sender_id, forwarded.sent) == (claim.ids["white"], CLAIMED)
    assert claim.mail_to("black", "case.overstep.held_move")
    # Black answers the forwarded reply as any other move.
    assert claim.send("black", "2. g3-h4 g5-f4", CLAIMED + dt.timedelta(days=2)) == \
        "move_relayed"


def test_an_illegal_reply_is_not_held_but_the_claim_stands(cup: Cup) -> None:
    claim = Claim(cup)
    claim.send("white", "1. c3-d4", START)
    claim.send("black", "1. c3-d4 f6-g5", START + dt.timedelta(days=3))
    assert claim.send("white", "Объявляю просрочку.\n2. d4-e6", CLAIMED) == "overstep_claimed"
    _, payload = claim.case()
    assert payload["held_move"] == ""
    told = claim.mail_to("white", "notice")[-1]
    assert "d4-e6" in told and "002 §4.2.10" in told


def test_a_reply_written_out_of_turn_is_not_held(cup: Cup) -> None:
    claim = Claim(cup)
    claim.send("white", "1. c3-d4", START)
    # Black never answered; White is not to move, so there is no reply to hold (002 §4.3.6).
    assert claim.send("white", "Объявляю просрочку.\n2. g3-h4", START + dt.timedelta(days=60)) \
        == "overstep_claimed"
    _, payload = claim.case()
    assert payload["held_move"] == ""
    told = claim.mail_to("white", "notice")[-1]
    assert "g3-h4" in told and "002 §4.3.6" in told
