"""Sending an archived issue to its addressees, and the log of who got it and who did not.

A bulletin goes to every player still in the tournament and to the tournament's referee and
steward; the final report to the organizers, the referee and the players (002 §4.1.7); the
steward's report to the tournament's referee (002 §4.1.8). A player
deprived of the current information (002 §4.1.9, §4.5.1) is skipped and the log says by which
sanction and rule; a player without an e-mail address is logged for the steward's post.
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import Sanction
from adjudication.sanction import SanctionKind
from corrmail import audit
from corrmail.bulletins.asof import Snapshot
from corrmail.bulletins.render import render_printable
from corrmail.letters.recipients import Recipient
from corrmail.letters.write import LetterWriter
from corrmail.mail.compose import Attachment
from corrmail.models import Role, TournamentOfficial, User, UserRole
from corrmail.models.bulletins import BulletinDelivery, BulletinIssue, BulletinKind, DeliveryStatus

__all__ = ["WITHHELD_BY", "addressees", "send_issue"]

INFORMATION_RULE = "002 §4.1.9"
POST_RULE = "002 §4.1.8"
WITHDRAWAL_RULE = "000 §3.14.3"

WITHHELD_BY: dict[BulletinKind, tuple[SanctionKind, ...]] = {
    BulletinKind.BULLETIN: (SanctionKind.BULLETINS_WITHHELD,),
    # The final results are information too (002 §4.1.7); the rulebook knows one information
    # sanction, so it withholds the report as well (docs/rules/bulletins.md).
    BulletinKind.FINAL_REPORT: (SanctionKind.BULLETINS_WITHHELD,),
    # The steward's report goes to the referee only, never to a player.
    BulletinKind.STEWARD_REPORT: (),
}
"""The sanctions that keep a player from receiving each kind of paper."""

TEMPLATES = {BulletinKind.BULLETIN: "bulletin", BulletinKind.FINAL_REPORT: "final_report",
             BulletinKind.STEWARD_REPORT: "steward_report"}


def addressees(session: Session, issue: BulletinIssue) -> Iterator[Recipient]:
    """Players in entry order, then officials (the organizers for a final report); the
    steward's report goes to the tournament's referee alone (002 §4.1.8)."""
    tournament = issue.tournament
    if issue.kind is BulletinKind.STEWARD_REPORT:
        for referee in session.scalars(
            select(User)
            .join(TournamentOfficial, TournamentOfficial.user_id == User.id)
            .where(TournamentOfficial.tournament_id == tournament.id,
                   TournamentOfficial.role == Role.REFEREE)
            .order_by(User.id)
        ).unique():
            yield Recipient.official(referee)
        return
    for participant in tournament.participants:
        yield Recipient.player(session, participant)
    roles = [Role.REFEREE, Role.STEWARD]
    officials = list(session.scalars(
        select(User)
        .join(TournamentOfficial, TournamentOfficial.user_id == User.id)
        .where(TournamentOfficial.tournament_id == tournament.id,
               TournamentOfficial.role.in_(roles))
        .order_by(User.id)
    ).unique())
    if issue.kind is BulletinKind.FINAL_REPORT:
        officials += session.scalars(
            select(User).join(UserRole).where(UserRole.role == Role.ORGANIZER).order_by(User.id)
        ).all()
    seen: set[int] = set()
    for user in officials:
        if user.id not in seen:
            seen.add(user.id)
            yield Recipient.official(user)


def send_issue(session: Session, writer: LetterWriter, issue: BulletinIssue) -> list[BulletinDelivery]:
    """Queue the issue to every addressee it may go to; log every addressee either way."""
    snapshot = Snapshot(session, issue.tournament, issue.as_of)
    deliveries = []
    for addressee in addressees(session, issue):
        status, reason, rule = _refusal(snapshot, issue, addressee)
        outbox_id = None
        if status is DeliveryStatus.QUEUED:
            assert addressee.email is not None
            outbox_id = _post(session, writer, issue, addressee)
        row = BulletinDelivery(
            issue_id=issue.id,
            participant_id=addressee.participant.id if addressee.participant else None,
            user_id=addressee.user.id if addressee.user else None,
            name=addressee.name,
            address=addressee.email,
            status=status,
            reason=reason,
            rule=rule,
            outbox_message_id=outbox_id,
        )
        session.add(row)
        deliveries.append(row)
    session.flush()
    skipped = [d.name for d in deliveries if d.status is DeliveryStatus.SKIPPED]
    audit.record(
        session, user=None, action=f"{issue.kind.value}.sent", entity="bulletin",
        entity_id=issue.id, tournament_id=issue.tournament_id, rule=INFORMATION_RULE,
        summary=f"{issue.kind.value} {issue.number}: {len(deliveries) - len(skipped)} sent or "
                f"posted, {len(skipped)} skipped",
        detail={"skipped": skipped},
    )
    return deliveries


def _refusal(
    snapshot: Snapshot, issue: BulletinIssue, addressee: Recipient
) -> tuple[DeliveryStatus, str, str | None]:
    participant = addressee.participant
    if participant is not None:
        sanction = snapshot.sanction_in_force(participant, WITHHELD_BY[issue.kind])
        if sanction is not None:
            case = sanction.case
            assert isinstance(case, Sanction)
            imposed = sanction.decisions[-1]
            return (
                DeliveryStatus.SKIPPED,
                f"information withheld by sanction {case.case_id} of "
                f"{imposed.decided_on.strftime('%d.%m.%Y')} ({', '.join(case.rules_violated)})",
                INFORMATION_RULE,
            )
        if snapshot.withdrawn(participant) and issue.kind is BulletinKind.BULLETIN:
            return DeliveryStatus.SKIPPED, "withdrew from the tournament", WITHDRAWAL_RULE
    if not addressee.email:
        return DeliveryStatus.BY_POST, "no e-mail address: the steward posts it", POST_RULE
    return DeliveryStatus.QUEUED, "", None


def _post(session: Session, writer: LetterWriter, issue: BulletinIssue, addressee: Recipient) -> int:
    content = issue.content
    page = render_printable(content, language=addressee.language)
    filename = f"{issue.kind.value}-{issue.tournament.code}-{issue.number}-v{issue.version}.html"
    row = writer.post(
        session,
        kind=issue.kind.value,
        to=addressee.email or "",
        template=TEMPLATES[issue.kind],
        language=addressee.language,
        context={"doc": content, "issue": issue, "recipient": addressee.name},
        attachments=(Attachment(filename, page.encode(), "text/html"),),
        tournament_id=issue.tournament_id,
    )
    return row.id
