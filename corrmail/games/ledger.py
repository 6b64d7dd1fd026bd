"""The letters ledger of a game read back: the archive as it now reads (002 §4.1.13, §4.2.5).

Nothing here knows the rules of draughts or of think time; it keeps the letters in order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar
from zoneinfo import ZoneInfo

from corrmail.models import Game, GameState, Participant


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


class PenaltyOnRecord(Protocol):
    """What :func:`standing_penalties` reads of a penalty row."""

    @property
    def letter_id(self) -> int | None: ...

    @property
    def case_id(self) -> int | None: ...


PenaltyT = TypeVar("PenaltyT", bound=PenaltyOnRecord)


def standing_penalties(penalties: Sequence[PenaltyT], letters: Sequence[Any]) -> list[PenaltyT]:
    """The penalties that still stand: one charged for a letter whose entry was an official's
    slip, and which was entered again as written (``Letter.entry_error``, 002 §4.2.5), stands no
    more — the player never wrote the faulty move it punished; the letter entered again carries
    its own penalty if the fault is in the card. A referee's penalty (a case's) always stands."""
    wrongly_entered = {letter.corrects_letter_id for letter in letters
                       if getattr(letter, "entry_error", False) and letter.corrects_letter_id}
    return [row for row in penalties
            if row.case_id is not None or row.letter_id not in wrongly_entered]


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


#: Writing the ledger is the game core's (:mod:`corrmail.games.append`); these names stay
#: importable from here for older callers.
_MOVED_TO_THE_CORE = frozenset({
    "CorrectionSenderError", "CorrectionTargetError", "LedgerConflict", "LedgerError",
    "LetterInput", "SenderNotInGameError", "append_letter", "load_locked_game"})


def __getattr__(name: str) -> Any:
    if name in _MOVED_TO_THE_CORE:
        from corrmail.games import append

        return getattr(append, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DatedLetter", "LetterOnRecord", "effective_letters", "letter_date",
           "standing_penalties", "to_move",
           *sorted(_MOVED_TO_THE_CORE)]
