"""The game page (letters archive, corrections beside what they correct, moves) and letter entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.interfaces import ORMOption
from werkzeug.wrappers.response import Response

from corrmail.games import (
    ForwardingRefused,
    LedgerError,
    LetterErrorRefused,
    charge_letter_penalty,
    enter_letter_as_written,
    record_error_report,
    record_forwarding,
)
from corrmail.games.ledger import effective_letters
from corrmail.games.page import (
    board_at,
    breaks_in_force,
    chart_plot,
    game_pdn,
    inline_svg,
    move_rows,
    read_clock,
)
from corrmail.games.state import StoredGameState, letter_owed_by, stored_states
from corrmail.games.view import GameView, UnsupportedGameType
from corrmail.letters.recipients import plays_by_email
from corrmail.models import (
    Case,
    CaseType,
    Channel,
    Forwarding,
    Game,
    GameState,
    Letter,
    Participant,
    Role,
)
from corrmail.play.postcards import (
    Finding,
    PostcardCheck,
    PostcardEntry,
    PostcardRejected,
    PostcardStale,
    check_postcard,
    enter_postcard,
    moves_to_repeat,
    written_moves,
)
from corrmail.web.access import can_view_game, is_official_of, letters_kept_from
from corrmail.web.database import commit_or_refusal, db_session, letter_writer, tournament_today
from corrmail.web.downloads import attachment
from corrmail.web.letter_forms import (
    ErrorReportForm,
    ForwardingForm,
    LetterForm,
    PenaltyChargeForm,
)
from corrmail.web.play import play_panel
from corrmail.web.postal_forms import PostcardForm

blueprint = Blueprint("games", __name__, url_prefix="/games")


@blueprint.get("/<int:game_id>")
@login_required
def show(game_id: int) -> str:
    return _game_page(_viewable(game_id, options=_PAGE_LOADS))


def _game_page(game: Game, forwarding_form: ForwardingForm | None = None,
               refused: ForwardingRefused | None = None) -> str:
    """The game page; after a forwarding the core refused, with the form as it was sent."""
    letters = list(game.letters)
    corrected_by = {
        letter.corrects_letter_id: letter for letter in letters if letter.corrects_letter_id
    }
    moves = [letter for letter in effective_letters(letters) if letter.moves_text.strip()]
    on = tournament_today(game.tournament)
    view = GameView(game)
    # The header reads the game's stored state; only the time chart below replays the ledger.
    state = stored_states(db_session(), [game.id]).get(game.id)
    board: dict[str, object] = {}
    try:
        chart = view.chart()
        clock = read_clock(game, state, on)
        rows = move_rows(view)
        svg, shown = board_at(view, request.args.get("ply", type=int))
    except (UnsupportedGameType, ValueError) as error:
        board = {"problem": str(error)}
    else:
        board = {"clock": clock, "chart": chart, "rows": rows, "svg": Markup(inline_svg(svg)),
                 "shown": shown, "plies": len(view.plies), "plot": chart_plot(chart)}
    open_cases = db_session().scalars(
        select(Case).where(Case.game_id == game.id, Case.closed_at.is_(None)).order_by(Case.id)
    ).all()
    may_enter = is_official_of(current_user, game.tournament_id)
    owed_by = letter_owed_by(game, state)
    forward = _move_to_forward(view) if may_enter else None
    if forward is not None and _may_enter_postcards(game):
        forwarding_form = forwarding_form or _forwarding_form(forward)
    else:
        forwarding_form = None
    return render_template(
        "games/show.html",
        game=game,
        letters=letters,
        corrected_by=corrected_by,
        sequences={letter.id: letter.sequence for letter in letters},
        moves=moves,
        to_move=owed_by,
        may_enter=may_enter,
        forward=forward,
        forwarding_form=forwarding_form,
        refused=refused,
        receipt=_receipt_estimated(game, state, view),
        today=on,
        breaks=breaks_in_force(game, on),
        open_cases=open_cases,
        # A player of the game may claim his partner's overstep (002 §4.3.6): the page links
        # to the claim's preview, which shows the figures before anything is sent.
        # Only against a partner who owes the letter, or whose letter on the chart overstepped:
        # on his own move a player has no overstep of his partner's to claim.
        may_claim=game.state in (GameState.IN_PLAY, GameState.NOT_STARTED)
        and current_user.player_id is not None
        and current_user.player_id in (game.white.player_id, game.black.player_id)
        and _partner_claimable(game, owed_by, board.get("chart"))
        and not any(case.case_type is CaseType.OVERSTEP_CLAIM for case in open_cases),
        play=play_panel(game),
        kept=letters_kept_from(current_user, game),
        written={letter.id: written_moves(letter) for letter in letters},
        **board,
    )


def _partner_claimable(game: Game, owed_by: Participant | None, chart: object) -> bool:
    """Whether the viewing player's partner is one an overstep claim can be about (002 §4.3.6):
    he owes the next letter (his clock runs), or one of his letters on the chart overstepped."""
    partner_ids = {game.white.player_id, game.black.player_id} - {current_user.player_id}
    if owed_by is not None and owed_by.player_id in partner_ids:
        return True
    overstep = getattr(chart, "overstep", None)
    if overstep is None:
        return False
    offender = game.white if overstep.player.value == "white" else game.black
    return offender.player_id in partner_ids


@blueprint.get("/<int:game_id>/game.pdn")
@login_required
def pdn(game_id: int) -> Response:
    game = _viewable(game_id)
    try:
        text = game_pdn(GameView(game))
    except (UnsupportedGameType, ValueError) as error:
        abort(409, str(error))
    filename = f"{game.tournament.code}-{game.round}-{game.id}.pdn"
    return attachment(text, "application/x-pdn; charset=utf-8", filename)


@blueprint.route("/<int:game_id>/postcards/new", methods=["GET", "POST"])
@login_required
def add_postcard(game_id: int) -> str | Response:
    """A postcard as received, in two steps: Check shows what will be stored (the moves in full
    notation, the dates, think time, every finding, penalty and stop of play) and stores
    nothing; Enter stores exactly the checked card — the check's fingerprint must match the card
    and the ledger — with what follows, or refuses it whole, storing nothing."""
    session = db_session()
    game = _enterable(game_id)
    form = PostcardForm()
    form.offer(game, list(game.letters))
    check: PostcardCheck | None = None
    changed = ""
    status = 200
    if form.validate_on_submit():
        entry = form.entry()
        on = tournament_today(game.tournament)
        check = check_postcard(game, entry, today=on)
        storing = request.form.get("action") == "enter" and bool(form.fingerprint.data)
        if storing and check.accepted and check.stops_play and not form.confirm_stop.data:
            form.confirm_stop.errors = [_("Confirm the stop of play and the penalty days, or "
                                          "correct the card.")]
            storing = False
            status = 422
        if storing:
            try:
                check, letter = enter_postcard(session, game, entry, current_user, today=on,
                                               fingerprint=form.fingerprint.data,
                                               writer=letter_writer())
            except PostcardStale as stale:
                # Not the card that was checked: the fresh check is shown to be looked at again.
                session.rollback()
                check = check_postcard(game, entry, today=on)
                changed = stale.errors[0].problem
                status = 422
            except PostcardRejected as rejected:
                session.rollback()
                check = PostcardCheck(entry, errors=list(rejected.errors))
                status = 422
            except LedgerError as error:
                session.rollback()
                check = PostcardCheck(entry)
                check.errors.append(Finding("002 §4.1.13", str(error)))
                status = 409
            else:
                session.commit()
                flash(_entered_message(game, entry, letter), "info")
                return redirect(url_for("games.show", game_id=game.id))
        elif status == 200:
            status = 200 if check.accepted else 422
        form.fingerprint.data = check.fingerprint if check.accepted else ""
    elif request.method == "POST":
        status = 422
    page = render_template("games/postcard_form.html", game=game, form=form, check=check,
                           changed=changed, partner_move=_partner_move(game, form.sender.data),
                           relayed_to=_relayed_to(game, form.sender.data))
    return page, status  # type: ignore[return-value]


@dataclass(frozen=True)
class ToForward:
    """The move the steward forwards by post or telephone (002 §4.1.1), to whom, and his latest
    record of forwarding it (None: it waits for him, and the dashboard counts it)."""

    recipient: Participant
    letter: Letter
    forwarding: Forwarding | None


def _move_to_forward(view: GameView) -> ToForward | None:
    """The partner's last move letter the steward forwards, as the game core reads it
    (:meth:`GameView.move_to_forward`; the dashboard counts the same games)."""
    letter = view.move_to_forward()
    if letter is None or letter.sender_id is None:
        return None
    return ToForward(view.game.partner_of(letter.sender_id), letter,
                     view.forwardings.get(letter.id))


def _forwarding_form(forward: ToForward) -> ForwardingForm:
    """The form for the move waiting: a correction starts from the day on record."""
    form = ForwardingForm(formdata=None)
    form.letter.data = forward.letter.id
    if forward.forwarding is not None:
        form.channel.data = forward.forwarding.channel.value
        form.forwarded_on.data = forward.forwarding.forwarded_on
    return form


@dataclass(frozen=True)
class ReceiptNote:
    """How the clock of a player to move who plays by post or telephone counts his receipt,
    until his next letter gives it (002 §4.3.1): estimated from the partner's dispatch, or from
    the steward's posting, plus the average transit (002 §4.3.3); or the day of the steward's
    call (002 §4.1.2)."""

    forwarding: Forwarding | None

    @property
    def by_phone(self) -> bool:
        return self.forwarding is not None and self.forwarding.channel is Channel.PHONE


def _receipt_estimated(game: Game, state: StoredGameState | None,
                       view: GameView) -> ReceiptNote | None:
    """What the clock of the player to move counts from, when it is not a day on record: he
    plays by post or telephone, the server relayed him nothing, and only his next letter will
    give the day the partner's move reached him (002 §4.3.1, §4.3.3)."""
    owed = letter_owed_by(game, state)
    if owed is None or state is None or state.ply_count == 0 or plays_by_email(owed):
        return None
    if view.relayed_to_mover() is not None:
        return None
    forward = _move_to_forward(view)
    return ReceiptNote(forward.forwarding if forward is not None else None)


