"""Tournament list and page (players, games with who is to move), and setting tournaments up."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import TypeVar

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload
from werkzeug.wrappers.response import Response

from corrmail.games.state import letter_owed_by, stored_states
from corrmail.letters.recipients import channel_of
from corrmail.models import (
    Channel,
    Game,
    GameType,
    Participant,
    Role,
    Team,
    TeamPairing,
    TeamSchedule,
    Tournament,
    TournamentStatus,
)
from corrmail.rounds.redraw import apply_redraw, plan_redraw
from corrmail.rounds.swiss import (
    RoundRefused,
    is_paired_by_rounds,
    pair_next_round,
    paired_rounds,
    publish_round,
    round_rules,
    set_round_rules,
)
from corrmail.rounds.teams import (
    TeamsRefused,
    pair_team_round_robin,
    parse_team_lines,
    set_teams,
    team_table,
)
from corrmail.standings.results import tournament_table
from corrmail.standings.tiebreak_labels import tiebreak_label
from corrmail.tournaments.player_import import (
    CHANNEL_HINT,
    COLUMNS,
    PlayerImportError,
    PlayerRow,
    RowError,
    check_row,
    read_player_csv,
)
from corrmail.tournaments.registration import (
    FieldError,
    RegistrationError,
    check_spec,
    create_tournament,
    import_participants,
    participant_update_errors,
    spec_of,
    update_participant,
    update_tournament,
)
from corrmail.tournaments.rule_options import FIXED_RULE, is_column, play_has_begun
from corrmail.tournaments.start_sheets import PairingRefused, pair_round_robin, start_sheets
from corrmail.web.access import (
    is_official_of,
    may_see_tournament,
    official_tournament,
    participant_or_404,
    tournament_or_404,
    visible_tournament_ids,
)
from corrmail.web.auth import roles_required
from corrmail.web.database import commit_or_refusal, db_session, letter_writer, tournament_today
from corrmail.web.refusals import entrant_labels, refusal_text
from corrmail.web.registration_forms import (
    ImportForm,
    PairForm,
    PlayerDetailsForm,
    PlayerForm,
    TournamentForm,
    tiebreak_codes_hint,
)
from corrmail.web.round_forms import (
    PairRoundForm,
    PairTeamsForm,
    PublishRoundForm,
    RedrawForm,
    RoundRulesForm,
    TeamsForm,
)
from corrmail.web.tournament_life import enter_player, invite_players
from scoring.standings import StandingRow
from scoring.tiebreaks import TIEBREAKS

blueprint = Blueprint("tournaments", __name__, url_prefix="/tournaments")

Outcome = TypeVar("Outcome")


@blueprint.app_template_global()
def upcoming_start(tournament: Tournament) -> dt.date | None:
    """The start date of a published tournament whose start has not come yet in its own time
    zone: its status is ``running`` from the publishing of the start sheets, but until that day
    play has not begun, and the list and the page say «published, starts on …», not «running»."""
    if tournament.status is TournamentStatus.RUNNING and tournament_today(tournament) < tournament.start_date:
        return tournament.start_date
    return None


@blueprint.get("/")
@login_required
def index() -> str:
    query = (select(Tournament).options(selectinload(Tournament.participants))
             .order_by(Tournament.start_date.desc(), Tournament.code))
    visible = visible_tournament_ids(current_user)
    if visible is not None:
        query = query.where(Tournament.id.in_(visible))
    tournaments = db_session().scalars(query)
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
    if not may_see_tournament(current_user, tournament.id):
        abort(403)
    states = stored_states(db_session(), tournament_id=tournament.id)
    rows = [(game, letter_owed_by(game, states.get(game.id))) for game in tournament.games]
    # Only links the reader may open: officials every game, a player his own.
    official = is_official_of(current_user, tournament.id)
    viewable = {game.id for game in tournament.games
                if official or current_user.player_id in (game.white.player_id,
                                                          game.black.player_id)}
    return render_template(
        "tournaments/show.html", tournament=tournament, rows=rows, pair_form=PairForm(),
        viewable=viewable, channel_of=channel_of, standing=_standing_by_number(tournament),
    )


def _standing_by_number(tournament: Tournament) -> dict[int, StandingRow]:
    """Each start number's line of the standings, the standings page's table; none before the
    games are paired or while the table cannot be computed (the standings page says why)."""
    if not tournament.games:
        return {}
    try:
        table = tournament_table(tournament)
    except ValueError:
        return {}
    return {row.start_no: row for row in table.rows}


def _attach(form: FlaskForm, errors: Sequence[FieldError | RowError]) -> list[str]:
    """Put each error on its field; return those that belong to no field of `form`."""
    loose = []
    for error in errors:
        field = getattr(
            form, error.field if isinstance(error, FieldError) else (error.column or ""), None
        )
        if field is not None and hasattr(field, "errors"):
            field.errors = [*field.errors, error.message]
        elif isinstance(error, RowError) and not error.line:
            # A form is no file: the message alone, not «file: …».
            loose.append(error.message)
        else:
            loose.append(str(error))
    return loose


def _attach_beside(form: FlaskForm, errors: Sequence[FieldError | RowError]) -> list[str]:
    """After the form's own validation failed: registration's errors of the fields it left
    without one (a field the form refused is not judged twice), so the reader sees every
    problem of the form at once. Returns those that belong to no field."""
    def field_of(error: FieldError | RowError) -> object:
        return getattr(form, error.field if isinstance(error, FieldError)
                       else (error.column or ""), None)

    return _attach(form, [error for error in errors
                          if not getattr(field_of(error), "errors", None)])


def _player_row(form: PlayerDetailsForm) -> PlayerRow:
    """The player as the form gives him (a rating the form refused is left out)."""
    return PlayerRow(
        name=" ".join((form.name.data or "").split()),
        email=(form.email.data or "").strip().lower() or None,
        postal_address=(form.postal_address.data or "").strip() or None,
        rating=form.rating.data if not form.rating.errors else None,
        club=(form.club.data or "").strip() or None,
        channel=Channel(form.channel.data) if form.channel.data in set(Channel) else None,
        language=form.language.data,
    )


def _register(form: FlaskForm, step: Callable[[Session], Outcome]) -> Outcome | list[str]:
    """Run a registration step and commit what it did; when it is refused, roll back, put each
    error on its field of `form` and return those that belong to no field."""
    outcome = commit_or_refusal(step, RegistrationError)
    if isinstance(outcome, RegistrationError):
        return _attach(form, outcome.errors)
    return outcome


@blueprint.route("/new", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def create() -> str | Response:
    form = TournamentForm()
    loose: list[str] = []
    if form.validate_on_submit():
        tournament = _register(
            form, lambda session: create_tournament(session, form.spec(), current_user)
        )
        if isinstance(tournament, list):
            loose = tournament
        else:
            flash(_("Tournament %(code)s created.", code=tournament.code), "info")
            return redirect(url_for("tournaments.show", code=tournament.code))
    elif form.is_submitted():
        loose = _attach_beside(form, check_spec(db_session(), form.partial_spec()))
    return _tournament_form(form, loose, tournament=None)


@blueprint.route("/<code>/edit", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def edit(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    form = TournamentForm()
    loose: list[str] = []
    if not form.is_submitted():
        form.fill(spec_of(tournament))
    elif form.validate():
        changes = _register(
            form, lambda session: update_tournament(session, tournament, form.spec(), current_user)
        )
        if isinstance(changes, list):
            loose = changes
        else:
            flash(_("Saved."), "info")
            return redirect(url_for("tournaments.show", code=tournament.code))
    else:
        loose = _attach_beside(form, check_spec(db_session(), form.partial_spec(), tournament))
    return _tournament_form(form, loose, tournament=tournament)


def _tournament_form(form: TournamentForm, loose: list[str], tournament: Tournament | None) -> str:
    """The tournament form, blank for a new tournament, with the tiebreaks to choose from and
    the column-draughts rule options (read-only once play has begun)."""
    begun = play_has_begun(db_session(), tournament) if tournament is not None else 0
    return render_template(
        "tournaments/form.html", form=form, loose=loose, tournament=tournament, tiebreaks=TIEBREAKS,
        tiebreak_hint=tiebreak_codes_hint(),
        column_types=[t.value for t in GameType if is_column(t)], options_begun=begun,
        options_rule=FIXED_RULE,
    )  # fmt: skip


@blueprint.route("/<code>/players/new", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def add_player(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    form = PlayerForm()
    loose: list[str] = []
    if form.validate_on_submit():
        row = _player_row(form)
        participant = _register(form, lambda session: enter_player(
            session, tournament, row, channel=form.channel.data, invite=form.invite.data))
        if isinstance(participant, list):
            loose = participant
        else:
            flash(
                _(
                    "%(name)s entered as no. %(number)s.",
                    name=row.name,
                    number=participant.start_number,
                ),
                "info",
            )
            if form.invite.data:
                _flash_unsent_invitations()
            return redirect(url_for("tournaments.show", code=tournament.code))
    elif form.is_submitted():
        loose = _attach_beside(form, check_row(_player_row(form), tournament.channel))
    return render_template(
        "tournaments/player_form.html", form=form, loose=loose, tournament=tournament,
        participant=None,
    )


@blueprint.route("/<code>/players/<int:participant_id>/edit", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def edit_player(code: str, participant_id: int) -> str | Response:
    """Correct an entered player's details, before the draw or after it (a moved address, a
    new e-mail, a player going over to the post): every problem at once, recorded in the
    audit log; after the draw the director is told that the start sheets already sent name
    the old addresses (002 §4.3.2)."""
    tournament = tournament_or_404(code)
    participant = participant_or_404(tournament, participant_id)
    form = PlayerDetailsForm()
    loose: list[str] = []
    if not form.is_submitted():
        form.fill(participant)
    elif form.validate():
        row = _player_row(form)
        changes = _register(form, lambda session: update_participant(
            session, tournament, participant, row, current_user))
        if isinstance(changes, list):
            loose = changes
        else:
            flash(_("%(name)s's details saved.", name=row.name) if changes
                  else _("Nothing was changed."), "info")
            addresses = {"email", "postal_address", "channel"} & set(changes)
            if addresses and tournament.games:
                flash(_("The start sheets already sent give his partners the old address "
                        "(002 §4.3.2): tell them the new one."), "warning")
            return redirect(url_for("tournaments.show", code=tournament.code))
    else:
        loose = _attach_beside(form, participant_update_errors(
            db_session(), tournament, participant, _player_row(form)))
    page = render_template("tournaments/player_form.html", form=form, loose=loose,
                           tournament=tournament, participant=participant)
    # A refused correction answers 422, as a refused entry does: a script sees it was refused.
    return page, 422 if form.is_submitted() else 200  # type: ignore[return-value]


def _flash_unsent_invitations() -> None:
    """With no mail server the players' invitations stay in the outbox: say where their links
    are, so no player waits for a letter that will not come."""
    if letter_writer().settings.captured:
        flash(_("No mail server is configured, so the invitations are kept unsent: on the "
                "Accounts page, «Invite again» shows each player's set-password link for you to "
                "hand over."), "warning")


@blueprint.route("/<code>/players/import", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def import_players(code: str) -> str | Response:
    tournament = tournament_or_404(code)
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        session = db_session()
        try:
            parsed = read_player_csv(form.file.data.read(), tournament.channel)
            entered = import_participants(session, tournament, parsed, current_user)
            if form.invite.data:
                invite_players(session, entered)
        except PlayerImportError as error:
            problems = [str(error)]
        except RegistrationError as error:
            session.rollback()
            problems = [str(problem) for problem in error.errors]
        else:
            session.commit()
            flash(_("%(count)s players imported.", count=len(entered)), "info")
            if form.invite.data:
                _flash_unsent_invitations()
            return redirect(url_for("tournaments.show", code=tournament.code))
    status = 422 if problems else 200
    page = render_template(
        "tournaments/import.html",
        form=form,
        problems=problems,
        tournament=tournament,
        columns=COLUMNS,
        channel_hint=CHANNEL_HINT,
    )
    return page, status  # type: ignore[return-value]


@blueprint.post("/<code>/pair")
@roles_required(Role.ORGANIZER)
def pair(code: str) -> Response:
    tournament = tournament_or_404(code)
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
    tournament = official_tournament(code)
    return render_template(
        "tournaments/start_sheets.html",
        tournament=tournament,
        sheets=start_sheets(db_session(), tournament),
    )


# -- rounds (Swiss, team Swiss) and teams: docs/rounds.md ----------------------------------------


def _may_direct(tournament: Tournament) -> bool:
    """Pairing and publishing is the director's: the organizer or the tournament's referee."""
    return is_official_of(current_user, tournament.id, serving_as=Role.REFEREE)


def _directed_tournament(code: str) -> Tournament:
    """The tournament ``code`` if the current user directs it: 404 when there is none, 403 when
    he may not pair and publish it."""
    tournament = tournament_or_404(code)
    if not _may_direct(tournament):
        abort(403)
    return tournament


def _direct(step: Callable[[Session], Outcome], announce: Callable[[Outcome], str],
            tournament: Tournament | None = None) -> None:
    """Run a director's step on rounds or teams and commit it, flashing what it did; a refusal
    rolls everything back and is flashed instead, naming the ``tournament``'s entrants."""
    outcome = commit_or_refusal(step, RoundRefused)
    if isinstance(outcome, RoundRefused):
        entrants = entrant_labels(db_session(), tournament) if tournament is not None else None
        flash(refusal_text(outcome, entrants), "error")
    else:
        flash(announce(outcome), "info")


