"""Bulletins and final reports as issued (archive with versions), their schedule and the
sending log (002 §4.1.7–4.1.9). The content is the JSON the bulletin was rendered from, so an
archived issue reads exactly as it went out."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import enum_column
from corrmail.models.people import User
from corrmail.models.tournaments import Participant, Tournament


class BulletinKind(enum.StrEnum):
    BULLETIN = "bulletin"  # the steward's current information (002 §4.1.8)
    FINAL_REPORT = "final_report"  # the referee's report to the organizer (002 §4.1.7)
    STEWARD_REPORT = "steward_report"  # the steward's report to the referee (002 §4.1.8)


class ScheduleUnit(enum.StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"


class DeliveryStatus(enum.StrEnum):
    QUEUED = "queued"  # in the outbox
    BY_POST = "by_post"  # no e-mail address: the steward prints and posts it (002 §4.1.8)
    SKIPPED = "skipped"  # not sent, the reason and rule beside it


class BulletinIssue(Base):
    """One version of one numbered bulletin (or of the final report) as of a date."""

    __tablename__ = "bulletin_issues"
    __table_args__ = (UniqueConstraint("tournament_id", "kind", "number", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[BulletinKind] = mapped_column(enum_column(BulletinKind))
    number: Mapped[int]
    # A corrected re-issue of the same number is a new version; the old one stays readable.
    version: Mapped[int] = mapped_column(default=1)
    as_of: Mapped[dt.date]
    since: Mapped[dt.date | None]  # games finished after this date are "new" in this bulletin
    content: Mapped[dict[str, Any]] = mapped_column(default=dict)
    issued_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    issued_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    tournament: Mapped[Tournament] = relationship()
    issued_by: Mapped[User | None] = relationship()
    deliveries: Mapped[list[BulletinDelivery]] = relationship(
        back_populates="issue", order_by="BulletinDelivery.id"
    )


class BulletinSchedule(Base):
    """When the steward's next bulletin is due: every ``every`` ``unit`` from ``next_on``."""

    __tablename__ = "bulletin_schedules"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    every: Mapped[int] = mapped_column(default=1)
    unit: Mapped[ScheduleUnit] = mapped_column(
        enum_column(ScheduleUnit), default=ScheduleUnit.MONTH
    )
    next_on: Mapped[dt.date]
    active: Mapped[bool] = mapped_column(default=True)
    set_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    set_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship()


class BulletinDelivery(Base):
    """One addressee of one issue: the letter queued, or why he was skipped."""

    __tablename__ = "bulletin_deliveries"

    id: Mapped[int] = mapped_column(primary_key=True)
    issue_id: Mapped[int] = mapped_column(
        ForeignKey("bulletin_issues.id", ondelete="CASCADE"), index=True
    )
    participant_id: Mapped[int | None] = mapped_column(ForeignKey("participants.id"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # an official
    name: Mapped[str] = mapped_column(String(200))
    address: Mapped[str | None] = mapped_column(String(320))
    status: Mapped[DeliveryStatus] = mapped_column(enum_column(DeliveryStatus))
    reason: Mapped[str] = mapped_column(Text, default="")
    rule: Mapped[str | None] = mapped_column(String(40))
    outbox_message_id: Mapped[int | None] = mapped_column(ForeignKey("outbox.id"))
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    issue: Mapped[BulletinIssue] = relationship(back_populates="deliveries")
    participant: Mapped[Participant | None] = relationship()
