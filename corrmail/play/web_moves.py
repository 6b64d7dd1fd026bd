"""Moves made on the web: a letter of the game's ledger like a postcard or an e-mail.

The server is the players' post office (002 §4.1.1). A player who moves on the board writes,
through the server, the letter 002 §4.2.3 describes — the repetition of the partner's new moves,
his own move, his variants (§4.2.7), a draw offer, acceptance, resignation or a break notice
(§4.4.3) — and that letter goes through the very intake e-mail letters go through
(:meth:`corrmail.mail.correspondence.Correspondence.handle`), with the server's dates and the
channel ``web``: same checks, same penalties, same relay letter to a partner who plays by
e-mail, same notices. :func:`submit_web_letter` is the one place a web or API move enters.

Before that, :func:`check_web_letter` refuses, with the rule, what the board can tell at once —
a move that is not his to make (002 §4.2.8), a move in short notation (§4.2.2), an illegal or
impossible move (§4.2.10), a variant that cannot be read (§4.2.7, §4.2.12) — so nothing is stored
for it. Everything about legality is :mod:`notation`'s; the browser only shows it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field

from sqlalchemy import update
from sqlalchemy.orm import Session

from corrmail.games.changes import BreakVerdict, judge_break
from corrmail.games.view import GameView, UnsupportedGameType, side_of
from corrmail.letters.write import LetterWriter
from corrmail.mail.content import read_letter
from corrmail.mail.correspondence import Correspondence, Outcome, numbered
from corrmail.mail.inbound import InboundMessage
from corrmail.models import Channel, Game, GameResult, GameState, Letter, Participant
from notation.full import format_full
from notation.game_position import GamePosition
from notation.letters import IllegibleMove, ImpossibleMove, LegalMove, read_move
from notation.variants import parse_variants
from timekeeping import Overstep, RuleViolation, Side, compute_chart

__all__ = [
    "LegalChoice",
    "LetterPreview",
    "WebLetter",
    "WebLetterRefused",
    "check_web_letter",
    "confirm_web_letter",
    "fingerprint",
    "judged_break",
    "legal_choices",
    "preview_web_letter",
    "receipt_to_state",
    "square_centres",
    "submit_web_letter",
    "web_letter_text",
]

#: The size of one square of :func:`notation.svg.board_svg`'s diagram, in its user units.
SQUARE_SIZE = 40


@dataclass(frozen=True)
class LegalChoice:
    """One legal move of the position: its full notation (002 §4.2.2), the squares of its route
    and the squares it captures, by name."""

    text: str
    route: tuple[str, ...]
    captures: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"text": self.text, "from": self.route[0], "to": self.route[-1],
                "route": list(self.route), "captures": list(self.captures)}


def legal_choices(position: GamePosition) -> list[LegalChoice]:
    """Every legal move of ``position`` as full notation writes it; two routes that write the
    same are one choice (they are one move, 002 §4.2.2)."""
    geometry = position.geometry
    choices: dict[str, LegalChoice] = {}
    for move in position.legal_routes():
        text = format_full(position, move)
        if text not in choices:
            choices[text] = LegalChoice(
                text, tuple(geometry.name(square) for square in move.route),
                tuple(geometry.name(square) for square in move.capture_order))
    return list(choices.values())


def square_centres(position: GamePosition) -> dict[str, tuple[float, float]]:
    """Where each playing square's centre lies in :func:`notation.svg.board_svg`'s diagram
    (drawn from White's side with a margin of half a square), for the board's clicks."""
    geometry = position.geometry
    margin = SQUARE_SIZE // 2
    size = geometry.size
    return {
        geometry.name(square): (
            margin + geometry.column(square) * SQUARE_SIZE + SQUARE_SIZE / 2,
            margin + (size - 1 - geometry.row(square)) * SQUARE_SIZE + SQUARE_SIZE / 2,
        )
        for square in geometry.squares
    }


#: A move number written before the move: «3.», «3...», «3…», «3)», with or without a space.
_MOVE_NUMBER = re.compile(r"^\d{1,3}\s*(?:\.{1,3}|…|\))\s*")


@dataclass(frozen=True)
class WebLetter:
    """What a player sends from the game page or the API."""

    move: str = ""
    variants: str = ""
    draw_offer: bool = False
    draw_accept: bool = False
    resign: bool = False
    break_first: dt.date | None = None
    break_last: dt.date | None = None
    #: The day the player received the partner's move, written by him when the server did not
    #: relay it (:func:`receipt_to_state`; 002 §4.3.1, second date).
    received: dt.date | None = None

    @property
    def written_move(self) -> str:
        """The move as typed, without a move number in front («3. b2-c3», «3... f6-e5»,
        «3…», «3)»): players write the number as on a card; the board knows it (002 §4.2.14
        has a wrong number pointed out, never a move refused for it)."""
        return _MOVE_NUMBER.sub("", self.move.strip(), count=1)

    @property
    def is_empty(self) -> bool:
        return not (self.move.strip() or self.variants.strip() or self.draw_offer
                    or self.draw_accept or self.resign or self.break_first or self.break_last)


@dataclass
class WebLetterRefused(Exception):
    """Refused before anything is stored; ``status`` is the HTTP answer (409: not now,
    422: not so), ``code`` names the problem for the reader's language, ``rule`` cites it."""

    status: int
    code: str
    rule: str
    text: str = ""
    values: dict[str, str] = field(default_factory=dict)
    #: A refused break's verdicts (002 §4.4), worded for the reader by the page.
    violations: tuple[RuleViolation, ...] = ()

    def __str__(self) -> str:
        return f"{self.rule}: {self.code}" + (f" ({self.text})" if self.text else "")


