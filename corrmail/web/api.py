"""JSON API under /api/v1, authenticated by bearer tokens (`corrmail.api_tokens`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, abort, g, jsonify, request
from sqlalchemy import select
from werkzeug.wrappers.response import Response

from corrmail.api_tokens import authenticate
from corrmail.ledger import to_move
from corrmail.models import Game, Participant, Tournament
from corrmail.web.database import db_session

P = ParamSpec("P")
R = TypeVar("R")

blueprint = Blueprint("api", __name__, url_prefix="/api/v1")


def token_required(view: Callable[P, R]) -> Callable[P, R]:
    @wraps(view)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        user = authenticate(db_session(), token.strip()) if scheme.lower() == "bearer" else None
        if user is None:
            abort(401)
        db_session().commit()  # keeps last_used_at
        g.api_user = user
        return view(*args, **kwargs)

    return guarded


@blueprint.errorhandler(401)
def unauthorized(error: Exception) -> tuple[Response, int, dict[str, str]]:
    return jsonify(error="a valid bearer token is required"), 401, {"WWW-Authenticate": "Bearer"}


@blueprint.errorhandler(404)
def not_found(error: Exception) -> tuple[Response, int]:
    return jsonify(error="not found"), 404


def _tournament_summary(tournament: Tournament) -> dict[str, Any]:
    return {
        "code": tournament.code,
        "title": tournament.title,
        "game_type": tournament.game_type.value,
        "system": tournament.system.value,
        "channel": tournament.channel.value,
        "status": tournament.status.value,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "time_control": {
            "days": tournament.time_control_days,
            "moves": tournament.time_control_moves,
        },
        "points": [
            str(tournament.points_win),
            str(tournament.points_draw),
            str(tournament.points_loss),
        ],
        "tiebreak_order": tournament.tiebreak_order,
        "time_zone": tournament.time_zone,
    }


def _participant(participant: Participant) -> dict[str, Any]:
    return {
        "start_number": participant.start_number,
        "name": participant.player.name,
        "club": participant.player.club,
        "rating": participant.rating,
        "withdrawn": participant.withdrawn,
    }


def _game(game: Game) -> dict[str, Any]:
    mover = to_move(game)
    return {
        "id": game.id,
        "round": game.round,
        "white": game.white.start_number,
        "black": game.black.start_number,
        "state": game.state.value,
        "result": game.result.value if game.result else None,
        "result_kind": game.result_kind.value if game.result_kind else None,
        "to_move": mover.start_number if mover is not None else None,
    }


@blueprint.get("/tournaments")
@token_required
def tournaments() -> Response:
    rows = db_session().scalars(select(Tournament).order_by(Tournament.start_date.desc()))
    return jsonify(tournaments=[_tournament_summary(row) for row in rows])


@blueprint.get("/tournaments/<code>")
@token_required
def tournament(code: str) -> Response:
    row = db_session().scalar(select(Tournament).where(Tournament.code == code))
    if row is None:
        abort(404)
    return jsonify(
        tournament=_tournament_summary(row),
        participants=[_participant(p) for p in row.participants],
        games=[_game(game) for game in row.games],
    )
