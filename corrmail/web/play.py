"""Players on the web: their home page (``/me``) and moves made on the game's board.

A move is previewed as the letter that will go (002 §4.2.3) and stored only when the player
confirms exactly that letter; it enters the ledger through :mod:`corrmail.play.web_moves`, the same
intake as e-mail letters. The board's legal moves come from :mod:`notation` through the server
(``legal-moves.json``); the browser decides nothing about legality.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers.response import Response
from wtforms import BooleanField, DateField, HiddenField, StringField, TextAreaField
from wtforms.validators import Length, Optional

from corrmail.games.chart_notes import violation_message
from corrmail.games.ledger import LedgerError
from corrmail.games.page import board_at, inline_svg
from corrmail.games.view import GameView, UnsupportedGameType, side_of
from corrmail.letters.recipients import plays_by_email
from corrmail.mail.content import read_letter
from corrmail.models import Game, GameState, Letter, Participant, Role, User
from corrmail.people.accounts import set_letter_language
from corrmail.people.player_home import player_home
from corrmail.play.web_moves import (
    LetterPreview,
    WebLetter,
    WebLetterRefused,
    confirm_web_letter,
    legal_choices,
    preview_web_letter,
    receipt_to_state,
    square_centres,
)
from corrmail.web.access import can_view_game
from corrmail.web.database import (
    db_session,
    letter_writer,
    tournament_today,
)
from corrmail.web.registration_forms import LetterLanguageField
from notation.full import format_full
from notation.letters import LegalMove, read_move
from notation.svg import board_svg
from timekeeping import RuleViolation

blueprint = Blueprint("play", __name__)

_OPEN = (GameState.NOT_STARTED, GameState.IN_PLAY)




def own_participant(user: User, game: Game) -> Participant | None:
    """The user's entry in ``game``, if he plays in it."""
    if user.player_id is None:
        return None
    for participant in (game.white, game.black):
        if participant.player_id == user.player_id:
            return participant
    return None


def refusal_message(refused: WebLetterRefused) -> str:
    """The refusal in the reader's language, with its rule."""
    messages = {
        "empty": _("The letter says nothing: make a move, or choose an offer or a notice."),
        "game_closed": _("The game is over; no letter can be added to it."),
        "game_suspended": _("Play waits for the referee's decision on the overstep claim."),
        "not_to_move": _("It is your partner's move; wait for his letter."),
        "one_move": _("Write one move in full notation, its two squares joined by «-» for a "
                      "move or «:» for a capture: c3-d4, c3:e5."),
        "short_notation": _("Moves are written in full notation in letters (c3-d4, c3:e5), "
                            "not in short notation."),
        "illegal": _("This move contradicts the rules of the game."),
        "capture_omitted": _("A capture is compulsory in this position."),
        "ambiguous": _("This notation fits several legal moves: write the whole route."),
        "not_a_playing_square": _("The move names a square that is not a playing square."),
        "illegible": _("The move cannot be read."),
        "variant_unreadable": _("The variant cannot be read: write «если …, то …», «на … "
                                "предлагаю …» or «предлагаю вариант …»."),
        "variant_cut": _("A move of the variant is impossible."),
        "with_move": _("A draw offer and variants travel with your move."),
        "draw_not_offered": _("Your partner has not offered a draw."),
        "break_dates": _("A break is announced with its first and last day, in that order."),
        "break_refused": _("No break is granted, and nothing is recorded:"),
        "unsupported_game_type": _("Moves of this game type cannot be checked by the server."),
        "preview_stale": _("The game changed after the preview; look at the letter again."),
        "receipt_missing": _("Your partner's move came by post: write the day you received it "
                             "(the postmark of its arrival, else the day it reached you)."),
        "receipt_missing_by_phone": _("Your partner's move was given by telephone: write the day "
                                      "you heard it (a call has no postmark)."),
    }
    text = messages.get(refused.code, refused.code)
    if refused.code == "receipt_before_dispatch":
        text = _("You cannot have received the move on %(received)s: your partner sent it on "
                 "%(sent)s.", **refused.values)
    if refused.code == "receipt_in_future":
        text = _("The day of receipt %(received)s is after today, %(today)s.", **refused.values)
    if refused.code == "break_announced":
        text = _("Your break from %(first)s to %(last)s is already announced: it holds in all "
                 "your games, and every partner was told.", **refused.values)
    if refused.violations:
        text = f"{text} " + "; ".join(break_refusal(violation) for violation in refused.violations)
    detail = f" ({refused.text})" if refused.text else ""
    return f"{text}{detail} · {refused.rule}"


