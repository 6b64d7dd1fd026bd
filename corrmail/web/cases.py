"""The referee's queue: open cases by deadline, case pages with the evidence, decision forms.

Every action goes through :class:`corrmail.referee.Desk` in the request's transaction: the role
check, the `adjudication` transition, the ``UPDATE … WHERE revision = …`` and the effects
(results, penalties, letters, audit entries) commit together or not at all. A second referee
deciding the same case gets 409 and a message saying nothing was decided.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm.exc import StaleDataError
from wtforms.fields.choices import SelectChoice

from adjudication import (
    Adjudication,
    AdjudicationError,
    Assessment,
    Awaiting,
    BreakKind,
    CaseConflict,
    CaseState,
    Disposition,
    Evidence,
    Instance,
    OverstepClaim,
    SanctionKind,
    Side,
    Withdrawal,
    referee_queue,
)
from corrmail.games.page import inline_svg
from corrmail.games.view import GameView, UnsupportedGameType
from corrmail.models import (
    AuditEntry,
    Case,
    CaseType,
    Game,
    GameState,
    OutboxMessage,
    Participant,
    ProtestLetter,
    Role,
    Tournament,
    TournamentOfficial,
)
from corrmail.referee import (
    ActionRefused,
    Actor,
    Desk,
    Done,
    NotEntitled,
    StoredCase,
    actor_for,
    deciding_instance,
    load_case,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import overstep_figures
from corrmail.referee.endgame import endgame_verdict, settled_cases, tables_to_build
from corrmail.referee.evidence import analyses_side_by_side, game_evidence, position_reading
from corrmail.referee.open_cases import is_open, unclosed_cases
from corrmail.referee.timing import close_waits, decided_and_final, rulings_today
from corrmail.referee.wording import refusal_reason
from corrmail.web.access import letters_kept_from, participant_or_404, tournament_or_404
from corrmail.web.audit_labels import audit_action, audit_summary
from corrmail.web.case_forms import (
    AnalysisForm,
    BanForm,
    DecisionForm,
    DisputeForm,
    EvidenceForm,
    FileProtestForm,
    GameRecordForm,
    OpenAdjudicationsForm,
    OverstepClaimForm,
    ProtestForm,
    ReceiptForm,
    RevisionForm,
    SanctionForm,
    SpecialBreakForm,
    WithdrawalForm,
)
from corrmail.web.choice_labels import choices, label
from corrmail.web.database import db_session, mail_settings, tournament_today
from timekeeping import Side as TimeSide

blueprint = Blueprint("cases", __name__, url_prefix="/cases")
# The case pages name stored codes as the forms' options do.
blueprint.add_app_template_filter(label, "choice_label")
blueprint.add_app_template_filter(audit_action, "audit_action")
blueprint.add_app_template_filter(audit_summary, "audit_summary")

AnyForm = TypeVar("AnyForm", bound=FlaskForm)

OPEN_GAME_STATES = (GameState.NOT_STARTED, GameState.IN_PLAY, GameState.SUSPENDED)



def _desk(tournament: Tournament) -> Desk:
    mail = mail_settings()
    return Desk(db_session(), case_letter_writer(mail), on=tournament_today(tournament))


def _actor(tournament_id: int) -> Actor:
    return actor_for(db_session(), current_user, tournament_id)


# -- the queue -------------------------------------------------------------------------------


def _visible_tournaments() -> list[Tournament]:
    session = db_session()
    query = select(Tournament).order_by(Tournament.start_date.desc(), Tournament.code)
    if not current_user.has_role(Role.ORGANIZER):
        official = select(TournamentOfficial.tournament_id).where(
            TournamentOfficial.user_id == current_user.id
        )
        playing = select(Participant.tournament_id).where(
            Participant.player_id == (current_user.player_id or -1)
        )
        query = query.where(Tournament.id.in_(official) | Tournament.id.in_(playing))
    return list(session.scalars(query))


def _sees(actor: Actor, row: Case) -> bool:
    """Officials see every case of their tournament; players the cases of their games."""
    if actor.instances:
        return True
    if row.participant_id is not None and actor.plays(row.participant_id):
        return True
    game = row.game
    return game is not None and (actor.plays(game.white_id) or actor.plays(game.black_id))


@blueprint.get("/")
@login_required
def queue() -> str:
    wanted = request.args.get("awaiting", "")
    awaiting = Awaiting(wanted) if wanted in {a.value for a in Awaiting} else None
    sections = []
    for tournament in _visible_tournaments():
        actor = _actor(tournament.id)
        on = tournament_today(tournament)
        visible = [stored for stored in unclosed_cases(db_session(), tournament.id)
                   if _sees(actor, stored.row)]
        row_of = {id(stored.case): stored.row for stored in visible}
        # A decided case no party may protest any more waits for nobody: it is not open
        # (corrmail.referee.open_cases, the dashboard's count too) and is listed apart, to be
        # closed, instead of reading as overdue.
        final = [(stored.case, stored.row) for stored in visible
                 if decided_and_final(stored.case, on)]
        cases = [stored.case for stored in visible if is_open(stored.case, on)]
        entries = [
            (entry, row_of[id(entry.case)])
            for entry in referee_queue(cases, on, awaiting=awaiting)
        ]
        sections.append(
            {
                "tournament": tournament,
                "today": on,
                "entries": entries,
                "final": final,
                "letters": _protest_letters(ProtestLetter.tournament_id == tournament.id)
                if actor.instances else [],
                "settled": settled_cases([row for _entry, row in entries]) if actor.instances else [],
                "actor": actor,
                "can_open_adjudications": _is_referee(actor)
                and on >= tournament.end_date
                and any(g.result is None and g.state in OPEN_GAME_STATES for g in tournament.games),
            }
        )
    return render_template(
        "cases/queue.html",
        sections=sections,
        awaiting=wanted,
        awaiting_choices=[a.value for a in Awaiting],
        adjudications_form=OpenAdjudicationsForm(),
    )


def _protest_letters(where: Any) -> list[ProtestLetter]:
    """Protests by e-mail not filed yet into the case they contest (002 §4.1.12)."""
    return list(db_session().scalars(
        select(ProtestLetter).where(where, ProtestLetter.filed_at.is_(None))
        .order_by(ProtestLetter.id)
    ))


def _is_referee(actor: Actor) -> bool:
    return actor.acts_as(Instance.REFEREE)


# -- one case --------------------------------------------------------------------------------


def _stored_or_404(case_id: int) -> StoredCase:
    row = db_session().get(Case, case_id)
    if row is None:
        abort(404)
    return load_case(db_session(), case_id)


@blueprint.get("/<int:case_id>")
@login_required
def show(case_id: int) -> Any:
    return _render_case(case_id)


def _render_case(case_id: int, status: int = 200) -> Any:
    stored = _stored_or_404(case_id)
    row, case = stored.row, stored.case
    actor = _actor(row.tournament_id)
    if not _sees(actor, row):
        abort(403)
    on = tournament_today(row.tournament)
    game = row.game
    evidence = game_evidence(game) if game is not None else None
    revision = {"revision": case.revision}
    decision = DecisionForm(data=revision)
    decision.ruling.choices = choices(case.RULINGS)
    protest = ProtestForm(data=revision)
    protest.party.choices = [
        SelectChoice(p, _party_label(stored, p))
        for p in case.parties
        if actor.instances or _plays_party(actor, stored, p)
    ]
    # After a decision a player protests only while his window is open (002 §4.1.12,
    # §4.5.6): the page lists every party's last day and offers the form to those still in it.
    windows = case.protest_windows if case.decisions else {}
    if case.decisions and not actor.instances:
        protest.party.choices = [choice for choice in protest.party.choices
                                 if choice.value in windows and on <= windows[choice.value]]
    analysis = AnalysisForm(data=revision)
    if not actor.instances:
        analysis.side.choices = [
            choice for choice in choices(Side) if _plays_party(actor, stored, choice.value)
        ]
    audit_entries = (
        db_session()
        .scalars(
            select(AuditEntry)
            .where(AuditEntry.entity == "case", AuditEntry.entity_id == row.id)
            .order_by(AuditEntry.id)
        )
        .all()
    )
    outbox = (
        db_session()
        .scalars(
            select(OutboxMessage).where(OutboxMessage.case_id == row.id).order_by(OutboxMessage.id)
        )
        .all()
        if actor.instances
        else []
    )
    withdrawn_games = {}
    if isinstance(case, Withdrawal):
        withdrawn_games = {g.game: db_session().get(Game, int(g.game)) for g in case.games}
    deciding = deciding_instance(case)
    rulings = [str(getattr(ruling, "value", ruling)) for ruling in case.RULINGS]
    allowed, waiting = rulings_today(case, rulings, on)
    if rulings:
        decision.ruling.choices = choices(allowed)
    may_act = actor.acts_as(deciding)
    close_waiting = close_waits(case, on) if _is_referee(actor) else None
    adjudged = game if isinstance(case, Adjudication) else None
    # The end-of-play position stored with the case (002 §4.5.2), drawn and read out; when the
    # game still stands there, the materials' "position now" would be the same board again.
    position = position_reading(adjudged, case.diagram) \
        if adjudged is not None and isinstance(case, Adjudication) and case.diagram else None
    if position is not None and evidence is not None and evidence.board_svg is not None \
            and inline_svg(evidence.board_svg) == position.svg:
        evidence = dataclasses.replace(evidence, board_svg=None)
    endgame = endgame_verdict(adjudged) if adjudged is not None else None
    # The accused's figures on the day of the claim, read again now (002 §4.3.5, §4.3.7): what
    # the referee decides against, and what a refusal cites.
    figures = _desk(row.tournament).claim_figures(stored) \
        if isinstance(case, OverstepClaim) and not case.decisions else None
    context = {
        "figures": figures,
        "protest_windows": windows,
        "party_labels": {party: _party_label(stored, party) for party in windows},
        "row": row,
        "case": case,
        "game": game,
        "actor": actor,
        "on": on,
        "deadline": case.deadline_on(on),
        "awaiting": case.awaiting_on(on),
        "evidence": evidence,
        "analyses": analyses_side_by_side(case) if isinstance(case, Adjudication) else None,
        "endgame": endgame,
        "position": position,
        # Tables the referee could build to settle the game (international: 2 pieces on first
        # need); the command is for him, not for the players.
        "endgame_to_build": tables_to_build(adjudged)
        if adjudged is not None and endgame is None and _is_referee(actor) else None,
        "letters": list(game.letters) if game is not None else [],
        # 002 §4.3.6: the claimant's held reply (and the claim letter holding it) is kept from
        # the accused player until the referee decides.
        "held_hidden": row.case_type is CaseType.OVERSTEP_CLAIM and not actor.instances
        and not (row.participant_id is not None and actor.plays(row.participant_id)),
        "kept": letters_kept_from(current_user, game) if game is not None else set(),
        "audit_entries": audit_entries,
        # The audit log names a player-level effect's player (stored as his entry's id).
        "player_names": {str(p.id): p.player.name for p in row.tournament.participants},
        "outbox": outbox,
        "withdrawn_games": withdrawn_games,
        "dispositions": [d.value for d in Disposition],
        "may_decide": may_act
        and case.state
        in (CaseState.AWAITING_PARTIES, CaseState.AWAITING_DECISION, CaseState.UNDER_PROTEST)
        and bool(allowed),
        "decision_waits": waiting if may_act else [],
        "deciding": deciding,
        "may_close": _is_referee(actor) and case.state is CaseState.DECIDED
        and close_waiting is None,
        "close_waits": close_waiting,
        "may_ban": isinstance(case, Withdrawal)
        and case.without_good_reason
        and case.ban_until is None
        and bool(case.decisions)
        and actor.acts_as(Instance.ORGANIZER),
        "decision_form": decision,
        "protest_form": protest,
        "analysis_form": analysis,
        "evidence_form": EvidenceForm(data=revision),
        "ban_form": BanForm(data=revision),
        "record_form": GameRecordForm(data=revision),
        "receipt_form": _receipt_form(stored, revision),
        "revision_form": RevisionForm(data=revision),
        "evidence_items": [e.value for e in Evidence],
        "pending_letters": _protest_letters(ProtestLetter.game_id == row.game_id)
        if row.game_id is not None
        else [],
        "may_file": _is_referee(actor),
    }
    return render_template("cases/show.html", **context), status


def _plays_party(actor: Actor, stored: StoredCase, party: str) -> bool:
    game = stored.row.game
    if party == Side.WHITE.value and game is not None:
        return actor.plays(game.white_id)
    if party == Side.BLACK.value and game is not None:
        return actor.plays(game.black_id)
    return party.isdigit() and actor.plays(int(party))


def _party_label(stored: StoredCase, party: str) -> str:
    game = stored.row.game
    if party in (Side.WHITE.value, Side.BLACK.value) and game is not None:
        who = game.white if party == Side.WHITE.value else game.black
        return f"{who.player.name} ({label(party)})"
    if party.isdigit():
        participant = db_session().get(Participant, int(party))
        if participant is not None:
            return participant.player.name
    return party


def _run_on_case(case_id: int, action: Callable[[Desk, Actor], Done]) -> Any:
    """Run ``action`` in the request's transaction; conflicts, refusals and rule errors roll
    everything back and show the case again with the reason."""
    tournament = _stored_or_404(case_id).row.tournament
    outcome = _attempt(lambda: action(_desk(tournament), _actor(tournament.id)))
    if isinstance(outcome, int):
        return _render_case(case_id, outcome)
    flash(_("Done."), "success")
    return redirect(url_for("cases.show", case_id=case_id), code=303)


def _attempt(action: Callable[[], Done]) -> Done | int:
    """Run ``action`` and commit; on a conflict, a refusal or a rule error roll everything back,
    flash the reason and return the HTTP status that goes with it."""
    session = db_session()
    try:
        done = action()
        session.commit()
        return done
    except (CaseConflict, StaleDataError) as error:
        session.rollback()
        seen = getattr(error, "expected", "?")
        now = getattr(error, "actual", "?")
        message = _(
            "This case was changed by someone else while you were reading it (revision "
            "%(seen)s, now %(now)s). Nothing was decided; read the case again.",
            seen=seen,
            now=now,
        )
        status = 409
    except NotEntitled as error:
        session.rollback()
        message, status = _("Not allowed: %(reason)s", reason=refusal_reason(error, label)), 403
    except (AdjudicationError, ActionRefused) as error:
        session.rollback()
        message, status = _("Refused: %(reason)s", reason=refusal_reason(error, label)), 422
    flash(message, "error")
    return status


def _form_or_400(form: AnyForm) -> AnyForm:
    if not form.validate_on_submit():
        abort(400)
    return form


def _revision() -> int:
    return int(_form_or_400(RevisionForm()).revision.data)


def _act(case_id: int, action: Callable[..., Done], revision: int, **values: Any) -> Any:
    """Carry out ``action`` (a :class:`Desk` method) on the case as the form read it
    (``revision``), with the form's ``values``."""
    return _run_on_case(
        case_id, lambda desk, actor: action(desk, actor, case_id, revision=revision, **values)
    )


