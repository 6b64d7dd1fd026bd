"""The players' part of the API: their games, the legal moves, and a move sent as a letter.

Bearer tokens as the rest of ``/api/v1`` (:mod:`corrmail.web.api`). A move goes through
:func:`corrmail.play.web_moves.submit_web_letter`, the same intake as a move made on the board or
written in an e-mail; what the server refuses is answered with the rule and nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, jsonify, request
from werkzeug.wrappers.response import Response

from corrmail.games.ledger import LedgerConflict, LedgerError
from corrmail.people.player_home import MyGame, player_home
from corrmail.play.web_moves import WebLetter, WebLetterRefused, submit_web_letter
from corrmail.web.api import _user, _visible_game, blueprint, token_required
from corrmail.web.database import db_session, letter_writer, tournament_today
from corrmail.web.play import legal_moves_of, own_participant


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _my_game(row: MyGame) -> dict[str, Any]:
    clock = row.clock
    return {
        "id": row.game.id,
        "tournament": row.game.tournament.code,
        "round": row.game.round,
        "colour": row.side.value,
        "partner": row.partner.player.name,
        "state": row.game.state.value,
        "result": row.game.result.value if row.game.result else None,
        "your_move": row.my_move,
        "to_move": clock.to_move.value if clock and clock.to_move else None,
        "days_used": row.days_used,
        "days_used_in_period": clock.days_used_in_period if row.my_move and clock else None,
        "days_left": clock.days_left if row.my_move and clock else None,
        "reply_by": _iso(row.reply_by),
        # The partner who owes the letter, past his limit (002 §4.3.5): the figure /me shows.
        "partner_days_over": row.partner_days_over,
        "repeat_due": _iso(clock.repeat_due) if row.partners_move and clock else None,
        "pending_variants": list(row.pending_variants),
    }


@blueprint.get("/me/games")
@token_required
def my_games() -> Response:
    user = _user()
    if user.player_id is None:
        return jsonify(games=[])
    home = player_home(db_session(), user.player_id, tournament_today)
    return jsonify(games=[_my_game(row) for row in home.games])


@blueprint.get("/games/<int:game_id>/legal-moves")
@token_required
def legal_moves(game_id: int) -> Response:
    game = _visible_game(game_id)
    data = legal_moves_of(game)
    return jsonify(moves=data["moves"], routes=data["routes"], to_move=data["to_move"])


def _refused(refused: WebLetterRefused) -> tuple[Response, int]:
    return jsonify(error=refused.code, rule=refused.rule, detail=refused.text,
                   **({"values": refused.values} if refused.values else {})), refused.status


@blueprint.post("/games/<int:game_id>/moves")
@token_required
def send_move(game_id: int) -> Any:
    """``{"move": "c3-d4", "variants": "если …, то …", "draw_offer": false}`` → 201; with
    ``"received": "YYYY-MM-DD"`` when the partner's move came by post (002 §4.3.1)."""
    session = db_session()
    game = _visible_game(game_id)
    participant = own_participant(_user(), game)
    if participant is None:
        abort(403)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("move", ""), str) \
            or not isinstance(body.get("variants", ""), str):
        return jsonify(error="body must be a JSON object with a string 'move'",
                       rule="002 §4.2.3"), 400
    try:
        received = _date_or_none(body.get("received"))
    except ValueError:
        return jsonify(error="'received' must be a date written YYYY-MM-DD",
                       rule="002 §4.3.1"), 400
    letter = WebLetter(move=body.get("move", "").strip()[:100],
                       variants=body.get("variants", "").strip()[:2000],
                       draw_offer=bool(body.get("draw_offer")),
                       draw_accept=bool(body.get("draw_accept")),
                       resign=bool(body.get("resign")), received=received)
    try:
        outcome = submit_web_letter(session, game, participant, letter,
                                    today=tournament_today(game.tournament),
                                    writer=letter_writer())
    except WebLetterRefused as refused:
        session.rollback()
        return _refused(refused)
    except LedgerConflict as error:
        session.rollback()
        return jsonify(error="conflict", rule="002 §4.1.13", detail=str(error)), 409
    except LedgerError as error:
        session.rollback()
        return jsonify(error="ledger", rule="002 §4.1.13", detail=str(error)), 422
    session.commit()
    session.expire(game, ["letters"])
    own = [row for row in game.letters if row.sender_id == participant.id]
    last = own[-1] if own else None
    return jsonify(outcome=outcome.code, detail=outcome.detail,
                   letter={"sequence": last.sequence, "moves": last.moves_text,
                           "channel": last.channel.value, "sent": _iso(last.sent)}
                   if last else None), 201


def _date_or_none(value: object) -> dt.date | None:
    """A JSON date (``YYYY-MM-DD``) or nothing; anything else raises :class:`ValueError`."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(value)
    return dt.date.fromisoformat(value)
