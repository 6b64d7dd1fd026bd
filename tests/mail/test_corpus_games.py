"""The inbound corpus of 100-square draughts and Lasca games (``tests/mail/corpus/games``): each
message parsed, authenticated and read on the board of its game type (002 §4.1.4, §4.2.2,
§4.2.7); ``expected.json`` names the game type and what must come out. Fields absent from a
case must be absent (or false) in the result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corrmail.mail.content import read_letter
from corrmail.mail.inbound import parse_inbound
from corrmail.mail.tokens import TokenSigner
from notation.rules import GameType

CORPUS = Path(__file__).parent / "corpus" / "games"
SPEC = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
SIGNER = TokenSigner(SPEC["secret"].encode(), SPEC["domain"])
CASES: dict[str, dict[str, Any]] = SPEC["cases"]


def test_every_game_type_with_numeric_squares_is_covered() -> None:
    assert sorted(path.name for path in CORPUS.glob("*.eml")) == sorted(CASES)
    assert {case["game_type"] for case in CASES.values()} == {"INTERNATIONAL",
                                                              "COLUMN_INTERNATIONAL"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_game_corpus_message(name: str) -> None:
    expected = CASES[name]
    message = parse_inbound((CORPUS / name).read_bytes())
    assert message.automation is None
    assert message.from_address == expected["from_address"]
    token = SIGNER.find_reply_token(message.token_sources())
    assert token is not None and [token.game_id, token.player_id] == expected["token"]

    geometry = GameType[expected["game_type"]].rules.geometry
    content = read_letter(message.text, geometry)
    if expected.get("empty"):
        assert content.is_empty
    assert [_mention(m) for m in content.moves] == expected.get("moves", [])
    assert [
        [variant.label, [_mention(m) for m in variant.moves]] for variant in content.variants
    ] == expected.get("variants", [])
    for flag in ("draw_offer", "draw_accept", "draw_decline", "resignation", "overstep_claim",
                 "accepts_variant"):
        assert getattr(content, flag) == expected.get(flag, False), flag
    assert content.break_mention is None
    assert content.issues == ()


def _mention(move: Any) -> list[Any]:
    return [move.text, move.number, move.side.value if move.side else None]