@blueprint.post("/<int:case_id>/decide")
@login_required
def decide(case_id: int) -> Any:
    stored = _stored_or_404(case_id)
    form = DecisionForm()
    form.ruling.choices = choices(stored.case.RULINGS)
    _form_or_400(form)
    plan = None
    if isinstance(stored.case, Withdrawal) and request.form.get("custom_plan"):
        plan = {
            g.game: Disposition(request.form.get(f"plan-{g.game}", "keep"))
            for g in stored.case.games
        }
    return _act(case_id, Desk.decide, int(form.revision.data), ruling=form.ruling.data or "",
                reasons=form.reasons.data or "",
                sharply_contradicting=bool(form.sharply_contradicting.data), plan=plan,
                start=form.start.data, end=form.end.data)


@blueprint.post("/<int:case_id>/agreed")
@login_required
def agreed(case_id: int) -> Any:
    return _act(case_id, Desk.fix_agreed_result, _revision())


@blueprint.post("/<int:case_id>/analysis")
@login_required
def analysis(case_id: int) -> Any:
    form = _form_or_400(AnalysisForm())
    return _act(case_id, Desk.submit_analysis, int(form.revision.data), side=Side(form.side.data),
                assessment=Assessment(form.assessment.data), analysis=form.analysis.data,
                sent_on=form.sent_on.data, received_on=form.received_on.data)


