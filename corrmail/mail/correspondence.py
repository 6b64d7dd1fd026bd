"""An authenticated player's letter applied to the game, and the letters it causes.

The server stands where the partner stood in postal play: it checks the letter as 002 §4.2
requires the recipient to, records it in the game's ledger with the server's own dates (the
arrival day in the tournament's time zone is both the postmark and the receipt date), and writes
the letters that follow — all in the caller's transaction:

* a valid move is relayed to the partner at once in the form 002 §4.2.3 prescribes, with the
  board diagram; when it matches the partner's conditional variant, the partner's prepared
  reply is applied automatically (002 §4.2.13) and both players are told;
* a missing or wrong repetition (002 §4.2.9) or an impossible own move the sender must replace
  (002 §4.2.10) stops the game: the sender gets a notice naming the rule and what to do, and
  6 penalty days (002 §4.2.11, once per letter); a move whose piece has a single legal move is
  substituted and played (002 §4.2.10), without penalty;
* errors in a proposed variant cut the variant before the faulty move, without penalty
  (002 §4.2.12); wrong move numbers are pointed out and do not stop play (002 §4.2.14);
* draw offers travel with the move letter; an acceptance of a standing offer, or a resignation,
  ends the game and both players get the end-of-play notice;
* «беру перерыв с … по …» records the break and tells every partner with an unfinished game and
  the steward (002 §4.4.2, §4.4.3);
* an overstep claim opens the referee's case through the referee's desk, exactly as a claim made
  on the web: same case, same effects (the game suspended), same case letters, same audit entry
  (002 §4.3.6); the claimant is told his reply is held; a protest is kept for the referee to file
  (002 §4.1.12, §4.3.8, §4.5.6).

What a letter does to the game — its check (002 §4.2), the rows it writes, a result, a penalty, a
break — is the game core's (:mod:`corrmail.games`), shared with postal entry and the web; this
module reads the e-mail and writes the letters that follow.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import IllegalTransition, OverstepClaim
from adjudication import Side as CaseSide
from corrmail import audit, games
from corrmail.games import LetterInput, MoveCheck
from corrmail.games.move_walk import RuleNotice
from corrmail.games.view import GameView, HeldMoveRefused, UnsupportedGameType, side_of
from corrmail.letters.recipients import game_letter_addressees, plays_by_email
from corrmail.letters.write import DEFAULT_LANGUAGE, LetterWriter
from corrmail.mail.calendar import CalendarDate, calendar_attachment
from corrmail.mail.compose import Attachment
from corrmail.mail.content import LetterContent, ProposedVariant, read_letter
from corrmail.mail.inbound import InboundMessage
from corrmail.models import (
    Case,
    Channel,
    Game,
    GameResult,
    GameState,
    Letter,
    Participant,
    ResultKind,
    Role,
    TournamentOfficial,
    User,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import ActionRefused, Actor, Desk, NotEntitled
from corrmail.referee.store import load_case
from notation.full import format_full
from notation.game_position import GamePosition
from notation.geometry import BOARD_8X8, Geometry
from notation.letter_form import LetterElement, LetterIncomplete, check_elements, elements_in_text
from notation.letters import LegalMove, read_move
from notation.move import Move
from notation.svg import board_svg
from notation.written import normalise
from timekeeping import (
    MAX_BREAK_DAYS,
    PENALTY_DAYS,
    BreakAnnouncementError,
    Ledger,
    NotToMoveError,
    RuleViolation,
    TimekeepingError,
    last_safe_reply_date,
    parse_break_announcement,
)

__all__ = ["Outcome", "Correspondence", "RuleNotice", "break_reason", "numbered"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the letter did; ``code`` is stored with the inbound message."""

    code: str
    detail: str = ""
    refused: bool = False
    letters: tuple[int, ...] = ()


def numbered(plies: Sequence[tuple[GamePosition, Move]], first_ply_index: int) -> str:
    """Plies written with move numbers: ``8. c3-d4 b6-a5 9. a3-b4`` or ``8... b6-a5``."""
    words: list[str] = []
    for offset, (position, move) in enumerate(plies):
        index = first_ply_index + offset
        text = format_full(position, move)
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}. {text}")
        elif offset == 0:
            words.append(f"{index // 2 + 1}... {text}")
        else:
            words.append(text)
    return " ".join(words)


