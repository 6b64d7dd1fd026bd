"""Every change to a game, each written once: a checked letter with what follows, a result, a
penalty, a break, a stop and a restart of play, the steward's forwarding of a move. Each writes its rows and its audit entry in the
caller's transaction; the caller (post, e-mail, web, referee's desk, sweep) commits.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace

from flask_babel import gettext as _
from sqlalchemy import delete
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.games.append import LedgerError, LetterInput, append_letter, lock_game
from corrmail.games.moves import MoveCheck, board_result
from corrmail.games.view import GameView, UnsupportedGameType, break_span, side_of
from corrmail.models import (
    Break,
    BreakKind,
    Channel,
    Forwarding,
    Game,
    GameResult,
    GameState,
    Letter,
    Participant,
    Penalty,
    ResultKind,
    User,
)
from timekeeping import PENALTY_DAYS, RuleViolation, Side, error_report_due, judge_announcement
from timekeeping import Break as BreakSpan
from timekeeping import ErrorReport as TimedReport

__all__ = [
    "FORWARDING_CHANNELS",
    "PARTNER_CHARGE_RULES",
    "BreakRefused",
    "BreakVerdict",
    "ForwardingRefused",
    "IllegalLedgerMove",
    "LetterErrorRefused",
    "RecordedBreak",
    "charge_letter_penalty",
    "charge_penalty",
    "clear_result",
    "enter_letter",
    "enter_letter_as_written",
    "grant_special_break",
    "judge_break",
    "record_break",
    "record_error_report",
    "record_forwarding",
    "record_result",
    "record_start_sheet_receipt",
    "resume_play",
    "revoke_penalties",
    "revoke_special_break",
    "supplied_receipt_problem",
    "suspend_play",
]

#: Text of the letter that carries the partner's conditional reply (002 §4.2.13).
VARIANT_REPLY_TEXT = "002 §4.2.13: conditional reply of the accepted variant"


def _user_id(user: User | None) -> int | None:
    return user.id if user is not None else None


# -- letters ---------------------------------------------------------------------------------------


def enter_letter(
    session: Session,
    game: Game,
    letter: LetterInput,
    moves: MoveCheck | None,
    user: User | None,
    *,
    on: dt.date,
) -> Letter:
    """Store a letter judged by :func:`corrmail.games.check_moves` with what it does to the game:
    the sender's moves and variants, the partner's conditional reply (002 §4.2.13), the 6 penalty
    days of a fault that stops play (002 §4.2.11), the start of play and a result the board gives.

    ``letter`` carries the channel's dates and text; its moves are the check's. ``moves`` is
    ``None`` for a letter without moves (a resignation, an acceptance, a claim).
    """
    if moves is not None:
        letter = replace(letter, moves_text=moves.own_moves, variants_text=moves.variants_text,
                         penalty_days=moves.penalty_days)
    partner_id = game.partner_of(moves.sender_id).id if moves is not None else None
    # The conditional reply travelled in the partner's letter that offered it: its channel.
    offer = next((earlier for earlier in reversed(game.letters)
                  if earlier.sender_id == partner_id and earlier.variants_text.strip()), None)
    row = append_letter(session, game, letter, user)
    if moves is None:
        return row
    if moves.trailing:
        append_letter(session, game, LetterInput(
            sender_id=partner_id, channel=offer.channel if offer is not None else letter.channel,
            raw_text=VARIANT_REPLY_TEXT, moves_text=moves.variant_reply, sent=letter.sent,
            received=letter.sent, partner_sent=letter.sent, postmark_date=letter.postmark_date,
        ), user)
    if row not in game.__dict__.get("letters", ()):
        # The ledger appended through the session, not the relationship: read the letters again.
        session.expire(game, ["letters"])
    if moves.stop is not None and moves.penalty:
        stop = moves.stop
        charge_penalty(session, game, moves.sender_id, moves.penalty_days, rule="002 §4.2.11",
                       reason=f"{stop.rule}: {stop.problem}" + (f" ({stop.remedy})"
                                                               if stop.remedy else ""),
                       on=on, user=user, letter=row)
    if moves.own:
        if game.state is GameState.NOT_STARTED:
            game.state = GameState.IN_PLAY
        result = board_result(GameView(game))
        if result is not None:
            record_result(session, game, result, ResultKind.PLAYED, on=letter.sent or on,
                          user=user, summary=f"over the board: {result}")
    return row


class IllegalLedgerMove(LedgerError):
    """A letter entered as written would put an illegal move into the ledger; nothing stored."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: {reason}; the ledger holds legal moves only "
                         "(002 §4.2.10) — enter the card through the postcard form")
        self.game_id = game_id
        self.reason = reason