@blueprint.post("/<int:game_id>/forwardings")
@login_required
def add_forwarding(game_id: int) -> str | Response:
    """The day the steward posted (its postmark) or telephoned the move waiting for him to the
    partner who plays by post or telephone (002 §4.1.1); a second record corrects the first.
    The game core refuses a day the rules do not allow, and the page says why, storing
    nothing."""
    game = _enterable(game_id)
    form = ForwardingForm()
    refused: ForwardingRefused | None = None
    if form.validate_on_submit():
        assert form.forwarded_on.data is not None and form.letter.data is not None
        channel = Channel(form.channel.data)
        row = commit_or_refusal(lambda session: record_forwarding(
            session, game, letter_id=form.letter.data, on=form.forwarded_on.data, channel=channel,
            today=tournament_today(game.tournament), user=current_user), ForwardingRefused)
        if isinstance(row, ForwardingRefused):
            refused = row
        else:
            assert row.letter.sender_id is not None  # the core forwards a player's move only
            recipient = game.partner_of(row.letter.sender_id).player.name
            day = f"{row.forwarded_on:%d.%m.%Y}"
            if channel is Channel.PHONE:
                flash(_("Move of letter %(n)s telephoned to %(name)s on %(day)s: his time "
                        "counts from that day (002 §4.1.2, §4.3.1).", n=row.letter.sequence,
                        name=recipient, day=day), "info")
            else:
                flash(_("Move of letter %(n)s posted to %(name)s on %(day)s: his time counts from "
                        "that day plus the average transit, until his card gives the day it came "
                        "(002 §4.3.3).", n=row.letter.sequence, name=recipient, day=day), "info")
            return redirect(url_for("games.show", game_id=game.id))
    game = _viewable(game_id, options=_PAGE_LOADS)
    page = _game_page(game, form, refused)
    return page, 422  # type: ignore[return-value]