def _partner_offered_draw(view: GameView, participant_id: int) -> bool:
    return any(read_letter(letter.raw_text).draw_offer
               for letter in view.letters_since_own(participant_id))


def receipt_to_state(view: GameView, participant_id: int) -> Letter | None:
    """The partner's move letter whose receipt the player writes himself: it came by post or
    telephone and the server did not relay it to him, so only he knows the day it reached him
    (002 §4.3.1, second date: the postmark, else the actual day); None when the server knows."""
    moved = [letter for letter in view.letters_since_own(participant_id)
             if letter.moves_text.strip()]
    if not moved or moved[-1].relayed_on is not None:
        return None
    return moved[-1] if moved[-1].channel in (Channel.POST, Channel.PHONE) else None


def _check_stated_receipt(view: GameView, participant: Participant, letter: WebLetter,
                          today: dt.date) -> None:
    """A move answering a card the server did not relay states its receipt, on a day between
    the card's dispatch and today (002 §4.3.1)."""
    answered = receipt_to_state(view, participant.id)
    if answered is None:
        return
    if letter.received is None:
        # A telephoned move has no postmark: its receipt is the day it was heard (002 §4.3.1).
        raise WebLetterRefused(422, "receipt_missing_by_phone" if answered.channel is Channel.PHONE
                               else "receipt_missing", "002 §4.3.1")
    if answered.sent is not None and letter.received < answered.sent:
        raise WebLetterRefused(422, "receipt_before_dispatch", "002 §4.3.1", values={
            "received": f"{letter.received:%d.%m.%Y}", "sent": f"{answered.sent:%d.%m.%Y}"})
    if letter.received > today:
        raise WebLetterRefused(422, "receipt_in_future", "002 §4.3.1", values={
            "received": f"{letter.received:%d.%m.%Y}", "today": f"{today:%d.%m.%Y}"})


