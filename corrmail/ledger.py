"""The letters ledger of a game: appending letters and reading the archive (002 §4.1.13, §4.2.5).

Nothing here knows the rules of draughts or of think time; it keeps the letters in order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from corrmail.models import Channel, Game, GameState, Letter, Participant, User


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


#: ``session.info`` key: (the transaction, ids of the games :func:`load_locked_game` locked in it).
_LOCKED_GAMES = "corrmail.ledger.locked_games"


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
    game = session.scalars(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.letters), *options)
        .with_for_update(of=Game)
        .execution_options(populate_existing=True)
    ).unique().one_or_none()
    if game is not None:
        transaction = session.get_transaction()
        held: tuple[object, set[int]] | None = session.info.get(_LOCKED_GAMES)
        if held is None or held[0] is not transaction:
            held = session.info[_LOCKED_GAMES] = (transaction, set())
        held[1].add(game.id)
    return game


def holds_lock(session: Session, game: Game) -> bool:
    """Whether `game` was loaded by :func:`load_locked_game` in the transaction now open (its
    letters in the session are then the ledger's)."""
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
        session.execute(select(Game.id).where(Game.id == game.id).with_for_update())
    if letter.sender_id is not None and letter.sender_id not in (game.white_id, game.black_id):
        raise SenderNotInGameError(game.id, letter.sender_id)
    if letter.corrects_letter_id is not None:
        target = session.get(Letter, letter.corrects_letter_id)
        if target is None or target.game_id != game.id:
            raise CorrectionTargetError(game.id, letter.corrects_letter_id)
        if target.sender_id != letter.sender_id:
            raise CorrectionSenderError(target.id, letter.sender_id, target.sender_id)
    if locked:
        row = Letter(
            game_id=game.id,
            sequence=max((known.sequence for known in game.letters), default=0) + 1,
            entered_by_id=entered_by.id if entered_by is not None else None,
            **letter.__dict__,
        )
        # Under the lock no other writer can take this sequence: no savepoint to fall back to.
        game.letters.append(row)
        session.flush()
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


class LetterOnRecord(Protocol):
    """What the ledger's order reads of a letter: a `Letter` row, or a row of its columns."""

    @property
    def id(self) -> int: ...

    @property
    def corrects_letter_id(self) -> int | None: ...


LetterT = TypeVar("LetterT", bound=LetterOnRecord)


def effective_letters(letters: Sequence[LetterT]) -> list[LetterT]:
    """The archive as it now reads: each letter replaced, in its place, by its latest correction.

    `letters` are one game's letters in ledger order; a correction of a correction still stands
    in for the original letter.
    """
    by_id = {letter.id: letter for letter in letters}

    def original_of(letter: LetterT) -> LetterT:
        while letter.corrects_letter_id is not None and letter.corrects_letter_id in by_id:
            letter = by_id[letter.corrects_letter_id]
        return letter

    latest: dict[int, LetterT] = {}
    for letter in letters:
        if letter.corrects_letter_id is not None:
            latest[original_of(letter).id] = letter
    return [
        latest.get(letter.id, letter) for letter in letters if letter.corrects_letter_id is None
    ]


class DatedLetter(Protocol):
    @property
    def sent(self) -> dt.date | None: ...

    @property
    def entered_at(self) -> dt.datetime: ...


def letter_date(letter: DatedLetter, time_zone: str) -> dt.date:
    """The day a letter went on record: its dispatch, else the day it was entered (in the
    tournament's time zone). A correction likewise counts from its own day (002 §4.2.5)."""
    if letter.sent is not None:
        return letter.sent
    return letter.entered_at.astimezone(ZoneInfo(time_zone)).date()


def to_move(game: Game) -> Participant | None:
    """Who owes the next letter: the partner of whoever sent the last move, White before any."""
    if game.state in (GameState.FINISHED, GameState.ADJUDICATION):
        return None
    movers = [letter for letter in effective_letters(game.letters) if letter.moves_text.strip()]
    if not movers or movers[-1].sender_id is None:
        return game.white if not movers else None
    return game.partner_of(movers[-1].sender_id)
