"""The game page (letters archive, corrections beside what they correct, moves) and letter entry."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers.response import Response

from corrmail.audit import record
from corrmail.ledger import LedgerError, append_letter, effective_letters, to_move
from corrmail.models import Game
from corrmail.web.access import can_view_game, is_official_of
from corrmail.web.database import db_session
from corrmail.web.letter_forms import LetterForm

blueprint = Blueprint("games", __name__, url_prefix="/games")


@blueprint.get("/<int:game_id>")
@login_required
def show(game_id: int) -> str:
    game = db_session().get(Game, game_id)
    if game is None:
        abort(404)
    if not can_view_game(current_user, game):
        abort(403)
    letters = list(game.letters)
    corrected_by = {
        letter.corrects_letter_id: letter for letter in letters if letter.corrects_letter_id
    }
    moves = [letter for letter in effective_letters(letters) if letter.moves_text.strip()]
    return render_template(
        "games/show.html",
        game=game,
        letters=letters,
        corrected_by=corrected_by,
        moves=moves,
        to_move=to_move(game),
        may_enter=is_official_of(current_user, game.tournament_id),
    )


@blueprint.route("/<int:game_id>/letters/new", methods=["GET", "POST"])
@login_required
def add_letter(game_id: int) -> str | Response:
    """A letter as written, or a correction of one: a new ledger entry either way (002 §4.2.5).

    Judging the letter against the rules (notation, time) is the postal-entry step's job; this
    keeps what arrived, who entered it and when.
    """
    session = db_session()
    game = session.get(Game, game_id)
    if game is None:
        abort(404)
    if not is_official_of(current_user, game.tournament_id):
        abort(403)
    form = LetterForm()
    form.offer(game, list(game.letters))
    problem = None
    if form.validate_on_submit():
        try:
            letter = append_letter(session, game, form.letter(), current_user)
        except LedgerError as error:
            session.rollback()
            problem = str(error)
        else:
            correction = letter.corrects_letter_id is not None
            record(
                session, user=current_user, action="letter.correct" if correction else "letter.add",
                entity="letter", entity_id=letter.id, tournament_id=game.tournament_id,
                rule="002 §4.2.5" if correction else "002 §4.1.13",
                summary=f"game {game.id}, letter {letter.sequence}",
            )  # fmt: skip
            session.commit()
            flash(_("Letter %(n)s entered.", n=letter.sequence), "info")
            return redirect(url_for("games.show", game_id=game.id))
    status = 422 if problem else 200
    page = render_template("games/letter_form.html", game=game, form=form, problem=problem)
    return page, status  # type: ignore[return-value]
