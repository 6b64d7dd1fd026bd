"""Letters that a date, not a player, sends: start sheets, repeats, first-move queries, digests.

:class:`Schedule.run` is meant to be called once a day or more (``corrmail mailer`` calls it on
every pass); every letter is deduplicated by its kind, game, recipient and subject, and the
subject carries the date it is about, so calling it again the same day sends nothing twice.

* **Repeat** (002 §4.3.4): a move left unanswered for 30 counted days (breaks do not run) is
  repeated by the server to the partner as the registered-letter equivalent, with the three dates
  and the time fraction of the first dispatch; the sender gets a copy. A repeat is sent once and
  recorded (:mod:`corrmail.letters.repeats`); only if it too stays unanswered for 30 counted days
  is the next one due. Its subject carries the day it is sent, so the subject alone cannot tell
  a repeat already sent: the record does.
* **First-move query** (002 §4.3.4): 30 counted days after White's start with no first move,
  White is asked for it; Black gets a copy. White's start is the game's start date, or the day
  after he received his start sheet when it reached him later (002 §4.3.2).
* **End of play** (002 §4.5.2): on the end-of-play date each player of an unfinished game is
  told to send the record, a diagram of the final position, his assessment and analysis to the
  referee within 10 days, with that day as ``.ics``.
* **Weekly digest**: each e-mail player, once per ISO week, gets the games where he is to move
  and the days left before an overstep (``timekeeping.days_left``).
* **Start sheet** (002 §4.3.2): sent on request (:meth:`Schedule.send_start_sheets`) with an
  ``.ics`` of the start and end-of-play dates.

A repeat or first-move query to a player who plays by post or telephone
(:func:`corrmail.letters.recipients.plays_by_email` is false, even with an address on file)
goes where the server's letters of his game go: to the tournament's stewards, who post it
(002 §4.1.1). A game in which neither player plays by e-mail is left to the players: each
repeats (or queries) by registered post himself.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from corrmail.games.ledger import to_move
from corrmail.games.view import GameView, UnsupportedGameType, side_of
from corrmail.letters.recipients import Recipient, game_letter_addressees, plays_by_email
from corrmail.letters.repeats import record_repeat, repeats_on_record
from corrmail.letters.write import LetterWriter
from corrmail.mail.calendar import CalendarDate, calendar_attachment
from corrmail.models import (
    Game,
    GameState,
    OutboxMessage,
    Participant,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    User,
)
from timekeeping import (
    NotToMoveError,
    Side,
    compute_chart,
    days_left,
    effective_start,
    first_move_query_date,
    local_date,
    repeat_due_of,
)

__all__ = ["Schedule", "ScheduleReport"]

_OPEN_GAMES = (GameState.IN_PLAY, GameState.NOT_STARTED)
#: 002 §4.5.2: records of unfinished games reach the referee within 10 days after the end of play.
ADJUDICATION_FILING = dt.timedelta(days=10)


@dataclass
class ScheduleReport:
    repeats: int = 0
    first_move_queries: int = 0
    digests: int = 0
    start_sheets: int = 0
    end_of_play: int = 0
    #: Scheduled bulletins issued and sent (002 §4.1.8), filled in by ``MailService.run_schedule``.
    bulletins: int = 0
    start_sheet_recipients: list[Participant] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class Schedule:
    def __init__(self, writer: LetterWriter) -> None:
        self.writer = writer

    def run(self, session: Session, now: dt.datetime | dt.date) -> ScheduleReport:
        """Send what is due; ``now`` is an instant (each tournament's own calendar day is used)
        or a fixed date (a replay with ``CORRMAIL_TODAY``)."""
        report = ScheduleReport()
        tournaments = session.scalars(
            select(Tournament).where(
                Tournament.status == TournamentStatus.RUNNING,
                Tournament.channel.in_([TournamentChannel.EMAIL, TournamentChannel.MIXED]),
            )
        ).all()
        for tournament in tournaments:
            today = now if not isinstance(now, dt.datetime) else local_date(now, tournament.time_zone)
            for game in tournament.games:
                if game.state in _OPEN_GAMES:
                    self._repeat_or_query(session, game, today, report)
            if today.isoweekday() == 1:
                self._digests(session, tournament, today, report)
            if tournament.end_date <= today <= tournament.end_date + ADJUDICATION_FILING:
                self._end_of_play(session, tournament, report)
        return report

    # -- end of play -----------------------------------------------------------------------

    def _end_of_play(self, session: Session, tournament: Tournament,
                     report: ScheduleReport) -> None:
        """002 §4.5.2: unfinished games go to the referee within 10 days of the end of play."""
        due = tournament.end_date + ADJUDICATION_FILING
        ics = calendar_attachment(
            [CalendarDate(f"adjudication-filing-{tournament.id}",
                          f"{tournament.code}: last day to file unfinished games (002 §4.5.2)", due)],
            domain=self.writer.settings.domain, filename="adjudication.ics",
        )
        for game in tournament.games:
            if game.state not in (*_OPEN_GAMES, GameState.SUSPENDED):
                continue
            for participant in (game.white, game.black):
                context = {**self._context(game, participant), "end": tournament.end_date,
                           "due": due}
                # A player by post gets it from the steward, as every game letter (002 §4.1.1).
                if self._deliver_once(session, participant, kind="end_of_play",
                                      template="end_of_play", game=game, context=context,
                                      attachments=(ics,)):
                    report.end_of_play += 1

    # -- helpers ----------------------------------------------------------------------------

    def _already(self, session: Session, kind: str, game_id: int | None, to: str, subject: str) -> bool:
        return bool(session.scalar(select(exists().where(
            OutboxMessage.kind == kind, OutboxMessage.game_id == game_id,
            OutboxMessage.recipient == to, OutboxMessage.subject == subject,
        ))))

    def _deliver_once(self, session: Session, participant: Participant, *, kind: str,
                      template: str, game: Game, context: dict[str, Any],
                      attachments: Iterable[Any] = ()) -> list[str]:
        """A game letter to ``participant`` where his letters go
        (:func:`~corrmail.letters.recipients.game_letter_addressees`), once per address and
        subject. Returns the addresses written to now."""
        written = []
        for recipient in game_letter_addressees(session, participant):
            steward = recipient.user
            if steward is None:
                if self._post_once(session, participant, kind=kind, template=template,
                                   game=game, context=context, attachments=attachments) \
                        and recipient.email:
                    written.append(recipient.email)
                continue
            assert steward.email is not None
            letter = {**context, "official": steward}
            subject = self.writer.render(template, recipient.language, **letter).subject
            if self._already(session, kind, game.id, steward.email, subject):
                continue
            self.writer.post(
                session, kind=kind, to=steward.email, template=template,
                language=recipient.language, context=letter, tournament_id=game.tournament_id,
                game_id=game.id,
            )
            written.append(steward.email)
        return written

    def _post_once(self, session: Session, participant: Participant, *, kind: str, template: str,
                   game: Game | None, context: dict[str, Any], attachments: Iterable[Any] = ()) -> bool:
        email = participant.player.email
        if not email:
            return False
        language = Recipient.player(session, participant).language
        rendered = self.writer.render(template, language, **context)
        if self._already(session, kind, game.id if game else None, email, rendered.subject):
            return False
        self.writer.post(
            session, kind=kind, to=email, template=template, language=language, context=context,
            reply_for=(game.id, participant.id) if game else None,
            attachments=tuple(attachments), tournament_id=participant.tournament_id,
            game_id=game.id if game else None,
        )
        return True

    def _context(self, game: Game, recipient: Participant) -> dict[str, Any]:
        return {"tournament": game.tournament, "game": game, "recipient": recipient.player,
                "white": game.white.player, "black": game.black.player}

    # -- repeats and first-move queries ----------------------------------------------------

    def _repeat_or_query(self, session: Session, game: Game, today: dt.date,
                         report: ScheduleReport) -> None:
        if not (plays_by_email(game.white) or plays_by_email(game.black)):
            return  # both play by post: each repeats (or queries) by registered post himself
        try:
            view = GameView(game)
            ledger = view.ledger()
            chart = compute_chart(ledger)
        except UnsupportedGameType as error:
            report.skipped.append(str(error))
            return
        movers = [letter for letter in view.letters if letter.moves_text.strip()]
        if not movers:
            # 002 §4.3.2: White's play begins on the start date, or the day after he received
            # a start sheet that reached him later; his 30 days count from then.
            start = effective_start(ledger, Side.WHITE)
            due = first_move_query_date(start, chart.break_calendar)
            if today < due:
                return
            context = {**self._context(game, game.white), "due": due, "start": start}
            sent = self._deliver_once(session, game.white, kind="first_move_query",
                                      template="first_move_query", game=game, context=context)
            self._deliver_once(session, game.black, kind="first_move_query",
                               template="first_move_query", game=game,
                               context={**context, "recipient": game.black.player})
            report.first_move_queries += int(bool(sent))
            return
        last = movers[-1]
        if last.sent is None or last.sender_id is None:
            return
        # A move the steward forwarded is repeated 30 days after he posted it (002 §4.1.1);
        # once repeated, the next repeat is due 30 days after the last one (002 §4.3.4).
        first_due = repeat_due_of(ledger.letters[-1], chart.break_calendar)
        record = repeats_on_record(session, tournament_id=game.tournament_id, game_id=game.id)
        due = record.next_due(game.id, first_due, chart.break_calendar)
        if today < due:
            return
        sender = game.white if last.sender_id == game.white_id else game.black
        partner = game.partner_of(sender.id)
        row = next((r for r in chart.rows if r.sent == last.sent and r.sender.value ==
                    side_of(game, sender.id).value), None)
        fraction = str(row.totals) if row else str(chart.totals)
        context = {
            **self._context(game, partner), "sender": sender.player, "moves": last.moves_text,
            "variants": [last.variants_text] if last.variants_text.strip() else [],
            "dates": (last.partner_sent, last.received, last.sent), "fraction": fraction,
            "repeat_date": today, "due": due, "previous_repeat": record.last_sent(game.id, first_due),
        }
        sent = self._deliver_once(session, partner, kind="repeat", template="repeat", game=game,
                                  context=context)
        if not sent:
            return  # nobody to carry it (a postal partner and no steward with an address)
        copies = self._deliver_once(session, sender, kind="repeat", template="repeat",
                                    game=game, context={**context, "recipient": sender.player})
        record_repeat(session, tournament_id=game.tournament_id, game_id=game.id,
                      letter_id=last.id, first_due=first_due, on=today, to=[*sent, *copies])
        report.repeats += 1

    # -- weekly digest ---------------------------------------------------------------------

    def _digests(self, session: Session, tournament: Tournament, today: dt.date,
                 report: ScheduleReport) -> None:
        week = today.isocalendar()
        for participant in tournament.participants:
            rows = []
            for game in tournament.games:
                if game.state not in _OPEN_GAMES or participant.id not in (game.white_id, game.black_id):
                    continue
                mover = to_move(game)
                if mover is None or mover.id != participant.id:
                    continue
                try:
                    view = GameView(game)
                    left = days_left(view.ledger(), side_of(game, participant.id), today,
                                     view.relayed_to_mover())
                except (NotToMoveError, UnsupportedGameType):
                    continue
                rows.append({"game": game, "partner": game.partner_of(participant.id).player,
                             "days_left": left})
            if not rows:
                continue
            context = {"tournament": tournament, "recipient": participant.player, "rows": rows,
                       "week": f"{week.year}-W{week.week:02d}", "today": today}
            if self._post_once(session, participant, kind="digest", template="digest", game=None,
                               context=context):
                report.digests += 1

    # -- start sheets ------------------------------------------------------------------------

    def send_start_sheets(self, session: Session, tournament: Tournament,
                          participants: Sequence[Participant] | None = None, *,
                          again: bool = False) -> ScheduleReport:
        """002 §4.3.2: each participant's pairings, the start and end-of-play dates, and an .ics.

        Each game is listed with its own signed reply address; the letter itself answers to the
        player's first game as White (else his first game), so a reply carrying "1. c3-d4" is
        White's first move. Sent once per player and subject unless ``again`` (a resend).
        """
        report = ScheduleReport()
        ics = calendar_attachment(
            [CalendarDate(f"start-{tournament.id}", f"{tournament.code}: начало игры",
                          tournament.start_date),
             CalendarDate(f"end-{tournament.id}", f"{tournament.code}: окончание игры",
                          tournament.end_date)],
            domain=self.writer.settings.domain, filename=f"{tournament.code}.ics",
        )
        for participant in tournament.participants if participants is None else participants:
            email = participant.player.email
            if not email:
                continue
            games = [g for g in tournament.games if participant.id in (g.white_id, g.black_id)]
            replies = next((g for g in games if g.white_id == participant.id), None) or (
                games[0] if games else None)
            context = {
                "tournament": tournament, "recipient": participant.player,
                "games": [{"game": g, "colour": side_of(g, participant.id).value,
                           "partner": g.partner_of(participant.id).player,
                           "address": self.writer.signer.reply_address(g.id, participant.id)}
                          for g in games],
                "replies_to": replies,
                "start_sheet_rule": "002 §4.3.2",
                # What he types at the login form, when he has a login.
                "login": session.scalar(select(User.login).where(
                    User.player_id == participant.player_id)),
            }
            language = Recipient.player(session, participant).language
            subject = self.writer.render("start_sheet", language, **context).subject
            if not again and self._already(session, "start_sheet", None, email, subject):
                continue
            self.writer.post(
                session, kind="start_sheet", to=email, template="start_sheet", language=language,
                context=context, attachments=(ics,), tournament_id=tournament.id,
                reply_for=(replies.id, participant.id) if replies is not None else None,
            )
            report.start_sheets += 1
            report.start_sheet_recipients.append(participant)
        return report
