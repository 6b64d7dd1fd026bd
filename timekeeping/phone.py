"""Moves given by telephone (002 §4.1.1 в, §4.1.2) and the three dates of 002 §4.3.1.

Play by telephone is one of the forms of correspondence play, with think time counted in days
like any other (002 §4.1.2). A call has no postmark, so the three dates read as follows (the
reading is in ``docs/rules/timekeeping.md``, *Moves given by telephone*):

* first date, the partner's dispatch: the day of the partner's call; with no postmark the date
  the partner gave stands (002 §4.3.1 "при отсутствии штемпеля … повторяется время отправления,
  указанное партнером"), so there is nothing to correct;
* second date, the receipt: the day the move was actually heard (002 §4.3.1 "при его отсутствии
  указывается фактическое время получения") — the day of that same call;
* third date, one's own dispatch: the day of one's own call.

So a move given by telephone is received the day it is given: no days in transit, and think time
runs from the day after the call that brought the partner's move up to the day of one's own call
(002 §4.3.1: a call answered on the day it came costs nothing).
"""

from __future__ import annotations

from datetime import date

from timekeeping.ledger import LetterEntry
from timekeeping.side import Side


def phone_reply(sender: Side, move: int, *, called_on: date, partner_called_on: date | None,
                moves_text: str = "", uncounted_moves: int = 0,
                penalty_days_charged_to_partner: int = 0,
                penalty_rule: str = "002 §4.2.11") -> LetterEntry:
    """The ledger entry of ``sender``'s move ``move`` given by telephone on ``called_on``,
    answering the partner's move given by telephone on ``partner_called_on`` (``None`` for the
    first move of the game, which answers nothing).

    The receipt is the day of the partner's call and no postmark is recorded: a call carries
    none, so the partner's declared date stands and is never "corrected" (002 §4.3.1).
    """
    return LetterEntry(
        sender, move, sent=called_on, received=partner_called_on, partner_sent_postmark=None,
        corrects_partner=False, uncounted_moves=uncounted_moves,
        penalty_days_charged_to_partner=penalty_days_charged_to_partner,
        penalty_rule=penalty_rule, moves_text=moves_text, by_phone=True,
    )