def _entered_message(game: Game, entry: PostcardEntry, letter: Letter) -> str:
    """What the steward is told once the card or the call is stored, worded for its channel (a
    call is no postcard, 002 §4.1.1 в) and naming the partner rather than «him»."""
    by_phone = entry.channel is Channel.PHONE
    if letter.relayed_on is None:
        message = (_("Move by telephone entered as letter %(n)s.", n=letter.sequence) if by_phone
                   else _("Postcard entered as letter %(n)s.", n=letter.sequence))
        return str(message)
    name = game.partner_of(entry.sender_id).player.name
    if by_phone:
        message = _("Move by telephone entered as letter %(n)s; it is e-mailed to %(name)s "
                    "today, and the time of %(name)s counts from today (002 §4.3.1).",
                    n=letter.sequence, name=name)
    else:
        message = _("Postcard entered as letter %(n)s; its move is e-mailed to %(name)s today, "
                    "and the time of %(name)s counts from today (002 §4.3.1).",
                    n=letter.sequence, name=name)
    return str(message)


def _relayed_to(game: Game, sender_id: int | None) -> str | None:
    """The partner's name when the server e-mails him the card's move (he plays by e-mail)."""
    if sender_id not in (game.white_id, game.black_id):
        return None
    assert sender_id is not None
    partner = game.partner_of(sender_id)
    return partner.player.name if plays_by_email(partner) else None


