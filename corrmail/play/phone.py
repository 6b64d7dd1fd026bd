"""Moves given by telephone (002 §4.1.1 в, §4.1.2): the steward takes the call down and enters
it through the postal entry (:func:`corrmail.play.postcards.enter_postcard`) with the call's date.

How the three dates of 002 §4.3.1 read for a call (docs/rules/timekeeping.md):

* third date, the dispatch of the reply: the day of the call;
* postmark: a call has none; the call's date, as the steward recorded it, stands in its place
  (002 §4.3.1 repeats the sender's date where no postmark exists);
* second date, the receipt of the partner's move: the day the caller got it (the day of the
  steward's call that relayed it, or as the player states it);
* first date, the partner's dispatch: the partner's call's date, or his letter's postmark.

Days count as for letters: the same chart, the same control, the same breaks.
"""

from __future__ import annotations

from dataclasses import replace

from corrmail.models import Channel
from corrmail.play.postcards import PostcardEntry

__all__ = ["telephone_entry"]


def telephone_entry(entry: PostcardEntry) -> PostcardEntry:
    """``entry`` as a call: channel phone, the call's date (``sent``) as its postmark, never
    registered (registration is a post office's receipt, 002 §4.3.1)."""
    return replace(entry, channel=Channel.PHONE, postmark=entry.postmark or entry.sent,
                   registered=False)
