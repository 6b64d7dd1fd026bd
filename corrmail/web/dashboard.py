"""The directors' dashboard pages: ``/dashboard/`` (the tournaments one serves) and
``/dashboard/<code>`` (every game at a glance, with filters and sort; issue 6 §5)."""

from __future__ import annotations

from typing import TypeVar

from flask import Blueprint, abort, render_template, request
from flask_login import current_user
from sqlalchemy import select

from corrmail.clock import today
from corrmail.dashboard import DashboardFilter, DashboardSort, dashboard_rows
from corrmail.models import Role, Tournament, TournamentOfficial
from corrmail.web.access import is_official_of
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session, settings

blueprint = Blueprint("dashboard", __name__, url_prefix="/dashboard")

E = TypeVar("E", DashboardFilter, DashboardSort)

OFFICIALS = (Role.ORGANIZER, Role.REFEREE, Role.STEWARD)


@blueprint.get("/")
@roles_required(*OFFICIALS)
def index() -> str:
    query = select(Tournament).order_by(Tournament.start_date.desc(), Tournament.code)
    if not current_user.has_role(Role.ORGANIZER):
        query = query.join(TournamentOfficial).where(TournamentOfficial.user_id == current_user.id)
    return render_template("dashboard/index.html", tournaments=db_session().scalars(query).all())


@blueprint.get("/<code>")
@roles_required(*OFFICIALS)
def show(code: str) -> str:
    session = db_session()
    tournament = session.scalar(select(Tournament).where(Tournament.code == code))
    if tournament is None:
        abort(404)
    if not is_official_of(current_user, tournament.id):
        abort(403)
    wanted = _choice(DashboardFilter, request.args.get("filter"), DashboardFilter.ALL)
    sort = _choice(DashboardSort, request.args.get("sort"), DashboardSort.ROUND)
    on = today(settings().today, tournament.time_zone)
    rows = dashboard_rows(session, tournament, on, wanted=wanted, sort=sort)
    return render_template("dashboard/show.html", tournament=tournament, rows=rows, today=on,
                           wanted=wanted, sort=sort, filters=list(DashboardFilter),
                           sorts=list(DashboardSort))


def _choice(kind: type[E], value: str | None, default: E) -> E:
    try:
        return kind(value) if value else default
    except ValueError:
        abort(400, f"unknown {kind.__name__}: {value!r}")
