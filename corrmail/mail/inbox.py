"""The one way in for every received message: store the raw bytes, then process them.

:meth:`Inbox.receive` is idempotent. It first stores the message as received — in its own
committed transaction, keyed by ``Message-ID`` and by the SHA-256 of the bytes, with
``INSERT … ON CONFLICT DO NOTHING`` — so nothing a player sent can be lost once the call
returned. It then processes the stored message in a second transaction: machine-made mail is
recorded and left alone, the sender is authenticated, and the letter is applied to its game.
A message already processed is a duplicate and changes nothing; one stored but never processed
(the process died, the database went away) is processed when it arrives again. Two deliveries
racing on the same stored message are serialised by a conditional claim (:meth:`Inbox._claim`)
inside the processing transaction, so exactly one processes and answers it.

Authentication (all must hold, else a polite refusal goes back and nothing changes):

* a reply token signed by this server names the game and the player (plus-address, Reply-To,
  or References), and
* the ``From`` address is that player's address on record, and
* the envelope sender is that address too, or the receiving MTA reports DKIM or SPF pass for
  the player's domain (:mod:`corrmail.mail.envelope`; the report is kept with the message).

Failures that a retry can cure (the database is unreachable or locked) raise
:class:`TemporaryFailure`, which ``corrmail ingest`` turns into exit status 75 (``EX_TEMPFAIL``)
so the mail server delivers again later.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import dml as postgresql_dml
from sqlalchemy.dialects.sqlite import dml as sqlite_dml
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, PendingRollbackError
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.bulletins.sheet import is_sheet_request, mail_player_sheet
from corrmail.db import Database
from corrmail.games.view import load_mail_game
from corrmail.letters.write import DEFAULT_LANGUAGE, LetterWriter
from corrmail.mail.automated import Automation
from corrmail.mail.compose import READING_POLICY
from corrmail.mail.correspondence import Correspondence, Outcome
from corrmail.mail.envelope import (
    authentication_results_of,
    judge_envelope,
    topmost_authentication_results,
)
from corrmail.mail.errors import MailError, MalformedMessage, OversizeMessage
from corrmail.mail.inbound import InboundMessage, parse_inbound, parse_received, raw_digest
from corrmail.mail.notice_limit import hold_back, notices_exhausted
from corrmail.models import (
    Game,
    InboundStatus,
    OutboxMessage,
    OutboxStatus,
    Participant,
    Player,
    User,
    utcnow,
)
from corrmail.models import InboundMessage as InboundRow
from corrmail.people.accounts import letter_language
from timekeeping import local_date

__all__ = ["Inbox", "Receipt", "TemporaryFailure", "Source", "EX_TEMPFAIL"]

log = logging.getLogger(__name__)

#: sysexits.h: "temporary failure; the user is invited to retry" — what MTAs expect from a pipe.
EX_TEMPFAIL = 75
#: Of an oversize message only this much is kept, as evidence of what was refused.
OVERSIZE_EVIDENCE_BYTES = 64 * 1024


_INBOUND = cast(Table, InboundRow.__table__)
#: The claim of :meth:`Inbox._claim` and the outcome :meth:`Inbox._process` records, one
#: statement object each for every message (SQLAlchemy computes their cache keys once). Plain
#: statements on the table: the ORM had nothing to do for the claimed row but load it, keep
#: its history and write it back with the last flush.
_CLAIM = (
    update(_INBOUND)
    .where(_INBOUND.c.id == bindparam("inbound_id"), _INBOUND.c.status == InboundStatus.STORED)
    .values(processed_at=bindparam("now"))
    .returning(_INBOUND.c.id, _INBOUND.c.raw, _INBOUND.c.received_at)
)
_OUTCOME_VALUES: dict[str, Any] = {"status": bindparam("new_status"), "outcome": bindparam("new_outcome"),
                   "outcome_detail": bindparam("new_detail"),
                   "processed_at": bindparam("new_processed_at")}
_RECORD_OUTCOME = (update(_INBOUND).where(_INBOUND.c.id == bindparam("inbound_id"))
                   .values(**_OUTCOME_VALUES))
_RECORD_OUTCOME_AND_RESULTS = (
    update(_INBOUND).where(_INBOUND.c.id == bindparam("inbound_id"))
    .values(**_OUTCOME_VALUES, auth_results=bindparam("new_auth_results"))
)


@dataclass(slots=True)
class _Claimed:
    """The stored message this transaction claimed, and the outcome it records for it."""

    id: int
    raw: bytes
    received_at: dt.datetime
    status: InboundStatus | None = None
    outcome: str = ""
    outcome_detail: str = ""
    processed_at: dt.datetime | None = None


class _SQLiteInsert(sqlite.Insert):
    """SQLite's ``INSERT … ON CONFLICT``, in SQLAlchemy's statement cache: the dialect's
    classes are left out of it (``inherit_cache = False``), so the raw store's insert was
    compiled anew for every message. With :class:`_SQLiteDoNothing` as its only conflict clause
    its cache key is complete."""

    inherit_cache = True


class _SQLiteDoNothing(sqlite_dml.OnConflictDoNothing):
    """``ON CONFLICT DO NOTHING`` without a target: its class is its whole cache key."""

    inherit_cache = True
    _traverse_internals = []


class _PostgreSQLInsert(postgresql.Insert):
    """PostgreSQL's ``INSERT … ON CONFLICT``, cached: see :class:`_SQLiteInsert`."""

    inherit_cache = True


