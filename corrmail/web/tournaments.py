"""Tournament list and tournament page: players, and games with who is to move."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import login_required
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from corrmail.ledger import to_move
from corrmail.models import Game, Participant, Tournament
from corrmail.web.database import db_session

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
    return render_template("tournaments/show.html", tournament=tournament, rows=rows)
