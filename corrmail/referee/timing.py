"""What a case allows today, and what waits until when.

The case pages offer only the actions the rules allow on the reader's day and say, for the
others, what they wait for and until when (a decision while the accused may still protest,
002 §4.3.6; an adjudication while the players' analyses may still arrive, 002 §4.5.2; closing
while a decision is open to protest, 002 §4.1.12). The answer is the state machine's own: each
ruling is tried on the pure case (nothing is stored) and a :class:`adjudication.WindowOpen`
says it waits — so the page and the desk cannot disagree.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

from adjudication import (
    Adjudication,
    AdjudicationError,
    CaseState,
    Dispute,
    GameRecordCase,
    OverstepClaim,
    Sanction,
    SpecialBreakRequest,
    Withdrawal,
)
from adjudication.case import Case
from adjudication.errors import WindowOpen

__all__ = ["Waiting", "close_waits", "decided_and_final", "rulings_today", "waits_for"]

#: The reader's words for what a decision waits for, by the state machine's English.
_WAITS_FOR = {
    "the accused's protest": _l("the accused player's protest against the claim"),
    "the players' analyses": _l("the players' assessments and analyses"),
    "the game records": _l("the players' game records"),
}
_RECORD_WITH_REPLY = _l("a game record sent with the next reply to the steward")
_PROTEST_WINDOW = _l("a protest against the decision")

#: A trial decision needs reasons where the file contradicts it; the wait comes before.
_TRIAL_REASONS = "-"


@dataclass(frozen=True)
class Waiting:
    """An action the case does not allow today: the ruling (``""``: every ruling, or
    closing), what it waits for (in the reader's words), until when, under which rule."""

    ruling: str
    what: str
    until: dt.date
    rule: str


def waits_for(error: WindowOpen) -> str:
    what = _WAITS_FOR.get(error.what)
    return str(what) if what is not None else str(_RECORD_WITH_REPLY)


def _trial(case: Case, on: dt.date) -> Callable[[str], object] | None:
    """The pure decision of ``case`` for a ruling, as the desk calls it; ``None`` when the
    case takes no decision now."""
    revision = case.revision
    if case.state is CaseState.UNDER_PROTEST:
        return lambda ruling: case.decide_protest(ruling, on, revision=revision,
                                                  reasons=_TRIAL_REASONS)
    if case.state not in (CaseState.AWAITING_PARTIES, CaseState.AWAITING_DECISION):
        return None
    if isinstance(case, OverstepClaim | Dispute):
        return lambda ruling: case.decide(ruling, on, revision=revision, reasons=_TRIAL_REASONS)
    if isinstance(case, Adjudication):
        return lambda ruling: case.decide(ruling, on, revision=revision,
                                          sharply_contradicting=False, reasons=_TRIAL_REASONS)
    if isinstance(case, Withdrawal):
        return lambda _ruling: case.decide(on, revision=revision, plan=None,
                                           reasons=_TRIAL_REASONS)
    if isinstance(case, SpecialBreakRequest):
        return lambda ruling: case.decide(ruling, on, revision=revision, start=None, end=None,
                                          reasons=_TRIAL_REASONS)
    if isinstance(case, Sanction):
        return lambda ruling: case.decide_request(ruling, on, revision=revision,
                                                  reasons=_TRIAL_REASONS)
    if isinstance(case, GameRecordCase):
        return lambda _ruling: case.settle(on, revision=revision)
    return None


def rulings_today(case: Case, rulings: list[str], on: dt.date) -> tuple[list[str], list[Waiting]]:
    """The rulings the case allows ``on`` and those that wait. Other refusals (materials
    missing, reasons required) do not hide a ruling: the desk words them when it is chosen."""
    trial = _trial(case, on)
    if trial is None:
        return [], []
    allowed: list[str] = []
    waiting: list[Waiting] = []
    for ruling in rulings or [""]:
        try:
            trial(ruling)
        except WindowOpen as error:
            waiting.append(Waiting(ruling, waits_for(error), error.due, error.rule))
        except AdjudicationError:
            allowed.append(ruling)
        else:
            allowed.append(ruling)
    return allowed, waiting


def close_waits(case: Case, on: dt.date) -> Waiting | None:
    """Closing a decided case waits while a party may still protest the decision."""
    if case.state is not CaseState.DECIDED:
        return None
    due = case.protest_window_until()
    if due is not None and on <= due:
        return Waiting("", str(_PROTEST_WINDOW), due, case.PROTEST_RULE)
    return None


def decided_and_final(case: Case, on: dt.date) -> bool:
    """Decided, and no party may protest any more: nothing is left for anyone but closing it,
    so the case leaves the open queue."""
    if case.state is CaseState.CLOSED:
        return True
    return case.state is CaseState.DECIDED and close_waits(case, on) is None