#: Why a break the player announces is refused (002 §4.4.1–§4.4.2), said to him.
BREAK_REFUSALS = {
    "second_break_in_year": _l("you have already taken your break of %(year)s: one break per "
                               "calendar year"),
    "break_joins_another": _l("it overlaps your break from %(other_first)s to %(other_last)s or "
                              "continues it without a day of play between: one break lasts at "
                              "most %(most)s days"),
    "break_announced_after_end": _l("it ended on %(last)s, before it is announced today, "
                                    "%(announced)s: a break is announced before it begins, and one "
                                    "announced after its end counts in no game"),
    # A break over 30 days stands for its first 30 (002 §4.4.1): those may be over by today
    # although the day written as its last is not.
    "break_cut_announced_after_end": _l(
        "it lasts more than %(most)s days, so it stands for its first %(most)s, which ended on "
        "%(last)s (002 §4.4.1), before it is announced today, %(announced)s: a break is announced "
        "before it begins, and one announced after its end counts in no game"),
}


def break_refusal(violation: RuleViolation) -> str:
    """One reason a break is refused, in the reader's language; a reason without its own words
    is the time chart's."""
    code = violation.code
    if code == "break_announced_after_end" \
            and violation.values.get("written_last", violation.values.get("last")) \
            != violation.values.get("last"):
        code = "break_cut_announced_after_end"
    msgid = BREAK_REFUSALS.get(code)
    if msgid is None:
        return violation_message(violation)
    return str(msgid) % {key: f"{value:%d.%m.%Y}" if isinstance(value, dt.date) else value
                         for key, value in violation.values.items()}


class PlayForm(FlaskForm):
    move = StringField(_l("Your move, in full notation"), validators=[Length(max=100)])
    variants = TextAreaField(_l("Conditional variants (002 §4.2.7)"),
                             validators=[Length(max=2000)])
    draw_offer = BooleanField(_l("I offer a draw"))
    draw_accept = BooleanField(_l("I accept the draw"))
    resign = BooleanField(_l("I resign"))
    break_first = DateField(_l("Break from"), validators=[Optional()])
    break_last = DateField(_l("Break until"), validators=[Optional()])
    received = DateField(_l("Day you received your partner's move"), validators=[Optional()])
    fingerprint = HiddenField()

    def letter(self) -> WebLetter:
        return WebLetter(
            move=(self.move.data or "").strip(), variants=(self.variants.data or "").strip(),
            draw_offer=bool(self.draw_offer.data), draw_accept=bool(self.draw_accept.data),
            resign=bool(self.resign.data), break_first=self.break_first.data,
            break_last=self.break_last.data, received=self.received.data)


@dataclass(frozen=True)
class PlayPanel:
    """What the game page offers the player of the game."""

    participant: Participant
    my_move: bool
    draw_offered: bool
    form: PlayForm
    #: The partner's card whose receipt day the player writes (002 §4.3.1), if any.
    receipt_of: Letter | None = None


def play_panel(game: Game) -> PlayPanel | None:
    """The panel for the logged-in player of ``game`` while it is open; None for others."""
    participant = own_participant(current_user, game)
    if participant is None or game.state not in _OPEN:
        return None
    view = GameView(game)
    try:
        my_move = view.side_to_move is side_of(game, participant.id)
    except (UnsupportedGameType, ValueError):
        my_move = False
    offered = any(read_letter(letter.raw_text).draw_offer
                  for letter in view.letters_since_own(participant.id))
    return PlayPanel(participant, my_move, offered, PlayForm(),
                     receipt_to_state(view, participant.id) if my_move else None)


def _board_of(game: Game) -> Markup | None:
    """The game's board as it stands, shown again beside a refused letter so the player corrects
    his move on it; None when the game cannot be drawn (its error is the refusal's)."""
    try:
        svg, _shown = board_at(GameView(game), None)
    except (UnsupportedGameType, ValueError):
        return None
    return Markup(inline_svg(svg))


def _game_or_404(game_id: int) -> Game:
    game = db_session().get(Game, game_id)
    if game is None:
        abort(404)
    return game


# -- the player's home ---------------------------------------------------------------------------


@blueprint.get("/me")
@login_required
def home() -> Any:
    """The player's games; an official without a player's entry keeps his dashboard."""
    if current_user.player_id is None:
        if current_user.has_role(Role.ORGANIZER, Role.REFEREE, Role.STEWARD):
            return redirect(url_for("dashboard.index"))
        return redirect(url_for("tournaments.index"))
    return _home_page(LanguageForm(formdata=None, language=current_user.player.language))


class LanguageForm(FlaskForm):
    language = LetterLanguageField(_l("Language of my letters"))


def _home_page(language_form: LanguageForm, status: int = 200) -> Any:
    page = player_home(db_session(), current_user.player_id, tournament_today)
    return render_template("play/home.html", home=page, language_form=language_form), status