@blueprint.post("/<int:case_id>/protest")
@login_required
def protest(case_id: int) -> Any:
    form = ProtestForm()
    # Only checks the posted party; the case page shows the names.
    form.party.choices = [SelectChoice(p) for p in _stored_or_404(case_id).case.parties]
    _form_or_400(form)
    materials = frozenset(Evidence(item) for item in form.materials.data or ())
    return _act(case_id, Desk.protest, int(form.revision.data), party=form.party.data,
                grounds=form.grounds.data or "", filed_on=form.filed_on.data,
                received_on=form.received_on.data, materials=materials)


@blueprint.post("/<int:case_id>/close")
@login_required
def close(case_id: int) -> Any:
    return _act(case_id, Desk.close, _revision())


@blueprint.post("/<int:case_id>/ban")
@login_required
def ban(case_id: int) -> Any:
    form = _form_or_400(BanForm())
    return _act(case_id, Desk.record_ban, int(form.revision.data), until=form.until.data)


@blueprint.post("/<int:case_id>/record")
@login_required
def record(case_id: int) -> Any:
    form = _form_or_400(GameRecordForm())
    return _act(case_id, Desk.register_game_record, int(form.revision.data),
                side=Side(form.side.data), received_on=form.received_on.data)


def _receipt_form(stored: StoredCase, data: dict[str, int] | None = None) -> ReceiptForm:
    form = ReceiptForm(data=data)
    form.party.choices = [SelectChoice(p, _party_label(stored, p)) for p in stored.case.parties]
    return form