class _PostgreSQLDoNothing(postgresql_dml.OnConflictDoNothing):
    """``ON CONFLICT DO NOTHING`` without a target: its class is its whole cache key."""

    inherit_cache = True
    _traverse_internals = []


_STORE_STATEMENTS: dict[str, Any] = {}


def _store_statement(dialect: str) -> Any:
    """The raw store's ``INSERT … ON CONFLICT DO NOTHING RETURNING id`` of a dialect, one
    statement for every message, compiled once; the values are given at execution."""
    statement = _STORE_STATEMENTS.get(dialect)
    if statement is None:
        insert, nothing = ((_PostgreSQLInsert, _PostgreSQLDoNothing) if dialect == "postgresql"
                           else (_SQLiteInsert, _SQLiteDoNothing))
        statement = insert(InboundRow).returning(InboundRow.id)
        # What on_conflict_do_nothing() sets, with the cacheable clause.
        statement._post_values_clause = nothing()
        _STORE_STATEMENTS[dialect] = statement
    return statement


class TemporaryFailure(MailError):
    """The message could not be stored or processed now; deliver it again later."""


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database, or our connection to it, went away (a restart, a
    failover, a killed backend) rather than a bug: the message stays stored and the MTA retries.
    A connection that died under an open session surfaces as ``PendingRollbackError`` or as a
    DBAPI error flagged ``connection_invalidated``, not always as ``OperationalError``."""
    if isinstance(error, OperationalError | InterfaceError | PendingRollbackError):
        return True
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


class Source:
    PIPE = "pipe"
    SMTP = "smtp"
    LMTP = "lmtp"
    IMAP = "imap"


@dataclass(frozen=True, slots=True)
class Receipt:
    """What became of one received message."""

    inbound_id: int
    duplicate: bool
    status: InboundStatus
    outcome: str
    detail: str = ""


def sender_language(session: Session, address: str) -> str | None:
    """The letter language of the person ``address`` is registered to (a player first, then an
    official's account); None: a stranger, answered in Russian with an English line."""
    wanted = address.strip().lower()
    if not wanted:
        return None
    player = session.scalars(select(Player).where(func.lower(Player.email) == wanted)
                             .order_by(Player.id)).first()
    if player is not None:
        return player.language or DEFAULT_LANGUAGE
    user = session.scalars(select(User).where(func.lower(User.email) == wanted)
                           .order_by(User.id)).first()
    return letter_language(user) if user is not None else None


class Inbox:
    def __init__(
        self,
        database: Database,
        writer: LetterWriter,
        *,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.database = database
        self.writer = writer
        self.signer = writer.signer
        self.max_bytes = writer.settings.max_message_bytes
        self.correspondence = Correspondence(writer)
        self.clock = clock

    def receive(
        self,
        raw: bytes,
        *,
        source: str,
        received_at: dt.datetime | None = None,
        envelope_sender: str | None = None,
        envelope_recipients: tuple[str, ...] = (),
    ) -> Receipt:
        """Store ``raw`` and process it; see the module docstring."""
        received_at = received_at or self.clock()
        if received_at.tzinfo is None:
            raise ValueError(f"received_at {received_at!r} must carry a time zone")
        # One connection for both steps: a pool checkout costs a round trip (pre-ping).
        try:
            connection = self.database.engine.connect()
        except (OperationalError, DBAPIError) as error:
            raise TemporaryFailure(f"cannot store the message: {error}") from error
        # Parsed once, for the Message-ID stored with it and for processing it below.
        parsed = _parsed(raw) if len(raw) <= self.max_bytes else None
        with connection:
            try:
                stored = self._store(
                    connection, raw, source=source, received_at=received_at,
                    envelope_sender=envelope_sender, parsed=parsed,
                )
            except (OperationalError, DBAPIError, PendingRollbackError) as error:
                raise TemporaryFailure(f"cannot store the message: {error}") from error
            inbound_id, duplicate, status = stored.inbound_id, stored.duplicate, stored.status
            if not duplicate and status is InboundStatus.REFUSED:  # oversize: refused on arrival
                connection.close()
                return self._refuse_oversize(inbound_id, raw, len(raw))
            if duplicate and status is not InboundStatus.STORED:
                return stored
            try:
                with self.database.sessionmaker(bind=connection) as session, session.begin():
                    receipt = self._process(
                        session, inbound_id, envelope_sender=envelope_sender,
                        envelope_recipients=envelope_recipients,
                        received=(raw, parsed) if parsed is not None else None,
                    )
            except Exception as error:
                if database_unavailable(error):
                    raise TemporaryFailure(f"cannot process the message now: {error}") from error
                # A bug must not make the MTA retry for ever: record it.
                log.exception("inbound message %s failed", inbound_id)
                connection.close()
                try:
                    self._mark_failed(inbound_id, f"{type(error).__name__}: {error}")
                except Exception as marking:
                    if database_unavailable(marking):  # still stored: the retry processes it
                        raise TemporaryFailure(f"cannot record the failure now: {marking}") from marking
                    raise
                return Receipt(inbound_id, duplicate, InboundStatus.FAILED, "failed", str(error))
        return Receipt(receipt.inbound_id, duplicate, receipt.status, receipt.outcome, receipt.detail)

    # -- storing --------------------------------------------------------------------------------

    def _store(
        self, connection: Connection, raw: bytes, *, source: str, received_at: dt.datetime,
        envelope_sender: str | None, parsed: Message | None = None,
    ) -> Receipt:
        """The stored row, committed: new, or the one already stored with its outcome so far.
        ``parsed``: ``raw`` parsed whole (:func:`corrmail.mail.inbound.parse_received`)."""
        digest = raw_digest(raw)
        oversize = len(raw) > self.max_bytes
        kept = raw[:OVERSIZE_EVIDENCE_BYTES] if oversize else raw
        message_id = _message_id_of(kept) if parsed is None or oversize else _message_id_in(parsed)
        status = InboundStatus.REFUSED if oversize else InboundStatus.STORED
        values: dict[str, object] = {
            "message_id": message_id,
            "sha256": digest,
            "raw": kept,
            "source": source,
            "envelope_sender": envelope_sender,
            "received_at": received_at,
            "status": status,
            "created_at": self.clock(),
        }
        if oversize:
            values.update(
                outcome="oversize",
                outcome_detail=str(OversizeMessage(len(raw), self.max_bytes)),
                processed_at=self.clock(),
            )
        with connection.begin():
            new_id = connection.execute(_store_statement(connection.dialect.name), values
                                        ).scalar_one_or_none()
            if new_id is not None:
                return Receipt(new_id, False, status, "")
            same = InboundRow.sha256 == digest
            if message_id:
                same = same | (InboundRow.message_id == message_id)
            existing = connection.execute(
                select(InboundRow.id, InboundRow.status, InboundRow.outcome,
                       InboundRow.outcome_detail).where(same)
            ).first()
            assert existing is not None, "a conflicting insert implies an existing row"
            return Receipt(existing.id, True, existing.status, existing.outcome or "",
                           existing.outcome_detail or "")

    def _refuse_oversize(self, inbound_id: int, raw: bytes, size: int) -> Receipt:
        """Tell the sender (From of the kept head) that the message was too large."""
        detail = str(OversizeMessage(size, self.max_bytes))
        head = BytesParser(policy=policy.default).parsebytes(
            raw[:OVERSIZE_EVIDENCE_BYTES], headersonly=True
        )
        addresses = [address for _, address in getaddresses([str(head.get("From", ""))]) if address]
        if addresses:
            try:
                with self.database.transaction() as session:
                    language = sender_language(session, addresses[0])
                    self.writer.post(
                        session, kind="refusal", to=addresses[0], template="refusal",
                        language=language or DEFAULT_LANGUAGE,
                        context={"reason": "oversize", "subject": str(head.get("Subject", "")),
                                 "limit_mib": self.max_bytes // (1024 * 1024),
                                 "registered": language is not None},
                        in_reply_to=str(head.get("Message-ID", "")) or None,
                    )
            except (OperationalError, DBAPIError) as error:
                # Stored and refused already; the sender's MTA should not deliver it again.
                log.warning("could not queue the oversize refusal: %s", error)
        return Receipt(inbound_id, False, InboundStatus.REFUSED, "oversize", detail)

    def _mark_failed(self, inbound_id: int, detail: str) -> None:
        with self.database.transaction() as session:
            session.execute(
                update(InboundRow)
                .where(InboundRow.id == inbound_id)
                .values(status=InboundStatus.FAILED, outcome="failed", outcome_detail=detail,
                        processed_at=self.clock())
            )

    # -- processing -----------------------------------------------------------------------------

    def _process(
        self,
        session: Session,
        inbound_id: int,
        *,
        envelope_sender: str | None,
        envelope_recipients: tuple[str, ...],
        received: tuple[bytes, Message] | None = None,
    ) -> Receipt:
        """``received``: the bytes this delivery brought and their parse, used when they are
        the stored message's (a message stored earlier under the same Message-ID may not be)."""
        row = self._claim(session, inbound_id)
        if row is None:  # another delivery of the same letter processed it first
            stored = session.get(InboundRow, inbound_id)
            assert stored is not None
            return Receipt(stored.id, True, stored.status, stored.outcome or "",
                           stored.outcome_detail or "")
        parsed = received[1] if received is not None and received[0] == row.raw else None
        try:
            message = parse_inbound(
                row.raw, max_bytes=self.max_bytes, envelope_sender=envelope_sender,
                envelope_recipients=envelope_recipients, parsed=parsed,
            )
        except MalformedMessage as error:
            receipt = self._finish(row, InboundStatus.IGNORED, "malformed", error.reason)
            self._record_outcome(session, row)
            return receipt
        auth_results = (topmost_authentication_results(row.raw) if parsed is None
                        else authentication_results_of(parsed))
        receipt = self._apply(session, row, message, auth_results,
                              envelope_sender=envelope_sender)
        # Written with the outcome, once the letter has been applied (one UPDATE).
        self._record_outcome(session, row, auth_results=auth_results)
        return receipt

    def _record_outcome(self, session: Session, row: _Claimed, **results: str | None) -> None:
        """The claimed row's outcome (:meth:`_finish`), and with ``auth_results`` the MTA's
        report, written by one UPDATE in the processing transaction."""
        assert row.status is not None, "every way through _apply ends in _finish"
        values: dict[str, object] = {
            "inbound_id": row.id, "new_status": row.status, "new_outcome": row.outcome,
            "new_detail": row.outcome_detail, "new_processed_at": row.processed_at}
        if "auth_results" in results:
            values["new_auth_results"] = results["auth_results"]
            session.execute(_RECORD_OUTCOME_AND_RESULTS, values)
        else:
            session.execute(_RECORD_OUTCOME, values)

    def _apply(self, session: Session, row: _Claimed, message: InboundMessage,
               auth_results: str | None, *, envelope_sender: str | None) -> Receipt:
        """What the parsed message does: recorded if machine-made, refused if it is not
        authenticated, else applied to its game."""
        if message.automation is not None:
            return self._record_automated(session, row, message)

        token = self.signer.find_reply_token(message.token_sources())
        if token is None:
            reason = (
                "forged_token" if self.signer.has_reply_token_candidate(message.token_sources())
                else "no_token"
            )
            self._refuse(session, message, reason)
            return self._finish(row, InboundStatus.REFUSED, reason, message.from_address)
        game = load_mail_game(session, token.game_id)
        participant = (
            None if game is None
            else game.white if token.player_id == game.white_id
            else game.black if token.player_id == game.black_id
            else None
        )
        if game is None or participant is None:
            self._refuse(session, message, "unknown_game")
            return self._finish(row, InboundStatus.REFUSED, "unknown_game", str(token))
        registered = (participant.player.email or "").strip().lower()
        if not registered or registered != message.from_address:
            self._refuse(session, message, "sender_mismatch")
            audit.record(
                session, user=None, action="mail.sender_mismatch", entity="game",
                entity_id=game.id, tournament_id=game.tournament_id,
                summary=f"letter for {participant.player.name} came from {message.from_address}",
                detail={"inbound_message_id": row.id},
            )
            return self._finish(row, InboundStatus.REFUSED, "sender_mismatch", message.from_address)
        envelope = judge_envelope(envelope_sender, registered, auth_results,
                                  authserv_ids=self.writer.settings.authserv_ids,
                                  mail_domain=self.writer.settings.domain)
        if not envelope.accepted:
            return self._refuse_envelope(session, row, message, game, participant,
                                         envelope_sender, auth_results)

        arrival = local_date(row.received_at, game.tournament.time_zone)
        if is_sheet_request(message.text):  # «лист»: the player's own sheet (corrmail.bulletins)
            sheet = mail_player_sheet(session, self.writer, participant, arrival,
                                      in_reply_to=message.message_id)
            return self._finish(row, InboundStatus.PROCESSED, "player_sheet",
                                f"outbox {sheet.id}" if sheet is not None else "no address")
        outcome: Outcome = self.correspondence.handle(
            session, game=game, participant=participant, message=message, arrival=arrival,
            inbound_id=row.id,
        )
        status = InboundStatus.REFUSED if outcome.refused else InboundStatus.PROCESSED
        detail = outcome.detail
        if outcome.refused and hold_back(session, outcome.letters, registered, game.id):
            detail = f"{detail} (notice held back: loop limit)".strip()
        return self._finish(row, status, outcome.code, detail)

    def _refuse_envelope(self, session: Session, row: _Claimed, message: InboundMessage,
                         game: Game, participant: Participant, envelope_sender: str | None,
                         auth_results: str | None) -> Receipt:
        """The player's From and token, another mailbox's envelope, no DKIM/SPF pass for the
        player's domain (corrmail.mail.envelope): nothing changes, the *player* is told (at the
        registered address, which is not the sender's) and the referee can read why."""
        self._refuse(session, message, "envelope_mismatch")
        audit.record(
            session, user=None, action="mail.envelope_mismatch", entity="game",
            entity_id=game.id, tournament_id=game.tournament_id,
            summary=(f"letter for {participant.player.name} sent from {envelope_sender!r} "
                     "without DKIM or SPF pass for the player's domain"),
            detail={"inbound_message_id": row.id, "auth_results": auth_results or ""},
        )
        return self._finish(row, InboundStatus.REFUSED, "envelope_mismatch",
                            f"envelope sender {envelope_sender}")

    def _claim(self, session: Session, inbound_id: int) -> _Claimed | None:
        """Take the stored row for this transaction and return it; None if it is not (or no
        longer) stored.

        A conditional ``UPDATE … WHERE status = 'stored'`` rather than ``SELECT … FOR UPDATE``,
        which SQLite ignores: the UPDATE takes PostgreSQL's row lock or SQLite's write lock, so a
        second delivery waits here and, once the first commits, matches no row. It must be the
        first statement of the transaction — a SQLite transaction that has already read cannot
        wait for the write lock. The claim belongs to the processing transaction, so a process
        that dies mid-way rolls it back and the message stays stored for the next delivery.
        ``processed_at`` is set only to make the write; :meth:`_finish` sets the real value.
        ``RETURNING`` hands back the claimed row with the claim, saving a round trip.
        """
        claimed = session.execute(_CLAIM, {"inbound_id": inbound_id, "now": self.clock()}
                                  ).one_or_none()
        return None if claimed is None else _Claimed(*claimed)

    def _record_automated(self, session: Session, row: _Claimed, message: InboundMessage) -> Receipt:
        assert message.automation is not None
        kind = message.automation.kind
        detail = message.automation.reason
        if kind is Automation.BOUNCE:
            letter_id = self.signer.find_bounce_letter(message.recipients)
            if letter_id is not None:
                letter = session.get(OutboxMessage, letter_id)
                if letter is not None:
                    letter.status = OutboxStatus.FAILED
                    letter.last_error = f"bounced: {message.subject or detail}"
                    audit.record(
                        session, user=None, action="outbox.bounced", entity="outbox",
                        entity_id=letter.id, tournament_id=letter.tournament_id,
                        summary=f"letter to {letter.recipient} bounced", detail={"inbound": row.id},
                    )
                    detail = f"letter {letter_id}: {detail}"
        return self._finish(row, InboundStatus.IGNORED, kind.value, detail)

    def _refuse(self, session: Session, message: InboundMessage, reason: str) -> None:
        """A polite refusal to the sender; nothing else changes (the sender is not trusted)."""
        if not message.from_address or "@" not in message.from_address:
            return
        if notices_exhausted(session, message.from_address, kinds={"refusal"}):
            return  # an autoresponder's loop, or a flood: the message is kept, not answered
        language = sender_language(session, message.from_address)
        self.writer.post(
            session, kind="refusal", to=message.from_address, template="refusal",
            language=language or DEFAULT_LANGUAGE,
            context={"reason": reason, "subject": message.subject,
                     "registered": language is not None},
            in_reply_to=message.message_id,
        )

    def _finish(self, row: _Claimed, status: InboundStatus, outcome: str, detail: str) -> Receipt:
        row.status = status
        row.outcome = outcome[:60]
        row.outcome_detail = detail
        row.processed_at = self.clock()
        return Receipt(row.id, False, status, row.outcome, detail)


def _message_id_of(raw: bytes) -> str | None:
    try:
        headers = BytesParser(policy=READING_POLICY).parsebytes(raw, headersonly=True)
    except (ValueError, TypeError, IndexError):
        return None
    return _message_id_in(headers)


def _message_id_in(headers: Message) -> str | None:
    """The stored Message-ID of a parsed message (its headers are read the same whether the
    body was parsed too or not)."""
    try:
        value = str(headers.get("Message-ID", "")).strip()
    except (ValueError, TypeError, IndexError):
        return None
    return value[:998] or None


def _parsed(raw: bytes) -> Message | None:
    """``raw`` parsed for :meth:`Inbox.receive`; None when the parser fails on it: then the
    Message-ID and the processing read the bytes themselves, each handling the failure as
    before (the raw store must not be stopped by it)."""
    try:
        return parse_received(raw)
    except Exception:
        return None


def envelope_addresses(values: list[str]) -> tuple[str, ...]:
    return tuple(address for _, address in getaddresses(values) if address)