def enter_letter_as_written(
    session: Session, game: Game, letter: LetterInput, user: User | None
) -> Letter:
    """An official's entry of a letter as written, or of a correction of one (002 §4.2.5):
    its dates and text are kept as they are; moves it carries must stand on the board, else
    :class:`IllegalLedgerMove` is raised before the caller commits."""
    row = append_letter(session, game, letter, user)
    session.expire(game, ["letters"])
    if letter.moves_text.strip():
        try:
            played = GameView(game).played
        except UnsupportedGameType:
            played = None
        if played is not None and not played.complete:
            raise IllegalLedgerMove(game.id, f"{letter.moves_text!r} cannot be played")
    correction = row.corrects_letter_id is not None
    audit.record(
        session, user=user, action="letter.correct" if correction else "letter.add",
        entity="letter", entity_id=row.id, tournament_id=game.tournament_id,
        rule="002 §4.2.5" if correction else "002 §4.1.13",
        summary=f"game {game.id}, letter {row.sequence}",
    )
    return row


# -- results and the state of play -----------------------------------------------------------------


def record_result(
    session: Session,
    game: Game,
    result: GameResult,
    kind: ResultKind | None,
    *,
    on: dt.date,
    user: User | None,
    rule: str | None = None,
    summary: str = "",
    audited: bool = True,
) -> None:
    """The game ends with ``result`` (002 §4.5); ``kind`` is ``None`` for an annulled game.
    ``audited=False`` when the caller's own audit entry already cites the rule (a case effect)."""
    game.state = GameState.FINISHED
    game.result = result
    game.result_kind = kind
    game.result_rule = rule
    game.result_on = on
    if audited:
        audit.record(session, user=user, action="game.finished", entity="game", entity_id=game.id,
                     tournament_id=game.tournament_id, rule=rule or "002 §4.5.1",
                     summary=summary or str(result))


def clear_result(game: Game) -> None:
    """A decision that set the result is overturned: play goes on (002 §4.1.12)."""
    game.result = game.result_kind = game.result_rule = game.result_on = None
    game.state = GameState.IN_PLAY


def suspend_play(game: Game, *, for_adjudication: bool = False) -> None:
    """Play waits for the referee (002 §4.3.6) or the game is adjudicated (002 §4.5.2)."""
    game.state = GameState.ADJUDICATION if for_adjudication else GameState.SUSPENDED


def resume_play(game: Game) -> None:
    """Play goes on where it stood: in play, or not begun when no move was ever sent (a claim
    in a game not yet begun, 002 §4.3.2, §4.3.6)."""
    begun = any(letter.moves_text.strip() for letter in game.letters)
    game.state = GameState.IN_PLAY if begun else GameState.NOT_STARTED


# -- penalties -------------------------------------------------------------------------------------


def charge_penalty(
    session: Session,
    game: Game,
    participant_id: int,
    days: int,
    *,
    rule: str,
    reason: str,
    on: dt.date,
    user: User | None,
    letter: Letter | None = None,
    case_id: int | None = None,
) -> Penalty:
    """Penalty days to a player of ``game`` (002 §4.2.11, §4.3.7, a referee's sanction)."""
    row = Penalty(game_id=game.id, participant_id=participant_id, days=days, rule=rule,
                  reason=reason, charged_on=on, letter_id=letter.id if letter else None,
                  case_id=case_id, imposed_by_id=_user_id(user))
    session.add(row)
    if case_id is None:  # a case's penalty is audited with the case's effect
        audit.record(session, user=user, action="penalty.charged", entity="game",
                     entity_id=game.id, tournament_id=game.tournament_id, rule=rule,
                     summary=f"{days} penalty days: {reason}")
    return row


