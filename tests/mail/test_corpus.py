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