def judged_break(participant: Participant, letter: WebLetter,
                 today: dt.date) -> BreakVerdict | None:
    """The letter's break notice judged as every channel's is (:func:`corrmail.games.
    judge_break`, announced today); a break the core would refuse is refused here, before
    anything is written, with its rules and values for the reader's language."""
    if letter.break_first is None and letter.break_last is None:
        return None
    if letter.break_first is None or letter.break_last is None \
            or letter.break_last < letter.break_first:
        raise WebLetterRefused(422, "break_dates", "002 §4.4.3")
    verdict = judge_break(participant, letter.break_first, letter.break_last, announced_on=today)
    if verdict.refused:
        already = next((v for v in verdict.violations if v.code == "break_already_announced"),
                       None)
        if already is not None:
            # The break of 002 §4.4.1 is the player's in all his games at once: announced once,
            # every partner was told (002 §4.4.2). Announcing it again is no second break.
            raise WebLetterRefused(409, "break_announced", already.rule, values={
                "first": f"{letter.break_first:%d.%m.%Y}", "last": f"{letter.break_last:%d.%m.%Y}"})
        rules = " · ".join(sorted({violation.rule for violation in verdict.violations}))
        raise WebLetterRefused(422, "break_refused", rules, violations=verdict.violations)
    return verdict


def check_web_letter(game: Game, participant: Participant, letter: WebLetter,
                     today: dt.date) -> GameView:
    """Refuse with the rule what the server can tell before the letter is written."""
    if letter.is_empty:
        raise WebLetterRefused(422, "empty", "002 §4.2.3")
    if game.state in (GameState.FINISHED, GameState.ADJUDICATION):
        raise WebLetterRefused(409, "game_closed", "002 §4.5", values={"state": str(game.state)})
    if game.state is GameState.SUSPENDED:
        raise WebLetterRefused(409, "game_suspended", "002 §4.3.6")
    view = GameView(game)
    side = side_of(game, participant.id)
    judged_break(participant, letter, today)
    if letter.draw_accept and not _partner_offered_draw(view, participant.id):
        raise WebLetterRefused(422, "draw_not_offered", "002 §4.2.3")
    if letter.resign or letter.draw_accept:
        return view
    move = letter.written_move
    if (letter.draw_offer or letter.variants.strip()) and not move:
        raise WebLetterRefused(422, "with_move", "002 §4.2.3")
    if not move:
        return view
    try:
        position = view.position
    except UnsupportedGameType as error:
        raise WebLetterRefused(422, "unsupported_game_type", "002 §4.1.4", str(error)) from None
    if view.side_to_move is not side:
        raise WebLetterRefused(409, "not_to_move", "002 §4.2.8")
    if len(move.split()) != 1:
        raise WebLetterRefused(422, "one_move", "002 §4.2.3", move)
    reading = read_move(position, move)
    if isinstance(reading, ImpossibleMove):
        raise WebLetterRefused(422, reading.cause.name.lower(), reading.rule, move)
    if isinstance(reading, IllegibleMove):
        raise WebLetterRefused(422, "illegible", reading.rule, move, {"reason": reading.reason})
    _check_stated_receipt(view, participant, letter, today)
    variants = letter.variants.strip()
    if variants:
        offer = parse_variants(position.play(reading.move), variants)
        if offer.errors:
            raise WebLetterRefused(422, "variant_unreadable", "002 §4.2.7", offer.errors[0].text)
        if not offer.variants:
            raise WebLetterRefused(422, "variant_unreadable", "002 §4.2.7", variants)
        for variant in offer.variants:
            if variant.cut is not None:
                raise WebLetterRefused(422, "variant_cut", "002 §4.2.12", variant.cut.text)
    return view