def break_reason(violation: RuleViolation) -> dict[str, Any]:
    """A refused break's reason for its letter: the rule, the code the template words in the
    reader's language, and the dates it names (the break it joins, the day it was announced;
    for a break over 30 days, the last of the 30 that were all it could stand for)."""
    wanted = ("other_first", "other_last", "announced", "year")
    reason = {"rule": violation.rule, "code": violation.code,
              **{key: value for key, value in violation.values.items() if key in wanted}}
    values = violation.values
    if values.get("written_last", values.get("last")) != values.get("last"):
        reason["cut_to"] = values["last"]
    return reason


def letter_board(game: Game) -> Geometry:
    """The board whose square names the game's letters use (``32-28`` on 10×10, ``9-13`` in
    Lasca, ``c3-d4`` on 8×8). A game type without an engine, or a bad rule option, falls back
    to 8×8: :meth:`_Context.handle_moves` refuses such a game with the reason."""
    try:
        return GameView(game).start.geometry
    except (UnsupportedGameType, ValueError):
        return BOARD_8X8


class Correspondence:
    """Applies players' letters; one instance per process (it holds no per-letter state)."""

    def __init__(self, writer: LetterWriter) -> None:
        self.writer = writer

    # -- entry point ---------------------------------------------------------------------------

    def handle(
        self,
        session: Session,
        *,
        game: Game,
        participant: Participant,
        message: InboundMessage,
        arrival: dt.date,
        inbound_id: int | None = None,
        channel: Channel = Channel.EMAIL,
        stated_receipt: dt.date | None = None,
    ) -> Outcome:
        """``stated_receipt``: the day the sender writes he received the partner's move, for a
        move the server did not relay to him (:func:`corrmail.play.web_moves.receipt_to_state`)."""
        content = read_letter(message.text, letter_board(game))
        context = _Context(self, session, game, participant, message, arrival, inbound_id, content)
        context.channel = channel
        context.stated_receipt = stated_receipt
        return context.run()

    def relay_entered(self, session: Session, game: Game, letter: Letter,
                      check: MoveCheck | None, *, on: dt.date) -> tuple[int, ...]:
        """A letter an official entered (a postcard, a call, 002 §4.1.1) to a partner who plays
        by e-mail, as the server relays an e-mail letter: the same letter with the diagram and
        the reply deadline counted from ``on``, the day he receives it (002 §4.3.1, second
        date); and the end of play to both, when the letter ended the game. The sender plays
        by post or telephone: the steward answers him. Returns the outbox ids written."""
        sender = game.white if letter.sender_id == game.white_id else game.black
        message = InboundMessage(
            sha256="", message_id=None, from_address=(sender.player.email or "").lower(),
            from_name=sender.player.name, recipients=(), subject="", date=None, references=(),
            text=letter.raw_text, automation=None)
        variants = tuple(ProposedVariant(moves=(), source=line.strip())
                         for line in letter.variants_text.splitlines() if line.strip())
        context = _Context(self, session, game, sender, message, on, None,
                           LetterContent(variants=variants))
        context.channel = letter.channel
        context.entered_by_official = True
        if not plays_by_email(context.partner):
            return ()
        if check is not None and check.own:
            context.relay_moves(letter, check, tell_sender=False)
        if game.state is GameState.FINISHED:
            # The card's own moves ended it on the board; a card without them resigned, or
            # accepted the partner's draw offer.
            if check is not None and check.own:
                ending = "board"
            else:
                ending = "draw_agreed" if game.result is GameResult.DRAW else "resigned"
            context.announce_result(ending)
        return tuple(context.posted)


    def announce_entered_break(self, session: Session, participant: Participant,
                               verdict: games.BreakVerdict, *, on: dt.date,
                               entered_by: User | None) -> tuple[int, ...]:
        """A break an official entered from its registered notice (002 §4.4.2), told as an
        e-mail announcement is: to the partners who play by e-mail or on the web and to the
        other stewards. The announcer plays by post: the steward who entered it answers him.
        Returns the outbox ids written."""
        game = session.scalars(
            select(Game).where((Game.white_id == participant.id) | (Game.black_id == participant.id))
            .order_by(Game.round, Game.id).limit(1)
        ).first()
        if game is None:
            return ()
        message = InboundMessage(
            sha256="", message_id=None, from_address=(participant.player.email or "").lower(),
            from_name=participant.player.name, recipients=(), subject="", date=None,
            references=(), text="", automation=None)
        context = _Context(self, session, game, participant, message, on, None, LetterContent())
        context.channel = Channel.POST
        context.announce_break(verdict, tell_announcer=False, entered_by=entered_by)
        return tuple(context.posted)


