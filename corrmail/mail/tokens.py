"""Signed tokens carried in addresses: who may answer for which game, and which letter bounced.

A *reply token* names a game and a player and is signed with HMAC-SHA256 under the server's
secret, so a reply can be attributed without trusting anything the sender typed. It travels
twice in every letter to a player — in the plus-address of ``Reply-To`` (``turnir+g12-p34-…``)
and in ``References`` (``<g12-p34-….reply@domain>``) — because some clients drop one or the
other. A *bounce token* names an outbox letter and forms the envelope sender (VERP), so a
delivery-status notification finds the letter it is about.

Signatures are lower-case base32 (RFC 4648 alphabet without padding): local parts are often
case-folded by mail servers and must not contain ``=`` or ``/``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass

from corrmail.mail.errors import TokenError

__all__ = [
    "ReplyToken",
    "BounceToken",
    "TokenSigner",
    "SIGNATURE_LENGTH",
]

#: 16 base32 characters = 80 bits of HMAC; forging one by guessing is hopeless.
SIGNATURE_LENGTH = 16

_REPLY_RE = re.compile(rf"\bg(\d{{1,18}})-p(\d{{1,18}})-([a-z2-7]{{{SIGNATURE_LENGTH}}})\b", re.I)
_BOUNCE_RE = re.compile(rf"\bbounce\+l(\d{{1,18}})-([a-z2-7]{{{SIGNATURE_LENGTH}}})@", re.I)


@dataclass(frozen=True, slots=True)
class ReplyToken:
    game_id: int
    player_id: int
    signature: str

    def __str__(self) -> str:
        return f"g{self.game_id}-p{self.player_id}-{self.signature}"


@dataclass(frozen=True, slots=True)
class BounceToken:
    letter_id: int
    signature: str

    def __str__(self) -> str:
        return f"l{self.letter_id}-{self.signature}"


class TokenSigner:
    """Makes and checks the tokens of one server (one secret, one mail domain)."""

    def __init__(self, secret: bytes, domain: str, mailbox: str = "turnir") -> None:
        if not secret:
            raise ValueError("a non-empty secret is required to sign reply tokens")
        self._secret = secret
        self.domain = domain
        self.mailbox = mailbox

    # -- reply tokens ---------------------------------------------------------------------------

    def reply_token(self, game_id: int, player_id: int) -> ReplyToken:
        return ReplyToken(game_id, player_id, self._sign(f"reply:{game_id}:{player_id}"))

    def reply_address(self, game_id: int, player_id: int) -> str:
        """The plus-address a player answers to, e.g. ``turnir+g12-p34-…@domain``."""
        return f"{self.mailbox}+{self.reply_token(game_id, player_id)}@{self.domain}"

    def reply_reference(self, game_id: int, player_id: int) -> str:
        """A message-id-shaped copy of the token for ``References``."""
        return f"<{self.reply_token(game_id, player_id)}.reply@{self.domain}>"

    def verify_reply(self, token: ReplyToken) -> ReplyToken:
        """Return ``token`` if its signature is ours, else raise :class:`TokenError`."""
        expected = self._sign(f"reply:{token.game_id}:{token.player_id}")
        if not hmac.compare_digest(expected, token.signature.lower()):
            raise TokenError("reply token signature does not verify", str(token))
        return token

    def find_reply_token(self, texts: Iterable[str]) -> ReplyToken | None:
        """The first *verified* reply token in any of ``texts`` (addresses, References …).

        Forged or mangled candidates are skipped rather than fatal: a client may quote an old
        or foreign token in ``References`` next to the genuine one.
        """
        for text in texts:
            for match in _REPLY_RE.finditer(text):
                candidate = ReplyToken(int(match[1]), int(match[2]), match[3].lower())
                try:
                    return self.verify_reply(candidate)
                except TokenError:
                    continue
        return None

    def has_reply_token_candidate(self, texts: Iterable[str]) -> bool:
        """Whether anything looking like a reply token is present (signed or not)."""
        return any(_REPLY_RE.search(text) for text in texts)

    # -- bounce tokens (VERP envelope sender) ---------------------------------------------------

    def bounce_token(self, letter_id: int) -> BounceToken:
        return BounceToken(letter_id, self._sign(f"bounce:{letter_id}"))

    def bounce_address(self, letter_id: int) -> str:
        """Envelope sender of outbox letter ``letter_id``: ``bounce+l42-…@domain``."""
        return f"bounce+{self.bounce_token(letter_id)}@{self.domain}"

    def find_bounce_letter(self, texts: Iterable[str]) -> int | None:
        """The outbox letter id named by a verified bounce address in ``texts``."""
        for text in texts:
            for match in _BOUNCE_RE.finditer(text):
                letter_id = int(match[1])
                if hmac.compare_digest(self._sign(f"bounce:{letter_id}"), match[2].lower()):
                    return letter_id
        return None

    def _sign(self, payload: str) -> str:
        digest = hmac.new(self._secret, payload.encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode().lower()[:SIGNATURE_LENGTH]
