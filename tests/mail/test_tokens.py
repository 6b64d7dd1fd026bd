"""Reply and bounce tokens: signed, case-insensitive, and never accepted when forged."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corrmail.mail.errors import TokenError
from corrmail.mail.tokens import ReplyToken, TokenSigner

SIGNER = TokenSigner(b"secret-one", "turnir.example")
OTHER = TokenSigner(b"secret-two", "turnir.example")


@given(st.integers(1, 10**12), st.integers(1, 10**12))
def test_reply_address_round_trips(game_id: int, player_id: int) -> None:
    address = SIGNER.reply_address(game_id, player_id)
    assert address.startswith("turnir+") and address.endswith("@turnir.example")
    token = SIGNER.find_reply_token([address])
    assert token is not None and (token.game_id, token.player_id) == (game_id, player_id)
    assert SIGNER.find_reply_token([address.upper()]) == token
    assert SIGNER.find_reply_token([SIGNER.reply_reference(game_id, player_id)]) == token


def test_token_of_another_server_or_game_is_rejected() -> None:
    foreign = OTHER.reply_token(12, 34)
    with pytest.raises(TokenError, match="does not verify"):
        SIGNER.verify_reply(foreign)
    genuine = SIGNER.reply_token(12, 34)
    swapped = ReplyToken(12, 35, genuine.signature)  # same signature, another player
    with pytest.raises(TokenError):
        SIGNER.verify_reply(swapped)
    assert SIGNER.find_reply_token([f"turnir+{swapped}@turnir.example"]) is None
    assert SIGNER.has_reply_token_candidate([f"turnir+{swapped}@turnir.example"])


def test_a_forged_reference_does_not_hide_the_genuine_token() -> None:
    forged = f"<{OTHER.reply_token(1, 2)}.reply@turnir.example>"
    genuine = SIGNER.reply_reference(12, 34)
    token = SIGNER.find_reply_token([forged, genuine])
    assert token is not None and token.player_id == 34


def test_bounce_address_names_its_letter() -> None:
    address = SIGNER.bounce_address(4242)
    assert SIGNER.find_bounce_letter(["someone@else", address]) == 4242
    assert SIGNER.find_bounce_letter([OTHER.bounce_address(4242)]) is None


def test_empty_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        TokenSigner(b"", "turnir.example")