class _Context:
    """Everything about one letter being handled."""

    def __init__(
        self,
        service: Correspondence,
        session: Session,
        game: Game,
        participant: Participant,
        message: InboundMessage,
        arrival: dt.date,
        inbound_id: int | None,
        content: LetterContent,
    ) -> None:
        self.writer = service.writer
        self.session = session
        self.game = game
        self.me = participant
        self.side = side_of(game, participant.id)
        self.partner = game.partner_of(participant.id)
        self.message = message
        self.today = arrival
        self.inbound_id = inbound_id
        self.content = content
        self.tournament = game.tournament
        self.posted: list[int] = []
        #: How the letter travelled (e-mail, or a move made on the web: 002 §4.1.1).
        self.channel = Channel.EMAIL
        #: The receipt day the sender wrote, for a move the server did not relay (002 §4.3.1).
        self.stated_receipt: dt.date | None = None
        #: The letter is a card or a call an official entered (:meth:`Correspondence.relay_entered`).
        self.entered_by_official = False

    # -- helpers ---------------------------------------------------------------------------------

    def language(self, participant: Participant) -> str:
        """The player's own letter language, whoever's action (the partner's letter, a
        steward's entry, an official's page) made the letter."""
        return participant.player.language or DEFAULT_LANGUAGE

    def base_context(self, to: Participant) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "game": self.game,
            "recipient": to.player,
            "white": self.game.white.player,
            "black": self.game.black.player,
            "sender": self.me.player,
        }

    def post_to_player(
        self, to: Participant, template: str, kind: str, attachments: Sequence[Attachment] = (),
        **context: Any,
    ) -> None:
        if not to.player.email:
            return  # a postal player: the steward forwards the game's letters by post
        row = self.writer.post(
            self.session,
            kind=kind,
            to=to.player.email,
            template=template,
            language=self.language(to),
            context={**self.base_context(to), **context},
            reply_for=(self.game.id, to.id),
            in_reply_to=self.message.message_id if to.id == self.me.id else None,
            attachments=attachments,
            tournament_id=self.tournament.id,
            game_id=self.game.id,
        )
        self.posted.append(row.id)

    def post_to_officials(self, role: Role, template: str, kind: str,
                          reply_to: str | None = None, skip: User | None = None,
                          **context: Any) -> None:
        officials = self.session.scalars(
            select(User)
            .join(TournamentOfficial, TournamentOfficial.user_id == User.id)
            .where(TournamentOfficial.tournament_id == self.tournament.id,
                   TournamentOfficial.role == role)
        ).all()
        for user in officials:
            if skip is None or user.id != skip.id:
                self.post_to_official(user, template, kind, reply_to, **context)

    def post_to_official(self, user: User, template: str, kind: str,
                         reply_to: str | None = None, **context: Any) -> None:
        if not user.email:
            return  # an official without an address reads it on his dashboard
        row = self.writer.post(
            self.session,
            kind=kind,
            to=user.email,
            template=template,
            language=user.locale or "ru",
            context={**self.base_context(self.me), "official": user, **context},
            reply_to=reply_to,
            tournament_id=self.tournament.id,
            game_id=self.game.id,
        )
        self.posted.append(row.id)

    def letter_input(self, sender: Participant | None = None, raw: str | None = None, *,
                     relayed: bool = False) -> LetterInput:
        """The letter with the server's dates: the arrival day is its dispatch and postmark;
        ``relayed``: the server relays it to the partner by e-mail today."""
        sender = sender or self.me
        view = GameView(self.game)
        answered = [
            letter for letter in view.letters_since_own(sender.id) if letter.sent is not None
        ]
        partner_sent = answered[-1].sent if answered else None
        return LetterInput(
            sender_id=sender.id,
            channel=self.channel,
            raw_text=self.message.text if raw is None else raw,
            partner_sent=partner_sent,
            # The second date is the day the partner's move reached this player (002 §4.3.1):
            # the day the server relayed it — the day it arrived, when it came by e-mail or on
            # the web, but the day the steward entered it, when it came by post or telephone;
            # for a move it did not relay, the day the player wrote. A letter stored without a
            # relay day was one the server relayed the day it arrived.
            received=(answered[-1].relayed_on or self.stated_receipt or partner_sent)
            if answered else None,
            sent=self.today,
            postmark_date=self.today,
            inbound_message_id=self.inbound_id if sender.id == self.me.id else None,
            relayed_on=self.today if relayed else None,
        )

    def relays_to_partner(self, check: MoveCheck) -> bool:
        """Whether the server relays this letter's moves to the partner by e-mail."""
        return bool(check.own) and plays_by_email(self.partner)

    def record_letter(self, moves: MoveCheck | None = None) -> Letter:
        """The letter into the ledger through the game core, with what its moves do."""
        relayed = moves is not None and self.relays_to_partner(moves)
        return games.enter_letter(self.session, self.game, self.letter_input(relayed=relayed),
                                  moves, None, on=self.today)

    def outcome(self, code: str, detail: str = "", *, refused: bool = False,
                lacks: Sequence[str] = ()) -> Outcome:
        """The letter's audit entry; ``lacks`` names the elements of 002 §4.2.3 it lacked."""
        recorded: dict[str, Any] = {"inbound_message_id": self.inbound_id,
                                    "participant_id": self.me.id}
        if lacks:
            recorded["letter_elements_missing"] = list(lacks)
            recorded["letter_elements_rule"] = "002 §4.2.3"
        audit.record(
            self.session, user=None, action=f"mail.{code}", entity="game", entity_id=self.game.id,
            tournament_id=self.tournament.id, summary=detail or code, detail=recorded,
        )
        return Outcome(code, detail, refused, tuple(self.posted))

    # -- the decision tree -------------------------------------------------------------------------

    def run(self) -> Outcome:
        content = self.content
        if self.game.state in (GameState.FINISHED, GameState.ADJUDICATION):
            self.post_to_player(self.me, "game_closed", "notice", state=str(self.game.state))
            return self.outcome("game_closed", f"game is {self.game.state}", refused=True)
        if content.protest:
            self.forward_protest(content.protest)
            if not content.moves and not content.overstep_claim:
                return self.outcome("protest_forwarded", content.protest)
        if self.game.state is GameState.SUSPENDED:
            self.post_to_player(self.me, "game_suspended", "notice")
            return self.outcome("game_suspended", "002 §4.3.6: play waits for the referee",
                                refused=True)
        if content.resignation:
            return self.finish(resigned=True)
        if content.draw_accept:
            if self.partner_offered_draw():
                return self.finish(resigned=False)
            lapsed = games.lapsed_draw_offer(GameView(self.game), self.me.id)
            self.notify_refused([
                RuleNotice("002 §4.2.3", "draw_offer_lapsed", f"{lapsed:%d.%m.%Y}")
                if lapsed is not None else RuleNotice("002 §4.2.3", "draw_not_offered", "")])
            return self.outcome("no_draw_to_accept", refused=True)
        results: list[Outcome] = []
        if content.break_mention is not None:
            results.append(self.handle_break())
        if content.overstep_claim:
            return self.claim_overstep()
        if content.moves or content.variants or content.accepts_variant:
            try:
                results.append(self.handle_moves())
            except UnsupportedGameType as error:
                self.post_to_player(self.me, "not_understood", "notice", issues=[
                    {"rule": "002 §4.1.4", "code": "unsupported_game_type", "written": ""}])
                return self.outcome("unsupported_game_type", str(error), refused=True)
        if results:
            codes = ",".join(result.code for result in results)
            return Outcome(codes, "; ".join(r.detail for r in results if r.detail),
                           any(r.refused for r in results), tuple(self.posted))
        self.post_to_player(self.me, "not_understood", "notice", issues=[
            {"rule": issue.rule, "code": issue.code, "written": issue.source}
            for issue in content.issues])
        return self.outcome("not_understood", refused=True)

    # -- moves -------------------------------------------------------------------------------------

    def handle_moves(self) -> Outcome:
        view = GameView(self.game)
        if view.side_to_move is not self.side:
            self.post_to_player(self.me, "not_to_move", "notice")
            return self.outcome("not_to_move", "002 §4.2.8: the partner is to move", refused=True)

        variants_text = "\n".join(v.source for v in self.content.variants)
        check = games.check_moves(view, self.me.id, self.content.moves, variants_text)
        if check.refused:
            self.notify_refused(check.notices or [RuleNotice("002 §4.2.3", "no_own_move", "")])
            return self.outcome("no_own_move", refused=True)
        lacks = self.elements_lacking(view, check)
        letter = self.record_letter(check)
        if not check.own:
            return self.stopped(check)
        if check.stop is not None:
            # Earlier moves of the letter stand (002 §4.2.8); the faulty one must be replaced.
            self.notify_errors([check.stop, *check.notices], penalty=check.penalty)
        detail = self.relay_moves(letter, check, tell_sender=True)
        if self.content.break_mention is None and self.content.draw_offer:
            audit.record(self.session, user=None, action="game.draw_offered", entity="game",
                         entity_id=self.game.id, tournament_id=self.tournament.id,
                         summary=f"{self.me.player.name} offers a draw")
        if self.game.state is GameState.FINISHED:  # the board ended the game
            self.announce_result("board")
        return self.outcome("move_relayed" if check.stop is None else "move_relayed_with_error",
                            detail, lacks=lacks)

    def relay_moves(self, letter: Letter, check: MoveCheck, *, tell_sender: bool) -> str:
        """The stored letter's moves to the partner, with the diagram and, when he is to move,
        his reply deadline; ``tell_sender``: the sender gets the receipt of a variant's reply
        or of notes on his moves. Returns the moves as written, for the letter's record."""
        own_plies, trailing, repeated = check.own, check.trailing, check.repeated
        first_index = check.first_index
        view_after = GameView(self.game)
        ledger = view_after.ledger()
        chart = view_after.chart_of(ledger)
        moves_written = numbered(own_plies, first_index)
        context: dict[str, Any] = {
            "repeated": numbered(repeated, first_index - len(repeated)) if repeated else "",
            "moves": moves_written,
            "accepted_variant": " ".join(check.accepted_variant),
            "variant_reply": numbered(trailing, first_index + len(own_plies)) if trailing else "",
            "variants": [v.source for v in self.content.variants],
            "dates": (letter.partner_sent, letter.received, letter.sent),
            # A card's dates are its postmarks and the player's own (002 §4.3.1), not the
            # server's.
            "by_post": letter.channel in (Channel.POST, Channel.PHONE),
            "relayed_on": letter.relayed_on,
            "fraction": str(chart.totals),
            "notes": check.notes,
            "draw_offer": self.content.draw_offer,
            "draw_decline": self.content.draw_decline,
        }
        final = view_after.position
        played = [*own_plies, *trailing]
        diagrams = _diagram(final, played[-1][1] if played else None,
                            f"game-{self.game.id}-move-{len(view_after.plies)}.svg")
        # Only the player now to move gets the reply deadline (and its .ics).
        deadline = self.reply_deadline(view_after, ledger)
        with_deadline = diagrams + self.deadline_calendar(deadline)
        partner_moves = view_after.side_to_move is not self.side
        if plays_by_email(self.partner):  # a postal partner gets it from the steward, by post
            self.post_to_player(self.partner, "move", "move",
                                with_deadline if partner_moves else diagrams,
                                **{**context, "deadline": deadline if partner_moves else None})
        if tell_sender and (trailing or check.notes):
            self.post_to_player(self.me, "variant_applied" if trailing else "move_receipt",
                                "move_receipt", diagrams if partner_moves else with_deadline,
                                **{**context, "deadline": None if partner_moves else deadline})
        return moves_written + (f" + {context['variant_reply']}" if trailing else "")

    def elements_lacking(self, view: GameView, check: MoveCheck) -> tuple[str, ...]:
        """Each element of 002 §4.2.3 an e-mail with a move lacks (:func:`notation.letter_form.
        check_elements`), for the letter's audit entry. The letter is relayed all the same: the
        server writes the relayed letter in the form 002 §4.2.3 prescribes, so the partner lacks
        nothing, and the rule attaches no penalty (docs/rules/mail.md). A move made on the web
        has no text of its own to judge."""
        if self.channel is not Channel.EMAIL:
            return ()
        present = set(elements_in_text(self.message.text, self.tournament.code))
        if check.own:
            present.add(LetterElement.OWN_MOVE)
        if check.stop is None or check.stop.rule != "002 §4.2.9":
            present.add(LetterElement.PARTNER_MOVES_REPEATED)
        opening = not any(letter.moves_text.strip() for letter in view.letters)
        try:
            check_elements(present, opening=opening, by_post=False)
        except LetterIncomplete as incomplete:
            return tuple(element.value for element in incomplete.missing)
        return ()

    def reply_deadline(self, view: GameView, ledger: Ledger) -> dt.date | None:
        """The last day the player to move can answer without overstepping (002 §4.3.5)."""
        try:
            return last_safe_reply_date(ledger, view.side_to_move, received=self.today)
        except (NotToMoveError, TimekeepingError):
            return None

    def deadline_calendar(self, deadline: dt.date | None) -> tuple[Attachment, ...]:
        if deadline is None:
            return ()
        item = CalendarDate(
            uid=f"game-{self.game.id}-reply-deadline",
            summary=f"{self.tournament.code}: last day to reply without overstep (002 §4.3.5)",
            first_day=deadline,
        )
        return (calendar_attachment([item], domain=self.writer.settings.domain,
                                    filename="deadline.ics"),)

    def stopped(self, check: MoveCheck) -> Outcome:
        """The letter's first move cannot stand: it is kept, play waits for the sender's
        corrected letter (002 §4.2.9, §4.2.10) and he is told why."""
        stop = check.stop
        assert stop is not None
        self.notify_errors([stop, *check.notices], penalty=check.penalty)
        return self.outcome(stop.problem, f"{stop.rule} {stop.remedy}", refused=True)

    def notify_break(self, reasons: Sequence[dict[str, Any]],
                     announced: tuple[dt.date, dt.date] | None = None) -> None:
        """A break refused: its own letter — play goes on, nothing to correct, nothing recorded
        (002 §4.4.1–§4.4.3); the reasons by code, worded in the player's language."""
        self.post_to_player(self.me, "break_refused", "break_refused", reasons=list(reasons),
                            announced_first=announced[0] if announced else None,
                            announced_last=announced[1] if announced else None)

    def notify_refused(self, notices: Sequence[RuleNotice]) -> None:
        """A letter not taken at all: nothing recorded, play not stopped, no penalty — unlike
        an error that stops play until corrected (:meth:`notify_errors`)."""
        self.post_to_player(self.me, "letter_refused", "notice", notices=list(notices))

    def notify_errors(self, notices: Sequence[RuleNotice], *, penalty: bool) -> None:
        self.post_to_player(
            self.me, "error_notice", "error_notice", notices=list(notices),
            penalty_days=PENALTY_DAYS if penalty else 0,
        )

    # -- draws, resignations, the end --------------------------------------------------------------

    def partner_offered_draw(self) -> bool:
        return games.partner_offered_draw(GameView(self.game), self.me.id)

    def finish(self, *, resigned: bool) -> Outcome:
        self.record_letter()
        if resigned:
            result = games.resignation_result(self.side)
            code = "resigned"
        else:
            result = GameResult.DRAW
            code = "draw_agreed"
        games.record_result(self.session, self.game, result, ResultKind.PLAYED, on=self.today,
                            user=None, summary=f"{code}: {result}")
        self.announce_result(code)
        return self.outcome(code, str(result))

    def announce_result(self, ending: str) -> None:
        """Both players get the end-of-play notice with the game's record, and how it ended:
        ``ending`` is ``resigned``, ``draw_agreed`` or ``board`` (the last move left no play),
        by the sender of this letter (``ended_by``, his colour), whom the letter names."""
        ended: dict[str, Any] = {"result": str(self.game.result), "record": self.record_text(),
                 "ending": ending, "ended_by": self.side.value}
        for participant in (self.game.white, self.game.black):
            if self.entered_by_official and participant.id == self.me.id \
                    and not plays_by_email(participant):
                continue  # the steward who entered this player's own card needs no letter of it
            # A player by post or telephone hears of the end from the steward, as of his
            # partner's moves (002 §4.1.1), not by an e-mail he does not read.
            for recipient in game_letter_addressees(self.session, participant):
                if recipient.user is None:
                    self.post_to_player(participant, "game_over", "game_over", **ended)
                else:
                    self.post_to_official(recipient.user, "game_over", "game_over",
                                          recipient=participant.player, **ended)

    def record_text(self) -> str:
        view = GameView(self.game)
        return numbered(
            [(view.positions[i], read_move(view.positions[i], ply).move)  # type: ignore[union-attr]
             for i, ply in enumerate(view.plies)],
            0,
        )

    # -- breaks, overstep claims, protests ---------------------------------------------------------

    def handle_break(self) -> Outcome:
        mention = self.content.break_mention
        assert mention is not None
        try:
            announcement = parse_break_announcement(mention.phrase.strip(" .«»\""),
                                                    reference=self.today)
        except BreakAnnouncementError as error:
            self.notify_break([{"rule": "002 §4.4.3", "code": "break_wording",
                                "written": error.text}])
            return self.outcome("break_refused", error.reason, refused=True)
        announced = (announcement.first_day, announcement.last_day)
        try:
            stored = games.record_break(self.session, self.me, *announced,
                                        announced_on=self.today, user=None)
        except games.BreakRefused as refused:
            self.notify_break([break_reason(v) for v in refused.violations], announced)
            return self.outcome("break_refused", "; ".join(refused.messages), refused=True)
        self.announce_break(stored.verdict, tell_announcer=True)
        return self.outcome("break_recorded", f"{stored.first_day}..{stored.last_day}")

    def announce_break(self, verdict: games.BreakVerdict, *, tell_announcer: bool,
                       entered_by: User | None = None) -> None:
        """A recorded break told as 002 §4.4.2 asks, «всем партнерам, с которыми игра не
        закончена, и старосте»: the partner of every unfinished game who plays by e-mail or on
        the web by the notice (a postal partner by the steward, who is told which), the stewards
        with an address (the others see it on their dashboard), and the announcer himself, who
        is told what stands and who was told. The letters quote the dates he wrote and say
        which stand."""
        assert verdict.stands is not None
        first, last = verdict.stands
        unfinished = self.session.scalars(
            select(Game).where(
                (Game.white_id == self.me.id) | (Game.black_id == self.me.id),
                Game.state.in_([GameState.IN_PLAY, GameState.NOT_STARTED, GameState.SUSPENDED]),
            ).order_by(Game.round, Game.id)
        ).all()
        partners = [(other, other.partner_of(self.me.id)) for other in unfinished]
        told = [partner for _, partner in partners if plays_by_email(partner)]
        by_post = [partner.player.name for _, partner in partners if not plays_by_email(partner)]
        facts: dict[str, Any] = {
            "announced_first": verdict.announced[0], "announced_last": verdict.announced[1],
            "announced_days": (verdict.announced[1] - verdict.announced[0]).days + 1,
            "first_day": first, "last_day": last, "days": (last - first).days + 1,
            "most": MAX_BREAK_DAYS, "cut": verdict.cut, "late": verdict.late,
            "counts_from": verdict.counts_from, "counted_days": verdict.counted_days,
            "announced": verdict.announced_on,
        }
        for other_game, partner in partners:
            if partner not in told or not partner.player.email:
                continue
            row = self.writer.post(
                self.session, kind="break_notice", to=partner.player.email,
                template="break_notice", language=self.language(partner),
                context={**self.base_context(partner), "game": other_game, **facts},
                reply_for=(other_game.id, partner.id), tournament_id=self.tournament.id,
                game_id=other_game.id,
            )
            self.posted.append(row.id)
        # The steward answers the player himself: the reply goes to the player's address.
        self.post_to_officials(Role.STEWARD, "break_notice", "break_notice",
                               reply_to=self.me.player.email or None, skip=entered_by,
                               partners_by_post=by_post, **facts)
        if tell_announcer:
            self.post_to_player(self.me, "break_confirmed",
                                "break_shortened" if verdict.cut else "break_confirmed",
                                partners_told=[partner.player.name for partner in told],
                                partners_by_post=by_post, **facts)

    def claim_overstep(self) -> Outcome:
        """The claim opens its case at the referee's desk, as one made on the web does."""
        view = GameView(self.game)
        # The claimant's reply, kept from the offender until the referee decides (002 §4.3.6)
        # and forwarded if he finds no overstep (002 §4.3.7).
        # A reply is held only by a claimant who is to move (his partner answered over the
        # limit). One waiting for a silent partner holds none: the moves of the game he cites
        # («не ответил на ход 4. e3:g5») are no reply; a new move he writes is told not held.
        written = (self.held_reply_written(view) if view.side_to_move is self.side
                   else self.move_written_out_of_turn(view))
        try:
            held, held_refused = view.held_reply(self.side, written), None
        except HeldMoveRefused as refused:
            held, held_refused = "", refused
        desk = Desk(self.session, case_letter_writer(self.writer.settings), on=self.today)
        claimant = Actor(None, frozenset(), frozenset({self.me.id}))
        try:
            done = desk.open_overstep_claim(claimant, self.game, claimant=CaseSide(self.side.value),
                                            held_move=held, letter_text=self.message.text)
        except ActionRefused as refused:
            self.notify_refused([RuleNotice(refused.rule, "claim_refused", refused.reason)])
            return self.outcome("overstep_refused", str(refused), refused=True)
        self.posted.extend(done.carried.letters)
        self.record_letter()
        claim = done.stored.case
        assert isinstance(claim, OverstepClaim)
        found = claim.chart_shows_overstep
        # Only the claimant learns of his held reply: the offender must not see it (002 §4.3.6).
        self.post_to_player(self.me, "overstep_claim_received", "notice",
                            claimant=self.me.player, offender=self.partner.player,
                            fraction=str(view.chart().totals), server_found=found,
                            objection_due=self.today + dt.timedelta(days=10),
                            held_move=held, held_refused=held_refused)
        held_note = f"; reply held: {held}" if held else (
            f"; reply not held: {held_refused}" if held_refused else "")
        return self.outcome("overstep_claimed",
                            f"case {done.stored.row.id}; server chart agrees: {found}{held_note}")

    def move_written_out_of_turn(self, view: GameView) -> str:
        """The first move the letter writes that is not a move of the game already (a claimant
        citing the move his partner leaves unanswered is not replying to it)."""
        played = {normalise(ply) for ply in view.plies}
        return next((move.text for move in self.content.moves
                     if normalise(move.text) not in played), "")

    def held_reply_written(self, view: GameView) -> str:
        """The reply written in a claim letter: the first move after the repetition of the
        partner's new moves, if the claimant repeated them (002 §4.2.9 asks no more of a letter
        that goes to the referee)."""
        mentions = list(self.content.moves)
        try:
            position = view.position_before(len(view.partner_new_plies(self.me.id)))
        except UnsupportedGameType:  # no engine to tell a repetition: his own moves as written
            return " ".join(move.text for move in self.content.moves_of(self.side))
        consumed = 0
        for ply in view.partner_new_plies(self.me.id):
            expected = read_move(position, ply)
            assert isinstance(expected, LegalMove)  # the ledger only holds legal moves
            if consumed < len(mentions):
                again = read_move(position, mentions[consumed].text)
                if isinstance(again, LegalMove) and again.move == expected.move:
                    consumed += 1
            position = position.play(expected.move)
        return mentions[consumed].text if consumed < len(mentions) else ""

    def forward_protest(self, text: str) -> None:
        """A protest against a case of this game goes to the referee's desk, as one made on the
        web (002 §4.1.12, §4.3.8): the first open case of the game the sender may protest now.
        One that contests no such case is kept for the referee to file by hand."""
        if self.protest_at_desk(text) is None:
            games.receive_protest_letter(
                self.session, tournament_id=self.tournament.id, game_id=self.game.id,
                participant_id=self.me.id, text=self.message.text, protest=text,
                received=self.today)
            self.post_to_officials(Role.REFEREE, "protest_forwarded", "protest",
                                   protest=self.message.text, received=self.today)
        self.post_to_player(self.me, "protest_received", "notice", received=self.today)

    def protest_at_desk(self, text: str) -> int | None:
        """The id of the case the protest was filed into, if there is one to contest."""
        desk = Desk(self.session, case_letter_writer(self.writer.settings), on=self.today)
        protester = Actor(None, frozenset(), frozenset({self.me.id}))
        open_cases = self.session.scalars(
            select(Case.id).where(Case.game_id == self.game.id, Case.closed_at.is_(None))
            .order_by(Case.id.desc())
        ).all()
        for case_id in open_cases:
            stored = load_case(self.session, case_id)
            try:
                done = desk.protest(protester, case_id, revision=stored.case.revision,
                                    party=self.side.value, grounds=text)
            except (IllegalTransition, NotEntitled, ActionRefused):
                continue  # refused before anything was written: not this case
            self.posted.extend(done.carried.letters)
            return case_id
        return None


def _diagram(position: GamePosition, last_move: Move | None, filename: str) -> tuple[Attachment, ...]:
    """The board diagram of the position, for every game type (column stacks included)."""
    svg = board_svg(position, last_move=last_move)
    return (Attachment(filename, svg.encode(), "image/svg+xml"),)
