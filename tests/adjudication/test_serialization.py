"""Cases and effects round-trip through JSON, and bad payloads are named precisely."""

from __future__ import annotations

import json
from datetime import date

import pytest

from adjudication import (
    Adjudication,
    Assessment,
    BreakKind,
    Case,
    Channel,
    Dispute,
    DisputeRuling,
    GameRecordCase,
    GameStatus,
    Instance,
    InvalidCaseData,
    OverstepClaim,
    OverstepRuling,
    Sanction,
    SanctionKind,
    Side,
    SpecialBreakRequest,
    TournamentSystem,
    Verdict,
    Withdrawal,
    WithdrawnGame,
    case_from_dict,
    effect_from_dict,
    effect_to_dict,
)
from adjudication.effects import (
    EFFECT_TYPES,
    Addressee,
    ClearResult,
    Effect,
    ForwardHeldMove,
    GenerateGameRecord,
    GrantBreak,
    ImposePenalty,
    LetterTemplate,
    LiftSanction,
    OpenAdjudication,
    RecordBan,
    RecordResult,
    RecordSanction,
    ResumeGame,
    RevokeBreak,
    RevokePenalty,
    SendLetter,
    SuspendGame,
    WithholdBulletins,
)
from adjudication.outcomes import GameOutcome
from adjudication.serialization import Plain, to_plain


def sample_cases() -> list[Case]:
    claim = OverstepClaim.open(
        "c1",
        game="g1",
        claimant=Side.WHITE,
        claimed_on=date(2025, 3, 1),
        channel=Channel.EMAIL,
        held_move="c3-d4",
        detected_by_server=True,
    ).case
    protested = claim.decide(OverstepRuling.REJECTED, date(2025, 3, 2), revision=0).case
    protested = protested.acknowledge_receipt("black", date(2025, 3, 3), revision=1).case
    protested = protested.protest("white", date(2025, 3, 4), revision=2, grounds="x").case
    adjudication = Adjudication.open("a1", game="g2", end_date=date(2025, 1, 21)).case
    adjudication = adjudication.submit(
        Side.WHITE, Assessment.WIN, "analysis", sent_on=date(2025, 1, 25), revision=0
    ).case
    decided = (
        adjudication.submit(Side.BLACK, Assessment.LOSS, "", sent_on=date(2025, 1, 26), revision=1)
        .case.decide(Verdict.WHITE_WINS, date(2025, 1, 27), revision=2)
        .case
    )
    withdrawal = Withdrawal.open(
        "w1",
        player="p1",
        withdrew_on=date(2025, 6, 1),
        system=TournamentSystem.ROUND_ROBIN,
        games=(
            WithdrawnGame("g3", "p2", Side.BLACK, GameStatus.FINISHED, GameOutcome.draw()),
            WithdrawnGame("g4", "p3", Side.WHITE, GameStatus.NOT_STARTED),
        ),
        without_good_reason=True,
    ).case
    return [
        claim,
        protested,
        adjudication,
        decided,
        withdrawal,
        withdrawal.decide(date(2025, 6, 2), revision=0).case,
        GameRecordCase.open(
            "r1",
            game="g5",
            finished_on=date(2025, 4, 1),
            channel=Channel.POST,
            result=GameOutcome.both_lose(),
        ).case,
        Sanction.impose(
            "s1",
            player="p1",
            sanction=SanctionKind.FORFEIT,
            by=Instance.REFEREE,
            on=date(2025, 5, 1),
            rules_violated=("002 §4.2.8",),
            game="g6",
            side=Side.BLACK,
        ).case,
        SpecialBreakRequest.request(
            "b1",
            player="p1",
            break_kind=BreakKind.EXTRA,
            start=date(2025, 7, 1),
            end=date(2025, 7, 5),
            reason="flood",
            filed_on=date(2025, 6, 28),
        )
        .case.decide("granted", date(2025, 6, 29), revision=0)
        .case,
        Dispute.open(
            "d1", game="g7", complainant=Side.BLACK, subject="s", filed_on=date(2025, 2, 1)
        )
        .case.decide(DisputeRuling.UPHELD, date(2025, 2, 2), revision=0)
        .case,
    ]


@pytest.mark.parametrize("case", sample_cases(), ids=lambda c: f"{c.TYPE}-{c.revision}")
def test_every_case_round_trips_through_json(case: Case) -> None:
    stored = json.loads(json.dumps(case.to_dict()))
    assert stored["version"] == 1
    assert stored["type"] == case.TYPE
    assert stored["revision"] == case.revision
    assert case_from_dict(stored) == case
    assert type(case).from_dict(stored) == case