def _absent_numbers(text: str) -> list[int] | None:
    parts = [part for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    if not all(part.isdigit() for part in parts):
        return None
    return [int(part) for part in parts]


@blueprint.get("/<code>/rounds")
@login_required
def rounds(code: str) -> str:
    """The director's Rounds page: published draws, the preview, pair and publish (officials)."""
    tournament = official_tournament(code)
    session = db_session()
    rules = round_rules(session, tournament)
    rules_form = RoundRulesForm(
        pair_before_finished=rules.pair_before_finished,
        team_pairing=rules.team_pairing.value,
        team_pairing_system=rules.team_pairing_system or "",
        team_schedule=rules.team_schedule.value,
    )
    names = {p.start_number: p.player.name for p in tournament.participants}
    return render_template(
        "tournaments/rounds.html",
        tournament=tournament,
        paired=paired_rounds(session, tournament),
        by_rounds=is_paired_by_rounds(session, tournament),
        may_direct=_may_direct(tournament),
        names=names,
        pair_form=PairRoundForm(),
        publish_form=PublishRoundForm(),
        rules_form=rules_form,
    )


@blueprint.post("/<code>/rounds/pair")
@login_required
def pair_next(code: str) -> Response:
    tournament = _directed_tournament(code)
    form = PairRoundForm()
    if form.validate_on_submit():
        absent = _absent_numbers(form.absent.data or "")
        if absent is None:
            flash(_("Known absentees: start numbers separated by commas."), "error")
        else:
            _direct(
                lambda session: pair_next_round(
                    session, tournament, current_user, seed=form.seed.data, absent=absent
                ),
                lambda paired: _("Round %(number)s paired: check the preview, then publish.",
                                 number=paired.number),
                tournament,
            )  # fmt: skip
    return redirect(url_for("tournaments.rounds", code=code))


@blueprint.post("/<code>/rounds/publish")
@login_required
def publish_next(code: str) -> Response:
    tournament = _directed_tournament(code)
    if PublishRoundForm().validate_on_submit():
        writer = letter_writer()
        _direct(
            lambda session: publish_round(
                session, tournament, current_user, writer=writer,
                today=tournament_today(tournament),
            ),
            lambda published: _(
                "Round %(number)s published: %(games)s games, %(letters)s letters queued.",
                number=published.round.number, games=len(published.games),
                letters=published.letters,
            ),
            tournament,
        )  # fmt: skip
    return redirect(url_for("tournaments.rounds", code=code))


@blueprint.route("/<code>/rounds/<int:number>/redraw", methods=["GET", "POST"])
@login_required
def redraw_round(code: str, number: int) -> tuple[str, int] | Response:
    """Repair published round ``number`` that breaks an absolute criterion (002, 004): GET shows
    the director what would change, POST applies exactly that (docs/rounds.md)."""
    tournament = _directed_tournament(code)
    session = db_session()
    form = RedrawForm()
    here = url_for("tournaments.redraw_round", code=code, number=number)
    if form.is_submitted():
        if not form.validate():
            abort(400)
        writer = letter_writer()
        try:
            done = apply_redraw(
                session, tournament, current_user, number, fingerprint=form.fingerprint.data,
                writer=writer, today=tournament_today(tournament),
            )  # fmt: skip
        except RoundRefused as error:
            session.rollback()
            flash(refusal_text(error, entrant_labels(session, tournament)), "error")
            return redirect(here)
        session.commit()
        flash(_("Round %(number)s redrawn: %(cancelled)s game(s) cancelled, %(added)s paired "
                "instead, %(letters)s letter(s) queued.", number=number,
                cancelled=len(done.plan.cancelled), added=len(done.plan.added),
                letters=done.letters), "info")  # fmt: skip
        return redirect(url_for("tournaments.rounds", code=code) + f"#round-{number}")
    names = {p.start_number: p.player.name for p in tournament.participants}
    try:
        plan = plan_redraw(session, tournament, number)
    except RoundRefused as error:
        refusal = refusal_text(error, entrant_labels(session, tournament))
        page = render_template("tournaments/redraw.html", tournament=tournament, number=number,
                               plan=None, refusal=refusal, names=names, form=form)
        return page, 409
    form.fingerprint.data = plan.fingerprint
    page = render_template("tournaments/redraw.html", tournament=tournament, number=number,
                           plan=plan, refusal=None, names=names, form=form)
    return page, 200


@blueprint.post("/<code>/rounds/rules")
@login_required
def round_rules_update(code: str) -> Response:
    tournament = _directed_tournament(code)
    form = RoundRulesForm()
    if form.validate_on_submit():
        _direct(
            lambda session: set_round_rules(
                session, tournament, current_user,
                pair_before_finished=form.pair_before_finished.data,
                team_pairing=TeamPairing(form.team_pairing.data),
                team_pairing_system=form.team_pairing_system.data or None,
                team_schedule=TeamSchedule(form.team_schedule.data),
            ),
            lambda _rules: _("Saved."),
        )  # fmt: skip
    return redirect(url_for("tournaments.rounds", code=code))


@blueprint.route("/<code>/teams", methods=["GET", "POST"])
@login_required
def teams(code: str) -> tuple[str, int] | Response:
    """Teams in board order (entered by the organizer) and the team standings."""
    tournament = tournament_or_404(code)
    session = db_session()
    form = TeamsForm()
    problems: list[str] = []
    if form.is_submitted():
        if not current_user.has_role(Role.ORGANIZER):
            abort(403)
        if form.validate():
            entries, errors = parse_team_lines(form.teams.data or "")
            problems = [refusal_text(error) for error in errors]
            if not problems:
                try:
                    set_teams(session, tournament, entries, current_user)
                except TeamsRefused as error:
                    session.rollback()
                    problems = [refusal_text(problem) for problem in error.errors]
                except RoundRefused as error:
                    session.rollback()
                    problems = [refusal_text(error)]
                else:
                    session.commit()
                    flash(_("%(count)s teams saved.", count=len(entries)), "info")
                    return redirect(url_for("tournaments.teams", code=code))
    stored = list(
        session.scalars(
            select(Team).where(Team.tournament_id == tournament.id).order_by(Team.number)
        )
    )
    if not form.is_submitted():
        form.teams.data = "\n".join(
            f"{team.name}: {', '.join(str(b.participant.start_number) for b in team.boards)}"
            for team in stored
        )
    table, table_error = [], None
    if len(stored) >= 2:
        try:
            table = team_table(session, tournament)
        except ValueError as error:
            table_error = str(error)
    page = render_template(
        "tournaments/teams.html", tournament=tournament, teams=stored, form=form,
        problems=problems, table=table, table_error=table_error,
        tiebreaks={name: tiebreak_label(name, team=True)
                   for name in (table[0].tiebreaks if table else ())},
        may_direct=_may_direct(tournament), pair_form=PairTeamsForm(),
        by_rounds=is_paired_by_rounds(session, tournament),
    )  # fmt: skip
    return page, 422 if problems else 200


@blueprint.post("/<code>/teams/pair")
@login_required
def pair_teams_round_robin(code: str) -> Response:
    tournament = _directed_tournament(code)
    if PairTeamsForm().validate_on_submit():
        _direct(
            lambda session: pair_team_round_robin(session, tournament, current_user),
            lambda games: _("%(count)s games paired.", count=len(games)),
        )
    return redirect(url_for("tournaments.teams", code=code))
