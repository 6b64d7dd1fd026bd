"""How a generated game's letters are dated: like real post, each letter sent a few days after
the partner's arrived, the three dates of 002 §4.2.3 carried from one letter to the next."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any, NamedTuple

from corrmail.models import Channel

__all__ = ["LetterDates", "posted_move", "posting_dates"]


class LetterDates(NamedTuple):
    partner_sent: dt.date | None
    received: dt.date | None
    sent: dt.date


def posting_dates(rng: random.Random, first_sent: dt.date) -> Iterator[LetterDates]:
    """The dates of a game's letters in turn, without end: the opening letter answers nothing;
    each later one is sent 1–8 days after the previous one arrived, 2–6 days after it was sent.

    Each letter after the first draws its dates from ``rng`` only when it is asked for, so a
    generator that stops early leaves ``rng`` where a shorter game would."""
    partner_sent: dt.date | None = None
    received: dt.date | None = None
    sent = first_sent
    while True:
        yield LetterDates(partner_sent, received, sent)
        partner_sent = sent
        received = sent + dt.timedelta(days=rng.randint(2, 6))
        sent = received + dt.timedelta(days=rng.randint(1, 8))


def posted_move(game_id: int, sequence: int, sender_id: int, move: str, when: LetterDates,
                entered_at: dt.datetime) -> dict[str, Any]:
    """The columns of a generated letter: one move by post, dated ``when``, nothing else said.
    The generators insert it themselves (they are the only modules that write letters as plain
    rows, tests/test_game_core.py)."""
    return {
        "game_id": game_id, "sequence": sequence, "sender_id": sender_id, "channel": Channel.POST,
        "raw_text": f"Мой ход: {move}.", "moves_text": move, "variants_text": "",
        "partner_sent": when.partner_sent, "received": when.received, "sent": when.sent,
        "postmark_date": when.sent, "registered": False, "penalty_days": 0,
        "entered_at": entered_at,
    }
