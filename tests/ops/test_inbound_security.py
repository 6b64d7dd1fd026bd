"""Inbound mail as an attack surface: a reply token opens one game for one player only, and no
byte sequence crashes the parser or leaves a half-parsed letter behind (hypothesis fuzzing)."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, generate_federation
from corrmail.letters.write import LetterWriter
from corrmail.mail.errors import InboundError
from corrmail.mail.inbound import InboundMessage, parse_inbound
from corrmail.mail.inbox import Inbox, Source
from corrmail.mail.settings import MailSettings
from corrmail.models import Game, InboundStatus, Letter
from corrmail.models import InboundMessage as InboundRow

MAIL = MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"s" * 16)


@dataclass
class Federation:
    database: Database
    inbox: Inbox
    games: list[tuple[int, int, int, str, str]]  # game id, white id, black id, their e-mails


def _federation(url: str) -> Federation:
    database = Database(url)
    generate_federation(database, FederationSpec(players=8, tournaments=1, players_per_tournament=4, cycles=1))
    with database.session() as session:
        games = [(g.id, g.white_id, g.black_id, g.white.player.email or "", g.black.player.email or "")
                 for g in session.scalars(select(Game).order_by(Game.id))]
    return Federation(database, Inbox(database, LetterWriter(MAIL)), games)


def _letter(sender: str, to: str, number: int) -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: Re: ход\r\n"
            f"Message-ID: <tok{number}@example.org>\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\nСдаюсь.\r\n").encode()


def test_a_reply_token_is_useless_for_another_game_or_player(db_url: str) -> None:
    fed = _federation(db_url)
    (game, white, black, white_email, black_email), (other, o_white, _, o_white_email, _) = fed.games[:2]
    signer = fed.inbox.signer
    own = signer.reply_address(game, white)
    local, domain = own.split("@")
    forged_game = local.replace(f"g{game}-", f"g{other}-") + "@" + domain
    attempts = {
        # the partner uses the white player's address for this game
        "sender_mismatch": _letter(black_email, own, 1),
        # a genuine token, but for a game the player does not play
        "unknown_game": _letter(white_email, signer.reply_address(other, white), 2),
        # the white player's token with another game's number written in
        "forged_token": _letter(white_email, forged_game, 3),
        # another game's player with this game's token
        "sender_mismatch ": _letter(o_white_email, own, 4),
    }
    assert o_white not in (white, black)
    def state() -> tuple[object, ...]:
        with fed.database.session() as session:
            games = session.scalars(select(Game).where(Game.id.in_([game, other])).order_by(Game.id))
            return (session.scalar(select(func.count()).select_from(Letter)),
                    *((g.state, g.result, g.version) for g in games))

    before = state()
    for expected, raw in attempts.items():
        receipt = fed.inbox.receive(raw, source=Source.SMTP)
        assert (receipt.status, receipt.outcome) == (InboundStatus.REFUSED, expected.strip()), expected
    assert state() == before, "no refused letter touched either game"
    # the genuine sender with the genuine token is heard
    heard = fed.inbox.receive(_letter(white_email, own, 5), source=Source.SMTP)
    assert heard.outcome not in ("sender_mismatch", "unknown_game", "forged_token", "failed")
    fed.database.dispose()


# --- fuzzing -----------------------------------------------------------------------------------

_HEADER_NAMES = st.sampled_from([
    "From", "To", "Cc", "Subject", "Message-ID", "References", "In-Reply-To", "Date",
    "Content-Type", "Content-Transfer-Encoding", "MIME-Version", "Auto-Submitted",
    "Return-Path", "X-Failed-Recipients", "Precedence", "Delivered-To", "X-Weird",
])
_HEADER_VALUES = st.one_of(
    st.text(max_size=80),
    st.sampled_from([
        "multipart/mixed; boundary=XYZ", "multipart/alternative; boundary=\"", "text/html; charset=koi8-r",
        "text/plain; charset=no-such-charset", "message/delivery-status", "base64", "quoted-printable",
        "=?utf-8?b?0J/RgNC40LLQtdGC?=", "=?koi8-r?q?=F0=D2=C9?=", "=?bogus?x?zz?=", "<>", "<<<@>>>",
        "turnir+g1-p1-aaaaaaaaaaaaaaaa@turnir.example", "auto-replied", "Mon, 99 Foo 2026 25:61:61",
        "\"Иван\" <ivan@example.org>, , ,@", "=?utf-8?q?" + "=FF" * 30 + "?=",
    ]),
)
_BODIES = st.one_of(
    st.binary(max_size=400),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from([
        b"--XYZ\r\nContent-Type: text/plain\r\n\r\n1. c3-d4\r\n--XYZ--\r\n",
        b"--XYZ\r\nContent-Type: text/html\r\n\r\n<p>1. c3-d4<blockquote>old",
        base64.b64encode("Мой ход: 8. c3-d4".encode()) + b"====\r\n!!!",
        b"=\r\n=4=ZZ=\r\n", b"> quoted\r\n-- \r\nsignature", b"\x00\x01\x02\xff\xfe",
    ]),
)


@st.composite
def raw_messages(draw: st.DrawFn) -> bytes:
    headers = draw(st.lists(st.tuples(_HEADER_NAMES, _HEADER_VALUES), max_size=10))
    separator = draw(st.sampled_from([b"\r\n", b"\n", b"\r"]))
    lines = [f"{name}: {value}".encode("utf-8", "surrogatepass") for name, value in headers]
    return separator.join(lines) + separator + separator + draw(_BODIES)


@settings(max_examples=300, deadline=None)
@given(st.one_of(raw_messages(), st.binary(max_size=600)))
def test_the_parser_never_crashes(raw: bytes) -> None:
    try:
        message = parse_inbound(raw, max_bytes=4096)
    except InboundError as error:
        assert isinstance(error, ValueError)
        return
    assert isinstance(message, InboundMessage)
    assert isinstance(message.text, str) and isinstance(message.from_address, str)
    assert all(isinstance(address, str) for address in message.recipients)


@pytest.fixture(scope="module")
def fuzz_federation(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Federation:
    import shutil

    path = tmp_path_factory.mktemp("fuzz") / "corrmail.sqlite"
    shutil.copyfile(sqlite_template, path)
    return _federation(f"sqlite:///{path}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(raw_messages(), st.binary(max_size=600)), st.booleans())
# Found by CI: a tokened letter answered 'not understood' twice within one hundredth of a second
# got a duplicate Message-ID (make_msgid draws from the random module Hypothesis reseeds).
@example(
    raw=b'From: "\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd" <ivan@example.org>, , ,@\rReturn-Path: "\xd0\x98\xd0\xb2\xd0\xb0'
        b'\xd0\xbd" <ivan@example.org>, , ,@\rReturn-Path: "\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd" <ivan@example.org>, '
        b', ,@\rFrom: 7\xf3\x90\x95\xaf\rReturn-Path: Mon, 99 Foo 2026 25:61:61\rContent-Type: =?koi8-r?q?=F0=D2=C9?='
        b'\rReferences: /\xc3\x9d\r\r7\xf3\x90\x95\xaf',
    tokened=True,
)
def test_no_message_leaves_a_half_parsed_letter(fuzz_federation: Federation, raw: bytes, tokened: bool) -> None:
    """Whatever arrives is stored whole and ends processed, refused or ignored — never 'failed',
    never still 'stored', and no ledger letter appears unless the message was processed."""
    fed = fuzz_federation
    if tokened:  # a genuine token and sender, so the fuzz reaches the letter reader too
        game, white, _, white_email, _ = fed.games[0]
        raw = (f"From: {white_email}\r\nTo: {fed.inbox.signer.reply_address(game, white)}\r\n"
               ).encode() + raw
    with fed.database.session() as session:
        letters_before = session.scalar(select(func.count()).select_from(Letter))
    receipt = fed.inbox.receive(raw, source=Source.PIPE)
    assert receipt.status in (InboundStatus.PROCESSED, InboundStatus.REFUSED, InboundStatus.IGNORED), receipt
    with fed.database.session() as session:
        row = session.get(InboundRow, receipt.inbound_id)
        assert row is not None and row.status is receipt.status
        if not receipt.duplicate:  # a duplicate (same Message-ID or bytes) keeps the first one
            assert row.raw == raw
        letters_after = session.scalar(select(func.count()).select_from(Letter))
    if receipt.status is not InboundStatus.PROCESSED:
        assert letters_after == letters_before