def _partner_move(game: Game, sender_id: int | None) -> dict[str, str] | None:
    """The partner's last letter with moves and what the card must repeat of it (002 §4.2.9)."""
    if sender_id not in (game.white_id, game.black_id):
        return None
    assert sender_id is not None
    partner = game.partner_of(sender_id)
    last = next((letter for letter in reversed(effective_letters(game.letters))
                 if letter.sender_id == partner.id and letter.moves_text.strip()), None)
    if last is None:
        return None
    view = GameView(game)
    # The card's first date is the postmark of the steward's letter when he forwarded the move.
    forwarding = view.forwardings.get(last.id)
    return {"name": partner.player.name, "moves": last.moves_text,
            "sent": last.sent.strftime("%d.%m.%Y") if last.sent else "",
            "forwarded": forwarding.forwarded_on.strftime("%d.%m.%Y") if forwarding else "",
            "repeat": moves_to_repeat(view, sender_id)}


def _may_enter_postcards(game: Game) -> bool:
    """Stewards and referees of the tournament, and organizers."""
    if not current_user.has_role(Role.ORGANIZER, Role.STEWARD, Role.REFEREE):
        return False
    return is_official_of(current_user, game.tournament_id)


def _enterable(game_id: int) -> Game:
    """The game whose postcards, error reports and charges the current user may enter."""
    game = db_session().get(Game, game_id)
    if game is None:
        abort(404)
    if not _may_enter_postcards(game):
        abort(403)
    return game


#: What the game page reads of a game, loaded with it: its tournament and both players (one
#: joined query), its letters and both players' breaks — where reading each on first use cost a
#: query apiece, a dozen a page.
_PAGE_LOADS = (
    joinedload(Game.tournament, innerjoin=True),
    joinedload(Game.white, innerjoin=True).options(
        joinedload(Participant.player, innerjoin=True), selectinload(Participant.breaks)),
    joinedload(Game.black, innerjoin=True).options(
        joinedload(Participant.player, innerjoin=True), selectinload(Participant.breaks)),
    selectinload(Game.letters),
)


