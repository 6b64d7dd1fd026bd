"""The archive: every bulletin and final report as issued, numbered and versioned.

An issue stores the JSON its pages were rendered from (:func:`corrmail.bulletins.content.to_json`)
together with its as-of date, so it reads the same forever; :func:`rebuild` builds the same
document again from the database at that date — equal to the stored content unless the record
was corrected afterwards, and a corrected re-issue (:func:`reissue`) is a new version of the same
number, the old one kept.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.bulletins.build import build_bulletin, build_final_report, build_steward_report
from corrmail.bulletins.content import to_json
from corrmail.models import Tournament, User
from corrmail.models.bulletins import BulletinIssue, BulletinKind

__all__ = [
    "BulletinDateRefused", "IssueNotFound", "issue", "latest_issues", "next_bulletin", "preview", "rebuild", "reissue",
]

RULES = {BulletinKind.BULLETIN: "002 §4.1.8", BulletinKind.FINAL_REPORT: "002 §4.1.7",
         BulletinKind.STEWARD_REPORT: "002 §4.1.8"}


@dataclass(frozen=True)
class _Paper:
    """Which paper is built: the tournament's bulletin or report under ``number`` as of
    ``as_of``; ``since`` is the date a bulletin's news start after (``None``: the whole course)."""

    tournament: Tournament
    kind: BulletinKind
    number: int
    as_of: dt.date
    since: dt.date | None

    @classmethod
    def of(cls, stored: BulletinIssue) -> _Paper:
        return cls(stored.tournament, stored.kind, stored.number, stored.as_of, stored.since)


class IssueNotFound(LookupError):
    def __init__(self, issue_id: int) -> None:
        super().__init__(f"no bulletin or report with the id {issue_id}")
        self.issue_id = issue_id


class BulletinDateRefused(ValueError):
    """A bulletin reports what has happened (002 §4.1.8): one dated after today would announce
    results and standings of days still to come, and be sent to everyone."""

    def __init__(self, as_of: dt.date, today: dt.date) -> None:
        super().__init__(_(
            "the bulletin's date %(as_of)s is after today, %(today)s: a bulletin reports what has "
            "happened (002 §4.1.8); give today's date or an earlier one",
            as_of=f"{as_of:%d.%m.%Y}", today=f"{today:%d.%m.%Y}"))
        self.as_of = as_of
        self.today = today


def issue(
    session: Session,
    tournament: Tournament,
    as_of: dt.date,
    *,
    kind: BulletinKind = BulletinKind.BULLETIN,
    user: User | None = None,
    today: dt.date | None = None,
) -> BulletinIssue:
    """Build the next numbered bulletin (or the final report) as of ``as_of`` and archive it;
    refused (:class:`BulletinDateRefused`) for a date after ``today`` when it is given.

    A bulletin's news are what happened after the previous bulletin's date; the final report is
    number 1, and issuing it again makes a new version of it. The steward's reports to the
    referee (002 §4.1.8) are numbered in turn, each on the whole course of play to its date,
    signed by ``user``.
    """
    if today is not None and as_of > today:
        raise BulletinDateRefused(as_of, today)
    if kind is BulletinKind.FINAL_REPORT:
        number, since = 1, None
    elif kind is BulletinKind.STEWARD_REPORT:
        number, since = (session.scalar(
            select(func.max(BulletinIssue.number)).where(
                BulletinIssue.tournament_id == tournament.id, BulletinIssue.kind == kind)
        ) or 0) + 1, None
    else:
        number, since = next_bulletin(session, tournament, as_of)
    return _store(session, _Paper(tournament, kind, number, as_of, since), user)


def next_bulletin(
    session: Session, tournament: Tournament, as_of: dt.date
) -> tuple[int, dt.date | None]:
    """The number the next bulletin takes and the date its news start after (the previous
    bulletin's date)."""
    previous = session.scalars(
        select(BulletinIssue)
        .where(BulletinIssue.tournament_id == tournament.id,
               BulletinIssue.kind == BulletinKind.BULLETIN)
        .order_by(BulletinIssue.number.desc(), BulletinIssue.version.desc())
        .limit(1)
    ).first()
    if previous is None:
        return 1, None
    return previous.number + 1, previous.as_of if previous.as_of < as_of else None


def reissue(session: Session, issue_id: int, *, user: User | None = None) -> BulletinIssue:
    """A new version of an issue, rebuilt from the database as it now reads (corrections)."""
    original = session.get(BulletinIssue, issue_id)
    if original is None:
        raise IssueNotFound(issue_id)
    return _store(session, _Paper.of(original), user, signed_by=original.issued_by)


def rebuild(session: Session, stored: BulletinIssue) -> dict[str, Any]:
    """The content the database gives today for the issue's number and date."""
    return _content(session, _Paper.of(stored), stored.issued_by)


def preview(session: Session, tournament: Tournament, kind: BulletinKind, as_of: dt.date,
            signed_by: User | None = None) -> dict[str, Any]:
    """The paper as it would be issued on ``as_of`` (a bulletin under the next number): built,
    not archived, not sent."""
    number, since = next_bulletin(session, tournament, as_of) if kind is BulletinKind.BULLETIN \
        else (0, None)
    return _content(session, _Paper(tournament, kind, number, as_of, since), signed_by)


def latest_issues(session: Session, tournament: Tournament) -> list[BulletinIssue]:
    """Every issue of the tournament, newest first (all versions)."""
    return list(session.scalars(
        select(BulletinIssue)
        .where(BulletinIssue.tournament_id == tournament.id)
        .order_by(BulletinIssue.kind, BulletinIssue.number.desc(), BulletinIssue.version.desc())
    ))


def _content(session: Session, paper: _Paper, signed_by: User | None = None) -> dict[str, Any]:
    tournament, as_of = paper.tournament, paper.as_of
    if paper.kind is BulletinKind.FINAL_REPORT:
        return to_json(build_final_report(session, tournament, as_of))
    if paper.kind is BulletinKind.STEWARD_REPORT:
        steward = signed_by.display_name if signed_by is not None else ""
        return to_json(build_steward_report(session, tournament, as_of, steward=steward))
    return to_json(build_bulletin(session, tournament, as_of, number=paper.number,
                                  since=paper.since))


def _store(
    session: Session, paper: _Paper, user: User | None, *, signed_by: User | None = None
) -> BulletinIssue:
    """Archive the next version; a corrected report keeps the name it was first signed with."""
    tournament, kind, number, as_of = paper.tournament, paper.kind, paper.number, paper.as_of
    version = (session.scalar(
        select(func.max(BulletinIssue.version)).where(
            BulletinIssue.tournament_id == tournament.id,
            BulletinIssue.kind == kind,
            BulletinIssue.number == number,
        )
    ) or 0) + 1
    row = BulletinIssue(
        tournament_id=tournament.id,
        kind=kind,
        number=number,
        version=version,
        as_of=as_of,
        since=paper.since,
        content=_content(session, paper, signed_by or user),
        issued_by_id=user.id if user is not None else None,
    )
    session.add(row)
    session.flush()
    audit.record(
        session,
        user=user,
        action=f"{kind.value}.issued",
        entity="bulletin",
        entity_id=row.id,
        tournament_id=tournament.id,
        rule=RULES[kind],
        summary=f"{kind.value} {number} v{version} as of {as_of.isoformat()}",
        detail={"number": number, "version": version, "as_of": as_of.isoformat()},
    )
    return row
