"""The directors' dashboard pages: ``/dashboard/`` (the tournaments one serves) and
``/dashboard/<code>`` (every game at a glance, with filters and sort).

The games are paged (``page``, ``per_page``: 100 a page by default, ``all`` for every game on
one page): every game's clock is still computed, so the counts of games needing
attention above the table cover the whole tournament, but only a page of rows is rendered."""

from __future__ import annotations

from typing import TypeVar

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from corrmail.clock import today
from corrmail.models import Role, Tournament, TournamentOfficial
from corrmail.referee.open_cases import open_cases
from corrmail.tournaments.dashboard import (
    ATTENTION,
    PAGE_SIZES,
    DashboardFilter,
    DashboardPage,
    DashboardSort,
    PageOutOfRange,
    announced_breaks,
    dashboard_rows,
)
from corrmail.tournaments.publishing import sheets_for_steward
from corrmail.web.access import official_tournament
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
    tournament = official_tournament(code)
    wanted = _choice(DashboardFilter, request.args.get("filter"), DashboardFilter.ALL)
    sort = _choice(DashboardSort, request.args.get("sort"), DashboardSort.ROUND)
    size = _page_size(request.args.get("per_page"))
    number = _page_number(request.args.get("page"))
    on = today(settings().today, tournament.time_zone)
    cases = open_cases(session, tournament.id, on)
    every = dashboard_rows(session, tournament, on, sort=sort, opened=cases)
    attention = {item: sum(1 for row in every if row.matches(item)) for item in ATTENTION}
    # The open cases are those of the referee's queue, one definition for both pages: a case
    # of no game (a sanction, a break, a withdrawal) is counted too, and the count links there.
    attention[DashboardFilter.CASES] = len(cases)
    try:
        page = DashboardPage.of([row for row in every if row.matches(wanted)], number, size)
    except PageOutOfRange as error:
        abort(404, _("There is no page %(number)s: the dashboard has %(pages)s page(s) of these "
                     "games.", number=error.number, pages=error.pages))
    return render_template("dashboard/show.html", tournament=tournament, page=page,
                           rows=page.rows, today=on, wanted=wanted, sort=sort,
                           filters=list(DashboardFilter), sorts=list(DashboardSort),
                           attention=attention, per_page=_size_value(size),
                           page_sizes=[_size_value(item) for item in PAGE_SIZES],
                           breaks=announced_breaks(session, tournament, on),
                           sheets_to_post=[participant for participant in sheets_for_steward(tournament)
                                           if participant.start_sheet_sent_on is None])


def _choice(kind: type[E], value: str | None, default: E) -> E:
    """The filter or sort the link asks for; a link the dashboard does not know (typed, or kept
    from an older version) is refused in the reader's language, with the values it knows."""
    try:
        return kind(value) if value else default
    except ValueError:
        known = ", ".join(item.value for item in kind)
        if kind is DashboardFilter:
            abort(400, _("The dashboard has no filter «%(value)s»; its filters are: %(known)s.",
                         value=value, known=known))
        abort(400, _("The dashboard has no sort «%(value)s»; it sorts by: %(known)s.",
                     value=value, known=known))


def _size_value(size: int | None) -> str:
    return "all" if size is None else str(size)


def _page_size(value: str | None) -> int | None:
    if not value:
        return PAGE_SIZES[0]
    for size in PAGE_SIZES:
        if value == _size_value(size):
            return size
    abort(400, _("The dashboard has no page size «%(value)s»; per_page is one of: %(known)s.",
                 value=value, known=", ".join(map(_size_value, PAGE_SIZES))))


def _page_number(value: str | None) -> int:
    if not value:
        return 1
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        abort(400, _("«%(value)s» is not a page number (1, 2, …).", value=value))
    return int(value)
