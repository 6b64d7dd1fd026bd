"""The demo shows the rulebook's ways to a result: every finished game reached its result by a
path the rules allow — over the board, or an overstep claimed (002 §4.3.6), confirmed by the
referee after the accused's time to object (§4.3.7–§4.3.8), with its letters and audit entry."""

from __future__ import annotations

from sqlalchemy import select

from adjudication import OverstepClaim, case_from_dict
from corrmail.db import Database
from corrmail.models import AuditEntry, Case, CaseType, Game, OutboxMessage, ResultKind, Tournament


def test_the_demos_overstep_comes_from_a_confirmed_claim(
    database: Database, demo_tournament: Tournament
) -> None:
    with database.session() as session:
        finished = session.scalars(select(Game).where(Game.result.is_not(None))).all()
        assert {g.result_kind for g in finished} == {ResultKind.PLAYED, ResultKind.OVERSTEP}
        overstepped = next(g for g in finished if g.result_kind is ResultKind.OVERSTEP)
        row = session.scalar(select(Case).where(Case.game_id == overstepped.id))
        assert row is not None and row.case_type == CaseType.OVERSTEP_CLAIM
        claim = case_from_dict(row.payload)
        assert isinstance(claim, OverstepClaim)
        assert [d.ruling for d in claim.decisions] == ["confirmed"]
        decided = claim.decisions[0].decided_on
        assert decided > claim.objection_due  # the accused had his time to object (§4.3.8)
        assert overstepped.result_on == decided and overstepped.result_rule == "002 §4.3.7"
        actions = session.scalars(
            select(AuditEntry.action).where(AuditEntry.entity == "case",
                                            AuditEntry.entity_id == row.id)
        ).all()
        assert "overstep_claim.opened" in actions and "case.decided" in actions
        # Both play by post and the demo's steward has no address: the decision is listed
        # for him to post to each player (002 §4.1.1), not mailed to their own addresses.
        letters = session.scalars(select(OutboxMessage.kind)).all()
        assert letters.count("case.overstep.confirmed") == 0
        sent = [entry.detail for entry in session.scalars(select(AuditEntry).where(
            AuditEntry.action == "case.send_letter", AuditEntry.entity_id == row.id))
            if entry.detail["effect"]["template"] == "overstep.confirmed"]
        by_post = [line for detail in sent for line in detail.get("by_post", [])]
        for player in (overstepped.white, overstepped.black):
            assert f"overstep.confirmed → {player.player.name}" in by_post