def web_letter_text(view: GameView, participant: Participant, letter: WebLetter) -> str:
    """The letter as 002 §4.2.3 has it written: the tournament, the repetition of the
    partner's new moves (§4.2.9), the move, the variants (§4.2.7), the offers and notices, the
    signature. The dates and times are the server's and stand in the ledger beside it."""
    game = view.game
    lines = [f"Турнир {game.tournament.code}."]
    move = letter.written_move
    if move:
        expected = view.partner_new_plies(participant.id)
        position = view.position_before(len(expected))
        plies = []
        for text in [*expected, move]:
            reading = read_move(position, text)
            assert isinstance(reading, LegalMove)  # the ledger's and the checked move
            plies.append((position, reading.move))
            position = position.play(reading.move)
        lines.append(numbered(plies, len(view.plies) - len(expected)))
        if receipt_to_state(view, participant.id) is not None and letter.received is not None:
            lines.append(f"Ход партнёра получен {letter.received:%d.%m.%Y}.")
    lines.extend(line.strip() for line in letter.variants.strip().splitlines() if line.strip())
    if letter.draw_offer:
        lines.append("Предлагаю ничью.")
    if letter.draw_accept:
        lines.append("Принимаю ничью.")
    if letter.resign:
        lines.append("Сдаюсь.")
    if letter.break_first is not None and letter.break_last is not None:
        lines.append(f"Беру перерыв с {letter.break_first:%d.%m.%Y} по {letter.break_last:%d.%m.%Y}.")
    lines.append(participant.player.name)
    return "\n".join(lines)


def _message(participant: Participant, text: str) -> InboundMessage:
    """The web letter in the shape the e-mail intake reads (no Message-ID: nothing to reply to)."""
    return InboundMessage(
        sha256=hashlib.sha256(text.encode()).hexdigest(), message_id=None,
        from_address=(participant.player.email or "").lower(), from_name=participant.player.name,
        recipients=(), subject="", date=None, references=(), text=text, automation=None)


def _begin_write(session: Session, game: Game) -> None:
    """Open the write transaction on the game's row before the intake writes (as the e-mail
    inbox's claim does): PostgreSQL's row lock, SQLite's write lock. On SQLite this also keeps
    the ledger's savepoint inside the transaction — a savepoint opened first would commit on its
    release, and a preview (or a refusal after it) must be able to roll everything back."""
    session.execute(update(Game).where(Game.id == game.id).values(version=Game.version)
                    .execution_options(synchronize_session=False))


def submit_web_letter(session: Session, game: Game, participant: Participant, letter: WebLetter,
                      *, today: dt.date, writer: LetterWriter) -> Outcome:
    """Check the web letter, write it and hand it to the game's intake, in the caller's
    transaction; raises :class:`WebLetterRefused` with nothing stored."""
    view = check_web_letter(game, participant, letter, today)
    text = web_letter_text(view, participant, letter)
    _begin_write(session, game)
    return Correspondence(writer).handle(session, game=game, participant=participant,
                                        message=_message(participant, text), arrival=today,
                                        channel=Channel.WEB, stated_receipt=letter.received)


@dataclass(frozen=True)
class LetterPreview:
    """The letter that will go, as the intake would store it (002 §4.2.3): its text, the move
    in full notation, the three dates, both players' totals; ``fingerprint`` ties the
    confirmation to exactly this letter."""

    text: str
    moves: str
    variants: str
    partner_sent: dt.date | None
    received: dt.date | None
    sent: dt.date | None
    white_total: int
    black_total: int
    mine_total: int
    outcome: str
    fingerprint: str
    #: The variants as the rulebook words them (002 §4.2.7): «если 3. …, то 3... …».
    variants_worded: tuple[str, ...] = ()
    #: The sender's overstep this letter would make (002 §4.3.5), to warn him before he sends
    #: it; ``None`` when it makes none (or one stands already from an earlier letter).
    overstep: Overstep | None = None
    #: The letter's break notice as it will stand (002 §4.4): cut to 30 days, or counted from
    #: today when it began already, to warn him before he sends it.
    break_verdict: BreakVerdict | None = None
    #: The result the letter ends the game with (a resignation, an accepted draw, a move that
    #: wins), so the preview says the game ends rather than goes on; ``None``: play goes on.
    ends_with: GameResult | None = None


