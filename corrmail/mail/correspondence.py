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
* an overstep claim opens the referee's case (``adjudication.overstep``) and suspends the game
  (002 §4.3.6); a protest is forwarded to the referee (002 §4.1.12, §4.3.8, §4.5.6).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication.case import Channel as CaseChannel
from adjudication.overstep import OverstepClaim
from corrmail import audit
from corrmail.ledger import LetterInput, append_letter
from corrmail.mail.calendar import CalendarDate, calendar_attachment
from corrmail.mail.compose import Attachment
from corrmail.mail.content import LetterContent, MoveMention, read_letter
from corrmail.mail.game_view import (
    GameView,
    HeldMoveRefused,
    UnsupportedGameType,
    color_of,
    side_of,
)
from corrmail.mail.inbound import InboundMessage
from corrmail.mail.letters import LetterWriter
from corrmail.models import (
    Break,
    Case,
    CaseType,
    Channel,
    Game,
    GameResult,
    GameState,
    Letter,
    Participant,
    Penalty,
    ResultKind,
    Role,
    TournamentOfficial,
    User,
)
from corrmail.move_walk import RuleNotice, Walk, check_repetition, walk_own_moves
from notation.full import format_full
from notation.game_position import GamePosition
from notation.geometry import BOARD_8X8, Geometry
from notation.letters import LegalMove, read_move
from notation.move import Move
from notation.svg import board_svg
from notation.variants import VariantNode, parse_variants
from timekeeping import (
    PENALTY_DAYS,
    BreakAnnouncementError,
    Ledger,
    NotToMoveError,
    Side,
    TimekeepingError,
    check_break_limits,
    compute_chart,
    last_safe_reply_date,
    parse_break_announcement,
)
from timekeeping import Break as BreakSpan