def _viewable(game_id: int, *, options: Sequence[ORMOption] = ()) -> Game:
    game = db_session().get(Game, game_id, options=options)
    if game is None:
        abort(404)
    if not can_view_game(current_user, game):
        abort(403)
    return game





@blueprint.route("/<int:game_id>/letters/new", methods=["GET", "POST"])
@login_required
def add_letter(game_id: int) -> str | Response:
    """A letter as written, or a correction of one: a new ledger entry either way (002 §4.2.5).

    Its dates and text are kept as written (a postmark read anew, 002 §4.2.5); moves it carries
    must stand on the board (the game core refuses an illegal one). A card to be judged against
    002 §4.2–§4.4 is entered through the postcard form.
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
        letter = commit_or_refusal(lambda session: enter_letter_as_written(
            session, game, form.letter(), current_user), LedgerError)
        if isinstance(letter, LedgerError):
            problem = str(letter)
        else:
            flash(_("Letter %(n)s entered.", n=letter.sequence), "info")
            return redirect(url_for("games.show", game_id=game.id))
    status = 422 if problem else 200
    page = render_template("games/letter_form.html", game=game, form=form, problem=problem)
    return page, status  # type: ignore[return-value]


@blueprint.route("/<int:game_id>/error-reports/new", methods=["GET", "POST"])
@login_required
def add_error_report(game_id: int) -> str | Response:
    """A player's report of his partner's faulty letter (002 §4.2.9), entered by an official:
    a letter of the archive that moves nothing; days after the third are the reporter's."""
    game = _enterable(game_id)
    form = ErrorReportForm()
    form.offer(game, GameView(game).letters)
    refused: LetterErrorRefused | None = None
    if form.validate_on_submit():
        assert form.received.data is not None and form.reported.data is not None
        letter = commit_or_refusal(lambda session: record_error_report(
            session, game, reporter_id=form.reporter.data, letter_id=form.letter.data,
            received=form.received.data, reported=form.reported.data,
            channel=Channel(form.channel.data), on=tournament_today(game.tournament),
            user=current_user), LetterErrorRefused)
        if isinstance(letter, LetterErrorRefused):
            refused = letter
        else:
            flash(_("Error report entered as letter %(n)s.", n=letter.sequence), "info")
            return redirect(url_for("games.show", game_id=game.id))
    status = 422 if refused is not None or (request.method == "POST" and form.errors) else 200
    page = render_template("games/error_report_form.html", game=game, form=form, refused=refused)
    return page, status  # type: ignore[return-value]


@blueprint.route("/<int:game_id>/penalties/new", methods=["GET", "POST"])
@login_required
def add_partner_penalty(game_id: int) -> str | Response:
    """The 6 days a partner charged in his reply, with their reason (002 §4.2.11, §4.3.3),
    entered by an official; the game core refuses a charge the rules do not allow."""
    game = _enterable(game_id)
    form = PenaltyChargeForm()
    form.offer(GameView(game).letters)
    refused: LetterErrorRefused | None = None
    if form.validate_on_submit():
        charged = commit_or_refusal(lambda session: charge_letter_penalty(
            session, game, letter_id=form.letter.data, charged_in_id=form.charged_in.data,
            rule=form.rule.data or "", reason=form.reason.data or "",
            on=tournament_today(game.tournament), user=current_user), LetterErrorRefused)
        if isinstance(charged, LetterErrorRefused):
            refused = charged
        else:
            flash(_("Penalty days entered."), "info")
            return redirect(url_for("games.show", game_id=game.id))
    status = 422 if refused is not None or (request.method == "POST" and form.errors) else 200
    page = render_template("games/penalty_form.html", game=game, form=form, refused=refused)
    return page, status  # type: ignore[return-value]
