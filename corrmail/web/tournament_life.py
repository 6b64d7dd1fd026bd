"""A tournament's life on the web: officials, publishing with start sheets, the steward's list of
sheets to post (with the printable A4 sheet), and closing with the final report.

Thin views over :mod:`corrmail.tournaments.officials`, :mod:`corrmail.tournaments.publishing` and
:mod:`corrmail.tournaments.closing`, the same functions the ``corrmail tournament`` commands call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TypeVar

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers.response import Response
from wtforms import DateField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from corrmail.letters.recipients import channel_of, plays_by_email
from corrmail.letters.write import DEFAULT_LANGUAGE
from corrmail.models import Channel, Participant, Role, Tournament, User
from corrmail.people.accounts import AccountRefused, player_account
from corrmail.people.accounts import invite_players as invite_players_by_mail
from corrmail.tournaments.closing import CloseRefused, blockers, close
from corrmail.tournaments.officials import (
    OfficialRefused,
    OfficialsChange,
    change_officials,
    officials_of,
    steward_post,
)
from corrmail.tournaments.player_import import PlayerRow
from corrmail.tournaments.publishing import (
    Missing,
    PublishRefused,
    missing_for_publication,
    publish,
    record_sheet_posted,
    resend,
    sheets_for_steward,
)
from corrmail.tournaments.registration import FieldError, RegistrationError, add_participant
from corrmail.tournaments.start_sheets import start_sheets
from corrmail.web.access import official_tournament, participant_or_404, tournament_or_404
from corrmail.web.auth import roles_required
from corrmail.web.database import (
    commit_or_refusal,
    db_session,
    letter_writer,
    tournament_today,
)

blueprint = Blueprint("tournament_life", __name__, url_prefix="/tournaments")


class OfficialsForm(FlaskForm):
    referee = SelectField(_l("Referee"), default="")
    stewards = SelectMultipleField(_l("Stewards"), default=[])


class RemoveOfficialForm(FlaskForm):
    login = StringField(validators=[DataRequired()])


class ActionForm(FlaskForm):
    """Publish, resend, close: one POST with a CSRF token."""


class PostedForm(FlaskForm):
    posted_on = DateField(_l("Posted on"), validators=[DataRequired()])




def enter_player(session: Session, tournament: Tournament, row: PlayerRow, *, channel: str,
                 invite: bool) -> Participant:
    """Register a player from the form: his channel, and an invitation when asked for. Every
    problem of the form is refused at once: the channel's address (``check_row``), the entries
    and the invitation's e-mail together, not one after another."""
    row = dataclasses.replace(row, channel=Channel(channel) if channel else None)
    missing = ([FieldError("email", _("an invitation needs an e-mail address"))]
               if invite and not row.email else [])
    try:
        participant = add_participant(session, tournament, row, current_user)
    except RegistrationError as error:
        raise RegistrationError([*error.errors, *missing]) from error
    if missing:
        raise RegistrationError(missing)
    if invite:
        try:
            player_account(session, participant.player, by=current_user, writer=letter_writer(),
                           base_url=request.url_root, secret_key=current_app.config["SECRET_KEY"])
        except AccountRefused as error:
            raise RegistrationError([FieldError("email", str(error))]) from error
    return participant


def invite_players(session: Session, participants: list[Participant]) -> int:
    """Invite every newly entered player with an e-mail and no account yet; how many were."""
    try:
        created = invite_players_by_mail(
            session, [participant.player for participant in participants], by=current_user,
            writer=letter_writer(), base_url=request.url_root,
            secret_key=current_app.config["SECRET_KEY"])
    except AccountRefused as error:
        raise RegistrationError([FieldError("file", str(error))]) from error
    return len(created)


# -- officials -----------------------------------------------------------------------------------


