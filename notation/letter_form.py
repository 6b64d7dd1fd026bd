"""What a letter with a move must carry (002 §4.2.3), forced moves found (§4.2.4), and a signed
correction of a move (§4.2.5).

002 §4.2.3 lists the elements of a letter with a move: a greeting, the tournament code, the
repetition of the partner's new move(s) or of the accepted variant (or its accepted part), one's
own reply move(s), possibly proposed variants, the three dates, the total time of each player,
the return address and the player's signature. :func:`missing_elements` names each one a letter
lacks; :func:`elements_in_text` finds those a letter's text shows by itself (the greeting, the
tournament code, the time fraction, the dates); whoever reads the letter (a steward with the card
in hand, the mail server with its envelope) supplies the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from notation.errors import NotationError
from notation.game_position import GamePosition
from notation.move import Move


class LetterElement(StrEnum):
    """The elements 002 §4.2.3 requires of a letter with a move, in the rule's order."""

    GREETING = "greeting"
    TOURNAMENT_CODE = "tournament_code"
    PARTNER_MOVES_REPEATED = "partner_moves_repeated"
    OWN_MOVE = "own_move"
    THREE_DATES = "three_dates"
    TIME_TOTALS = "time_totals"
    RETURN_ADDRESS = "return_address"
    SIGNATURE = "signature"


class LetterIncomplete(NotationError):
    """A letter with a move that lacks elements of 002 §4.2.3; ``code`` and ``missing`` (the
    element codes, in the rule's order) let a reader word it in his own language."""

    rule = "002 §4.2.3"
    code = "letter_elements_missing"

    def __init__(self, missing: Sequence[LetterElement]) -> None:
        self.missing = tuple(missing)
        names = ", ".join(element.value for element in self.missing)
        super().__init__(names, f"the letter lacks {names}")

    @property
    def params(self) -> dict[str, str]:
        return {"missing": ", ".join(element.value for element in self.missing)}


def required_elements(*, opening: bool = False, by_post: bool = True) -> tuple[LetterElement, ...]:
    """What a letter must carry (002 §4.2.3).

    ``opening``: the first move of the game answers nothing, so there is nothing to repeat and
    only its own dispatch date to give (reading in ``docs/rules/notation.md``). ``by_post=False``
    (e-mail, web): the server knows the sender and his address and stamps the dates itself
    (002 §4.1.3: e-mail play's particulars are the regulations'), so neither return address,
    signature nor the three dates are asked of the player.
    """
    wanted = list(LetterElement)
    if opening:
        wanted.remove(LetterElement.PARTNER_MOVES_REPEATED)
    if not by_post:
        for element in (LetterElement.THREE_DATES, LetterElement.RETURN_ADDRESS, LetterElement.SIGNATURE):
            wanted.remove(element)
    return tuple(wanted)


def missing_elements(present: Iterable[LetterElement], *, opening: bool = False,
                     by_post: bool = True) -> tuple[LetterElement, ...]:
    """Each required element of 002 §4.2.3 the letter lacks, in the rule's order."""
    have = frozenset(present)
    return tuple(element for element in required_elements(opening=opening, by_post=by_post)
                 if element not in have)


def check_elements(present: Iterable[LetterElement], *, opening: bool = False, by_post: bool = True) -> None:
    """Raise :class:`LetterIncomplete` naming every missing element of 002 §4.2.3."""
    missing = missing_elements(present, opening=opening, by_post=by_post)
    if missing:
        raise LetterIncomplete(missing)


_GREETING = re.compile(
    r"\b(здравствуй\w*|добр\w+\s+(?:день|утро|вечер)|привет\w*|уважаем\w+|дорог\w+|"
    r"вітаю|доброго\s+дня|hello|dear|hi)\b", re.IGNORECASE)
# The time fraction white/black (002 §4.3.1): whole days, not part of a date such as 10/10/97.
_FRACTION = re.compile(r"(?<![\d./])\d{1,3}\s*/\s*\d{1,3}(?!\d|[./]\d)")
_DATE = re.compile(r"(?<![\d.])\d{1,2}\.\d{1,2}(?:\.\d{2}(?:\d{2})?)?(?![\d])|\b\d{4}-\d{2}-\d{2}\b")


def elements_in_text(text: str, tournament_code: str, *, dates_needed: int = 3) -> frozenset[LetterElement]:
    """The elements of 002 §4.2.3 a letter's text shows by itself: a greeting, the tournament
    code (letter case and spacing aside), the time fraction white/black, and at least
    ``dates_needed`` dates. The moves, address and signature are judged by who reads it."""
    found: set[LetterElement] = set()
    if _GREETING.search(text):
        found.add(LetterElement.GREETING)
    code = re.sub(r"\s+", "", tournament_code).casefold()
    if code and code in re.sub(r"\s+", "", text).casefold():
        found.add(LetterElement.TOURNAMENT_CODE)
    if _FRACTION.search(text):
        found.add(LetterElement.TIME_TOTALS)
    if len(_DATE.findall(text)) >= dates_needed:
        found.add(LetterElement.THREE_DATES)
    return frozenset(found)


def forced_plies(position: GamePosition, moves: Sequence[Move]) -> tuple[bool, ...]:
    """For each move played in turn from ``position``, whether it was forced (002 §4.2.4: the
    only capture, or the only legal move of any piece)."""
    flags: list[bool] = []
    for move in moves:
        flags.append(position.forced_move() == move)
        position = position.play(move)
    return tuple(flags)


class CorrectionRefused(NotationError):
    """A correction of a written move not made as 002 §4.2.5 prescribes: erased, or not struck
    through, or not signed. The move then stands as illegible (002 §4.2.9)."""

    rule = "002 §4.2.5"

    def __init__(self, text: str, code: str, reason: str) -> None:
        super().__init__(text, reason)
        self.code = code


@dataclass(frozen=True)
class WrittenCorrection:
    """A move corrected on a card: ``struck`` crossed out, ``replacement`` written instead."""

    struck: str
    replacement: str
    struck_through: bool = True
    signed: bool = False
    erased: bool = False


def accept_correction(correction: WrittenCorrection) -> str:
    """The move a corrected record stands for (002 §4.2.5): the replacement, when the old move
    is struck through (no erasure) and the correction is signed by the player.

    Otherwise :class:`CorrectionRefused` (``erased``, ``not_struck_through``, ``unsigned``): the
    record is not legible as the rule requires, and the recipient asks for it again (002 §4.2.9).
    """
    text = f"{correction.struck} → {correction.replacement}"
    if correction.erased:
        raise CorrectionRefused(text, "erased", "erasures are not allowed")
    if not correction.struck_through:
        raise CorrectionRefused(text, "not_struck_through", "the corrected move must be struck through")
    if not correction.signed:
        raise CorrectionRefused(text, "unsigned", "a correction must be signed by the player")
    return correction.replacement
