"""The referee's refusals in the reader's language.

``adjudication`` stays free of translations: an error that knows it may be shown to a person
(:class:`adjudication.CodedError`) carries a ``code`` and its values besides its English message;
the other errors of the package carry their values as attributes (dates, parties, the action
refused), and the desk's own refusals (:class:`corrmail.referee.ActionRefused`,
:class:`corrmail.referee.NotEntitled`) a code or the action and who may take it. Here each is
worded from those values through a msgid (translated by Flask-Babel when shown), so a Russian
referee reads no English: an error none of this knows is shown in its English message, which
names the rule, rather than hidden.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from flask_babel import gettext as _

from adjudication import CodedError
from adjudication.errors import (
    AgreedResultBinding,
    CaseClosed,
    DecisionFinal,
    DuplicateSubmission,
    IllegalTransition,
    ImpossibleDates,
    MissingEvidence,
    NoRightToProtest,
    ProtestAlreadyFiled,
    ProtestOutOfTime,
    ReasonsRequired,
    UnknownRuling,
    WindowOpen,
)

__all__ = ["ACTION_NAMES", "DATE_ORDER_MESSAGES", "REFUSAL_MESSAGES", "refusal_reason"]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract``; it is translated when shown."""
    return text


#: The msgid of every coded refusal, by code; the values are named as the error's ``params``.
REFUSAL_MESSAGES: dict[str, str] = {
    "not_approved_on_complete_file": N_(
        "the claim's materials are complete (%(evidence)s): a claim may be left unapproved only "
        "when they are incomplete; confirm the overstep, or reject it and the claimant is charged "
        "6 days (002 §4.3.7)"),
    "protest_incomplete": N_(
        "a protest against an overstep gives its grounds and encloses the materials of "
        "002 §4.3.6; missing: %(missing)s (002 §4.3.8)"),
    "decision_against_chart": N_(
        "the recomputed time chart contradicts the ruling «%(ruling)s»: give your reasons "
        "(002 §4.3.7)"),
    "overstep_not_shown": N_(
        "the time chart shows no overstep by %(side)s on %(on)s: %(used)s of %(limit)s days "
        "used, %(left)s left (002 §4.3.5). To rule «%(ruling)s» against these figures, give your "
        "reasons (002 §4.3.7)"),
    "overstep_shown": N_(
        "the time chart shows an overstep by %(side)s on %(on)s: %(used)s of %(limit)s days "
        "used, %(left)s left (002 §4.3.5). To rule «%(ruling)s» against these figures, give your "
        "reasons (002 §4.3.7)"),
    "adjudication_without_reasons": N_(
        "an adjudication gives the referee's reasons: the players' analyses weighed, or why the "
        "position leads to this result (002 §4.5.5); the result goes to the player whose "
        "assessment differs, and he may protest it (002 §4.5.6)"),
    # The desk's own refusals (corrmail.referee.ActionRefused).
    "game_not_in_play": N_("the game is %(state)s, not in play (002 §4.3.6)"),
    "claim_waiting": N_("a claim in this game already waits for the referee (002 §4.3.6)"),
    "play_not_ended": N_("play ends on %(end)s; adjudications open then (002 §4.5.2)"),
    "adjudications_open": N_("every unfinished game has its adjudication case (002 §4.5.2)"),
    "dispute_side_missing": N_("choose the complainant's side (002 §4.1.12)"),
    "claim_side_missing": N_("choose the claimant's side (002 §4.3.6)"),
    "no_protest_letter": N_("letter %(letter)s is no protest letter (002 §4.1.12)"),
    "protest_letter_filed": N_("this protest letter was filed already (002 §4.1.12)"),
    "held_not_to_move": N_("the claimant is not to move: he holds no reply (002 §4.3.6)"),
    "held_illegal": N_("%(move)s is not a legal move here: the reply cannot be held (002 §4.2.10)"),
    "withdrawn_already": N_("%(player)s withdrew on %(date)s already (000 §3.14.3)"),
    "not_his_game": N_("%(player)s does not play game %(game)s (002 §4.1.10)"),
    "wrong_case_type": N_("case %(case)s is a case of another kind (002 §4.1.12)"),
}


#: The msgid of each pair of dates a form can give in the wrong order (``ImpossibleDates.what``).
DATE_ORDER_MESSAGES: dict[str, str] = {
    "the notice received before the claim": N_("the notice received before the claim"),
    "a reply before the game ended": N_("a reply before the game ended"),
    "a record received before the game ended": N_("a record received before the game ended"),
    "an analysis received before it was sent": N_("an analysis received before it was sent"),
}

