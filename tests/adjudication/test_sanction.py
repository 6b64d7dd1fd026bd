"""Sanctions (002 §4.1.9–4.1.10)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication import (
    Addressee,
    CaseState,
    IllegalTransition,
    Instance,
    InvalidSanction,
    LetterTemplate,
    Sanction,
    SanctionKind,
    SanctionRuling,
    Side,
)
from adjudication.effects import (
    ClearResult,
    LiftSanction,
    RecordResult,
    RecordSanction,
    SendLetter,
    WithholdBulletins,
)
from adjudication.outcomes import GameOutcome

ON = date(2025, 5, 1)


def test_steward_warns_citing_the_rule() -> None:
    transition = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.WARNING,
        by=Instance.STEWARD,
        on=ON,
        rules_violated=("002 §4.2.6",),
    )
    assert transition.case.state is CaseState.DECIDED
    assert transition.effects[0] == RecordSanction("p1", "warning", ("002 §4.2.6",), "002 §4.1.9")
    assert transition.case.last_decision is not None
    assert transition.case.last_decision.rules == ("002 §4.1.9", "002 §4.2.6")


def test_steward_withholds_bulletins() -> None:
    transition = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.BULLETINS_WITHHELD,
        by=Instance.STEWARD,
        on=ON,
        rules_violated=("002 §4.5.1",),
    )
    assert WithholdBulletins("p1", "002 §4.1.9") in transition.effects


@pytest.mark.parametrize("citations", [(), ("rule 5",), ("4.2.6",)])
def test_sanction_must_cite_rule_points(citations: tuple[str, ...]) -> None:
    with pytest.raises(InvalidSanction, match="002 §4.1.10"):
        Sanction.impose(
            "s1",
            player="p1",
            sanction=SanctionKind.REPRIMAND,
            by=Instance.STEWARD,
            on=ON,
            rules_violated=citations,
        )


def test_steward_asks_the_referee_for_a_forfeit() -> None:
    transition = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.FORFEIT,
        by=Instance.STEWARD,
        on=ON,
        rules_violated=("002 §4.2.8",),
        game="g1",
        side=Side.BLACK,
    )
    assert transition.case.state is CaseState.AWAITING_DECISION
    assert transition.effects == (
        SendLetter(Addressee.REFEREE, LetterTemplate.SANCTION_REQUESTED, "002 §4.1.9"),
    )
    granted = transition.case.decide_request(SanctionRuling.IMPOSED, date(2025, 5, 3), revision=0)
    assert (
        RecordResult("g1", GameOutcome.forfeit_loss_for(Side.BLACK), "002 §4.1.7")
        in granted.effects
    )
    assert granted.case.last_decision is not None
    assert granted.case.last_decision.instance is Instance.REFEREE
    refused = transition.case.decide_request("refused", date(2025, 5, 3), revision=0)
    assert not any(isinstance(e, RecordSanction) for e in refused.effects)
    with pytest.raises(IllegalTransition):
        granted.case.decide_request(SanctionRuling.REFUSED, date(2025, 5, 4), revision=1)


def test_forfeit_names_game_and_colour() -> None:
    with pytest.raises(InvalidSanction, match="002 §4.1.7"):
        Sanction.impose(
            "s1",
            player="p1",
            sanction=SanctionKind.FORFEIT,
            by=Instance.REFEREE,
            on=ON,
            rules_violated=("002 §4.2.8",),
        )


def test_referee_requests_exclusion_from_the_organizer() -> None:
    transition = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.EXCLUSION_REQUEST,
        by=Instance.REFEREE,
        on=ON,
        rules_violated=("002 §4.1.11",),
    )
    assert SendLetter(Addressee.ORGANIZER, LetterTemplate.EXCLUSION_REQUEST, "002 §4.1.7") in (
        transition.effects
    )


def test_lifted_forfeit_clears_the_result() -> None:
    case = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.FORFEIT,
        by=Instance.REFEREE,
        on=ON,
        rules_violated=("002 §4.2.8",),
        game="g1",
        side=Side.WHITE,
    ).case
    case = case.protest("p1", date(2025, 5, 11), revision=1).case
    assert case.protests[-1].to is Instance.ORGANIZER
    lifted = case.decide_protest("refused", date(2025, 5, 20), revision=2)
    assert lifted.effects[:2] == (
        LiftSanction("p1", "forfeit", "002 §4.1.12"),
        ClearResult("g1", "002 §4.1.12"),
    )
    assert lifted.case.is_closed


def test_warning_protested_to_the_referee_then_the_organizer() -> None:
    case = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.WARNING,
        by=Instance.STEWARD,
        on=ON,
        rules_violated=("002 §4.2.6",),
    ).case
    case = case.protest("p1", date(2025, 5, 11), revision=1).case
    assert case.protests[-1].to is Instance.REFEREE
    upheld = case.decide_protest("imposed", date(2025, 5, 13), revision=2)
    assert upheld.case.state is CaseState.DECIDED
    again = upheld.case.protest("p1", date(2025, 5, 23), revision=3).case
    assert again.protests[-1].to is Instance.ORGANIZER
    assert again.decide_protest("imposed", date(2025, 6, 1), revision=4).case.is_closed


def test_organizer_sanction_is_final_at_once() -> None:
    case = Sanction.impose(
        "s1",
        player="p1",
        sanction=SanctionKind.REPRIMAND,
        by=Instance.ORGANIZER,
        on=ON,
        rules_violated=("002 §4.1.11",),
    ).case
    assert case.is_closed