def every_effect() -> list[Effect]:
    day = date(2025, 3, 2)
    return [
        SendLetter(Addressee.WHITE, LetterTemplate.OVERSTEP_REJECTED, "002 §4.3.7", "g1"),
        SendLetter(Addressee.PARTNERS, LetterTemplate.BREAK_GRANTED, "002 §4.4.5"),
        RecordResult("g1", GameOutcome.win_for(Side.BLACK, adjudicated=True), "002 §4.5.5"),
        RecordResult("g1", GameOutcome.both_lose(), "002 §4.5.8"),
        ClearResult("g1", "002 §4.1.12"),
        SuspendGame("g1", "002 §4.3.6"),
        ResumeGame("g1", day, "002 §4.3.7"),
        ForwardHeldMove("g1", Side.BLACK, "002 §4.3.7"),
        ImposePenalty("g1", Side.WHITE, 6, "002 §4.3.7"),
        RevokePenalty("g1", Side.WHITE, 6, "002 §4.1.12"),
        OpenAdjudication("g1", "000 §3.14.4"),
        GenerateGameRecord("g1", "002 §4.5.1"),
        RecordSanction("p1", "warning", ("002 §4.2.6",), "002 §4.1.9"),
        LiftSanction("p1", "warning", "002 §4.1.12"),
        WithholdBulletins("p1", "002 §4.1.9"),
        RecordBan("p1", date(2028, 3, 2), "002 §4.1.14"),
        GrantBreak("p1", day, date(2025, 3, 5), "002 §4.4.5"),
        RevokeBreak("p1", day, date(2025, 3, 5), "002 §4.1.12"),
    ]


def test_every_effect_round_trips_through_json() -> None:
    effects = every_effect()
    assert {type(e) for e in effects} == set(EFFECT_TYPES)
    for effect in effects:
        stored = json.loads(json.dumps(effect_to_dict(effect)))
        assert stored["kind"] == effect.kind
        assert effect_from_dict(stored) == effect


def test_transition_effects_are_json_ready() -> None:
    claim = sample_cases()[0]
    assert isinstance(claim, OverstepClaim)
    transition = claim.decide(OverstepRuling.REJECTED, date(2025, 3, 2), revision=0)
    kinds = [effect_to_dict(e)["kind"] for e in transition.effects]
    assert kinds[:3] == ["resume_game", "forward_held_move", "impose_penalty"]


def payload() -> dict[str, Plain]:
    return sample_cases()[1].to_dict()


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"version": 2}, "$.version"),
        ({"version": "1"}, "$.version"),
        ({"type": "withdrawal"}, "$.type"),
        ({"revision": True}, "$.revision"),
        ({"revision": "1"}, "$.revision"),
        ({"opened_on": "2025-02-30"}, "$.opened_on"),
        ({"opened_on": 20250301}, "$.opened_on"),
        ({"state": "pending"}, "$.state"),
        ({"claimant": "red"}, "$.claimant"),
        ({"evidence": "time_chart"}, "$.evidence"),
        ({"decisions": [{"instance": "referee"}]}, "$.decisions[0]"),
        ({"decisions": [None]}, "$.decisions[0]"),
    ],
)
def test_broken_payloads_name_the_broken_path(change: dict[str, object], path: str) -> None:
    data = {**payload(), **change}
    with pytest.raises(InvalidCaseData) as raised:
        OverstepClaim.from_dict(data)
    assert raised.value.path.startswith(path)


def test_missing_required_field_is_named() -> None:
    data = payload()
    del data["held_move"]
    with pytest.raises(InvalidCaseData) as raised:
        case_from_dict(data)
    assert raised.value.path == "$.held_move"


def test_missing_field_with_a_default_is_filled() -> None:
    data = payload()
    del data["detected_by_server"]
    assert case_from_dict(data).revision == 3


def test_unknown_type_and_kind() -> None:
    with pytest.raises(InvalidCaseData, match="unknown case type"):
        case_from_dict({"version": 1, "type": "duel"})
    with pytest.raises(InvalidCaseData, match="unknown effect kind"):
        effect_from_dict({"kind": "teleport"})


def test_values_without_a_json_form_are_refused() -> None:
    with pytest.raises(TypeError, match="float"):
        to_plain(1.5)


def test_service_notes_beside_the_case_are_ignored() -> None:
    data = {**payload(), "letter": "Dear referee, ...", "server_chart_overstep": True}
    case = case_from_dict(data)
    assert case == sample_cases()[1]
    assert "letter" not in case.to_dict()