#: What the reader was refused, by the English phrase the package and the desk name it with.
ACTION_NAMES: dict[str, str] = {
    "decide twice": N_("decide it a second time"),
    "decide the case": N_("decide the case"),
    "decide the claim": N_("decide the claim"),
    "decide the protest": N_("decide the protest"),
    "decide the withdrawal": N_("decide the withdrawal"),
    "decide the request": N_("decide the request"),
    "decide the dispute": N_("decide the dispute"),
    "decide the break": N_("decide the break"),
    "adjudicate": N_("adjudicate"),
    "close the case": N_("close the case"),
    "protest": N_("protest"),
    "protest the claim": N_("protest the claim"),
    "protest before a decision": N_("protest before a decision"),
    "protest a final decision": N_("protest a final decision"),
    "add evidence": N_("add materials"),
    "receive an analysis": N_("receive an analysis"),
    "send an analysis": N_("send an analysis"),
    "record the receipt of a decision": N_("record the receipt of the decision"),
    "record a receipt": N_("record the receipt of the decision"),
    "compute a protest window": N_("count the days to protest"),
    "register a game record": N_("register a game record"),
    "record a reply": N_("record a reply"),
    "record a reply without the game record": N_("record a reply without the game record"),
    "settle": N_("settle the game records"),
    "settle the missing records": N_("settle the missing records"),
    "fix the agreed result": N_("fix the agreed result"),
    "record a ban": N_("record a ban"),
    "file a protest letter": N_("file the protest letter"),
    "claim an overstep": N_("claim an overstep"),
    "open an overstep claim": N_("open an overstep claim"),
    "open adjudications": N_("open the adjudications"),
    "open game records": N_("open the game records"),
    "record a withdrawal": N_("record a withdrawal"),
    "impose a sanction": N_("impose a sanction"),
    "request a special break": N_("request a special break"),
    "open a dispute": N_("open a dispute"),
    "hold a reply": N_("hold a reply"),
}

#: Who may take an action (``NotEntitled.who``).
WHO_NAMES: dict[str, str] = {
    "the referee": N_("the referee"),
    "the steward": N_("the steward"),
    "the organizer": N_("the organizer"),
    "the players": N_("the players"),
    "an official of the tournament": N_("an official of the tournament"),
    "the claimant or an official of the tournament": N_(
        "the claimant or an official of the tournament"),
    "a party to the case": N_("a party to the case"),
    "the player himself, for his own games": N_("the player himself, for his own games"),
    "the accused player": N_("the accused player"),
    "a player of the game": N_("a player of the game"),
    "the complainant himself, on his own side": N_(
        "the complainant himself, on his own side: a player files a dispute only for himself"),
    "the claimant himself, on his own side": N_(
        "the claimant himself, on his own side: a player claims an overstep only for himself, "
        "against his partner"),
    "the steward or the referee": N_("the steward or the referee"),
    "the player himself or an official": N_("the player himself or an official"),
}

#: A case's state as :class:`IllegalTransition` names it: the stored states, and the phrases
#: the package gives instead of one.
STATE_NAMES: dict[str, str] = {
    "awaiting_parties": N_("awaiting the parties"),
    "awaiting_decision": N_("awaiting a decision"),
    "decided": N_("decided"),
    "under_protest": N_("under protest"),
    "closed": N_("closed"),
    "decided by the organizer": N_("decided by the organizer"),
    "without an agreed result to set aside": N_("without an agreed result to set aside"),
    "a postal game": N_("a postal game"),
    "waiting for the record within fifteen days": N_(
        "waiting for the record within fifteen days"),
}

#: Values that list codes (materials, "grounds"), each named in the reader's words.
_LISTS = frozenset({"evidence", "missing"})
_GROUNDS = N_("grounds")
#: Values that name a side, a ruling or a state: the reader's name of the stored code.
_CODES = frozenset({"ruling", "side", "state"})


def _date(value: object) -> str:
    return f"{value:%d.%m.%Y}" if isinstance(value, dt.date) else str(value)


def _named(table: dict[str, str], text: str) -> str:
    return str(_(table[text])) if text in table else text


def _cited(rule: str) -> str:
    return f" ({rule})" if rule else ""


