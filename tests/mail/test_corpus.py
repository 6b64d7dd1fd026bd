"""The inbound corpus: real-looking messages from many clients, each with its expected reading.

Every ``tests/mail/corpus/*.eml`` is parsed (:func:`parse_inbound`), authenticated by token
(:class:`TokenSigner`) and read (:func:`read_letter`); ``expected.json`` says what must come
out. Fields absent from a case must be absent (or false) in the result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corrmail.mail.automated import Automation
from corrmail.mail.content import read_letter
from corrmail.mail.errors import MalformedMessage, OversizeMessage
from corrmail.mail.inbound import parse_inbound
from corrmail.mail.tokens import TokenSigner

CORPUS = Path(__file__).parent / "corpus"
SPEC = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
SIGNER = TokenSigner(SPEC["secret"].encode(), SPEC["domain"])
CASES: dict[str, dict[str, Any]] = SPEC["cases"]


def test_corpus_is_large_enough_and_complete() -> None:
    files = sorted(path.name for path in CORPUS.glob("*.eml"))
    assert len(files) >= 40
    assert files == sorted(CASES)
    kinds = {case["kind"] for case in CASES.values()}
    assert kinds == {"letter", "bounce", "auto_reply", "read_receipt", "malformed", "oversize"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_corpus_message(name: str) -> None:
    expected = CASES[name]
    raw = (CORPUS / name).read_bytes()
    kind = expected["kind"]
    max_bytes = expected.get("max_bytes", 10 * 1024 * 1024)

    if kind == "malformed":
        with pytest.raises(MalformedMessage):
            parse_inbound(raw, max_bytes=max_bytes)
        return
    if kind == "oversize":
        with pytest.raises(OversizeMessage) as caught:
            parse_inbound(raw, max_bytes=max_bytes)
        assert caught.value.size == len(raw) and caught.value.limit == max_bytes
        return

    message = parse_inbound(raw, max_bytes=max_bytes)
    assert message.from_address == expected["from_address"]
    if "from_name" in expected:
        assert message.from_name == expected["from_name"]
    if "subject" in expected:
        assert message.subject == expected["subject"]

    token = SIGNER.find_reply_token(message.token_sources())
    if expected.get("token") is None:
        assert token is None
    else:
        assert token is not None and [token.game_id, token.player_id] == expected["token"]
    if expected.get("token_candidate"):
        assert SIGNER.has_reply_token_candidate(message.token_sources())

    if kind != "letter":
        assert message.automation is not None
        assert message.automation.kind is Automation(kind)
        assert message.text == "", "machine-made mail must not be read for moves"
        if "bounce_letter" in expected:
            assert SIGNER.find_bounce_letter(message.recipients) == expected["bounce_letter"]
        return

    assert message.automation is None
    assert message.sha256 and message.message_id
    assert list(message.attachment_names) == expected.get("attachments", [])
    content = read_letter(message.text)
    if expected.get("empty"):
        assert content.is_empty
    assert [_mention(m) for m in content.moves] == [_normalise(m) for m in expected.get("moves", [])]
    assert [
        [variant.label, [_mention(m) for m in variant.moves]] for variant in content.variants
    ] == [[label, [_normalise(m) for m in moves]] for label, moves in expected.get("variants", [])]
    for flag in ("draw_offer", "draw_accept", "draw_decline", "resignation", "overstep_claim",
                 "accepts_variant"):
        assert getattr(content, flag) == expected.get(flag, False), flag
    assert content.accepted_variant_label == expected.get("accepted_variant_label")
    assert content.protest == expected.get("protest")
    if "break_phrase" in expected:
        assert content.break_mention is not None
        assert content.break_mention.phrase == expected["break_phrase"]
        assert content.break_mention.standard_wording == expected["break_standard"]
    else:
        assert content.break_mention is None
    assert [issue.rule for issue in content.issues] == expected.get("issues", [])


def _mention(move: Any) -> list[Any]:
    return [move.text, move.number, move.side.value if move.side else None, move.short_notation]


def _normalise(expected: list[Any]) -> list[Any]:
    return expected + [False] if len(expected) == 3 else expected


# --- the same corpus through the real entry point ------------------------------------------------

AUTH_REFUSALS = {"no_token", "forged_token", "unknown_game", "sender_mismatch"}


def test_corpus_through_the_inbox(db_url: str) -> None:
    """Every corpus message through :meth:`Inbox.receive`: machine mail ignored, forged or
    foreign senders refused before the game is touched, genuine letters authenticated."""
    import datetime as dt

    from corrmail.db import Database
    from corrmail.letters.write import LetterWriter
    from corrmail.mail.inbox import Inbox
    from corrmail.mail.settings import MailSettings
    from corrmail.models import (
        Game,
        GameState,
        GameType,
        InboundStatus,
        Participant,
        Player,
        Tournament,
        TournamentChannel,
        TournamentStatus,
        TournamentSystem,
    )

    database = Database(db_url)
    with database.transaction() as session:
        tournament = Tournament(
            code="ЗЧ-2026/3", title="Корпус", game_type=GameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.EMAIL,
            start_date=dt.date(2026, 3, 1), end_date=dt.date(2027, 2, 28),
            status=TournamentStatus.RUNNING,
        )
        session.add(tournament)
        session.flush()
        for participant_id, email in ((34, "ivan.petrov@mail.example"), (35, "sedov@yandex.example")):
            player = Player(name=email.split("@")[0], email=email)
            session.add(player)
            session.flush()
            session.add(Participant(id=participant_id, tournament_id=tournament.id, player_id=player.id))
        session.flush()
        session.add(Game(id=12, tournament_id=tournament.id, round=1, white_id=34, black_id=35,
                         state=GameState.IN_PLAY))
    registered = {34: "ivan.petrov@mail.example", 35: "sedov@yandex.example"}
    when = dt.datetime(2026, 3, 12, 9, 0, tzinfo=dt.UTC)
    try:
        for name in sorted(CASES):
            expected = CASES[name]
            settings = MailSettings(SPEC["domain"], f"turnir@{SPEC['domain']}", SPEC["secret"].encode(),
                                    max_message_bytes=expected.get("max_bytes", 10 * 1024 * 1024))
            inbox = Inbox(database, LetterWriter(settings))
            receipt = inbox.receive((CORPUS / name).read_bytes(), source="pipe", received_at=when)
            kind = expected["kind"]
            if kind in ("bounce", "auto_reply", "read_receipt", "malformed"):
                assert (receipt.status, receipt.outcome) == (InboundStatus.IGNORED, kind), name
            elif kind == "oversize":
                assert (receipt.status, receipt.outcome) == (InboundStatus.REFUSED, "oversize"), name
            elif expected.get("token") is None:
                wanted = "forged_token" if expected.get("token_candidate") else "no_token"
                assert (receipt.status, receipt.outcome) == (InboundStatus.REFUSED, wanted), name
            elif registered[expected["token"][1]] != expected["from_address"]:
                assert (receipt.status, receipt.outcome) == (InboundStatus.REFUSED, "sender_mismatch"), name
            else:
                assert receipt.outcome not in AUTH_REFUSALS, (name, receipt)
                assert receipt.status in (InboundStatus.PROCESSED, InboundStatus.REFUSED), name
    finally:
        database.dispose()
