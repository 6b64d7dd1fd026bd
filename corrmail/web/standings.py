"""Standings and crosstable pages, and the tournament's exports (CSV, JSON, PDN, print).

Everyone logged in may read them: a table is what the bulletins publish anyway (002 §4.1.9).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, render_template
from flask_babel import gettext as _
from flask_login import current_user, login_required

from corrmail.models import Role
from corrmail.standings.exports import (
    file_stem,
    games_pdn,
    standings_csv,
    standings_json,
    standings_trf,
)
from corrmail.standings.marks import mark_titles
from corrmail.standings.playoff import format_playoff, playoff_problems
from corrmail.standings.results import (
    TournamentNotFound,
    TournamentTable,
    load_tournament,
    tournament_table,
)
from corrmail.standings.tiebreak_labels import TiebreakLabel, tiebreak_label
from corrmail.web.access import can_view_game, is_official_of
from corrmail.web.database import db_session
from corrmail.web.downloads import attachment
from corrmail.web.refusals import refusal_text

blueprint = Blueprint("standings", __name__, url_prefix="/tournaments")


def _table(code: str, *, with_letters: bool = False) -> TournamentTable:
    try:
        # Only the PDN reads the games themselves; the tables read them as plain rows.
        tournament = load_tournament(db_session(), code, with_letters=with_letters,
                                     with_games=with_letters)
    except TournamentNotFound:
        abort(404)
    try:
        return tournament_table(tournament)
    except ValueError as error:  # players without start numbers, a tiebreak that does not apply
        abort(409, description=str(error))


def _marks() -> dict[str, str]:
    return mark_titles(_)


def _labels(table: TournamentTable) -> dict[str, TiebreakLabel]:
    """The tiebreaks' column labels and titles; the templates translate them."""
    return {name: tiebreak_label(name) for name in table.tiebreaks}


def _download(body: bytes | str, mimetype: str, name: str) -> Response:
    return attachment(body, mimetype, name)


@blueprint.get("/<code>/standings")
@login_required
def show(code: str) -> str:
    table = _table(code)
    may_record_playoff = (current_user.has_role(Role.ORGANIZER) or current_user.has_role(Role.REFEREE)) \
        and is_official_of(current_user, table.tournament.id)
    return render_template("standings/show.html", table=table, tiebreaks=_labels(table),
                           marks=_marks(),
                           playoff=format_playoff(table.tournament.playoff),
                           playoff_problem=_playoff_problem(table),
                           may_record_playoff=may_record_playoff)


def _playoff_problem(table: TournamentTable) -> str:
    """Why the recorded play-off no longer fits, in the reader's language (the engine's own
    text where the service has no words for it)."""
    if not table.playoff_problem:
        return ""
    worded = [refusal_text(p) for p in playoff_problems(db_session(), table.tournament)]
    return "; ".join(worded) or table.playoff_problem


@blueprint.get("/<code>/crosstable/print")
@login_required
def printable(code: str) -> str:
    table = _table(code)
    return render_template("standings/print.html", table=table, tiebreaks=_labels(table),
                           marks=_marks())


def _standings_file(code: str, write: Callable[[TournamentTable], bytes | str],
                    mimetype: str, suffix: str) -> Response:
    """The standings of ``code`` written by ``write``, as ``<code>-standings.<suffix>``."""
    return _download(write(_table(code)), mimetype, f"{file_stem(code)}-standings.{suffix}")


@blueprint.get("/<code>/standings.csv")
@login_required
def csv(code: str) -> Response:
    return _standings_file(code, standings_csv, "text/csv; charset=utf-8", "csv")


@blueprint.get("/<code>/standings.json")
@login_required
def json(code: str) -> Response:
    return _standings_file(code, standings_json, "application/json", "json")


@blueprint.get("/<code>/standings.trf")
@login_required
def trf(code: str) -> Response:
    """FIDE's TRF-16 report file of the table, for a rating office or a pairing program."""
    return _download(standings_trf(_table(code)), "text/plain; charset=utf-8",
                     f"{file_stem(code)}.trf")


@blueprint.get("/<code>/games.pdn")
@login_required
def pdn(code: str) -> Response:
    table = _table(code, with_letters=True)
    # The rule of a single game's PDN: its officials and its two players only, so a game in
    # progress is never disclosed to anyone else (its moves are the players' own business).
    text = games_pdn(table.tournament, include=lambda game: can_view_game(current_user, game))
    return _download(text, "application/x-draughts-pdn; charset=utf-8",
                     f"{file_stem(code)}.pdn")
