"""Appending letters to a game's ledger (002 §4.1.13, §4.2.5): the only code that inserts them.

The ledger is append-only: a correction is a new letter pointing at the one it replaces. The game
row is locked before every append, so two writers can never fork the ledger.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from sqlalchemy import Select, Table, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, class_mapper, make_transient_to_detached, noload
from sqlalchemy.orm.attributes import set_committed_value

from corrmail.models import Channel, Game, Letter, User, utcnow


class _ManagerCache(dict[type, Any]):
    def __missing__(self, cls: type) -> Any:
        manager: Any = class_mapper(cls).class_manager
        self[cls] = manager
        return manager


class LedgerError(ValueError):
    pass


class CorrectionTargetError(LedgerError):
    """A correction must point at an earlier letter of the same game."""

    def __init__(self, game_id: int, letter_id: int) -> None:
        super().__init__(
            f"letter {letter_id} is not a letter of game {game_id}; nothing to correct"
        )
        self.game_id = game_id
        self.letter_id = letter_id


class CorrectionSenderError(LedgerError):
    """A correction is the same letter re-entered: it has the corrected letter's sender."""

    def __init__(self, letter_id: int, sender_id: int | None, expected: int | None) -> None:
        super().__init__(
            f"letter {letter_id} came from participant {expected}; its correction cannot come "
            f"from {sender_id} (002 §4.2.5)"
        )
        self.letter_id = letter_id
        self.sender_id = sender_id
        self.expected = expected


class LedgerConflict(LedgerError):
    """Another letter took this place in the ledger meanwhile; nothing was stored, try again."""

    def __init__(self, game_id: int, sequence: int) -> None:
        super().__init__(
            f"game {game_id}: letter {sequence} was entered by someone else meanwhile; "
            "read the game again and re-enter"
        )
        self.game_id = game_id
        self.sequence = sequence


class SenderNotInGameError(LedgerError):
    def __init__(self, game_id: int, participant_id: int) -> None:
        super().__init__(f"participant {participant_id} does not play game {game_id}")
        self.game_id = game_id
        self.participant_id = participant_id


@dataclass(frozen=True)
class LetterInput:
    """What a letter says, as written; dates are calendar dates in the tournament's time zone."""

    sender_id: int | None
    channel: Channel
    raw_text: str = ""
    moves_text: str = ""
    variants_text: str = ""
    partner_sent: dt.date | None = None
    received: dt.date | None = None
    sent: dt.date | None = None
    postmark_date: dt.date | None = None
    registered: bool = False
    declared_white_days: int | None = None
    declared_black_days: int | None = None
    penalty_days: int = 0
    corrects_letter_id: int | None = None
    inbound_message_id: int | None = None
    #: 002 §4.3.3: the receipt date the sender left out of his previous letter.
    supplied_receipt: dt.date | None = None
    #: 002 §4.2.9: the partner's letter this one reports as faulty (a report carries no move).
    reports_error_of_id: int | None = None
    #: 002 §4.3.1: the day the server relays this letter to the partner by e-mail (his receipt).
    relayed_on: dt.date | None = None
    #: 002 §4.2.5: the letter corrected was this card entered wrongly (an official's slip).
    entry_error: bool = False


#: ``session.info`` key: (the transaction, ids of the games :func:`load_locked_game` locked in it).
_LOCKED_GAMES = "corrmail.games.ledger.locked_games"


def lock_game(session: Session, game_id: int) -> None:
    """Hold the right to change game ``game_id`` until this transaction ends, before reading it.

    PostgreSQL locks the game row (``FOR UPDATE``). SQLite has no row locks and pysqlite opens a
    transaction only at the first write, so two requests could both read the same ledger and
    both append to it; there the whole database's write lock is taken first (``BEGIN
    IMMEDIATE``, waiting up to the busy timeout), so whatever is read next is the latest, and
    every other writer waits until this transaction commits.
    """
    take_sqlite_write_lock(session)
    session.execute(select(Game.id).where(Game.id == game_id).with_for_update())


