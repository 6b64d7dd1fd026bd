"""The organizer's page for importing finished games from a PDN archive (corrmail.games.pdn_import)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers.response import Response
from wtforms import BooleanField

from corrmail.games.pdn_import import (
    ArchiveCheck,
    ArchiveError,
    check_archive,
    decode_archive,
    import_archive,
)
from corrmail.models import Role
from corrmail.web.access import tournament_or_404
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session

blueprint = Blueprint("game_import", __name__, url_prefix="/tournaments")


class PdnImportForm(FlaskForm):
    file = FileField(_l("PDN file (UTF-8 or Windows-1251)"), validators=[FileRequired()])
    write = BooleanField(_l("Import the games that can be imported (without this, only check)"))


@blueprint.route("/<code>/games/import", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def import_games(code: str) -> tuple[str, int] | Response:
    tournament = tournament_or_404(code)
    form = PdnImportForm()
    check: ArchiveCheck | None = None
    problems: list[str] = []
    if form.validate_on_submit():
        session = db_session()
        upload = form.file.data
        try:
            text = decode_archive(upload.read())
        except ArchiveError as error:
            problems = [str(error)]
        else:
            source = upload.filename or "archive.pdn"
            if form.write.data:
                check = import_archive(session, tournament, text, source, current_user)
                session.commit()
                flash(_("%(count)s games imported.", count=len(check.importable)), "info")
                if len(check.importable) == len(check.games):
                    return redirect(url_for("tournaments.show", code=tournament.code))
            else:
                check = check_archive(session, tournament, text, source)
                session.rollback()
    page = render_template("tournaments/import_games.html", form=form, tournament=tournament,
                           check=check, problems=problems)
    return page, 422 if problems else 200