def revoke_penalties(session: Session, *, case_id: int, participant_id: int) -> None:
    """The penalties a case charged a player, taken back by a later decision in that case."""
    session.execute(delete(Penalty).where(Penalty.case_id == case_id,
                                          Penalty.participant_id == participant_id))


# -- errors in letters and the partner's charges (002 §4.2.9, §4.2.11, §4.3.3) ------------------


class LetterErrorRefused(ValueError):
    """A report, a charge or a supplied date the rules do not allow; nothing was stored.
    ``rule`` is the point refused under, ``message`` the reason in the reader's language."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


#: The points under which a partner charges the 6 days in his reply.
PARTNER_CHARGE_RULES = ("002 §4.2.11", "002 §4.3.3")


def _letter_of(view: GameView, letter_id: int, rule: str) -> Letter:
    found = view.letter_as_it_reads(letter_id)
    if found is not None:
        return found
    raise LetterErrorRefused(rule, _("letter %(id)s is not a letter of this game", id=letter_id))


def _omitted_receipt(view: GameView, letter: Letter) -> bool:
    """Whether a move letter left out its receipt date: the opening letter has none to give."""
    first = next((item for item in view.letters if item.moves_text.strip() and item.sent), None)
    return letter is not first and letter.received is None


def charge_letter_penalty(
    session: Session, game: Game, *, letter_id: int, charged_in_id: int, rule: str, reason: str,
    on: dt.date, user: User | None,
) -> Penalty:
    """The partner's 6 days for the faults of letter ``letter_id``, charged in his letter
    ``charged_in_id`` (002 §4.2.11 for errors of §4.2.9–§4.2.10, §4.3.3 for a repeated omission
    of a date), as an official enters them from the partner's card.

    Refused (:class:`LetterErrorRefused`, nothing stored): without its reason ("с указанием, за
    что именно"); in any letter but the very next reply to the faulty one ("если такое
    начисление не сделано в ответном письме, то в дальнейшем это право теряется"); a second
    charge for one letter (6 days "независимо от количества нарушений в одном письме"); under
    §4.3.3, for a letter that omitted no date or for a first omission (a notice only).
    """
    if rule not in PARTNER_CHARGE_RULES:
        raise LetterErrorRefused("002 §4.2.11", _(
            "a partner charges penalty days under 002 §4.2.11 or §4.3.3, not %(rule)s", rule=rule))
    if not reason.strip():
        raise LetterErrorRefused("002 §4.2.11", _(
            "a penalty says what it is for: the reason is required"))
    view = GameView(game)
    faulty = _letter_of(view, letter_id, rule)
    charging = _letter_of(view, charged_in_id, rule)
    if faulty.sender_id is None or charging.sender_id is None or (
            charging.sender_id == faulty.sender_id):
        raise LetterErrorRefused(rule, _("only the partner of the sender of letter %(n)s charges "
                                         "for it", n=faulty.sequence))
    letters = view.letters
    reply = next((item for item in letters[letters.index(faulty) + 1:]
                  if item.sender_id == charging.sender_id), None)
    if reply is not charging:
        raise LetterErrorRefused(rule, _(
            "the right to charge for letter %(n)s was lost: it is charged only in the very next "
            "reply to it%(reply)s", n=faulty.sequence,
            reply=_(" (letter %(m)s)", m=reply.sequence) if reply is not None else ""))
    if any(row.letter_id == faulty.id and row.case_id is None and row.days > 0
           for row in view.game_penalties()):
        raise LetterErrorRefused(rule, _(
            "letter %(n)s is already charged: 6 days once per letter, whatever the number of "
            "faults in it", n=faulty.sequence))
    if rule == "002 §4.3.3":
        omissions = [item for item in letters if item.sender_id == faulty.sender_id
                     and item.moves_text.strip() and _omitted_receipt(view, item)]
        if faulty not in omissions:
            raise LetterErrorRefused(rule, _("letter %(n)s omitted no date", n=faulty.sequence))
        if omissions.index(faulty) == 0:
            raise LetterErrorRefused(rule, _(
                "a first omission of a date earns a notice only; the 6 days are for a repeated "
                "one"))
    return charge_penalty(session, game, faulty.sender_id, PENALTY_DAYS, rule=rule,
                          reason=reason.strip(), on=charging.sent or on, user=user, letter=faulty)


def supplied_receipt_problem(view: GameView, sender_id: int, day: dt.date) -> LetterErrorRefused | None:
    """Why ``sender_id``'s next letter cannot supply ``day`` as the receipt date he left out of
    his previous letter (002 §4.3.3), or ``None`` when it can."""
    previous = next((letter for letter in reversed(view.letters)
                     if letter.sender_id == sender_id and letter.moves_text.strip()
                     and letter.sent is not None), None)
    if previous is None or not _omitted_receipt(view, previous):
        return LetterErrorRefused("002 §4.3.3", _(
            "the previous letter of this player omitted no receipt date; there is nothing to "
            "supply"))
    assert previous.sent is not None
    if (previous.partner_sent is not None and day < previous.partner_sent) or day > previous.sent:
        return LetterErrorRefused("002 §4.3.1", _(
            "the receipt date supplied (%(day)s) must fall between the partner's dispatch and "
            "the reply of letter %(n)s", day=f"{day:%d.%m.%Y}", n=previous.sequence))
    return None


def record_error_report(
    session: Session, game: Game, *, reporter_id: int, letter_id: int, received: dt.date,
    reported: dt.date, channel: Channel, on: dt.date, user: User | None,
) -> Letter:
    """A player's report to his partner that letter ``letter_id`` did not repeat the moves, or
    repeated them wrongly or illegibly (002 §4.2.9): a letter of the archive that moves nothing.

    ``received`` is the day the faulty letter came, ``reported`` the day of the report. Up to 3
    days are the reporter's and count for nobody; later days up to the report are his think
    time, charged by the time chart (docs/rules/timekeeping.md, reading 31). Refused
    (:class:`LetterErrorRefused`, nothing stored): a letter not the partner's latest one, a
    report dated before the letter came or after today, a second report of one letter.
    """
    view = GameView(game)
    faulty = _letter_of(view, letter_id, "002 §4.2.9")
    if reporter_id not in (game.white_id, game.black_id) or faulty.sender_id in (None, reporter_id):
        raise LetterErrorRefused("002 §4.2.9", _(
            "a player reports his partner's letter, not his own"))
    # The letter now being answered: a card play stopped at keeps no move until corrected.
    latest = view.letters[-1] if view.letters else None
    if faulty is not latest:
        raise LetterErrorRefused("002 §4.2.9", _(
            "only the partner's letter now being answered can be reported (letter %(n)s)",
            n=latest.sequence if latest is not None else "—"))
    if faulty.sent is not None and received < faulty.sent:
        raise LetterErrorRefused("002 §4.3.1", _(
            "letter %(n)s cannot have come (%(received)s) before it was sent (%(sent)s)",
            n=faulty.sequence, received=f"{received:%d.%m.%Y}", sent=f"{faulty.sent:%d.%m.%Y}"))
    if reported < received or reported > on:
        raise LetterErrorRefused("002 §4.2.9", _(
            "the report (%(reported)s) must be dated between the letter's arrival (%(received)s) "
            "and today", reported=f"{reported:%d.%m.%Y}", received=f"{received:%d.%m.%Y}"))
    if any(letter.reports_error_of_id == faulty.id and letter.sender_id == reporter_id
           for letter in view.error_report_letters()):
        raise LetterErrorRefused("002 §4.2.9", _(
            "letter %(n)s is already reported", n=faulty.sequence))
    row = append_letter(session, game, LetterInput(
        sender_id=reporter_id, channel=channel,
        raw_text=f"002 §4.2.9: error of letter {faulty.sequence} reported",
        partner_sent=faulty.sent, received=received, sent=reported,
        reports_error_of_id=faulty.id,
    ), user)
    late = (reported - error_report_due(TimedReport(side_of(game, reporter_id), faulty.sequence,
                                                    received, reported))).days
    audit.record(session, user=user, action="letter.error_reported", entity="letter",
                 entity_id=row.id, tournament_id=game.tournament_id, rule="002 §4.2.9",
                 summary=f"game {game.id}: letter {faulty.sequence} reported on "
                         f"{reported:%d.%m.%Y}", detail={"days_after_the_third": max(late, 0)})
    return row


# -- breaks ----------------------------------------------------------------------------------------


class BreakRefused(ValueError):
    """A break the rules do not allow (002 §4.4.1–§4.4.3); nothing was stored."""

    def __init__(self, participant_id: int, reasons: Sequence[str],
                 messages: Sequence[str] = (), violations: Sequence[RuleViolation] = ()) -> None:
        super().__init__(f"participant {participant_id}: break refused: " + "; ".join(reasons))
        self.participant_id = participant_id
        self.reasons = tuple(reasons)
        #: The rule package's verdicts (codes and values), for the reader's language.
        self.violations = tuple(violations)
        #: The same reasons without their rule, as a player's notice words them.
        self.messages = tuple(messages)


@dataclass(frozen=True)
class BreakVerdict:
    """An announcement «беру перерыв с … по …» judged before anything is stored: the dates the
    player wrote, the day it was announced, the dates that stand (``None``: refused) and what
    the rules found (the refusal's reasons, or the cut of a break over 30 days)."""

    announced: tuple[dt.date, dt.date]
    announced_on: dt.date
    stands: tuple[dt.date, dt.date] | None
    violations: tuple[RuleViolation, ...]

    @property
    def refused(self) -> bool:
        return self.stands is None

    @property
    def cut(self) -> bool:
        """A break over 30 days that stands for its first 30 (002 §4.4.1)."""
        return self.stands is not None and self.stands != self.announced

    @property
    def late(self) -> bool:
        """Announced after its first day: it counts from the announcement (002 §4.4.2)."""
        return self.stands is not None and self.announced_on > self.stands[0]

    @property
    def counts_from(self) -> dt.date | None:
        """The first day the break frees anybody's time (002 §4.4.2, «со дня его объявления»)."""
        counted = self.counted
        return None if counted is None else counted[0]

    @property
    def counted(self) -> tuple[dt.date, dt.date] | None:
        """The days the break frees, as the time chart counts them: from :attr:`counts_from` to
        its last day that stands. A break announced after it began keeps the dates it stands
        for (the same in all games, 002 §4.4.1), but the days before the announcement are
        ordinary days of play unless the referee counts them (002 §4.4.2, §4.4.5)."""
        if self.stands is None:
            return None
        return max(self.stands[0], self.announced_on), self.stands[1]

    @property
    def counted_days(self) -> int:
        """How many days :attr:`counted` holds, both ends included (002 §4.4.3)."""
        counted = self.counted
        return 0 if counted is None else (counted[1] - counted[0]).days + 1

    @property
    def uncounted(self) -> tuple[dt.date, dt.date] | None:
        """The days of a break announced after it began that come before the announcement:
        ordinary days of play, unless the referee counts them (002 §4.4.2, §4.4.5)."""
        counted = self.counted
        if self.stands is None or counted is None or counted[0] == self.stands[0]:
            return None
        return self.stands[0], counted[0] - dt.timedelta(days=1)

    def refusal(self, participant_id: int) -> BreakRefused:
        return BreakRefused(participant_id, [f"{v.rule}: {v.message}" for v in self.violations],
                            [v.message for v in self.violations], self.violations)


@dataclass(frozen=True)
class RecordedBreak:
    row: Break
    #: The limits the announcement overran (a break over 30 days stands for its first 30).
    violations: tuple[RuleViolation, ...]
    verdict: BreakVerdict

    @property
    def first_day(self) -> dt.date:
        return self.row.start_date

    @property
    def last_day(self) -> dt.date:
        return self.row.end_date

    @property
    def days(self) -> int:
        return (self.row.end_date - self.row.start_date).days + 1


def judge_break(participant: Participant, first_day: dt.date, last_day: dt.date, *,
                announced_on: dt.date) -> BreakVerdict:
    """The announcement judged by :func:`timekeeping.judge_announcement` against the breaks the
    player has already taken; nothing is stored. Every channel's announcement, and the web's
    preview of one, is judged here."""
    side = Side.WHITE  # the limits are per player; the side is only a label here
    taken = [break_span(side, item) for item in participant.breaks]
    stands, violations = judge_announcement(taken, BreakSpan(side, first_day, last_day),
                                            announced_on=announced_on)
    return BreakVerdict((first_day, last_day), announced_on,
                        None if stands is None else (stands.first_day, stands.last_day),
                        tuple(violations))


def record_break(
    session: Session,
    participant: Participant,
    first_day: dt.date,
    last_day: dt.date,
    *,
    announced_on: dt.date,
    user: User | None,
) -> RecordedBreak:
    """A player's announced break «беру перерыв с … по …» (002 §4.4.2, §4.4.3), whatever carried it.

    :func:`judge_break` decides: a break refused (a second one in its year, one joining a break
    taken, one announced after it ended, the same one again) raises :class:`BreakRefused` with
    nothing stored, so it uses up nothing; one over 30 days stands for its first 30
    (timekeeping's reading), and the overrun is returned for the player to be told.
    """
    verdict = judge_break(participant, first_day, last_day, announced_on=announced_on)
    if verdict.stands is None:
        raise verdict.refusal(participant.id)
    first, last = verdict.stands
    row = Break(participant_id=participant.id, start_date=first, end_date=last,
                announced_on=announced_on, entered_by_id=_user_id(user))
    session.add(row)
    session.flush()
    session.expire(participant, ["breaks"])
    audit.record(session, user=user, action="break.recorded", entity="participant",
                 entity_id=participant.id, tournament_id=participant.tournament_id,
                 rule="002 §4.4.2",
                 summary=f"{participant.player.name}: break {first:%d.%m.%Y}–{last:%d.%m.%Y}",
                 detail={"violations": [str(v) for v in verdict.violations],
                         "announced": f"{first_day:%d.%m.%Y}–{last_day:%d.%m.%Y}",
                         "announced_on": f"{announced_on:%d.%m.%Y}"})
    return RecordedBreak(row, verdict.violations, verdict)


def grant_special_break(
    session: Session, participant_id: int, first_day: dt.date, last_day: dt.date, *,
    requested_on: dt.date, user: User | None, referee_grant: str | None = None,
) -> Break:
    """A special break the referee granted (002 §4.4.5): ``referee_grant`` says which grant it
    is (a late notice counted, or an extra break); audited with the case's effect."""
    row = Break(participant_id=participant_id, kind=BreakKind.SPECIAL, start_date=first_day,
                end_date=last_day, announced_on=requested_on, granted_by_id=_user_id(user),
                entered_by_id=_user_id(user), referee_grant=referee_grant)
    session.add(row)
    return row


def revoke_special_break(
    session: Session, participant_id: int, first_day: dt.date, last_day: dt.date
) -> None:
    session.execute(delete(Break).where(
        Break.participant_id == participant_id, Break.kind == BreakKind.SPECIAL,
        Break.start_date == first_day, Break.end_date == last_day))


# -- the start sheet -------------------------------------------------------------------------------


def record_start_sheet_receipt(
    session: Session, participant: Participant, received: dt.date, user: User | None
) -> None:
    """The day ``participant``'s start sheet arrived; after the start date it moves his start to
    the next day in every game (002 §4.3.2, counted by :mod:`timekeeping`)."""
    participant.start_sheet_received = received
    audit.record(session, user=user, action="participant.start_sheet_received",
                 entity="participant", entity_id=participant.id,
                 tournament_id=participant.tournament_id, rule="002 §4.3.2",
                 summary=f"{participant.player.name}: start sheet received {received:%d.%m.%Y}")


# -- the steward's forwarding (002 §4.1.1) ----------------------------------------------------


class ForwardingRefused(ValueError):
    """A forwarding the rules do not allow; nothing was stored. ``rule`` is the point refused
    under, ``message`` the reason in the reader's language, ``code`` which refusal it is."""

    def __init__(self, rule: str, message: str, code: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.code = code


#: How the steward passes a move on to a player who does not play by e-mail (002 §4.1.1, §4.1.2).
FORWARDING_CHANNELS = (Channel.POST, Channel.PHONE)


def record_forwarding(
    session: Session, game: Game, *, letter_id: int | None, on: dt.date, channel: Channel,
    today: dt.date, user: User | None,
) -> Forwarding:
    """The steward (or the tournament's referee or organizer) posted the move letter
    ``letter_id`` (``None``: the move waiting for him) on ``on`` — the day of its postmark — or telephoned it that day, to its
    recipient, who plays by post or telephone while the move came by e-mail or on the web
    (002 §4.1.1). Until the recipient's card states his receipt, his clock counts from that day
    plus the average transit, a call's day being the receipt itself (002 §4.3.1, §4.3.3;
    docs/rules/mail.md 21); the game's stored state is recomputed in this transaction.

    Append-only like the ledger: a second record for the same letter is its correction, and the
    latest counts. Refused (:class:`ForwardingRefused`, nothing stored): a finished game, a
    channel other than post or telephone, a letter that is not the move now waiting for the
    steward, a day before the move's own dispatch, a day after ``today`` (one day of grace: the
    tournament's day is its time zone's, and a steward far east of it is already in tomorrow).
    """
    lock_game(session, game.id)
    session.expire(game, ["letters"])  # the ledger as it stands under the lock
    if game.state in (GameState.FINISHED, GameState.ADJUDICATION):
        raise ForwardingRefused("002 §4.5", _(
            "the game is finished; no move of it is forwarded"), "finished")
    if channel not in FORWARDING_CHANNELS:
        raise ForwardingRefused("002 §4.1.1", _(
            "a move is forwarded by post or by telephone"), "channel")
    view = GameView(game)
    waiting = view.move_to_forward()
    if waiting is None:
        raise ForwardingRefused("002 §4.1.1", _(
            "no move of this game waits for the steward to forward it: the last move came by "
            "post or telephone, or its recipient plays by e-mail"), "not_waiting")
    letter = waiting if letter_id is None else view.letter_as_it_reads(letter_id)
    if letter is not waiting:
        raise ForwardingRefused("002 §4.1.1", _(
            "letter %(n)s is not the move waiting to be forwarded; letter %(waiting)s is",
            n=letter.sequence if letter is not None else letter_id,
            waiting=waiting.sequence), "not_waiting")
    assert letter.sender_id is not None
    if letter.sent is not None and on < letter.sent:
        raise ForwardingRefused("002 §4.3.1", _(
            "the move of letter %(n)s was sent on %(sent)s; it cannot have been forwarded on "
            "%(day)s, before that", n=letter.sequence, sent=f"{letter.sent:%d.%m.%Y}",
            day=f"{on:%d.%m.%Y}"), "before_dispatch")
    if on > today + dt.timedelta(days=1):
        raise ForwardingRefused("002 §4.3.1", _(
            "the day forwarded %(day)s is after today, %(today)s; give the day of the postmark "
            "or of the call", day=f"{on:%d.%m.%Y}", today=f"{today:%d.%m.%Y}"), "after_today")
    earlier = view.forwardings.get(letter.id)
    row = Forwarding(game_id=game.id, letter_id=letter.id, channel=channel, forwarded_on=on,
                     entered_by_id=_user_id(user))
    session.add(row)
    session.flush()
    recipient = game.partner_of(letter.sender_id)
    audit.record(
        session, user=user, action="letter.forwarded", entity="letter", entity_id=letter.id,
        tournament_id=game.tournament_id, rule="002 §4.1.1",
        summary=f"game {game.id}, letter {letter.sequence}: forwarded by {channel.value} to "
                f"{recipient.player.name} on {on:%d.%m.%Y}",
        detail={"forwarding_id": row.id, "channel": channel.value, "on": on.isoformat(),
                "corrects": earlier.forwarded_on.isoformat() if earlier is not None else None},
    )
    return row
