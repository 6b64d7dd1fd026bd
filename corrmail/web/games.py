"""The game page: the letters archive, corrections beside what they correct, and the moves."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import current_user, login_required

from corrmail.ledger import effective_letters, to_move
from corrmail.models import Game
from corrmail.web.access import can_view_game
from corrmail.web.database import db_session

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
    )