@blueprint.post("/me/language")
@login_required
def choose_language() -> Any:
    """The player's own choice of the language his letters are written in."""
    if current_user.player_id is None:
        abort(404)
    form = LanguageForm()
    if not form.validate_on_submit():
        return _home_page(form, 422)
    session = db_session()
    set_letter_language(session, current_user.player, form.language.data, by=current_user)
    session.commit()
    flash(_("Your letters will be written in Russian.") if form.language.data == "ru"
          else _("Your letters will be written in English."), "info")
    return redirect(url_for("play.home"))


# -- the board -----------------------------------------------------------------------------------


def legal_moves_of(game: Game, after: str = "") -> dict[str, Any]:
    """The legal moves of the game's position — or of the position after the plies ``after``
    (a variant being built, 002 §4.2.7) — with the squares' centres and the diagram."""
    try:
        view = GameView(game)
        position = view.position
    except (UnsupportedGameType, ValueError) as error:
        abort(409, description=str(error))
    line: list[str] = []
    last = None
    for text in after.split():
        reading = read_move(position, text)
        if not isinstance(reading, LegalMove):
            abort(422, description=f"{text}: not a legal move here (002 §4.2.10)")
        line.append(format_full(position, reading.move))
        position = position.play(reading.move)
        last = reading.move
    closed = game.state not in _OPEN
    choices = [] if closed else legal_choices(position)
    svg = board_svg(position, last_move=last)
    return {
        "to_move": position.turn.value,
        "after": line,
        "moves": [choice.text for choice in choices],
        "routes": [choice.as_json() for choice in choices],
        "squares": {name: list(centre) for name, centre in square_centres(position).items()},
        "svg": svg[svg.index("<svg"):],
    }


@blueprint.get("/games/<int:game_id>/legal-moves.json")
@login_required
def legal_moves(game_id: int) -> Response:
    game = _game_or_404(game_id)
    if not can_view_game(current_user, game):
        abort(403)
    return jsonify(legal_moves_of(game, request.args.get("after", "")[:400]))


@blueprint.post("/games/<int:game_id>/play")
@login_required
def play(game_id: int) -> Any:
    """Preview the letter (``action=preview``) or store exactly the previewed one
    (``action=confirm`` with its fingerprint)."""
    session = db_session()
    game = _game_or_404(game_id)
    participant = own_participant(current_user, game)
    if participant is None:
        abort(403)
    form = PlayForm()
    receipt_of = receipt_to_state(GameView(game), participant.id)

    def page(preview: LetterPreview | None, problem: str | None) -> str:
        shown = _game_or_404(game_id)
        return render_template("play/preview.html", game=shown, form=form,
                               preview=preview, problem=problem, receipt_of=receipt_of,
                               board=None if preview is not None else _board_of(shown))

    if not form.validate_on_submit():
        return page(None, _("The form is incomplete; look at it again.")), 422
    letter = form.letter()
    on = tournament_today(game.tournament)
    try:
        if request.form.get("action") == "confirm":
            outcome = confirm_web_letter(session, game, participant, letter,
                                         form.fingerprint.data or "", today=on,
                                         writer=letter_writer())
            session.commit()
            if "break_recorded" in outcome.code.split(",") and letter.break_first is not None:
                recorded = next(item for item in participant.breaks
                                if item.start_date == letter.break_first and item.announced_on == on)
                flash(_("Your break from %(first)s to %(last)s is recorded in all your games; "
                        "every partner and the steward are told (002 §4.4.2).",
                        first=f"{recorded.start_date:%d.%m.%Y}",
                        last=f"{recorded.end_date:%d.%m.%Y}"), "info")
                if not letter.move:
                    return redirect(url_for("games.show", game_id=game.id))
            if outcome.refused:
                flash(_("The letter is recorded; the server has written to you what it found "
                        "(%(rule)s).", rule=outcome.detail or outcome.code), "error")
            elif plays_by_email(game.partner_of(participant.id)):
                flash(_("Your letter is in the game's ledger; your partner gets it at once."),
                      "info")
            else:
                flash(_("Your letter is in the game's ledger; your partner plays by post: the "
                        "steward forwards it to him, and his card will give the day he received "
                        "it (002 §4.3.1)."), "info")
            return redirect(url_for("games.show", game_id=game.id))
        preview = preview_web_letter(session, game, participant, letter, today=on,
                                     writer=letter_writer())
    except WebLetterRefused as refused:
        session.rollback()
        return page(None, refusal_message(refused)), refused.status
    except LedgerError as error:
        session.rollback()
        return page(None, f"{error} · 002 §4.1.13"), 409
    form.fingerprint.data = preview.fingerprint
    return page(preview, None)