@blueprint.post("/<int:case_id>/receipt")
@login_required
def receipt(case_id: int) -> Any:
    form = _form_or_400(_receipt_form(_stored_or_404(case_id)))
    return _act(case_id, Desk.acknowledge_receipt, int(form.revision.data),
                party=form.party.data, received_on=form.received_on.data)


@blueprint.post("/<int:case_id>/evidence")
@login_required
def evidence(case_id: int) -> Any:
    form = _form_or_400(EvidenceForm())
    items = frozenset(Evidence(item) for item in form.items.data or [])
    return _act(case_id, Desk.add_evidence, int(form.revision.data), items=items)


@blueprint.post("/letters/<int:letter_id>/file")
@login_required
def file_protest(letter_id: int) -> Any:
    form = _form_or_400(FileProtestForm())
    target = int(form.case_id.data)
    return _run_on_case(
        target,
        lambda desk, actor: desk.file_protest_letter(
            actor,
            letter_id,
            case_id=target,
            revision=int(form.revision.data),
            party=form.party.data,
        ),
    )


# -- opening cases -----------------------------------------------------------------------------


def _opening_forms(tournament: Tournament, actor: Actor) -> dict[str, Any]:
    games = [
        g
        for g in tournament.games
        if actor.instances or actor.plays(g.white_id) or actor.plays(g.black_id)
    ]
    participants = [p for p in tournament.participants if actor.instances or actor.plays(p.id)]
    game_choices = [
        SelectChoice(str(g.id), f"{g.round}: {g.white.player.name} — {g.black.player.name}")
        for g in games
    ]
    people = [SelectChoice(str(p.id), p.player.name) for p in participants]
    overstep = OverstepClaimForm(prefix="overstep")
    overstep.game.choices = [
        c for c, g in zip(game_choices, games, strict=True) if g.state is GameState.IN_PLAY
    ]
    withdrawal = WithdrawalForm(prefix="withdrawal")
    withdrawal.participant.choices = [
        SelectChoice(str(p.id), p.player.name)
        for p in tournament.participants
        if p.withdrawn_on is None
    ]
    sanction = SanctionForm(prefix="sanction")
    sanction.participant.choices = people
    sanction.game.choices = [SelectChoice("0", "—"), *game_choices]
    special_break = SpecialBreakForm(prefix="break")
    special_break.participant.choices = people
    dispute = DisputeForm(prefix="dispute")
    dispute.game.choices = game_choices
    return {
        "overstep_form": overstep,
        "withdrawal_form": withdrawal,
        "sanction_form": sanction,
        "break_form": special_break,
        "dispute_form": dispute,
    }