def worded_variants(position: GamePosition, text: str, first_ply_index: int) -> tuple[str, ...]:
    """Each variant offered for ``position`` (the partner to move) in the rulebook's words,
    «если 3. c3-d4, то 3... f6-g5 4. …» (002 §4.2.7), with full notation and move numbers."""
    worded = []
    for variant in parse_variants(position, text).variants:
        plies = []
        current = position
        for move in variant.plies:
            plies.append((current, move))
            current = current.play(move)
        if not plies:
            continue
        condition = numbered(plies[:1], first_ply_index)
        answer = numbered(plies[1:], first_ply_index + 1) if len(plies) > 1 else ""
        label = f"{variant.label}: " if variant.label else ""
        worded.append(f"{label}если {condition}, то {answer}" if answer else f"{label}{condition}")
    return tuple(worded)


def fingerprint(game: Game, text: str, today: dt.date) -> str:
    """Changes when the letter, the day or the game's ledger does."""
    digest = hashlib.sha256()
    for part in (str(game.id), str(len(game.letters)), str(game.version), text,
                 today.isoformat()):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


def preview_web_letter(session: Session, game: Game, participant: Participant,
                       letter: WebLetter, *, today: dt.date, writer: LetterWriter) -> LetterPreview:
    """The letter the intake would store, found by running it and rolling the session back:
    the preview is the intake's own result, never a second computation of it."""
    view = check_web_letter(game, participant, letter, today)
    verdict = judged_break(participant, letter, today)
    text = web_letter_text(view, participant, letter)
    stamp = fingerprint(game, text, today)
    side = side_of(game, participant.id)
    stood = compute_chart(view.ledger()).overstep
    try:
        before = {row.id for row in game.letters}
        _begin_write(session, game)
        outcome = Correspondence(writer).handle(
            session, game=game, participant=participant, message=_message(participant, text),
            arrival=today, channel=Channel.WEB, stated_receipt=letter.received)
        session.flush()
        session.expire(game, ["letters"])
        written: list[Letter] = [row for row in game.letters
                                 if row.id not in before and row.sender_id == participant.id]
        stored = written[0] if written else None
        after = GameView(game)
        chart = compute_chart(after.ledger())
        totals = chart.totals
        overstep = chart.overstep if chart.overstep and chart.overstep.player is side else None
        if overstep is not None and overstep == stood:
            overstep = None  # not this letter's: it stood before and is shown on the game page
        worded: tuple[str, ...] = ()
        index = len(view.plies) + len((stored.moves_text if stored else "").split())
        if stored is not None and stored.variants_text and index < len(after.positions):
            worded = worded_variants(after.positions[index], stored.variants_text, index)
        preview = LetterPreview(
            text=text,
            moves=stored.moves_text if stored else "",
            variants=stored.variants_text if stored else "",
            partner_sent=stored.partner_sent if stored else None,
            received=stored.received if stored else None,
            sent=stored.sent if stored else today,
            white_total=totals.white, black_total=totals.black,
            mine_total=totals.white if side is Side.WHITE else totals.black,
            outcome=outcome.code, fingerprint=stamp, variants_worded=worded,
            overstep=overstep, break_verdict=verdict,
            ends_with=game.result if game.state is GameState.FINISHED else None)
    finally:
        session.rollback()
    return preview


def confirm_web_letter(session: Session, game: Game, participant: Participant, letter: WebLetter,
                       stamp: str, *, today: dt.date, writer: LetterWriter) -> Outcome:
    """Store the letter previewed under ``stamp``; a letter that is no longer the same (the
    partner's letter came in, the day changed) is refused and must be looked at again."""
    view = check_web_letter(game, participant, letter, today)
    if fingerprint(game, web_letter_text(view, participant, letter), today) != stamp:
        raise WebLetterRefused(409, "preview_stale", "002 §4.2.8")
    return submit_web_letter(session, game, participant, letter, today=today, writer=writer)
