"""Tournament list and page (players, games with who is to move), and setting tournaments up."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers.response import Response

from corrmail.ledger import to_move
from corrmail.models import Game, Participant, Role, Tournament
from corrmail.player_import import COLUMNS, PlayerImportError, PlayerRow, RowError, read_player_csv
from corrmail.registration import (
    FieldError,
    RegistrationError,
    add_participant,
    create_tournament,
    import_participants,
    spec_of,
    update_tournament,
)
from corrmail.schedule import PairingRefused, pair_round_robin, start_sheets
from corrmail.web.access import is_official_of
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session
from corrmail.web.registration_forms import ImportForm, PairForm, PlayerForm, TournamentForm
from scoring.tiebreaks import TIEBREAKS

blueprint = Blueprint("tournaments", __name__, url_prefix="/tournaments")


@blueprint.get("/")
@login_required
def index() -> str:
    tournaments = db_session().scalars(
        select(Tournament)
        .options(selectinload(Tournament.participants))
        .order_by(Tournament.start_date.desc(), Tournament.code)
    )
    return render_template("tournaments/index.html", tournaments=list(tournaments))


@blueprint.get("/<code>")
@login_required
def show(code: str) -> str:
    tournament = db_session().scalar(
        select(Tournament)
        .where(Tournament.code == code)
        .options(
            selectinload(Tournament.participants).selectinload(Participant.player),
            selectinload(Tournament.games).selectinload(Game.letters),
            selectinload(Tournament.games)
            .selectinload(Game.white)
            .selectinload(Participant.player),
            selectinload(Tournament.games)
            .selectinload(Game.black)
            .selectinload(Participant.player),
        )
    )
    if tournament is None:
        abort(404)
    rows = [(game, to_move(game)) for game in tournament.games]
    return render_template(
        "tournaments/show.html", tournament=tournament, rows=rows, pair_form=PairForm()
    )


def _tournament_or_404(code: str) -> Tournament:
    tournament = db_session().scalar(select(Tournament).where(Tournament.code == code))
    if tournament is None:
        abort(404)
    return tournament


def _attach(form: FlaskForm, errors: Sequence[FieldError | RowError]) -> list[str]:
    """Put each error on its field; return those that belong to no field of `form`."""
    loose = []
    for error in errors:
        field = getattr(
            form, error.field if isinstance(error, FieldError) else (error.column or ""), None
        )
        if field is not None and hasattr(field, "errors"):
            field.errors = [*field.errors, error.message]
        else:
            loose.append(str(error))
    return loose


@blueprint.route("/new", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def create() -> str | Response:
    form = TournamentForm()
    loose: list[str] = []
    if form.validate_on_submit():
        session = db_session()
        try:
            tournament = create_tournament(session, form.spec(), current_user)
        except RegistrationError as error:
            session.rollback()
            loose = _attach(form, error.errors)
        else:
            session.commit()
            flash(_("Tournament %(code)s created.", code=tournament.code), "info")
            return redirect(url_for("tournaments.show", code=tournament.code))
    return render_template(
        "tournaments/form.html", form=form, loose=loose, tournament=None, tiebreaks=TIEBREAKS
    )


@blueprint.route("/<code>/edit", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def edit(code: str) -> str | Response:
    tournament = _tournament_or_404(code)
    form = TournamentForm()
    loose: list[str] = []
    if not form.is_submitted():
        form.fill(spec_of(tournament))
    elif form.validate():
        session = db_session()
        try:
            update_tournament(session, tournament, form.spec(), current_user)
        except RegistrationError as error:
            session.rollback()
            loose = _attach(form, error.errors)
        else:
            session.commit()
            flash(_("Saved."), "info")
            return redirect(url_for("tournaments.show", code=tournament.code))
    return render_template(
        "tournaments/form.html", form=form, loose=loose, tournament=tournament, tiebreaks=TIEBREAKS
    )


@blueprint.route("/<code>/players/new", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def add_player(code: str) -> str | Response:
    tournament = _tournament_or_404(code)
    form = PlayerForm()
    loose: list[str] = []
    if form.validate_on_submit():
        row = PlayerRow(
            name=" ".join(form.name.data.split()),
            email=(form.email.data or "").strip().lower() or None,
            postal_address=(form.postal_address.data or "").strip() or None,
            rating=form.rating.data,
            club=(form.club.data or "").strip() or None,
        )
        session = db_session()
        try:
            participant = add_participant(session, tournament, row, current_user)
        except RegistrationError as error:
            session.rollback()
            loose = _attach(form, error.errors)
        else:
            session.commit()
            flash(
                _(
                    "%(name)s entered as no. %(number)s.",
                    name=row.name,
                    number=participant.start_number,
                ),
                "info",
            )
            return redirect(url_for("tournaments.show", code=tournament.code))
    return render_template(
        "tournaments/player_form.html", form=form, loose=loose, tournament=tournament
    )


@blueprint.route("/<code>/players/import", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def import_players(code: str) -> str | Response:
    tournament = _tournament_or_404(code)
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        session = db_session()
        try:
            parsed = read_player_csv(form.file.data.read(), tournament.channel)
            entered = import_participants(session, tournament, parsed, current_user)
        except PlayerImportError as error:
            problems = [str(error)]
        except RegistrationError as error:
            session.rollback()
            problems = [str(problem) for problem in error.errors]
        else:
            session.commit()
            flash(_("%(count)s players imported.", count=len(entered)), "info")
            return redirect(url_for("tournaments.show", code=tournament.code))
    status = 422 if problems else 200
    page = render_template(
        "tournaments/import.html",
        form=form,
        problems=problems,
        tournament=tournament,
        columns=COLUMNS,
    )
    return page, status  # type: ignore[return-value]


@blueprint.post("/<code>/pair")
@roles_required(Role.ORGANIZER)
def pair(code: str) -> Response:
    tournament = _tournament_or_404(code)
    if PairForm().validate_on_submit():
        session = db_session()
        try:
            games = pair_round_robin(session, tournament, current_user)
        except PairingRefused as error:
            session.rollback()
            flash(error.reason, "error")
        else:
            session.commit()
            flash(_("%(count)s games paired.", count=len(games)), "info")
    return redirect(url_for("tournaments.show", code=code))


@blueprint.get("/<code>/start-sheets")
@login_required
def start_sheet_list(code: str) -> str:
    tournament = _tournament_or_404(code)
    if not is_official_of(current_user, tournament.id):
        abort(403)
    return render_template(
        "tournaments/start_sheets.html",
        tournament=tournament,
        sheets=start_sheets(db_session(), tournament),
    )
