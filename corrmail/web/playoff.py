"""The play-off page: the referee or director records the outcome of a play-off (000 §3.16.2)
or of the extra match for first place of a team event (000 §3.17.6), and sees which
participants are level on points. ``corrmail.standings.playoff`` validates and stores it."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers.response import Response
from wtforms import HiddenField, StringField
from wtforms.validators import Length

from corrmail.models import Role, Team, Tournament
from corrmail.rounds.teams import team_table
from corrmail.standings.exports import reader_points
from corrmail.standings.playoff import (
    PlayoffRefused,
    PlayoffSyntaxError,
    Recorded,
    clear_playoff,
    format_playoff,
    playoff_problems,
    record_playoff,
)
from corrmail.standings.results import load_tournament, tournament_table
from corrmail.web.access import official_tournament
from corrmail.web.auth import roles_required
from corrmail.web.database import commit_or_refusal, db_session
from corrmail.web.refusals import refusal_text

blueprint = Blueprint("playoff", __name__, url_prefix="/tournaments")

DECIDERS = (Role.ORGANIZER, Role.REFEREE)


class PlayoffForm(FlaskForm):
    order = StringField(_l("Finishing order of the play-off"), validators=[Length(max=2000)])
    teams = HiddenField()


class ClearPlayoffForm(FlaskForm):
    teams = HiddenField()


def _tournament(code: str) -> Tournament:
    official_tournament(code)
    return load_tournament(db_session(), code)


def _level_groups(tournament: Tournament) -> tuple[list[list[str]], list[list[str]]]:
    """Participants level on points (players, then teams), each group best first."""
    session = db_session()
    players: list[list[str]] = []
    try:
        rows = tournament_table(tournament).rows
    except ValueError:
        rows = ()
    for row in rows:
        label = f"{row.start_no} {row.name}"
        if players and players[-1][0] == reader_points(row.points):
            players[-1].append(label)
        else:
            players.append([reader_points(row.points), label])
    teams: list[list[str]] = []
    if session.scalar(select(Team.id).where(Team.tournament_id == tournament.id).limit(1)):
        try:
            team_rows = team_table(session, tournament)
        except ValueError:
            team_rows = []
        for team_row in team_rows:
            if teams and teams[-1][0] == reader_points(team_row.points):
                teams[-1].append(team_row.team)
            else:
                teams.append([reader_points(team_row.points), team_row.team])
    return ([g for g in players if len(g) > 2], [g for g in teams if len(g) > 2])


def _page(tournament: Tournament, form: PlayoffForm, errors: list[str]) -> str:
    session = db_session()
    has_teams = session.scalar(select(Team.id).where(Team.tournament_id == tournament.id).limit(1))
    level_players, level_teams = _level_groups(tournament)
    return render_template(
        "standings/playoff.html", tournament=tournament, form=form,
        clear_form=ClearPlayoffForm(), errors=errors, has_teams=has_teams is not None,
        level_players=level_players, level_teams=level_teams,
        recorded=format_playoff(tournament.playoff),
        recorded_teams=format_playoff(tournament.team_playoff),
        problems=[refusal_text(problem) for problem in playoff_problems(session, tournament)],
    )  # fmt: skip


@blueprint.route("/<code>/playoff", methods=["GET", "POST"])
@roles_required(*DECIDERS)
def show(code: str) -> str | Response:
    tournament = _tournament(code)
    form = PlayoffForm()
    errors: list[str] = []
    if form.validate_on_submit():
        recorded = commit_or_refusal(lambda session: record_playoff(
            session, tournament, form.order.data or "", current_user, teams=form.teams.data == "1"
        ), (PlayoffSyntaxError, PlayoffRefused))
        if isinstance(recorded, Recorded):
            flash(_("Play-off recorded: %(order)s.", order=format_playoff(recorded.groups)), "info")
            return redirect(url_for("playoff.show", code=code))
        errors.append(refusal_text(recorded))
    elif form.is_submitted():
        errors.extend(message for messages in form.errors.values() for message in messages)
    return _page(tournament, form, errors)


@blueprint.post("/<code>/playoff/clear")
@roles_required(*DECIDERS)
def clear(code: str) -> Response:
    tournament = _tournament(code)
    form = ClearPlayoffForm()
    if not form.validate_on_submit():
        abort(400)
    session = db_session()
    if clear_playoff(session, tournament, current_user, teams=form.teams.data == "1"):
        session.commit()
        flash(_("The recorded play-off was removed."), "info")
    return redirect(url_for("playoff.show", code=code))
