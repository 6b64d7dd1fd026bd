"""Games and their append-only letters ledger (002 §4.1.13, §4.2.5)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import Channel, GameResult, GameState, ResultKind, enum_column
from corrmail.models.people import User
from corrmail.models.tournaments import Participant, Tournament


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int]
    board: Mapped[int | None]  # team events: the board number
    white_id: Mapped[int] = mapped_column(ForeignKey("participants.id"), index=True)
    black_id: Mapped[int] = mapped_column(ForeignKey("participants.id"), index=True)
    state: Mapped[GameState] = mapped_column(enum_column(GameState), default=GameState.NOT_STARTED)
    result: Mapped[GameResult | None] = mapped_column(enum_column(GameResult))
    result_kind: Mapped[ResultKind | None] = mapped_column(enum_column(ResultKind))
    result_rule: Mapped[str | None] = mapped_column(String(40))  # e.g. "002 §4.3.6"
    result_on: Mapped[dt.date | None]
    # Bumped on every change: a second writer working from a stale copy gets StaleDataError.
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    tournament: Mapped[Tournament] = relationship(back_populates="games")
    white: Mapped[Participant] = relationship(foreign_keys=[white_id])
    black: Mapped[Participant] = relationship(foreign_keys=[black_id])
    letters: Mapped[list[Letter]] = relationship(
        back_populates="game", order_by="Letter.sequence", foreign_keys="Letter.game_id"
    )

    def partner_of(self, participant_id: int) -> Participant:
        if participant_id == self.white_id:
            return self.black
        if participant_id == self.black_id:
            return self.white
        raise ValueError(f"participant {participant_id} does not play game {self.id}")

    def __repr__(self) -> str:
        return f"<Game {self.id} round {self.round}: {self.white_id}-{self.black_id}>"


class Letter(Base):
    """One letter of a game as received, never edited: a correction is a new row (002 §4.2.5).

    The three dates of 002 §4.2.3 are `partner_sent` (the partner's dispatch, by postmark),
    `received` and `sent`; `postmark_date` is this letter's own postmark as read by whoever
    received it. Declared times are the cumulative days the sender wrote (the fraction).
    """

    __tablename__ = "letters"
    __table_args__ = (UniqueConstraint("game_id", "sequence"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # Position in the game's ledger; the unique key makes two concurrent appends collide.
    sequence: Mapped[int]
    sender_id: Mapped[int | None] = mapped_column(ForeignKey("participants.id"))
    channel: Mapped[Channel] = mapped_column(enum_column(Channel))
    raw_text: Mapped[str] = mapped_column(Text, default="")
    partner_sent: Mapped[dt.date | None]
    received: Mapped[dt.date | None]
    sent: Mapped[dt.date | None]
    postmark_date: Mapped[dt.date | None]
    registered: Mapped[bool] = mapped_column(default=False)
    declared_white_days: Mapped[int | None]
    declared_black_days: Mapped[int | None]
    moves_text: Mapped[str] = mapped_column(Text, default="")
    variants_text: Mapped[str] = mapped_column(Text, default="")
    penalty_days: Mapped[int] = mapped_column(default=0)
    corrects_letter_id: Mapped[int | None] = mapped_column(ForeignKey("letters.id"))
    # 002 §4.2.5: this letter is the card it corrects entered again, the first entry having been
    # wrong (an official's slip): what that entry caused stands no more. False: the sender's own
    # new letter replacing a faulty one (002 §4.2.10), whose penalty stands.
    entry_error: Mapped[bool] = mapped_column(default=False, server_default=false())
    # 002 §4.3.3: the receipt date this sender left out of his previous letter, supplied now.
    supplied_receipt: Mapped[dt.date | None]
    # 002 §4.2.9: this letter reports the partner's faulty letter; it carries no move.
    reports_error_of_id: Mapped[int | None] = mapped_column(ForeignKey("letters.id"))
    inbound_message_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_messages.id"))
    # 002 §4.3.1, second date: the day the server relayed this letter to the partner by e-mail,
    # which is the day he received it; None when the letter reached him otherwise (by post, his
    # next card states the day).
    relayed_on: Mapped[dt.date | None]
    entered_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    entered_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="letters", foreign_keys=[game_id])
    sender: Mapped[Participant | None] = relationship()
    corrects: Mapped[Letter | None] = relationship(remote_side=[id],
                                                   foreign_keys=[corrects_letter_id])
    entered_by: Mapped[User | None] = relationship()

    def __repr__(self) -> str:
        return f"<Letter {self.id} game {self.game_id} #{self.sequence}>"


class Penalty(Base):
    """Penalty days charged to a player (002 §4.2.11, §4.3.7)."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))
    days: Mapped[int]
    rule: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text, default="")
    charged_on: Mapped[dt.date]
    letter_id: Mapped[int | None] = mapped_column(ForeignKey("letters.id"))
    case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id"))
    imposed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    imposed_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship()
    participant: Mapped[Participant] = relationship()


class Forwarding(Base):
    """A move letter the steward passed on to a partner who plays by post or telephone, because
    it came by e-mail or on the web (002 §4.1.1): posted on ``forwarded_on`` (its postmark) or
    telephoned that day (``channel``). Never edited, like the letters: a correction is a new
    row, and the latest row of a letter counts. The partner's receipt, until his card states it,
    is estimated from that day (docs/rules/mail.md 21)."""

    __tablename__ = "forwardings"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    letter_id: Mapped[int] = mapped_column(ForeignKey("letters.id"))
    channel: Mapped[Channel] = mapped_column(enum_column(Channel))
    forwarded_on: Mapped[dt.date]
    entered_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    entered_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    letter: Mapped[Letter] = relationship()
    entered_by: Mapped[User | None] = relationship()

    def __repr__(self) -> str:
        return f"<Forwarding {self.id} of letter {self.letter_id}: {self.forwarded_on}>"