@blueprint.route("/<code>/officials", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def officials(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    session = db_session()
    users = [user for user in session.scalars(select(User).where(User.active.is_(True))
                                              .order_by(User.login))]
    form = OfficialsForm()
    form.referee.choices = [SelectChoice("", "—")] + [
        SelectChoice(user.login, f"{user.display_name} ({user.login})") for user in users
        if user.has_role(Role.REFEREE)]
    form.stewards.choices = [SelectChoice(user.login, f"{user.display_name} ({user.login})")
                             for user in users if user.has_role(Role.STEWARD)]
    if form.validate_on_submit():
        _change(tournament, OfficialsChange(form.referee.data or None,
                                            tuple(form.stewards.data or ())))
        return redirect(url_for("tournament_life.officials", code=code))
    return render_template("tournaments/officials.html", tournament=tournament, form=form,
                           serving=officials_of(session, tournament),
                           remove_form=RemoveOfficialForm())


@blueprint.post("/<code>/officials/remove")
@roles_required(Role.ORGANIZER)
def remove_official(code: str) -> Response:
    tournament = tournament_or_404(code)
    form = RemoveOfficialForm()
    if form.validate_on_submit():
        _change(tournament, OfficialsChange(remove=(form.login.data,)))
    return redirect(url_for("tournament_life.officials", code=code))


def _change(tournament: Tournament, change: OfficialsChange) -> None:
    _commit_or_refuse(
        lambda session: change_officials(session, tournament, change, by=current_user),
        lambda: _("The officials of %(code)s are saved.", code=tournament.code))


def _commit_or_refuse(step: Callable[[Session], object], announce: Callable[[], str]) -> None:
    """Run ``step`` and commit what it did, then flash ``announce``'s words; a refusal rolls
    everything back and is flashed instead."""
    refused = commit_or_refusal(step, (OfficialRefused, PublishRefused))
    if isinstance(refused, OfficialRefused | PublishRefused):
        flash(str(refused), "error")
    else:
        flash(announce(), "info")


# -- publishing and start sheets -----------------------------------------------------------------


Outcome = TypeVar("Outcome")
Refusal = TypeVar("Refusal", PublishRefused, CloseRefused)


def _act_on(
    tournament: Tournament, act: Callable[..., Outcome], refusal: type[Refusal]
) -> Outcome | Refusal:
    """Carry out the organizer's ``act`` on ``tournament`` (publish, close) once the form's token
    checks, with his letters written and dated today; commit what it did. A ``refusal`` is
    rolled back and returned for the page to show why."""
    if not ActionForm().validate_on_submit():
        abort(400)
    return commit_or_refusal(lambda session: act(
        session, tournament, by=current_user, writer=letter_writer(),
        today=tournament_today(tournament)), refusal)


def _publish_page(tournament: Tournament, missing: Sequence[Missing]) -> str:
    return render_template("tournaments/publish.html", tournament=tournament, missing=missing,
                           form=ActionForm(), serving=officials_of(db_session(), tournament))


@blueprint.get("/<code>/publish")
@roles_required(Role.ORGANIZER)
def publish_page(code: str) -> str:
    tournament = tournament_or_404(code)
    return _publish_page(tournament, missing_for_publication(db_session(), tournament))


@blueprint.post("/<code>/publish")
@roles_required(Role.ORGANIZER)
def publish_now(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    report = _act_on(tournament, publish, PublishRefused)
    if isinstance(report, PublishRefused):
        return _publish_page(tournament, report.missing), 422  # type: ignore[return-value]
    steward = len([p for p in report.for_steward if p.start_sheet_sent_on is None])
    if not (report.started or report.games_created or report.emailed):
        # Publishing again, or the second of a double click: the first did the work.
        flash(_("%(code)s was already published: no games were created and no start sheet was "
                "sent again («Send again» sends one player's sheet again).", code=code), "info")
    elif letter_writer().settings.captured:
        flash(_("%(code)s is published: %(games)s games created, %(emailed)s start sheets written "
                "for e-mail but kept in the outbox (no mail server is configured), %(steward)s "
                "for the steward to post.", code=code, games=report.games_created,
                emailed=len(report.emailed), steward=steward), "warning")
    else:
        flash(_("%(code)s is published: %(games)s games created, %(emailed)s start sheets "
                "e-mailed, %(steward)s for the steward to post.", code=code,
                games=report.games_created, emailed=len(report.emailed), steward=steward), "info")
    return redirect(url_for("tournament_life.sheets", code=code))


@blueprint.post("/<code>/start-sheets/<int:participant_id>/resend")
@roles_required(Role.ORGANIZER)
def resend_sheet(code: str, participant_id: int) -> Response:
    tournament = tournament_or_404(code)
    participant = participant_or_404(tournament, participant_id)
    if ActionForm().validate_on_submit():
        _commit_or_refuse(
            lambda session: resend(session, tournament, participant, by=current_user,
                                   writer=letter_writer(), today=tournament_today(tournament)),
            lambda: _("The start sheet of %(name)s is sent again.", name=participant.player.name))
    return redirect(url_for("tournament_life.sheets", code=code))


@blueprint.get("/<code>/start-sheets/mailing")
@login_required
def sheets(code: str) -> str:
    """Every player's sheet and how it went: e-mailed, posted on a day, or still to post."""
    tournament = official_tournament(code)
    return render_template("tournaments/sheet_mailing.html", tournament=tournament,
                           participants=[p for p in tournament.participants if not p.withdrawn],
                           channel_of=channel_of, plays_by_email=plays_by_email,
                           to_post=sheets_for_steward(tournament),
                           posted_form=PostedForm(), action_form=ActionForm(),
                           today=tournament_today(tournament))


@blueprint.get("/<code>/start-sheets/<int:participant_id>/print")
@login_required
def print_sheet(code: str, participant_id: int) -> str:
    """One player's start sheet as a printable A4 page (002 §4.3.2) for the steward to post."""
    tournament = official_tournament(code)
    participant = participant_or_404(tournament, participant_id)
    session = db_session()
    sheet = next(s for s in start_sheets(session, tournament)
                 if s.participant.id == participant.id)
    account = session.scalar(select(User).where(User.player_id == participant.player_id))
    # The steward's own controls and warning stay in his language; the sheet is the player's
    # letter, in the player's language.
    for_steward = {
        "back": _("Back"), "print": _("Print"),
        "no_address": _("No postal address of the tournament's steward is on record, so this "
                        "sheet cannot tell the player where to send his cards: enter it on the "
                        "Accounts page before posting the sheet."),
    }
    with force_locale(participant.player.language or DEFAULT_LANGUAGE):
        return render_template("tournaments/start_sheet_print.html", tournament=tournament,
                               sheet=sheet, channel=channel_of(participant),
                               write_to=steward_post(session, tournament),
                               for_steward=for_steward,
                               login=account.login if account is not None else None)


@blueprint.post("/<code>/start-sheets/<int:participant_id>/posted")
@login_required
def sheet_posted(code: str, participant_id: int) -> Response:
    tournament = official_tournament(code)
    participant = participant_or_404(tournament, participant_id)
    form = PostedForm()
    if form.validate_on_submit():
        _commit_or_refuse(
            lambda session: record_sheet_posted(session, participant, form.posted_on.data,
                                                by=current_user,
                                                today=tournament_today(tournament)),
            lambda: _("Start sheet of %(name)s posted on %(day)s.", name=participant.player.name,
                      day=form.posted_on.data.strftime("%d.%m.%Y")))
    else:
        flash(_("Give the day the sheet was posted."), "error")
    return redirect(url_for("tournament_life.sheets", code=code))


# -- the end -------------------------------------------------------------------------------------


def _close_page(tournament: Tournament, reasons: Sequence[str]) -> str:
    return render_template("tournaments/close.html", tournament=tournament, reasons=reasons,
                           form=ActionForm())


@blueprint.get("/<code>/close")
@roles_required(Role.ORGANIZER)
def close_page(code: str) -> str:
    tournament = tournament_or_404(code)
    return _close_page(tournament, blockers(db_session(), tournament,
                                            tournament_today(tournament)))


@blueprint.post("/<code>/close")
@roles_required(Role.ORGANIZER)
def close_now(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    closed = _act_on(tournament, close, CloseRefused)
    if isinstance(closed, CloseRefused):
        return _close_page(tournament, closed.reasons), 409  # type: ignore[return-value]
    flash(_("%(code)s is finished; the final table is frozen and the referee's final report "
            "is queued (002 §4.1.7).", code=code), "info")
    return redirect(url_for("bulletins.show_issue", issue_id=closed.report.id))


__all__ = ["blueprint", "enter_player", "invite_players"]
