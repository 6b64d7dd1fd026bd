"""Readers' names for the audit log's actions (``case.suspend_game``, ``letter.postal``): the
codes stay English in the database and in exports; the pages show these names."""

from __future__ import annotations

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

__all__ = ["AUDIT_ACTIONS", "audit_action"]

AUDIT_ACTIONS: dict[str, LazyString] = {
    # The referee's desk: a case and the effects of its decisions.
    "case.decided": _l("case decided"),
    "case.closed": _l("case closed: the decision is final"),
    "case.protested": _l("protest filed"),
    "case.protest_decided": _l("protest decided"),
    "case.receipt": _l("receipt of the decision recorded"),
    "case.send_letter": _l("letter sent"),
    "case.record_result": _l("result recorded"),
    "case.clear_result": _l("result cleared"),
    "case.suspend_game": _l("play suspended"),
    "case.resume_game": _l("play resumed"),
    "case.forward_held_move": _l("held reply move forwarded"),
    "case.impose_penalty": _l("penalty days charged"),
    "case.revoke_penalty": _l("penalty days revoked"),
    "case.open_adjudication": _l("adjudication opened"),
    "case.generate_game_record": _l("game record drawn up"),
    "case.record_sanction": _l("sanction recorded"),
    "case.lift_sanction": _l("sanction lifted"),
    "case.withhold_bulletins": _l("current information withheld"),
    "case.record_ban": _l("ban recorded"),
    "case.grant_break": _l("break granted"),
    "case.revoke_break": _l("break revoked"),
    "overstep_claim.opened": _l("overstep claim opened"),
    "overstep_claim.detected": _l("overstep detected"),
    "adjudication.opened": _l("adjudication opened"),
    "game_record.opened": _l("game records requested"),
    "withdrawal.recorded": _l("withdrawal recorded"),
    "sanction.opened": _l("sanction proposed"),
    "special_break.requested": _l("special break requested"),
    "dispute.opened": _l("dispute opened"),
    # Letters and games.
    "letter.postal": _l("postcard entered"),
    "letter.add": _l("letter entered"),
    "letter.correct": _l("letter corrected"),
    "penalty.charged": _l("penalty days charged"),
    "break.recorded": _l("break recorded"),
    "game.finished": _l("game finished"),
}


def audit_action(action: str) -> str:
    """The reader's name of ``action``; an action without one is shown as stored."""
    name = AUDIT_ACTIONS.get(action)
    return str(name) if name is not None else action
