"""JSON API under /api/v1, authenticated by bearer tokens (`corrmail.people.api_tokens`).

Read-only, for a federation website's live tables and the officials' own tools (docs/api.md,
docs/openapi.yaml). A token acts as its user, with the user's roles and tournaments:

* an organizer sees every tournament;
* a referee or steward sees the tournaments he serves (`TournamentOfficial`);
* a player sees the tournaments he plays in; in them, the pairings, results and standings
  (what the bulletins publish, 002 §4.1.9), but the moves and letters of his own games only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, abort, g, jsonify, request
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers.response import Response

from corrmail.games.ledger import effective_letters, to_move
from corrmail.games.state import StoredGameState, letter_owed_by, stored_states
from corrmail.models import Game, Letter, Participant, Role, Tournament, TournamentOfficial, User
from corrmail.people.api_tokens import authenticate
from corrmail.standings.results import TournamentNotFound, load_tournament, tournament_table
from corrmail.web.access import can_view_game, is_official_of, letters_kept_from
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
        if db_session().dirty:
            db_session().commit()  # keeps last_used_at (written once a minute)
        g.api_user = user
        return view(*args, **kwargs)

    return guarded


@blueprint.errorhandler(401)
def unauthorized(error: Exception) -> tuple[Response, int, dict[str, str]]:
    return jsonify(error="a valid bearer token is required"), 401, {"WWW-Authenticate": "Bearer"}


@blueprint.errorhandler(403)
@blueprint.errorhandler(404)
@blueprint.errorhandler(409)
def refused(error: HTTPException) -> tuple[Response, int]:
    messages = {403: "this token's user may not see it", 404: "not found"}
    code = error.code or 500
    return jsonify(error=messages.get(code, error.description)), code


def _user() -> User:
    user: User = g.api_user
    return user


def _plays_in(user: User, tournament_id: int) -> bool:
    if user.player_id is None:
        return False
    return db_session().scalar(
        select(Participant.id).where(
            Participant.tournament_id == tournament_id, Participant.player_id == user.player_id
        )
    ) is not None


def _visible_tournament(code: str, *, with_letters: bool = False,
                        with_games: bool = True) -> Tournament:
    """``with_letters`` loads every game's letters at once (who is to move reads them);
    ``with_games=False`` loads no game (the standings read them as plain rows)."""
    try:
        tournament = load_tournament(db_session(), code, with_letters=with_letters,
                                     with_games=with_games)
    except TournamentNotFound:
        abort(404)
    user = _user()
    if not (is_official_of(user, tournament.id) or _plays_in(user, tournament.id)):
        abort(403)
    return tournament


def _visible_game(game_id: int) -> Game:
    game = db_session().get(Game, game_id, options=[selectinload(Game.letters)])
    if game is None:
        abort(404)
    if not can_view_game(_user(), game):
        abort(403)
    return game


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


def _game(game: Game, state: StoredGameState | None = None) -> dict[str, Any]:
    mover = letter_owed_by(game, state) if state is not None else to_move(game)
    return {
        "id": game.id,
        "tournament": game.tournament.code,
        "round": game.round,
        "white": game.white.start_number,
        "black": game.black.start_number,
        "state": game.state.value,
        "result": game.result.value if game.result else None,
        "result_kind": game.result_kind.value if game.result_kind else None,
        "result_rule": game.result_rule,
        "result_on": game.result_on.isoformat() if game.result_on else None,
        "to_move": mover.start_number if mover is not None else None,
    }


def _date(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _letter(letter: Letter, kept: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """``kept``: letters whose text the reader may not see (002 §4.3.6, a held reply)."""
    return {
        "id": letter.id,
        "sequence": letter.sequence,
        "sender": letter.sender.start_number if letter.sender is not None else None,
        "channel": letter.channel.value,
        "raw_text": None if letter.id in kept else letter.raw_text,
        "partner_sent": _date(letter.partner_sent),
        "received": _date(letter.received),
        "sent": _date(letter.sent),
        "postmark_date": _date(letter.postmark_date),
        "registered": letter.registered,
        "declared_days": {"white": letter.declared_white_days, "black": letter.declared_black_days},
        "moves": letter.moves_text.split(),
        "variants": letter.variants_text,
        "penalty_days": letter.penalty_days,
        "corrects": letter.corrects_letter_id,
        "entered_by": letter.entered_by.login if letter.entered_by is not None else None,
        "entered_at": letter.entered_at.isoformat(),
    }


@blueprint.get("/tournaments")
@token_required
def tournaments() -> Response:
    user = _user()
    query = select(Tournament).order_by(Tournament.start_date.desc(), Tournament.code)
    if not user.has_role(Role.ORGANIZER):
        served = select(TournamentOfficial.tournament_id).where(TournamentOfficial.user_id == user.id)
        played = select(Participant.tournament_id).where(Participant.player_id == user.player_id)
        query = query.where(Tournament.id.in_(served) | Tournament.id.in_(played))
    rows = db_session().scalars(query)
    return jsonify(tournaments=[_tournament_summary(row) for row in rows])


@blueprint.get("/tournaments/<code>")
@token_required
def tournament(code: str) -> Response:
    row = _visible_tournament(code)
    states = stored_states(db_session(), tournament_id=row.id)
    return jsonify(
        tournament=_tournament_summary(row),
        participants=[_participant(p) for p in row.participants],
        games=[_game(game, states.get(game.id)) for game in row.games],
    )


@blueprint.get("/tournaments/<code>/games")
@token_required
def tournament_games(code: str) -> Response:
    row = _visible_tournament(code)
    states = stored_states(db_session(), tournament_id=row.id)
    return jsonify(games=[_game(game, states.get(game.id)) for game in row.games])


@blueprint.get("/tournaments/<code>/standings")
@token_required
def standings(code: str) -> Response:
    row = _visible_tournament(code, with_games=False)
    try:
        table = tournament_table(row)
    except ValueError as error:  # players without start numbers, a tiebreak that does not apply
        abort(409, description=str(error))
    return jsonify(table.as_dict())


@blueprint.get("/games/<int:game_id>")
@token_required
def game(game_id: int) -> Response:
    row = _visible_game(game_id)
    letters = effective_letters(row.letters)
    return jsonify(
        game=_game(row),
        white=_participant(row.white),
        black=_participant(row.black),
        moves=[ply for letter in letters for ply in letter.moves_text.split()],
    )


@blueprint.get("/games/<int:game_id>/letters")
@token_required
def game_letters(game_id: int) -> Response:
    """Every letter as received, corrections included (002 §4.1.13, §4.2.5)."""
    row = _visible_game(game_id)
    kept = letters_kept_from(_user(), row)
    return jsonify(letters=[_letter(letter, kept) for letter in row.letters])