def take_sqlite_write_lock(session: Session) -> None:
    """On SQLite, begin this session's transaction with the write lock (``BEGIN IMMEDIATE``)
    unless it already writes; elsewhere nothing."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return
    raw = connection.connection.dbapi_connection
    if raw is not None and not raw.in_transaction:
        # pysqlite has not begun a transaction: nothing was written, so nothing is lost by
        # beginning it here; a transaction that has written holds the write lock already.
        raw.execute("BEGIN IMMEDIATE")


def load_locked_game(session: Session, game_id: int, *options: Any) -> Game | None:
    """The game locked for the rest of this transaction, with its letters read after the lock.

    One statement takes the row lock and the game (``FOR UPDATE OF games``: PostgreSQL locks
    the game row only, whatever `options` join in; SQLite serialises writers, and a transaction
    whose snapshot another writer has overtaken cannot write at all), a second reads the
    letters. Every append locks the game row first, so no letter can join the ledger of a game
    locked here until this transaction ends: :func:`append_letter` then needs neither the lock
    nor the highest sequence again, and keeps ``game.letters`` current itself. The game is read
    afresh (``populate_existing``): load it before changing it in this session, not after.
    """
    take_sqlite_write_lock(session)
    game = session.scalars(_locked_query(options), {"game_id": game_id}).unique().one_or_none()
    if game is not None:
        # A plain query rather than ``selectinload``: the same statement, without the loader
        # strategy's per-execution setup (a third of loading a game for a letter).
        set_committed_value(game, "letters", list(session.scalars(_LETTERS_OF_GAME,
                                                                  {"game_id": game_id})))
        note_locked(session, game)
    return game


def note_locked(session: Session, game: Game) -> None:
    """Record that `game` was read under its lock, with its letters, in the open transaction
    (:func:`holds_lock`): what :func:`load_locked_game` does once it has read the game."""
    transaction = session.get_transaction()
    held: tuple[object, set[int]] | None = session.info.get(_LOCKED_GAMES)
    if held is None or held[0] is not transaction:
        held = session.info[_LOCKED_GAMES] = (transaction, set())
    held[1].add(game.id)


def read_letters(session: Session, game_id: int) -> list[Letter]:
    """The letters of game `game_id` in ledger order, read by a Core statement and adopted
    (:func:`adopt_row`): for a session that holds none of them yet."""
    keys = _LETTER_KEYS
    return [adopt_row(Letter, dict(zip(keys, row, strict=True)))
            for row in session.execute(_LETTER_ROWS, {"game_id": game_id})]


def adopt_row(cls: type[_Mapped], values: dict[str, Any]) -> _Mapped:
    """An object of mapped class `cls` holding `values` (every column attribute of its row, as
    read from the database) as loaded, not changed, state: what the ORM's loading makes of a
    row, without its per-statement setup. It is detached; adding it (or an object it hangs
    from) to the session makes it persistent there. Only for rows the session does not hold
    yet: an object already in the session is not refreshed."""
    instance: _Mapped = _MANAGERS[cls].new_instance()
    instance.__dict__.update(values)
    make_transient_to_detached(instance)
    return instance


#: The locking query of each set of loader options (the options objects themselves are the
#: key): built once, SQLAlchemy computes its cache key once, not on every letter.
_LOCKED_QUERIES: dict[tuple[Any, ...], Select[tuple[Game]]] = {}


def _locked_query(options: tuple[Any, ...]) -> Select[tuple[Game]]:
    query = _LOCKED_QUERIES.get(options)
    if query is None:
        query = (
            select(Game)
            .where(Game.id == bindparam("game_id"))
            .options(noload(Game.letters), *options)
            .with_for_update(of=Game)
            .execution_options(populate_existing=True)
        )
        if len(_LOCKED_QUERIES) < 64:  # callers passing fresh options each time are not kept
            _LOCKED_QUERIES[options] = query
    return query


#: A locked game's letters in ledger order, read afresh like the game (``Game.letters``).
_LETTERS_OF_GAME = (
    select(Letter).where(Letter.game_id == bindparam("game_id")).order_by(Letter.sequence)
    .execution_options(populate_existing=True)
)


#: A letter's row, every column given (:func:`append_letter`); one statement object, so its
#: cache key is computed once.
_LETTERS = cast(Table, Letter.__table__)
_INSERT_LETTER = _LETTERS.insert().returning(_LETTERS.c.id)
#: The same letters as :data:`_LETTERS_OF_GAME`, as Core rows (:func:`read_letters`).
_LETTER_KEYS = tuple(class_mapper(Letter).get_property_by_column(column).key
                     for column in _LETTERS.columns)
_LETTER_ROWS = (select(*_LETTERS.columns).where(_LETTERS.c.game_id == bindparam("game_id"))
                .order_by(_LETTERS.c.sequence))

_Mapped = TypeVar("_Mapped")
#: The instrumentation of each class :func:`adopt_row` builds (it makes the object and its
#: state without calling ``__init__``), looked up once.
_MANAGERS: dict[type, Any] = _ManagerCache()


def holds_lock(session: Session, game: Game) -> bool:
    """Whether `game` was loaded by :func:`load_locked_game` in the transaction now open."""
    held = session.info.get(_LOCKED_GAMES)
    return (held is not None and held[0] is session.get_transaction() and game.id in held[1]
            and "letters" in game.__dict__)


def append_letter(
    session: Session, game: Game, letter: LetterInput, entered_by: User | None
) -> Letter:
    """Add `letter` at the end of `game`'s ledger.

    The game row is locked first (PostgreSQL `FOR UPDATE`; SQLite serialises writers), and
    `(game_id, sequence)` is unique, so two concurrent appends can never fork the ledger. A game
    loaded by :func:`load_locked_game` is locked already and its letters are current: the next
    sequence is read from them, and the new letter joins ``game.letters``.
    """
    locked = holds_lock(session, game)
    if not locked:
        lock_game(session, game.id)
    if letter.sender_id is not None and letter.sender_id not in (game.white_id, game.black_id):
        raise SenderNotInGameError(game.id, letter.sender_id)
    if letter.corrects_letter_id is not None:
        target = session.get(Letter, letter.corrects_letter_id)
        if target is None or target.game_id != game.id:
            raise CorrectionTargetError(game.id, letter.corrects_letter_id)
        if target.sender_id != letter.sender_id:
            raise CorrectionSenderError(target.id, letter.sender_id, target.sender_id)
    if locked:
        values = {
            "game_id": game.id,
            "sequence": max((known.sequence for known in game.letters), default=0) + 1,
            "entered_by_id": entered_by.id if entered_by is not None else None,
            **letter.__dict__,
            "entered_at": utcnow(),
        }
        # Under the lock no other writer can take this sequence: no savepoint to fall back to.
        # One INSERT through the session, not a flush: the unit of work (dependency sorting,
        # the flush listeners over every object of the session) was most of an append, for a
        # row whose every column is given here. The statement goes through the session, so
        # its listeners note the game's changed ledger as they note a flushed letter
        # (corrmail.games.state), and the row joins the session as a letter read from it.
        # What the session holds unwritten is flushed first, as the flush of the letter did:
        # a caller may read the ids of rows it added before the append (nothing, for a letter
        # received by e-mail: then this costs nothing).
        session.flush()
        new_id = session.execute(_INSERT_LETTER, values).scalar_one()
        row = Letter(id=new_id, **values)
        make_transient_to_detached(row)
        session.add(row)
        # The letter joins the loaded ledger as read state, not as a change of the game.
        set_committed_value(game, "letters", [*game.letters, row])
        set_committed_value(row, "game", game)
        return row
    last = session.scalar(select(func.max(Letter.sequence)).where(Letter.game_id == game.id))
    row = Letter(
        game_id=game.id,
        sequence=(last or 0) + 1,
        entered_by_id=entered_by.id if entered_by is not None else None,
        **letter.__dict__,
    )
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError as error:
        if "sequence" not in str(error.orig):
            raise
        raise LedgerConflict(game.id, row.sequence) from error
    return row