@blueprint.get("/new/<code>")
@login_required
def new(code: str) -> Any:
    return _render_new(tournament_or_404(code))


def _render_new(tournament: Tournament, status: int = 200) -> Any:
    actor = _actor(tournament.id)
    if not actor.instances and not actor.participant_ids:
        abort(403)
    return render_template(
        "cases/new.html",
        tournament=tournament,
        actor=actor,
        is_referee=_is_referee(actor),
        **_opening_forms(tournament, actor),
    ), status


def _open(code: str, build: Callable[[Desk, Actor, Tournament], Done | list[Done]]) -> Any:
    tournament = tournament_or_404(code)
    outcome = _attempt(
        lambda: _as_done(build(_desk(tournament), _actor(tournament.id), tournament))
    )
    if isinstance(outcome, int):
        return _render_new(tournament, outcome)
    return redirect(url_for("cases.show", case_id=outcome.stored.row.id), code=303)


def _as_done(result: Done | list[Done]) -> Done:
    """The first case an opening produced; opening none at all is refused (002 §4.5.2)."""
    if isinstance(result, list):
        if not result:
            raise ActionRefused(
                "open adjudications", "every unfinished game has its case", "002 §4.5.2",
                code="adjudications_open",
            )
        return result[0]
    return result


def _posted(form: AnyForm, **rows: Iterable[Game] | Iterable[Participant]) -> AnyForm:
    """The posted opening form, validated, or 400. Each named select is offered the ids of
    its ``rows``: enough to check a posted id belongs to the tournament; the form page shows
    names (:func:`_opening_forms`)."""
    for field, offered in rows.items():
        getattr(form, field).choices = [SelectChoice(str(row.id)) for row in offered]
    return _form_or_400(form)


