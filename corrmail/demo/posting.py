"""How a generated game's letters are dated: like real post, each letter sent a few days after
the partner's arrived, the three dates of 002 §4.2.3 carried from one letter to the next."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["LetterDates", "posting_dates"]


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
