"""The player's own sheet by e-mail: a letter whose whole text is one word — «лист» or
«sheet» — answers with his games, clocks, days left, next deadlines and the last bulletin.

The mail layer's inbound dispatch calls :func:`is_sheet_request` on an authenticated letter
and, when it is one, :func:`mail_player_sheet` instead of reading moves from it.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from corrmail.bulletins.build import build_player_sheet
from corrmail.letters.write import DEFAULT_LANGUAGE, LetterWriter
from corrmail.models import OutboxMessage, Participant

__all__ = ["SHEET_COMMANDS", "is_sheet_request", "mail_player_sheet"]

SHEET_COMMANDS = frozenset({"лист", "sheet", "аркуш"})
"""The one-word commands (Russian, English, Ukrainian), compared without case and punctuation."""


def is_sheet_request(text: str) -> bool:
    """True when the letter's own text (quoted lines and the signature left out) is one of
    :data:`SHEET_COMMANDS` and nothing else."""
    own: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in ("--", "-- ") or stripped.startswith(">"):
            break
        if stripped:
            own.append(stripped)
    if len(own) != 1:
        return False
    word = own[0].strip(" .!«»\"'").casefold()
    return word in SHEET_COMMANDS


def mail_player_sheet(
    session: Session,
    writer: LetterWriter,
    participant: Participant,
    on: dt.date,
    *,
    in_reply_to: str | None = None,
) -> OutboxMessage | None:
    """Queue the sheet to the player's address on record (``None``: he has none)."""
    address = participant.player.email
    if not address:
        return None
    sheet = build_player_sheet(session, participant, on)
    return writer.post(
        session,
        kind="player_sheet",
        to=address,
        template="player_sheet",
        language=participant.player.language or DEFAULT_LANGUAGE,
        context={"doc": sheet, "as_of": on},
        in_reply_to=in_reply_to,
        tournament_id=participant.tournament_id,
    )
