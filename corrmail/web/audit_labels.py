"""Readers' names for the audit log's actions (``case.suspend_game``, ``letter.postal``): the
codes stay English in the database and in exports; the pages show these names."""

from __future__ import annotations

from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

from corrmail.models import AuditEntry
from corrmail.web.state_labels import case_state, reader_name

__all__ = ["AUDIT_ACTIONS", "audit_action", "audit_summary", "letter_template"]

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
    "adjudication.analysis": _l("assessment and analysis received"),
    "game_record.received": _l("game record received"),
    "withdrawal.ban": _l("ban recorded"),
    "overstep_claim.evidence": _l("materials of the claim received"),
    # Letters and games.
    "letter.postal": _l("postcard entered"),
    "letter.add": _l("letter entered"),
    "letter.correct": _l("letter corrected"),
    "letter.forwarded": _l("move forwarded by the steward"),
    "penalty.charged": _l("penalty days charged"),
    "break.recorded": _l("break recorded"),
    "game.finished": _l("game finished"),
}


def audit_action(action: str) -> str:
    """The reader's name of ``action``; an action without one is shown as stored."""
    return reader_name(AUDIT_ACTIONS, action)


# -- what an entry says ----------------------------------------------------------------------
# A case's entries keep their codes and values in ``detail`` (the effect as data, or the case's
# state and ruling); the page words them here in the reader's language. An entry whose detail
# says nothing known (an older or another kind of entry) is shown in its stored summary.

#: What each effect of a decision did, by its kind; the values are the effect's fields.
EFFECT_SUMMARIES: dict[str, LazyString] = {
    "send_letter": _l("letter “%(template)s” to %(to)s"),
    "record_result": _l("game %(game)s: white %(white)s, black %(black)s"),
    "clear_result": _l("game %(game)s"),
    "suspend_game": _l("game %(game)s"),
    "resume_game": _l("game %(game)s, from %(on)s"),
    "forward_held_move": _l("game %(game)s, to %(to)s"),
    "impose_penalty": _l("game %(game)s, %(side)s: %(days)s days"),
    "revoke_penalty": _l("game %(game)s, %(side)s: %(days)s days"),
    "open_adjudication": _l("game %(game)s"),
    "generate_game_record": _l("game %(game)s"),
    "record_sanction": _l("player %(player)s: %(sanction)s for breaking %(rules_violated)s"),
    "lift_sanction": _l("player %(player)s: %(sanction)s"),
    "withhold_bulletins": _l("player %(player)s"),
    "record_ban": _l("player %(player)s, until %(until)s"),
    "grant_break": _l("player %(player)s: %(start)s–%(end)s"),
    "revoke_break": _l("player %(player)s: %(start)s–%(end)s"),
}

#: The case's state after the change, and the decision in force if there is one.
CASE_SUMMARY_RULING = _l("%(state)s, decision: %(ruling)s")
CASE_SUMMARY_RULES = _l("%(state)s, decision: %(ruling)s (%(rules)s)")

#: Addressees and results an effect names, besides the sides and rulings of choice_labels.
_WORDS: dict[str, LazyString] = {
    "player": _l("the player"),
    "partners": _l("the partners"),
    "steward": _l("the steward"),
    "referee": _l("the referee"),
    "organizer": _l("the organizer"),
    "+": _l("win without play (+)"),
    "-": _l("loss without play (−)"),
    "annulled": _l("annulled"),
}


def _word(value: object) -> str:
    """A stored value in the reader's words: a date as on the pages, a code by its name, a list
    item by item, anything else (a number, a rule) as it is."""
    from corrmail.web.choice_labels import label

    if isinstance(value, list | tuple):
        return ", ".join(_word(item) for item in value)
    text = str(value)
    if len(text) == 10 and text[4] == "-" and text[7] == "-" and text.replace("-", "").isdigit():
        return f"{text[8:10]}.{text[5:7]}.{text[0:4]}"
    return reader_name(_WORDS, text, otherwise=label(text))


#: The letters a decision sends (``adjudication.LetterTemplate``), by what they say.
LETTERS: dict[str, LazyString] = {
    "overstep.claim_opened": _l("overstep claim received"),
    "overstep.confirmed": _l("overstep confirmed"),
    "overstep.rejected": _l("claim rejected"),
    "overstep.not_approved": _l("not approved: materials incomplete"),
    "overstep.held_move": _l("the held reply move"),
    "adjudication.request": _l("request for assessments and analyses"),
    "adjudication.result": _l("result of the adjudication"),
    "adjudication.result_differs": _l("result of the adjudication, differing from the claims"),
    "game_record.missing": _l("game records requested"),
    "game_record.both_minus": _l("both lose (−/−)"),
    "withdrawal.decision": _l("decision on the withdrawal"),
    "withdrawal.ban": _l("ban recorded"),
    "sanction.imposed": _l("sanction imposed"),
    "sanction.requested": _l("sanction proposed"),
    "sanction.refused": _l("sanction refused"),
    "sanction.exclusion_request": _l("request to exclude the player from the tournament"),
    "special_break.requested": _l("special break requested"),
    "special_break.granted": _l("special break granted"),
    "special_break.refused": _l("special break refused"),
    "dispute.decision": _l("decision on the dispute"),
    "protest.received": _l("protest received"),
    "protest.decision": _l("protest decided"),
}


def letter_template(template: str) -> str:
    """The reader's name of a decision's letter; an unknown one is shown as stored."""
    return reader_name(LETTERS, template)


def _effect_summary(effect: dict[str, Any], names: dict[str, str]) -> str | None:
    wording = EFFECT_SUMMARIES.get(str(effect.get("kind")))
    if wording is None:
        return None
    values: dict[str, str] = {}
    for key, value in effect.items():
        if key in ("kind", "rule"):
            continue
        if key == "outcome" and isinstance(value, dict):
            values["white"] = _word(value.get("white"))
            values["black"] = _word(value.get("black"))
        elif key == "template":
            values[key] = letter_template(str(value))
        elif key == "player":
            values[key] = names.get(str(value), str(value))
        else:
            values[key] = _word(value)
    try:
        return str(wording) % values
    except (KeyError, TypeError, ValueError):
        return None


def audit_summary(entry: AuditEntry, names: dict[str, str] | None = None) -> str:
    """What ``entry`` says, in the reader's language when its detail keeps codes and values;
    otherwise its stored summary. ``names`` gives the players' names by participant id."""
    detail = entry.detail or {}
    effect = detail.get("effect")
    if isinstance(effect, dict):
        worded = _effect_summary(effect, names or {})
        if worded is not None:
            return worded
    elif entry.entity == "case" and isinstance(detail.get("state"), str):
        state = case_state(detail["state"])
        ruling = detail.get("ruling")
        rules = detail.get("rules")
        if isinstance(ruling, str) and ruling and isinstance(rules, list) and rules:
            return str(CASE_SUMMARY_RULES) % {"state": state, "ruling": _word(ruling),
                                              "rules": ", ".join(str(rule) for rule in rules)}
        if isinstance(ruling, str) and ruling:
            return str(CASE_SUMMARY_RULING) % {"state": state, "ruling": _word(ruling)}
        return state
    return entry.summary