def refusal_reason(error: Exception, name: Callable[[str], str] = str) -> str:
    """``error`` worded for the reader: a known refusal in his language, anything else as it
    is. ``name`` gives the reader's name of a code a value holds (a ruling, a side, the
    materials of 002 §4.3.6)."""
    from corrmail.referee.desk import ActionRefused, NotEntitled

    if isinstance(error, WindowOpen):
        from corrmail.referee.timing import waits_for

        return str(_("not yet: the decision waits for %(what)s until %(date)s (%(rule)s)",
                     what=waits_for(error), date=_date(error.due), rule=error.rule))
    if isinstance(error, ImpossibleDates) and error.what in DATE_ORDER_MESSAGES:
        return str(_("%(what)s: %(later)s is before %(earlier)s (%(rule)s)",
                     what=_(DATE_ORDER_MESSAGES[error.what]), later=_date(error.later),
                     earlier=_date(error.earlier), rule=error.rule))
    if isinstance(error, CodedError) and error.code in REFUSAL_MESSAGES:
        return _coded(error.code, error.params, name)
    if isinstance(error, ActionRefused) and error.code in REFUSAL_MESSAGES:
        return _coded(error.code, error.params, name)
    if isinstance(error, NotEntitled):
        return str(_("%(action)s: only %(who)s may do this (%(rule)s)",
                     action=_named(ACTION_NAMES, error.action),
                     who=_named(WHO_NAMES, error.who), rule=error.rule))
    worded = _package_error(error, name)
    return worded if worded is not None else str(error)


def _coded(code: str, params: dict[str, object], name: Callable[[str], str]) -> str:
    values: dict[str, str] = {}
    for key, value in params.items():
        if key in _LISTS:
            values[key] = ", ".join(_(_GROUNDS) if item == "grounds" else name(item)
                                    for item in str(value).split(", ") if item)
        elif key in _CODES:
            values[key] = name(str(value))
        else:
            values[key] = _date(value)
    return str(_(REFUSAL_MESSAGES[code], **values))


def _package_error(error: Exception, name: Callable[[str], str]) -> str | None:
    """The errors of :mod:`adjudication` that carry their values as attributes."""
    if isinstance(error, DecisionFinal):
        return str(_("the organizer's decision is final: it cannot be protested (%(rule)s)",
                     rule=error.rule or "002 §4.5.7"))
    if isinstance(error, CaseClosed):
        return str(_("the case is closed: its final decision stands, nothing can %(action)s it "
                     "any more", action=_named(ACTION_NAMES, error.action)))
    if isinstance(error, IllegalTransition):
        if error.state.startswith("open to protest until "):
            due = error.state.removeprefix("open to protest until ")
            try:
                due = _date(dt.date.fromisoformat(due))
            except ValueError:
                pass
            return str(_("the case stays open to protest until %(date)s: it can be closed the "
                         "day after (%(rule)s)", date=due, rule=error.rule or "002 §4.1.12"))
        return str(_("the case is %(state)s: you cannot %(action)s%(rule)s",
                     state=_named(STATE_NAMES, error.state),
                     action=_named(ACTION_NAMES, error.action), rule=_cited(error.rule)))
    if isinstance(error, ProtestOutOfTime):
        return str(_("a protest sent on %(filed)s is out of time: it was due by %(due)s "
                     "(%(rule)s)", filed=_date(error.filed_on), due=_date(error.due),
                     rule=error.rule))
    if isinstance(error, ProtestAlreadyFiled):
        return str(_("%(party)s protested on %(date)s already: one protest per decision "
                     "(%(rule)s)", party=name(error.party), date=_date(error.filed_on),
                     rule=error.rule))
    if isinstance(error, NoRightToProtest):
        return str(_("%(party)s may not protest this decision (%(rule)s)",
                     party=name(error.party), rule=error.rule))
    if isinstance(error, MissingEvidence):
        return str(_("the claim lacks %(missing)s: with incomplete materials the referee may "
                     "only leave the claim unapproved (002 §4.3.7)",
                     missing=", ".join(name(item) for item in sorted(error.missing))))
    if isinstance(error, AgreedResultBinding):
        return str(_("both players assessed the position as «%(agreed)s»: another result "
                     "(«%(decided)s») needs the finding that theirs sharply contradicts the "
                     "position, with your reasons (002 §4.5.4)",
                     agreed=name(error.agreed), decided=name(error.decided)))
    if isinstance(error, DuplicateSubmission):
        return str(_("%(party)s has sent it already (%(rule)s)", party=name(error.party),
                     rule=error.rule))
    if isinstance(error, ReasonsRequired):
        return str(_("give your reasons for this decision (%(rule)s)", rule=error.rule))
    if isinstance(error, UnknownRuling):
        return str(_("there is no such ruling: %(ruling)s", ruling=error.ruling))
    return None
