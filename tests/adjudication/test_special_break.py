"""Special breaks (002 §4.4.5)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    BreakKind,
    BreakRuling,
    IllegalTransition,
    InvalidBreakRequest,
    LetterTemplate,
    SpecialBreakRequest,
)
from adjudication.effects import GrantBreak, RevokeBreak, SendLetter


def request(kind: BreakKind = BreakKind.RETROACTIVE) -> SpecialBreakRequest:
    return SpecialBreakRequest.request(
        "b1",
        player="p1",
        break_kind=kind,
        start=date(2025, 10, 10),
        end=date(2025, 10, 25),
        reason="sudden illness",
        filed_on=date(2025, 10, 14),
    ).case


def test_the_grant_says_which_of_the_two_002_4_4_5_allows() -> None:
    # A late-announced break counted is still the break of the year (002 §4.4.1); an extra break
    # is beyond the norms. The effect carries which, for the time chart.
    late = request().decide(BreakRuling.GRANTED, date(2025, 10, 16), revision=0)
    extra = request(BreakKind.EXTRA).decide(BreakRuling.GRANTED, date(2025, 10, 16), revision=0)
    assert [e.grant for e in late.effects if isinstance(e, GrantBreak)] == ["late_notice"]
    assert [e.grant for e in extra.effects if isinstance(e, GrantBreak)] == ["extra"]


def test_days_include_first_and_last() -> None:
    assert request().days == 16


def test_retroactive_request_granted_counts_the_break_from_its_start() -> None:
    transition = request().decide(BreakRuling.GRANTED, date(2025, 10, 16), revision=0)
    assert transition.effects[0] == GrantBreak(
        "p1", date(2025, 10, 10), date(2025, 10, 25), "002 §4.4.5"
    )
    assert [(e.to, e.template) for e in transition.effects if isinstance(e, SendLetter)] == [
        (Addressee.PLAYER, LetterTemplate.BREAK_GRANTED),
        (Addressee.PARTNERS, LetterTemplate.BREAK_GRANTED),
        (Addressee.STEWARD, LetterTemplate.BREAK_GRANTED),
    ]


def test_referee_may_grant_part_of_the_dates() -> None:
    transition = request(BreakKind.EXTRA).decide(
        "granted", date(2025, 10, 16), revision=0, end=date(2025, 10, 20)
    )
    assert transition.effects[0] == GrantBreak(
        "p1", date(2025, 10, 10), date(2025, 10, 20), "002 §4.4.5", grant="extra"
    )
    with pytest.raises(InvalidBreakRequest):
        request().decide("granted", date(2025, 10, 16), revision=0, end=date(2025, 10, 26))


def test_refusal_and_its_reversal() -> None:
    refused = request().decide(BreakRuling.REFUSED, date(2025, 10, 16), revision=0)
    assert not any(isinstance(e, GrantBreak) for e in refused.effects)
    with pytest.raises(IllegalTransition):
        refused.case.decide(BreakRuling.GRANTED, date(2025, 10, 17), revision=1)
    protested = refused.case.protest("p1", date(2025, 10, 20), revision=1).case
    granted = protested.decide_protest("granted", date(2025, 10, 30), revision=2)
    assert granted.effects[0] == GrantBreak(
        "p1", date(2025, 10, 10), date(2025, 10, 25), "002 §4.4.5"
    )


def test_grant_overturned_is_revoked() -> None:
    granted = request().decide(BreakRuling.GRANTED, date(2025, 10, 16), revision=0).case
    protested = granted.protest("p1", date(2025, 10, 20), revision=1).case
    revoked = protested.decide_protest("refused", date(2025, 10, 30), revision=2)
    assert revoked.effects[0] == RevokeBreak(
        "p1", date(2025, 10, 10), date(2025, 10, 25), "002 §4.1.12"
    )


def test_bad_dates_are_refused() -> None:
    with pytest.raises(InvalidBreakRequest, match="ends before"):
        SpecialBreakRequest.request(
            "b2",
            player="p1",
            break_kind=BreakKind.EXTRA,
            start=date(2025, 10, 10),
            end=date(2025, 10, 9),
            reason="",
            filed_on=date(2025, 10, 1),
        )
    with pytest.raises(InvalidBreakRequest, match="002 §4.4.5"):
        SpecialBreakRequest.request(
            "b3",
            player="p1",
            break_kind=BreakKind.RETROACTIVE,
            start=date(2025, 10, 10),
            end=date(2025, 10, 20),
            reason="",
            filed_on=date(2025, 10, 10),
        )
