"""The envelope sender and mail loops (SQLite and PostgreSQL).

A letter with the player's ``From`` and reply token but another mailbox's envelope sender is
applied only when the receiving MTA's Authentication-Results report DKIM or SPF pass for the
player's domain; otherwise it is refused, nothing changes, and the player is told. An
autoresponder gets a bounded number of refusals, not one per message."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, generate_federation
from corrmail.letters.write import LetterWriter
from corrmail.mail.envelope import judge_envelope
from corrmail.mail.inbox import Inbox, Source
from corrmail.mail.notice_limit import PER_HOUR
from corrmail.mail.settings import MailSettings
from corrmail.models import Game, InboundStatus, Letter, OutboxMessage, OutboxStatus
from corrmail.models import InboundMessage as InboundRow

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"s" * 32)
ATTACKER = "mallory@attacker.example"


@dataclass
class Board:
    database: Database
    inbox: Inbox
    game: int
    white: int
    white_email: str


def _board(url: str) -> Board:
    database = Database(url)
    generate_federation(database, FederationSpec(players=4, tournaments=1, players_per_tournament=4,
                                                 cycles=1))
    with database.session() as session:
        game = session.scalars(select(Game).order_by(Game.id)).first()
        assert game is not None
        return Board(database, Inbox(database, LetterWriter(MAIL)), game.id, game.white_id,
                     game.white.player.email or "")


def _resignation(board: Board, number: int, *, results: tuple[str, ...] = (),
                 text: str = "Сдаюсь.") -> bytes:
    headers = "".join(f"Authentication-Results: {value}\r\n" for value in results)
    to = board.inbox.signer.reply_address(board.game, board.white)
    return (f"{headers}From: {board.white_email}\r\nTo: {to}\r\nSubject: Re: ход\r\n"
            f"Message-ID: <env{number}@federation.example>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n").encode()


def _ledger(board: Board) -> tuple[object, ...]:
    with board.database.session() as session:
        game = session.get(Game, board.game)
        assert game is not None
        return (session.scalar(select(func.count()).select_from(Letter)), game.state, game.result)


def test_a_forged_resignation_from_another_mailbox_is_refused_and_the_player_told(
    db_url: str,
) -> None:
    board = _board(db_url)
    before = _ledger(board)
    attacks = {
        "no report at all": (),
        "a failing report": ("turnir.example; dkim=fail header.d=federation.example; "
                             "spf=fail smtp.mailfrom=attacker.example",),
        "a pass for the attacker's domain": ("turnir.example; dkim=pass header.d=attacker.example",),
        # The attacker writes a passing report under ours: only the topmost one is believed.
        "a forged report below the MTA's": (
            "turnir.example; spf=softfail smtp.mailfrom=mallory@attacker.example",
            "turnir.example; dkim=pass header.d=federation.example"),
        "a report by another server": ("mx.attacker.example; dkim=pass header.d=federation.example",),
    }
    for number, (what, results) in enumerate(attacks.items()):
        receipt = board.inbox.receive(_resignation(board, number, results=results),
                                      source=Source.SMTP, envelope_sender=ATTACKER)
        assert (receipt.status, receipt.outcome) == (InboundStatus.REFUSED, "envelope_mismatch"), what
    assert _ledger(board) == before, "no forged letter touched the game"
    with board.database.session() as session:
        notices = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "refusal")).all()
        assert notices and all(board.white_email in n.recipient for n in notices)
        assert "DKIM" in notices[0].body_text
        rows = session.scalars(select(InboundRow).order_by(InboundRow.id)).all()
        assert rows[1].auth_results is not None and "dkim=fail" in rows[1].auth_results
    board.database.dispose()


def test_a_letter_vouched_for_by_dkim_or_spf_for_the_players_domain_is_applied(
    db_url: str,
) -> None:
    board = _board(db_url)
    relayed = board.inbox.receive(
        _resignation(board, 1, results=(
            "mx.turnir.example; dkim=pass (good signature) header.d=federation.example "
            "header.s=mail; spf=neutral smtp.mailfrom=srs0=abc@forwarder.example",)),
        source=Source.SMTP, envelope_sender="srs0=abc@forwarder.example")
    assert relayed.outcome not in ("envelope_mismatch", "sender_mismatch", "failed"), relayed
    assert relayed.status is InboundStatus.PROCESSED
    with board.database.session() as session:
        game = session.get(Game, board.game)
        assert game is not None and game.result is not None  # the resignation counted
        row = session.get(InboundRow, relayed.inbound_id)
        assert row is not None and "dkim=pass" in (row.auth_results or "")
    board.database.dispose()


def test_the_players_own_envelope_needs_no_report() -> None:
    rule = {"authserv_ids": (), "mail_domain": "turnir.example"}
    assert judge_envelope("<P@Example.org>", "p@example.org", None, **rule).accepted
    assert judge_envelope(None, "p@example.org", None, **rule).reason == "no_envelope"
    spf = "turnir.example; spf=pass smtp.mailfrom=bounces@example.org"
    assert judge_envelope("bounces@example.org", "p@example.org", spf, **rule).reason == "spf_pass"
    assert not judge_envelope("x@evil.example", "p@example.org", spf.replace("example.org", "evil.example"),
                              **rule).accepted
    named = {"authserv_ids": ("mx1.provider.example",), "mail_domain": "turnir.example"}
    assert not judge_envelope("b@example.org", "p@example.org", spf, **named).accepted
    assert judge_envelope("b@example.org", "p@example.org",
                          spf.replace("turnir.example", "mx1.provider.example"), **named).accepted


def test_an_autoresponder_gets_a_bounded_number_of_refusals(db_url: str) -> None:
    board = _board(db_url)
    for number in range(8):  # no token, no auto-reply headers: a refusal each, at first
        stranger = (f"From: vacation@somewhere.example\r\nTo: turnir@turnir.example\r\n"
                    f"Subject: I am away\r\nMessage-ID: <away{number}@somewhere.example>\r\n\r\n"
                    "I am away until Monday.\r\n").encode()
        receipt = board.inbox.receive(stranger, source=Source.SMTP,
                                      envelope_sender="vacation@somewhere.example")
        assert receipt.status is InboundStatus.REFUSED
    for number in range(8):  # the player's own autoresponder answers the game's letters
        receipt = board.inbox.receive(
            _resignation(board, 100 + number, text="Я в отпуске до понедельника."),
            source=Source.SMTP, envelope_sender=board.white_email)
        assert receipt.status is InboundStatus.REFUSED, receipt
    with board.database.session() as session:
        to_stranger = session.scalars(select(OutboxMessage).where(
            OutboxMessage.recipient.contains("vacation@somewhere.example"))).all()
        assert len(to_stranger) == PER_HOUR
        to_player = session.scalars(select(OutboxMessage).where(
            OutboxMessage.game_id == board.game,
            OutboxMessage.recipient.contains(board.white_email))).all()
        sent = [row for row in to_player if row.status is not OutboxStatus.FAILED]
        held = [row for row in to_player if row.status is OutboxStatus.FAILED]
        assert len(sent) == PER_HOUR and len(held) == 8 - PER_HOUR
        assert all("not sent" in (row.last_error or "") for row in held)
        stored = session.scalar(select(func.count()).select_from(InboundRow))
        assert stored == 16  # every message kept
    board.database.dispose()