def _game_of(tournament: Tournament, game_id: int) -> Game:
    game = db_session().get(Game, game_id)
    if game is None or game.tournament_id != tournament.id:
        abort(404)
    return game


@blueprint.get("/new/<code>/overstep/preview")
@login_required
def preview_overstep(code: str) -> Any:
    """What a player's claim will say before he sends it (002 §4.3.5–4.3.8): whom he accuses,
    the partner's figures today as the referee will read them, what a wrong claim costs, and
    the form that sends it. Nothing is written here."""
    tournament = tournament_or_404(code)
    game = _game_of(tournament, request.args.get("game", type=int) or 0)
    actor = _actor(tournament.id)
    sides = [side for side in Side
             if actor.plays(game.white_id if side is Side.WHITE else game.black_id)]
    if not sides:
        abort(403)
    claimant = sides[0]
    on = tournament_today(tournament)
    status = 200
    refusal = None
    if any(row.case_type is CaseType.OVERSTEP_CLAIM and row.closed_at is None
           for row in db_session().scalars(select(Case).where(Case.game_id == game.id))):
        refusal, status = _("a claim in this game already waits for the referee (002 §4.3.6)"), 409
    elif game.state not in (GameState.IN_PLAY, GameState.NOT_STARTED):
        refusal, status = _("the game is %(state)s, not in play (002 §4.3.6)",
                            state=label(game.state.value)), 409
    view = GameView(game)
    figures = overstep_figures(view, TimeSide(claimant.other.value), on)
    try:
        to_move = view.side_to_move.value == claimant.value
    except (UnsupportedGameType, ValueError):
        to_move = False
    form = OverstepClaimForm(prefix="overstep")
    return render_template(
        "cases/overstep_preview.html", tournament=tournament, game=game, claimant=claimant,
        accused=game.black if claimant is Side.WHITE else game.white, figures=figures,
        holds_reply=to_move, objection_due=on + dt.timedelta(days=10), form=form,
        refusal=refusal, on=on,
    ), status