__all__ = ["Outcome", "Correspondence", "RuleNotice", "numbered"]


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
    ) -> Outcome:
        content = read_letter(message.text, letter_board(game))
        context = _Context(self, session, game, participant, message, arrival, inbound_id, content)
        return context.run()


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
        self.locales: dict[int | None, str | None] = {}

    # -- helpers ---------------------------------------------------------------------------------

    def language(self, participant: Participant) -> str:
        """The player's locale, else Russian. The first call reads both players of the game at
        once (their locales only: a whole ``User`` would also load its roles)."""
        if participant.player_id not in self.locales:
            wanted = {participant.player_id, self.game.white.player_id, self.game.black.player_id}
            wanted -= self.locales.keys()
            self.locales.update(dict.fromkeys(wanted))
            self.locales.update({player_id: locale for player_id, locale in self.session.execute(
                select(User.player_id, User.locale).where(User.player_id.in_(wanted))
            )})
        return self.locales[participant.player_id] or "ru"

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

    def post_to_officials(self, role: Role, template: str, kind: str, **context: Any) -> None:
        officials = self.session.scalars(
            select(User)
            .join(TournamentOfficial, TournamentOfficial.user_id == User.id)
            .where(TournamentOfficial.tournament_id == self.tournament.id,
                   TournamentOfficial.role == role)
        ).all()
        for user in officials:
            if not user.email:
                continue
            row = self.writer.post(
                self.session,
                kind=kind,
                to=user.email,
                template=template,
                language=user.locale or "ru",
                context={**self.base_context(self.me), "official": user, **context},
                tournament_id=self.tournament.id,
                game_id=self.game.id,
            )
            self.posted.append(row.id)

    def record_letter(self, *, moves: str = "", variants: str = "", sender: Participant | None = None,
                      raw: str | None = None) -> Letter:
        sender = sender or self.me
        view = GameView(self.game)
        answered = [
            letter for letter in view.letters_since_own(sender.id) if letter.sent is not None
        ]
        partner_sent = answered[-1].sent if answered else None
        letter = append_letter(
            self.session,
            self.game,
            LetterInput(
                sender_id=sender.id,
                channel=Channel.EMAIL,
                raw_text=self.message.text if raw is None else raw,
                moves_text=moves,
                variants_text=variants,
                partner_sent=partner_sent,
                # The server relays a letter the day it arrives: the partner's dispatch day is
                # also the day it reached this player (002 §4.3.1, second date).
                received=partner_sent,
                sent=self.today,
                postmark_date=self.today,
                inbound_message_id=self.inbound_id if sender.id == self.me.id else None,
            ),
            entered_by=None,
        )
        if moves and self.game.state is GameState.NOT_STARTED:
            # The first move starts the game, as a postcard's does (corrmail.postal).
            self.game.state = GameState.IN_PLAY
        if letter not in self.game.__dict__.get("letters", ()):
            # The ledger appended through the session, not the relationship: reload the letters.
            self.session.expire(self.game, ["letters"])
        return letter

    def charge_penalty(self, letter: Letter, reason: str) -> None:
        self.session.add(
            Penalty(
                game_id=self.game.id,
                participant_id=self.me.id,
                days=PENALTY_DAYS,
                rule="002 §4.2.11",
                reason=reason,
                charged_on=self.today,
                letter_id=letter.id,
            )
        )
        audit.record(
            self.session, user=None, action="penalty.charged", entity="game",
            entity_id=self.game.id, tournament_id=self.tournament.id, rule="002 §4.2.11",
            summary=f"{PENALTY_DAYS} penalty days to {self.me.player.name}: {reason}",
        )

    def outcome(self, code: str, detail: str = "", *, refused: bool = False) -> Outcome:
        audit.record(
            self.session, user=None, action=f"mail.{code}", entity="game", entity_id=self.game.id,
            tournament_id=self.tournament.id, summary=detail or code,
            detail={"inbound_message_id": self.inbound_id, "participant_id": self.me.id},
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
            self.notify_errors([RuleNotice("002 §4.2.3", "draw_not_offered", "")], penalty=False)
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
                self.post_to_player(self.me, "not_understood", "notice", issues=[str(error)])
                return self.outcome("unsupported_game_type", str(error), refused=True)
        if results:
            codes = ",".join(result.code for result in results)
            return Outcome(codes, "; ".join(r.detail for r in results if r.detail),
                           any(r.refused for r in results), tuple(self.posted))
        self.post_to_player(self.me, "not_understood", "notice",
                            issues=[issue.message for issue in content.issues])
        return self.outcome("not_understood", refused=True)

    # -- moves -------------------------------------------------------------------------------------

    def handle_moves(self) -> Outcome:
        view = GameView(self.game)
        if view.side_to_move is not self.side:
            self.post_to_player(self.me, "not_to_move", "notice")
            return self.outcome("not_to_move", "002 §4.2.8: the partner is to move", refused=True)

        expected = view.partner_new_plies(self.me.id)
        walk = Walk(view.position_before(len(expected)), len(view.plies) - len(expected))
        mentions = list(self.content.moves)
        consumed = self.check_repetition(walk, expected, mentions)
        if walk.stop is not None:
            return self.stop_game(walk)
        repeated = list(walk.plies)
        walk.plies.clear()
        walk.start_index += len(repeated)
        variant_tree = view.pending_variants(self.me.id)
        branches: dict[Move, VariantNode] = variant_tree.tree().root if variant_tree else {}
        self.walk_own_moves(walk, mentions[consumed:], branches)
        if walk.stop is not None and walk.own_count == 0:
            return self.stop_game(walk)

        own_plies, trailing = _split_trailing(walk.plies, color_of(self.side))
        first_index = len(view.plies)
        variants_text = "\n".join(v.source for v in self.content.variants)
        after = own_plies[-1][0].play(own_plies[-1][1]) if own_plies else walk.position
        if variants_text:
            offer = parse_variants(after, variants_text, next_move_number=None)
            # A faulty variant never stops play (002 §4.2.12): both players are told.
            for error in offer.errors:
                walk.notes.append(RuleNotice("002 §4.2.7", "variant_unreadable", error.text))
            for variant in offer.variants:
                if variant.cut is not None:
                    walk.notes.append(RuleNotice("002 §4.2.12", "variant_cut", variant.cut.text))
        if not own_plies:
            self.notify_errors(walk.notices or [RuleNotice("002 §4.2.3", "no_own_move", "")],
                               penalty=False)
            return self.outcome("no_own_move", refused=True)

        letter = self.record_letter(
            moves=" ".join(format_full(p, m) for p, m in own_plies), variants=variants_text
        )
        if trailing:
            self.record_letter(
                moves=" ".join(format_full(p, m) for p, m in trailing),
                sender=self.partner,
                raw="002 §4.2.13: conditional reply of the accepted variant",
            )
        if walk.stop is not None:
            # Earlier moves of the letter stand (002 §4.2.8); the faulty one must be replaced.
            if walk.penalty:
                self.charge_penalty(letter, walk.stop.problem)
            self.notify_errors([walk.stop, *walk.notices], penalty=walk.penalty)

        view_after = GameView(self.game)
        ledger = view_after.ledger()
        chart = compute_chart(ledger)
        moves_written = numbered(own_plies, first_index)
        context: dict[str, Any] = {
            "repeated": numbered(repeated, first_index - len(repeated)) if repeated else "",
            "moves": moves_written,
            "accepted_variant": " ".join(walk.accepted_variant),
            "variant_reply": numbered(trailing, first_index + len(own_plies)) if trailing else "",
            "variants": [v.source for v in self.content.variants],
            "dates": (letter.partner_sent, letter.received, letter.sent),
            "fraction": str(chart.totals),
            "notes": walk.notes,
            "draw_offer": self.content.draw_offer,
            "draw_decline": self.content.draw_decline,
        }
        final = view_after.position
        diagrams = _diagram(final, walk.plies[-1][1] if walk.plies else None,
                            f"game-{self.game.id}-move-{len(view_after.plies)}.svg")
        # Only the player now to move gets the reply deadline (and its .ics).
        deadline = self.reply_deadline(view_after, ledger)
        with_deadline = diagrams + self.deadline_calendar(deadline)
        partner_moves = view_after.side_to_move is not self.side
        self.post_to_player(self.partner, "move", "move",
                            with_deadline if partner_moves else diagrams,
                            **{**context, "deadline": deadline if partner_moves else None})
        if trailing or walk.notes:
            self.post_to_player(self.me, "variant_applied" if trailing else "move_receipt",
                                "move_receipt", diagrams if partner_moves else with_deadline,
                                **{**context, "deadline": None if partner_moves else deadline})
        if self.content.break_mention is None and self.content.draw_offer:
            audit.record(self.session, user=None, action="game.draw_offered", entity="game",
                         entity_id=self.game.id, tournament_id=self.tournament.id,
                         summary=f"{self.me.player.name} offers a draw")
        final_outcome = final.outcome()
        if final_outcome is not None:
            self.game_over_by_board(final_outcome)
        detail = moves_written + (f" + {context['variant_reply']}" if trailing else "")
        return self.outcome("move_relayed" if walk.stop is None else "move_relayed_with_error",
                            detail)

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

    def check_repetition(self, walk: Walk, expected: list[str], mentions: list[MoveMention]) -> int:
        """002 §4.2.9: the partner's new moves must be repeated (:mod:`corrmail.move_walk`)."""
        return check_repetition(walk, self.side, expected, mentions)

    def walk_own_moves(
        self, walk: Walk, mentions: list[MoveMention], branches: dict[Move, VariantNode]
    ) -> None:
        walk_own_moves(walk, self.side, mentions, branches)

    def stop_game(self, walk: Walk) -> Outcome:
        assert walk.stop is not None
        letter = self.record_letter()
        if walk.penalty:
            self.charge_penalty(letter, f"{walk.stop.rule}: {walk.stop.problem} ({walk.stop.remedy})")
        self.notify_errors([walk.stop, *walk.notices], penalty=walk.penalty)
        return self.outcome(walk.stop.problem, f"{walk.stop.rule} {walk.stop.remedy}", refused=True)

    def notify_errors(self, notices: Sequence[RuleNotice], *, penalty: bool) -> None:
        self.post_to_player(
            self.me, "error_notice", "error_notice", notices=list(notices),
            penalty_days=PENALTY_DAYS if penalty else 0,
        )

    # -- draws, resignations, the end --------------------------------------------------------------

    def partner_offered_draw(self) -> bool:
        view = GameView(self.game)
        return any(read_letter(letter.raw_text).draw_offer
                   for letter in view.letters_since_own(self.me.id))

    def finish(self, *, resigned: bool) -> Outcome:
        self.record_letter()
        if resigned:
            result = GameResult.BLACK_WIN if self.side is Side.WHITE else GameResult.WHITE_WIN
            code = "resigned"
        else:
            result = GameResult.DRAW
            code = "draw_agreed"
        self.set_result(result, ResultKind.PLAYED, None)
        return self.outcome(code, str(result))

    def set_result(self, result: GameResult, kind: ResultKind, rule: str | None) -> None:
        self.game.state = GameState.FINISHED
        self.game.result = result
        self.game.result_kind = kind
        self.game.result_rule = rule
        self.game.result_on = self.today
        for participant in (self.game.white, self.game.black):
            self.post_to_player(participant, "game_over", "game_over", result=str(result),
                                record=self.record_text())

    def game_over_by_board(self, outcome: Any) -> None:
        winner = outcome.winner
        if winner is None:
            self.set_result(GameResult.DRAW, ResultKind.PLAYED, None)
        else:
            white_won = winner == color_of(Side.WHITE)
            self.set_result(GameResult.WHITE_WIN if white_won else GameResult.BLACK_WIN,
                            ResultKind.PLAYED, None)

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
            self.notify_errors([RuleNotice("002 §4.4.3", "break_wording", error.reason)],
                               penalty=False)
            return self.outcome("break_refused", error.reason, refused=True)
        existing = [
            BreakSpan(self.side, item.start_date, item.end_date)
            for item in self.me.breaks
        ]
        new = BreakSpan(self.side, announcement.first_day, announcement.last_day)
        standing, violations = check_break_limits([*existing, new])
        stored = next((span for span in standing if span.first_day == new.first_day), None)
        reasons = "; ".join(v.message for v in violations)
        if stored is None:
            self.notify_errors([RuleNotice("002 §4.4.1", "break_limit", reasons)], penalty=False)
            return self.outcome("break_refused", reasons, refused=True)
        if violations:
            # Too long: the break stands for its first 30 days (timekeeping's reading of §4.4.1).
            self.notify_errors([RuleNotice("002 §4.4.1", "break_limit", reasons)], penalty=False)
        self.session.add(
            Break(participant_id=self.me.id, start_date=stored.first_day, end_date=stored.last_day,
                  announced_on=self.today)
        )
        late = stored.first_day < self.today
        games = self.session.scalars(
            select(Game).where(
                (Game.white_id == self.me.id) | (Game.black_id == self.me.id),
                Game.state.in_([GameState.IN_PLAY, GameState.NOT_STARTED, GameState.SUSPENDED]),
            )
        ).all()
        for other_game in games:
            partner = other_game.partner_of(self.me.id)
            if partner.player.email:
                row = self.writer.post(
                    self.session, kind="break_notice", to=partner.player.email,
                    template="break_notice", language=self.language(partner),
                    context={**self.base_context(partner), "game": other_game,
                             "first_day": stored.first_day, "last_day": stored.last_day,
                             "days": stored.days, "late": late, "announced": self.today},
                    reply_for=(other_game.id, partner.id), tournament_id=self.tournament.id,
                    game_id=other_game.id,
                )
                self.posted.append(row.id)
        self.post_to_officials(Role.STEWARD, "break_notice", "break_notice",
                               first_day=stored.first_day, last_day=stored.last_day,
                               days=stored.days, late=late, announced=self.today)
        return self.outcome("break_recorded", f"{stored.first_day}..{stored.last_day}")

    def claim_overstep(self) -> Outcome:
        view = GameView(self.game)
        chart = view.chart()
        offender = self.side.partner
        # The claimant's reply, kept from the offender until the referee decides (002 §4.3.6)
        # and forwarded if he finds no overstep (002 §4.3.7).
        written = self.held_reply_written(view)
        try:
            held, held_refused = view.held_reply(self.side, written), None
        except HeldMoveRefused as refused:
            held, held_refused = "", refused
        found = chart.overstep is not None and chart.overstep.player is offender
        transition = OverstepClaim.open(
            f"game-{self.game.id}-overstep-{self.today.isoformat()}",
            game=str(self.game.id),
            claimant=_case_side(self.side),
            claimed_on=self.today,
            channel=CaseChannel.EMAIL,
            held_move=held,
            chart_shows_overstep=found,
        )
        deadline = transition.case.deadline_on(self.today)
        case = Case(
            case_type=CaseType.OVERSTEP_CLAIM,
            tournament_id=self.tournament.id,
            game_id=self.game.id,
            participant_id=self.me.id,
            state=str(transition.case.state),
            deadline=deadline.due if deadline is not None else None,
            revision=transition.case.revision,
            payload=transition.case.to_dict(),
            letter_text=self.message.text,
        )
        self.session.add(case)
        self.session.flush()
        self.record_letter()
        self.game.state = GameState.SUSPENDED
        partner = self.partner
        context: dict[str, Any] = {"claimant": self.me.player, "offender": partner.player,
                   "fraction": str(chart.totals), "server_found": found,
                   "objection_due": self.today + dt.timedelta(days=10)}
        self.post_to_player(partner, "overstep_notice", "overstep_notice", **context)
        # Only the claimant learns of his held reply: the offender must not see it (002 §4.3.6).
        self.post_to_player(self.me, "overstep_claim_received", "notice", **context,
                            held_move=held, held_refused=held_refused)
        self.post_to_officials(Role.REFEREE, "overstep_referee", "overstep_notice", **context)
        self.post_to_officials(Role.STEWARD, "overstep_referee", "overstep_notice", **context)
        held_note = f"; reply held: {held}" if held else (
            f"; reply not held: {held_refused}" if held_refused else "")
        return self.outcome("overstep_claimed",
                            f"case {case.id}; server chart agrees: {found}{held_note}")

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
        case = Case(
            case_type=CaseType.PROTEST,
            tournament_id=self.tournament.id,
            game_id=self.game.id,
            participant_id=self.me.id,
            state="received",
            deadline=self.today + dt.timedelta(days=30),
            payload={"text": self.message.text, "protest": text, "received": self.today.isoformat()},
        )
        self.session.add(case)
        self.session.flush()
        self.post_to_officials(Role.REFEREE, "protest_forwarded", "protest", protest=self.message.text,
                               received=self.today)
        self.post_to_player(self.me, "protest_received", "notice", received=self.today)


def _diagram(position: GamePosition, last_move: Move | None, filename: str) -> tuple[Attachment, ...]:
    """The board diagram of the position, for every game type (column stacks included)."""
    svg = board_svg(position, last_move=last_move)
    return (Attachment(filename, svg.encode(), "image/svg+xml"),)


def _split_trailing(
    plies: list[tuple[GamePosition, Move]], mine: Any
) -> tuple[list[tuple[GamePosition, Move]], list[tuple[GamePosition, Move]]]:
    """Plies up to the sender's last own move, and the partner's plies after it."""
    last_own = max((i for i, (position, _) in enumerate(plies) if position.turn is mine), default=-1)
    return plies[: last_own + 1], plies[last_own + 1 :]


def _case_side(side: Side) -> Any:
    from adjudication.outcomes import Side as CaseSide

    return CaseSide(side.value)
