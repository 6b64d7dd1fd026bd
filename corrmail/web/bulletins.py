"""Bulletins and reports on the web: the steward schedules, previews and issues bulletins
(002 §4.1.8) and his reports to the referee (002 §4.1.8), the referee issues the final report
(002 §4.1.7), everyone reads the printable pages they may see (officials also download them),
and a player reads his own sheet."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers.response import Response
from wtforms import BooleanField, DateField, IntegerField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from corrmail.bulletins import (
    ScheduleError,
    Snapshot,
    TournamentNotFound,
    build_player_sheet,
    issue,
    latest_issues,
    load_tournament,
    reissue,
    render_printable,
    send_issue,
    set_schedule,
    to_json,
)
from corrmail.bulletins.archive import preview as preview_paper
from corrmail.bulletins.sending import WITHHELD_BY
from corrmail.models import Participant, Tournament
from corrmail.models.bulletins import BulletinIssue, BulletinKind, BulletinSchedule, ScheduleUnit
from corrmail.web.access import for_officials, is_official_of
from corrmail.web.database import (
    db_session,
    letter_writer,
    tournament_today,
)
from corrmail.web.downloads import attachment

blueprint = Blueprint("bulletins", __name__, url_prefix="/bulletins")

UNITS = [
    SelectChoice(ScheduleUnit.DAY.value, _l("days")),
    SelectChoice(ScheduleUnit.WEEK.value, _l("weeks")),
    SelectChoice(ScheduleUnit.MONTH.value, _l("months")),
]
KINDS = [
    SelectChoice(BulletinKind.BULLETIN.value, _l("Bulletin")),
    SelectChoice(BulletinKind.FINAL_REPORT.value, _l("Final report")),
    SelectChoice(BulletinKind.STEWARD_REPORT.value, _l("Steward's report to the referee")),
]


class ScheduleForm(FlaskForm):
    every = IntegerField(_l("Every"), default=1, validators=[DataRequired()])
    unit = SelectField(_l("Unit"), choices=UNITS, default=ScheduleUnit.MONTH.value)
    next_on = DateField(_l("Next bulletin on"), validators=[DataRequired()])
    active = BooleanField(_l("Active"), default=True)


class IssueForm(FlaskForm):
    as_of = DateField(_l("As of"), validators=[DataRequired()])
    kind = SelectField(_l("Paper"), choices=KINDS, default=BulletinKind.BULLETIN.value)


class PreviewForm(FlaskForm):
    class Meta:
        csrf = False  # a GET that changes nothing

    as_of = DateField(_l("As of"), validators=[DataRequired()])
    kind = SelectField(_l("Paper"), choices=KINDS, default=BulletinKind.BULLETIN.value)


def _tournament(code: str) -> Tournament:
    try:
        return load_tournament(db_session(), code)
    except TournamentNotFound:
        abort(404)



def _own_entry(tournament: Tournament) -> Participant | None:
    if current_user.player_id is None:
        return None
    return next((p for p in tournament.participants if p.player_id == current_user.player_id), None)



def _printable(html: str) -> Response:
    return Response(html, mimetype="text/html")


@blueprint.get("/")
@login_required
def index() -> str:
    tournaments = db_session().scalars(select(Tournament).order_by(Tournament.start_date.desc()))
    visible = [
        t
        for t in tournaments
        if is_official_of(current_user, t.id)
        or any(
            p.player_id == current_user.player_id and current_user.player_id for p in t.participants
        )
    ]
    return render_template("bulletins/index.html", tournaments=visible)


@blueprint.get("/<code>")
@login_required
def tournament_page(code: str) -> str:
    tournament = _tournament(code)
    official = is_official_of(current_user, tournament.id)
    entry = _own_entry(tournament)
    if not official and entry is None:
        abort(403)
    schedule = db_session().get(BulletinSchedule, tournament.id)
    schedule_form = (
        ScheduleForm(obj=schedule)
        if schedule is not None
        else ScheduleForm(next_on=tournament_today(tournament))
    )
    issue_form = IssueForm(as_of=tournament_today(tournament))
    preview_form = PreviewForm(as_of=tournament_today(tournament))
    issues = latest_issues(db_session(), tournament)
    if not official:
        issues = [row for row in issues if _may_read(row)]
    return render_template(
        "bulletins/tournament.html",
        tournament=tournament,
        official=official,
        entry=entry,
        schedule=schedule,
        schedule_form=schedule_form,
        issue_form=issue_form,
        preview_form=preview_form,
        issues=issues,
    )


@blueprint.post("/<code>/schedule")
@login_required
def schedule(code: str) -> Response:
    tournament = for_officials(_tournament(code))
    form = ScheduleForm()
    if not form.validate_on_submit():
        flash(_("The schedule was not saved: %(errors)s", errors=_form_errors(form)), "error")
        return redirect(url_for(".tournament_page", code=code))
    try:
        set_schedule(
            db_session(),
            tournament,
            every=form.every.data or 1,
            unit=form.unit.data or "",
            next_on=form.next_on.data or tournament_today(tournament),
            active=bool(form.active.data),
            user=current_user,
        )
    except ScheduleError as error:
        db_session().rollback()
        flash(str(error), "error")
        return redirect(url_for(".tournament_page", code=code))
    db_session().commit()
    flash(_("Bulletins scheduled."), "success")
    if form.next_on.data is not None and form.next_on.data < tournament_today(tournament):
        # A first date gone by is kept: the daily run issues each date missed, as of that date.
        flash(_("The first date %(day)s is already past: the next daily run issues and sends "
                "the bulletin of each date missed, each as of its own date.",
                day=f"{form.next_on.data:%d.%m.%Y}"), "warning")
    return redirect(url_for(".tournament_page", code=code))


@blueprint.get("/<code>/preview")
@login_required
def preview(code: str) -> Response:
    """The paper as it would be issued on the date — built, not archived, not sent."""
    tournament = for_officials(_tournament(code))
    form = PreviewForm(request.args)
    if not form.validate() or form.as_of.data is None:
        abort(400, description=_form_errors(form))
    try:
        content = preview_paper(db_session(), tournament, BulletinKind(form.kind.data),
                                form.as_of.data, signed_by=current_user)
    except ValueError as error:  # e.g. players without start numbers: no standings yet
        abort(400, description=str(error))
    return _printable(
        render_printable(content, language=_language(), title_suffix=" · " + _("preview"))
    )


@blueprint.post("/<code>/issue")
@login_required
def issue_paper(code: str) -> Response:
    tournament = for_officials(_tournament(code))
    form = IssueForm()
    if not form.validate_on_submit() or form.as_of.data is None:
        flash(_("Nothing was issued: %(errors)s", errors=_form_errors(form)), "error")
        return redirect(url_for(".tournament_page", code=code))
    try:
        row = issue(db_session(), tournament, form.as_of.data,
                    kind=BulletinKind(form.kind.data), user=current_user,
                    today=tournament_today(tournament))
    except ValueError as error:  # e.g. players without start numbers: no standings yet
        db_session().rollback()
        flash(_("Nothing was issued: %(errors)s", errors=str(error)), "error")
        return redirect(url_for(".tournament_page", code=code))
    sent = send_issue(db_session(), letter_writer(), row)
    db_session().commit()
    if row.kind is BulletinKind.STEWARD_REPORT and not sent:
        flash(_("Issued, but not sent: the tournament has no referee to receive it "
                "(002 §4.1.8)."), "error")
    else:
        flash(_("Issued and sent."), "success")
    return redirect(url_for(".show_issue", issue_id=row.id))


@blueprint.get("/issues/<int:issue_id>")
@login_required
def show_issue(issue_id: int) -> str:
    row = _official_issue(issue_id)
    return render_template("bulletins/issue.html", issue=row)


@blueprint.post("/issues/<int:issue_id>/reissue")
@login_required
def reissue_paper(issue_id: int) -> Response:
    _official_issue(issue_id)
    new = reissue(db_session(), issue_id, user=current_user)
    send_issue(db_session(), letter_writer(), new)
    db_session().commit()
    flash(_("A corrected version was issued and sent."), "success")
    return redirect(url_for(".show_issue", issue_id=new.id))


@blueprint.get("/issues/<int:issue_id>/print")
@login_required
def print_issue(issue_id: int) -> Response:
    row = _issue(issue_id)
    if not is_official_of(current_user, row.tournament_id) and not _may_read(row):
        abort(403)
    return _printable(render_printable(row.content, language=_language()))


@blueprint.get("/issues/<int:issue_id>/download")
@login_required
def download_issue(issue_id: int) -> Response:
    """The printable page as a file to keep or forward, named by tournament, paper, number and
    version; for the officials, who may read every issue."""
    row = _official_issue(issue_id)
    name = f"{row.kind.value}-{row.tournament.code}-{row.number}-v{row.version}.html"
    return attachment(render_printable(row.content, language=_language()), "text/html", name)


@blueprint.get("/<code>/sheet")
@login_required
def sheet(code: str) -> Response:
    """A player's own sheet; officials may read any player's (``?participant=ID``)."""
    tournament = _tournament(code)
    entry = _own_entry(tournament)
    wanted = request.args.get("participant", type=int)
    if wanted is not None and is_official_of(current_user, tournament.id):
        entry = next((p for p in tournament.participants if p.id == wanted), None)
    if entry is None:
        abort(403 if wanted is None else 404)
    content = to_json(build_player_sheet(db_session(), entry, tournament_today(tournament)))
    return _printable(render_printable(content, language=_language()))


#: The sending log's reasons (``corrmail.bulletins.sending``), stored in English; each is worded
#: here in the reader's language, an unknown one shown as stored.
_WITHHELD = re.compile(r"^information withheld by sanction (?P<case>\S+) of (?P<date>\S+) "
                       r"\((?P<rules>.*)\)$")
_REASONS = {
    "no e-mail address: the steward posts it": _l("no e-mail address: the steward posts it"),
    "withdrew from the tournament": _l("withdrew from the tournament"),
}


@blueprint.app_template_filter("delivery_reason")
def delivery_reason(reason: str) -> str:
    """Why an addressee of an issue was skipped or is posted to, in the reader's language."""
    if reason in _REASONS:
        return str(_REASONS[reason])
    withheld = _WITHHELD.match(reason)
    if withheld is not None:
        return str(_("information withheld by sanction %(case)s of %(date)s (%(rules)s)",
                     **withheld.groupdict()))
    return reason


def _issue(issue_id: int) -> BulletinIssue:
    row = db_session().get(BulletinIssue, issue_id)
    if row is None:
        abort(404)
    return row


def _official_issue(issue_id: int) -> BulletinIssue:
    """The issue ``issue_id`` for an official of its tournament: 404 when there is none, 403 for
    anyone else."""
    row = _issue(issue_id)
    for_officials(row.tournament)
    return row


def _may_read(row: BulletinIssue) -> bool:
    """A player reads an issue unless a sanction withheld it from him on its date (002 §4.1.9);
    the steward's report is the referee's paper, not the players'."""
    entry = _own_entry(row.tournament)
    if entry is None or row.kind is BulletinKind.STEWARD_REPORT:
        return False
    snapshot = Snapshot(db_session(), row.tournament, row.as_of)
    return snapshot.sanction_in_force(entry, WITHHELD_BY[row.kind]) is None


def _language() -> str:
    from flask_babel import get_locale

    locale = get_locale()
    return locale.language if locale is not None else "ru"


def _form_errors(form: FlaskForm) -> str:
    return "; ".join(
        f"{getattr(form, name).label.text}: {', '.join(errors)}"
        for name, errors in form.errors.items()
    )