@blueprint.post("/new/<code>/overstep")
@login_required
def new_overstep(code: str) -> Any:
    form = _posted(OverstepClaimForm(prefix="overstep"), game=tournament_or_404(code).games)
    evidence = frozenset(Evidence(e) for e in form.evidence.data or [])
    return _open(code, lambda desk, actor, t: desk.open_overstep_claim(
        actor, _game_of(t, form.game.data), claimant=_side_or_none(form.claimant.data),
        held_move=form.held_move.data or "", evidence=evidence,
        notice_received_on=form.notice_received_on.data if actor.instances else None,
        letter_text=form.letter.data or ""))


@blueprint.post("/new/<code>/withdrawal")
@login_required
def new_withdrawal(code: str) -> Any:
    form = _posted(WithdrawalForm(prefix="withdrawal"),
                   participant=tournament_or_404(code).participants)
    return _open(code, lambda desk, actor, t: desk.record_withdrawal(
        actor, participant_or_404(t, form.participant.data), withdrew_on=form.withdrew_on.data,
        without_good_reason=bool(form.without_good_reason.data), reason=form.reason.data or ""))


@blueprint.post("/new/<code>/sanction")
@login_required
def new_sanction(code: str) -> Any:
    tournament = tournament_or_404(code)
    form = SanctionForm(prefix="sanction")
    form.game.choices = [SelectChoice("0", "—")]  # no game: a sanction for conduct at large
    form.game.choices += [SelectChoice(str(game.id)) for game in tournament.games]
    _posted(form, participant=tournament.participants)
    rules = tuple(
        part.strip() for part in (form.rules_violated.data or "").split(",") if part.strip()
    )
    return _open(code, lambda desk, actor, t: desk.impose_sanction(
        actor, participant_or_404(t, form.participant.data),
        sanction=SanctionKind(form.sanction.data), rules_violated=rules,
        game=_game_of(t, form.game.data) if form.game.data else None,
        reasons=form.reasons.data or ""))


@blueprint.post("/new/<code>/break")
@login_required
def new_break(code: str) -> Any:
    form = _posted(SpecialBreakForm(prefix="break"),
                   participant=tournament_or_404(code).participants)
    return _open(code, lambda desk, actor, t: desk.request_special_break(
        actor, participant_or_404(t, form.participant.data),
        break_kind=BreakKind(form.break_kind.data), start=form.start.data, end=form.end.data,
        reason=form.reason.data))


@blueprint.post("/new/<code>/dispute")
@login_required
def new_dispute(code: str) -> Any:
    form = _posted(DisputeForm(prefix="dispute"), game=tournament_or_404(code).games)
    return _open(code, lambda desk, actor, t: desk.open_dispute(
        actor, _game_of(t, form.game.data), complainant=_side_or_none(form.complainant.data),
        subject=form.subject.data))


def _side_or_none(posted: str | None) -> Side | None:
    """The side a form posted; ``None`` when it posted none (a player's claim or dispute form:
    the desk takes his own side) — a side that is neither is a forged form."""
    if not posted:
        return None
    if posted not in {side.value for side in Side}:
        abort(400)
    return Side(posted)


@blueprint.post("/new/<code>/adjudications")
@login_required
def open_adjudications(code: str) -> Any:
    _form_or_400(OpenAdjudicationsForm())
    tournament = tournament_or_404(code)
    outcome = _attempt(
        lambda: _as_done(_desk(tournament).open_adjudications(tournament, _actor(tournament.id)))
    )
    if isinstance(outcome, int):
        if outcome == 403:
            abort(403)
    else:
        flash(_("Adjudication cases opened."), "success")
    return redirect(url_for("cases.queue"), code=303)
