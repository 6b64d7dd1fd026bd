"""Publishing a tournament: from regulations and entries to games in play (002 §4.3.2).

``publish`` checks that the tournament can start (players, a referee, dates, time control) and
names exactly what is missing; creates the round robin's games from the Berger table when there
are none yet; sets the tournament running; and sends each player his start sheet:

* an **e-mail player** gets one letter listing his games, each with its own signed reply address
  (the letter itself answers to his first game as White), so a reply carrying ``1. c3-d4`` is
  White's first move and counts from his start;
* a **postal player**'s sheet is a printable A4 page listed for the steward, who posts it and
  records the day (:func:`record_sheet_posted`);
* a **telephone player**'s sheet goes to the steward the same way; he reads it out.

Publishing again sends nothing new (a player whose sheet went out is skipped); ``resend`` sends
one player's sheet again. A Swiss or team event publishes its rounds with ``corrmail round
publish``; this step then only starts the tournament and sends the sheets of published rounds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.games import record_start_sheet_receipt
from corrmail.letters.recipients import channel_of, plays_by_email
from corrmail.letters.scheduled import Schedule
from corrmail.letters.write import LetterWriter
from corrmail.models import (
    Channel,
    Game,
    Participant,
    Role,
    Tournament,
    TournamentOfficial,
    TournamentStatus,
    User,
)
from corrmail.models.enums import ROUND_ROBIN_SYSTEMS
from corrmail.tournaments.lock import lock_tournament
from corrmail.tournaments.start_sheets import CYCLES, PairingRefused, pair_round_robin

__all__ = [
    "Missing", "PublishRefused", "PublishReport", "missing_for_publication",
    "publish", "resend", "record_sheet_posted", "sheets_for_steward",
]

START_SHEET_RULE = "002 §4.3.2"


@dataclass(frozen=True)
class Missing:
    """One thing the tournament lacks before it can start; ``values`` for the message."""

    code: str
    message: str


class PublishRefused(ValueError):
    def __init__(self, tournament_code: str, missing: Sequence[Missing]) -> None:
        super().__init__(f"{tournament_code}: " + "; ".join(item.message for item in missing))
        self.tournament_code = tournament_code
        self.missing = tuple(missing)


@dataclass
class PublishReport:
    games_created: int = 0
    started: bool = False
    emailed: list[Participant] = field(default_factory=list)
    #: Postal and telephone players whose sheets wait for the steward.
    for_steward: list[Participant] = field(default_factory=list)


def _active(tournament: Tournament) -> list[Participant]:
    return [p for p in tournament.participants if p.withdrawn_on is None]


def missing_for_publication(session: Session, tournament: Tournament) -> list[Missing]:
    """Everything that keeps ``tournament`` from starting, each named (empty: it may start)."""
    missing: list[Missing] = []
    if tournament.status is TournamentStatus.FINISHED:
        missing.append(Missing("finished", _("the tournament is finished")))
        return missing
    players = _active(tournament)
    if len(players) < 2:
        missing.append(Missing("players", _(
            "players: %(count)s entered, at least two are needed", count=len(players))))
    unnumbered = [p.player.name for p in players if p.start_number is None]
    if unnumbered:
        missing.append(Missing("start_numbers", _(
            "start numbers: none for %(names)s", names=", ".join(unnumbered))))
    for participant in players:
        channel = channel_of(participant)
        if channel is Channel.EMAIL and not participant.player.email:
            missing.append(Missing("email", _(
                "e-mail address: none for %(name)s, who plays by e-mail",
                name=participant.player.name)))
        if channel is Channel.POST and not participant.player.postal_address:
            missing.append(Missing("postal_address", _(
                "postal address: none for %(name)s, who plays by post",
                name=participant.player.name)))
    referee = session.scalar(select(TournamentOfficial.user_id).where(
        TournamentOfficial.tournament_id == tournament.id,
        TournamentOfficial.role == Role.REFEREE))
    if referee is None:
        missing.append(Missing("referee", _("officials: no referee appointed (002 §4.1.6)")))
    if tournament.end_date <= tournament.start_date:
        missing.append(Missing("dates", _(
            "dates: the end of play %(end)s is not after the start %(start)s",
            end=tournament.end_date.strftime("%d.%m.%Y"),
            start=tournament.start_date.strftime("%d.%m.%Y"))))
    if tournament.time_control_days <= 0 or tournament.time_control_moves <= 0:
        missing.append(Missing("control", _(
            "time control: %(days)s days per %(moves)s moves is not a control (002 §4.3.1)",
            days=tournament.time_control_days, moves=tournament.time_control_moves)))
    return missing


def publish(session: Session, tournament: Tournament, *, by: User | None,
            writer: LetterWriter | None, today: dt.date) -> PublishReport:
    """Check, pair, start and send the start sheets not yet sent; refused whole when incomplete.

    ``writer`` None (no mail settings) leaves e-mail sheets unsent: publishing again sends them.
    """
    lock_tournament(session, tournament.id)
    missing = missing_for_publication(session, tournament)
    if missing:
        raise PublishRefused(tournament.code, missing)
    report = PublishReport()
    games = session.scalar(select(func.count()).select_from(Game)
                           .where(Game.tournament_id == tournament.id)) or 0
    if not games and tournament.system in CYCLES:
        try:
            report.games_created = len(pair_round_robin(session, tournament, by))
        except PairingRefused as error:
            raise PublishRefused(tournament.code, [Missing("pairing", error.reason)]) from error
        session.expire(tournament, ["games"])
    if tournament.status is TournamentStatus.DRAFT:
        tournament.status = TournamentStatus.RUNNING
        report.started = True
        audit.record(session, user=by, action="tournament.published", entity="tournament",
                     entity_id=tournament.id, tournament_id=tournament.id,
                     rule=START_SHEET_RULE,
                     summary=f"{tournament.code}: running, {report.games_created} games created")
    _send(session, tournament, [p for p in _active(tournament) if p.start_sheet_sent_on is None],
          report, by=by, writer=writer, today=today, again=False)
    return report


def resend(session: Session, tournament: Tournament, participant: Participant, *,
           by: User | None, writer: LetterWriter | None, today: dt.date) -> PublishReport:
    """Send one player's start sheet again (an e-mail again, or back on the steward's list)."""
    if tournament.status is TournamentStatus.DRAFT:
        raise PublishRefused(tournament.code, [Missing("not_published", _(
            "the tournament is not published yet; publish it first"))])
    report = PublishReport()
    if not plays_by_email(participant):
        participant.start_sheet_sent_on = None
    _send(session, tournament, [participant], report, by=by, writer=writer, today=today,
          again=True)
    return report


def _send(session: Session, tournament: Tournament, participants: Sequence[Participant],
          report: PublishReport, *, by: User | None, writer: LetterWriter | None,
          today: dt.date, again: bool) -> None:
    # A web player with an address gets his sheet by e-mail as an e-mail player does; the
    # steward posts (or reads out) the others' (002 §4.3.2).
    by_email = [p for p in participants if plays_by_email(p)]
    report.for_steward.extend(p for p in participants if not plays_by_email(p))
    if writer is not None and by_email:
        sent = Schedule(writer).send_start_sheets(session, tournament, by_email, again=again)
        for participant in sent.start_sheet_recipients:
            participant.start_sheet_sent_on = today
            report.emailed.append(participant)
            audit.record(session, user=by, action="participant.start_sheet_sent",
                         entity="participant", entity_id=participant.id,
                         tournament_id=tournament.id, rule=START_SHEET_RULE,
                         summary=f"{participant.player.name}: start sheet e-mailed")
            if today > tournament.start_date and participant.start_sheet_received is None:
                # An e-mail arrives the day it is sent (docs/rules/mail.md 1): a sheet sent after
                # the start date starts his play the next day (002 §4.3.2).
                record_start_sheet_receipt(session, participant, today, by)


def sheets_for_steward(tournament: Tournament) -> list[Participant]:
    """The players whose sheet the steward posts or reads out (all but those it is e-mailed to),
    with the day each was posted (None: still to post)."""
    if tournament.status is TournamentStatus.DRAFT:
        return []
    return [p for p in _active(tournament) if not plays_by_email(p)]


def record_sheet_posted(session: Session, participant: Participant, posted_on: dt.date,
                        *, by: User | None, today: dt.date | None = None) -> None:
    """The steward posted (or read out by telephone) this player's start sheet on ``posted_on``;
    not after ``today`` when given (a day still to come is a slip of the pen). A day of grace:
    the tournament's day is its time zone's, and a steward nine hours east of Moscow is already
    in tomorrow."""
    tournament = participant.tournament
    if today is not None and posted_on > today + dt.timedelta(days=1):
        raise PublishRefused(tournament.code, [Missing("posted_on", _(
            "the day posted %(day)s is after today, %(today)s; give the day the sheet was "
            "posted (002 §4.3.2)", day=posted_on.strftime("%d.%m.%Y"),
            today=today.strftime("%d.%m.%Y")))])
    if posted_on < tournament.start_date - dt.timedelta(days=366) or posted_on > tournament.end_date:
        raise PublishRefused(tournament.code, [Missing("posted_on", _(
            "the day posted %(day)s lies outside the tournament", day=posted_on.strftime("%d.%m.%Y")))])
    participant.start_sheet_sent_on = posted_on
    audit.record(session, user=by, action="participant.start_sheet_posted", entity="participant",
                 entity_id=participant.id, tournament_id=tournament.id, rule=START_SHEET_RULE,
                 summary=f"{participant.player.name}: start sheet {channel_of(participant).value} "
                         f"{posted_on:%d.%m.%Y}")


def is_round_robin(tournament: Tournament) -> bool:
    return tournament.system in ROUND_ROBIN_SYSTEMS
