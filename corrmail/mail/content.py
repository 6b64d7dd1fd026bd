"""What a player's letter says: moves, variants, offers, announcements.

This module reads the *prose* of a letter — where the moves are, which of them form a proposed
variant, whether a draw is offered — and leaves the *meaning* of every move to the notation
package: each move is kept as the exact text the player wrote, with its move number and side,
so that the game processor can check it against the board and cite the rule when it is wrong.

Recognised, in Russian and English:

* moves in full notation with their numbers, ``7. c3-d4 f6:h4`` and ``7... f6-g5``
  (``002 §4.2.2``), in the square names of the game type's board (:func:`read_letter` is given
  its geometry): ``32-28``, ``19:28``, ``47:24:8:17:6`` or ``d4-e5`` in 100-square draughts,
  ``9-13``, ``17:9``, ``9:17:25`` in Lasca; dates, clock times, fractions and addresses are not
  moves (docs/rules/mail.md §17); short notation (``cd4``, ``b:d4``) is kept and flagged,
  because a move so written is impossible;
* proposed variants, introduced as ``002 §4.2.7`` asks: «если …, то …», «на … предлагаю …»,
  «предлагаю вариант …», «вариант А: …» (a header line may be followed by lines of moves);
* acceptance of a variant («принимаю вариант А», «вариант принимаю»);
* a draw offer, its acceptance or refusal; resignation;
* a break announcement (``002 §4.4.3``: «беру перерыв с … по …»), and a break announced in
  other words, flagged because the rule allows no other wording;
* an overstep claim (``002 §4.3.6``) and a protest (``002 §4.1.12``, ``§4.3.8``, ``§4.5.6``).

Parsing is lenient: problems are collected in :attr:`LetterContent.issues`, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from notation.errors import IllegibleMoveError
from notation.geometry import BOARD_8X8, Geometry, SquareStyle
from notation.written import WrittenShortMove, read_written, reads_as_move
from timekeeping import Side

__all__ = [
    "Side",
    "MoveMention",
    "ProposedVariant",
    "BreakMention",
    "ContentIssue",
    "LetterContent",
    "read_letter",
    "normalize_move_text",
]


@dataclass(frozen=True, slots=True)
class MoveMention:
    """One move as written: its text (normalised spelling), number and side when known."""

    text: str
    number: int | None = None
    side: Side | None = None
    #: True when written in short notation (``cd4``): impossible by ``002 §4.2.2``.
    short_notation: bool = False


@dataclass(frozen=True, slots=True)
class ProposedVariant:
    """A conditional line offered to the partner (``002 §4.2.7``)."""

    moves: tuple[MoveMention, ...]
    label: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class BreakMention:
    """The break sentence as written; dates are read by :mod:`timekeeping`."""

    phrase: str
    #: False when the player used other words than «беру перерыв с … по …» (``002 §4.4.3``).
    standard_wording: bool


@dataclass(frozen=True, slots=True)
class ContentIssue:
    """A problem noticed while reading, with the rule it concerns."""

    rule: str
    message: str
    source: str = ""
    #: What the letter to the player words in his language (the message is the log's English).
    code: str = ""


@dataclass(frozen=True, slots=True)
class LetterContent:
    moves: tuple[MoveMention, ...] = ()
    variants: tuple[ProposedVariant, ...] = ()
    accepts_variant: bool = False
    accepted_variant_label: str | None = None
    draw_offer: bool = False
    draw_accept: bool = False
    draw_decline: bool = False
    resignation: bool = False
    break_mention: BreakMention | None = None
    overstep_claim: bool = False
    protest: str | None = None
    issues: tuple[ContentIssue, ...] = field(default_factory=tuple)

    def moves_of(self, side: Side) -> tuple[MoveMention, ...]:
        return tuple(move for move in self.moves if move.side is side)

    @property
    def is_empty(self) -> bool:
        return not (
            self.moves
            or self.variants
            or self.accepts_variant
            or self.draw_offer
            or self.draw_accept
            or self.draw_decline
            or self.resignation
            or self.break_mention
            or self.overstep_claim
            or self.protest
        )


# --- spelling ---------------------------------------------------------------------------------

# Cyrillic letters that look like the Latin file letters; the rulebook itself writes «сd4».
_HOMOGLYPHS = str.maketrans(
    {"а": "a", "А": "a", "с": "c", "С": "c", "е": "e", "Е": "e", "В": "b",
     "х": "x", "Х": "x", "—": "-", "–": "-", "−": "-", "×": ":", "‑": "-"}
)
# A move number before a move: «12.» for White, «12...» or «12…» for Black.
_NUMBER = r"(?P<number>\d{1,3})\s*(?P<dots>\.\s*\.\s*\.|…|\.)"
_SEPARATOR = r"\s?[-:x]\s?"
# Digits glued to a token by a date's or a time's punctuation (``10.10-12.10``, ``12/7``) make
# it part of that date or time, not a move.
_BEFORE = r"(?<![\w/])(?<!\d[.:\-])"
_AFTER = r"(?!\w|/|[.:\-]\d)"
# «с 7-12 ноября»: on numeric boards a range of days can look like a move.
_DATE_WORD = re.compile(
    r"\s*(?:января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября"
    r"|декабря|г\.|гг\.|года|числа|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may"
    r"|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
    r"(?!\w)",
    re.IGNORECASE,
)


# «в 9:15», «9:15 мск»: a clock time, which in Lasca would also be a capture 9:15.
_CLOCK = re.compile(r"\d{1,2}:[0-5]\d")
_CLOCK_BEFORE = re.compile(r"(?:^|\s)(?:в|к|до|после|около|at|by|before|after)\s*$", re.IGNORECASE)
_CLOCK_AFTER = re.compile(r"\s*(?:ч\b|час|мин|утра|вечера|дня|мск|msk|utc|gmt|am\b|pm\b)",
                          re.IGNORECASE)


def _is_clock_time(match: re.Match[str], line: str) -> bool:
    if not _CLOCK.fullmatch(match.group("full")) or match.group("number"):
        return False
    return bool(_CLOCK_BEFORE.search(line, 0, match.start())
                or _CLOCK_AFTER.match(line, match.end()))


@lru_cache(maxsize=16)
def _move_token(geometry: Geometry) -> re.Pattern[str]:
    """Moves of ``geometry`` in prose; square names are the board's own (:mod:`notation`)."""
    square = geometry.square_pattern.pattern
    full = rf"(?:{square})(?:{_SEPARATOR}(?:{square}))+"
    short = rf"(?<!\w)[{geometry.files}]:?(?:{square})(?![\w-])"
    return re.compile(
        rf"{_BEFORE}(?:{_NUMBER}\s*)?(?:(?P<full>{full}){_AFTER}|(?P<short>{short}))",
        re.IGNORECASE,
    )


def normalize_move_text(text: str) -> str:
    """Lower-case Latin spelling, ``:`` for captures, no spaces: ``С3 - D4`` → ``c3-d4``."""
    cleaned = re.sub(r"\s+", "", text.translate(_HOMOGLYPHS)).lower()
    return re.sub(r"[x]", ":", cleaned)


# --- phrases ----------------------------------------------------------------------------------

# A number followed by a move sign starts a move (``вариант 32-28 …``), not a label.
_VARIANT_LABEL = r"(?P<label>[A-ZА-ЯЁ]|\d{1,2}(?![-:x]\d))"
_VARIANT_HEADER = re.compile(
    rf"^\s*(?:(?:вариант|variant)\s+{_VARIANT_LABEL}\b\s*[:.)\-]?|"
    r"предлагаю\s+(?:следующий\s+)?вариант\s*:?|(?:i\s+)?propose\s+(?:the\s+)?variant\s*:?)",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(
    r"\b(если|if)\b.+?\b(то|then)\b|\bна\s+.+?\bпредлагаю\b|\bin\s+reply\s+to\b.+?\bI\s+play\b",
    re.IGNORECASE,
)
_ACCEPT_VARIANT = re.compile(
    r"(?:принимаю|accept)\s+(?:ваш\s+|your\s+|the\s+)?(?:вариант|variant)"
    r"(?:\s+(?P<label>[A-ZА-ЯЁ]|\d{1,2})\b)?"
    r"|(?:вариант|variant)(?:\s+(?P<label2>[A-ZА-ЯЁ]|\d{1,2}))?\s+(?:принимаю|принят|accepted)",
    re.IGNORECASE,
)
_NEGATION = r"(?<!\bне\s)(?<!\bnot\s)(?<!\bdon't\s)"


def _phrases(*phrases: str, negatable: bool = False) -> re.Pattern[str]:
    """Any of ``phrases`` (regular expressions) as whole words, in any case; a ``negatable`` one
    does not count after «не», «not» or «don't» (``не сдаюсь`` resigns nothing)."""
    negation = _NEGATION if negatable else ""
    return re.compile(rf"{negation}\b(?:{'|'.join(phrases)})\b", re.IGNORECASE)


_DRAW_OFFER = _phrases(
    r"предлагаю\s+ничью", r"ничью\s+предлагаю", r"предложение\s+ничьей",
    r"(?:i\s+)?offer\s+(?:you\s+)?a\s+draw", r"draw\s+offer(?:ed)?",
)
_DRAW_ACCEPT = _phrases(
    r"принимаю\s+(?:ваше\s+предложение\s+)?ничь[юеи]й?", r"согласен\s+на\s+ничью",
    r"согласна\s+на\s+ничью", r"ничью\s+принимаю", r"accept\s+(?:the\s+|your\s+)?draw",
    r"agree\s+to\s+(?:a\s+)?draw",
    negatable=True,
)
_DRAW_DECLINE = _phrases(
    r"не\s+принимаю\s+ничью", r"от\s+ничьей\s+отказываюсь", r"ничью\s+не\s+принимаю",
    r"отклоняю\s+(?:предложение\s+)?ничь(?:ю|ей)", r"decline\s+(?:the\s+|your\s+)?draw",
)
_RESIGN = _phrases(
    r"сдаюсь", r"партию\s+сдаю", r"сдаю\s+партию", r"признаю\s+(?:своё\s+|свое\s+)?поражение",
    r"i\s+resign", r"resign\s+(?:the|this)\s+game",
    negatable=True,
)
_BREAK_STANDARD = re.compile(
    r"беру\s+перерыв\s+с\s+.+?\s+по\s+\S+(?:\s+(?:г\.?|года))?", re.IGNORECASE
)
_BREAK_OTHER = re.compile(
    r"\b(?:перерыв|отпуск|ухожу\s+в\s+отпуск|take\s+a\s+break|break\s+from)\b"
    r".*?\b(?:с|from)\s+\d{1,2}[./]\d{1,2}",
    re.IGNORECASE,
)
_OVERSTEP = _phrases(
    r"объявляю\s+(?:вам\s+)?просрочку", r"заявляю\s+о\s+просрочке", r"у\s+вас\s+просрочка",
    r"просрочк[аиу]\s+времени", r"claim\s+(?:an?\s+)?overstep", r"you\s+have\s+overstepped",
)
_PROTEST = _phrases(
    r"протест(?:ую)?", r"обжалую", r"заявляю\s+протест", r"i\s+protest", r"i\s+appeal",
    r"appeal\s+against",
)


# --- reading ----------------------------------------------------------------------------------


def read_letter(text: str, geometry: Geometry = BOARD_8X8) -> LetterContent:
    """Read the new text of a letter (quotes already removed) into :class:`LetterContent`.

    ``geometry`` is the board of the tournament's game type (``position.geometry``): its
    square names are the ones looked for, so ``32-28`` is a move of a 100-square game and
    ``9-13`` of a Lasca game, while on the 8×8 board of Russian draughts, where 002 §4.2.2 asks
    for algebraic squares, numbers are never read as moves.
    """
    moves: list[MoveMention] = []
    variants: list[ProposedVariant] = []
    issues: list[ContentIssue] = []
    open_variant: tuple[str | None, str, list[MoveMention]] | None = None

    def close_variant() -> None:
        nonlocal open_variant
        if open_variant is None:
            return
        label, source, variant_moves = open_variant
        if variant_moves:
            variants.append(ProposedVariant(tuple(variant_moves), label, source.strip()))
        else:
            issues.append(
                ContentIssue("002 §4.2.7", "a variant is announced but contains no moves", source,
                             code="empty_variant")
            )
        open_variant = None

    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            close_variant()
            continue
        header = _VARIANT_HEADER.match(stripped)
        line_moves = list(_mentions(stripped, geometry))
        accepting = _ACCEPT_VARIANT.search(stripped) is not None
        if header and not accepting:
            close_variant()
            label = header.group("label")
            open_variant = (label.upper() if label else None, stripped, line_moves)
            continue
        if _CONDITIONAL.search(stripped) and line_moves and not accepting:
            close_variant()
            variants.append(ProposedVariant(tuple(line_moves), None, stripped))
            continue
        if open_variant is not None and line_moves:
            open_variant[2].extend(line_moves)
            open_variant = (open_variant[0], open_variant[1] + "\n" + stripped, open_variant[2])
            continue
        close_variant()
        moves.extend(line_moves)
    close_variant()

    for move in moves:
        if move.short_notation:
            issues.append(
                ContentIssue(
                    "002 §4.2.2",
                    f"«{move.text}» is written in short notation; a move so written is impossible",
                    move.text,
                    code="short_notation",
                )
            )

    accept = _ACCEPT_VARIANT.search(text)
    accepted_label = None
    if accept is not None:
        label = accept.group("label") or accept.group("label2")
        accepted_label = label.upper() if label else None

    draw_decline = bool(_DRAW_DECLINE.search(text))
    break_mention = _break_mention(text)
    if break_mention is not None and not break_mention.standard_wording:
        issues.append(
            ContentIssue(
                "002 §4.4.3",
                "a break must be announced with the words «беру перерыв с … по …»",
                break_mention.phrase,
                code="break_wording",
            )
        )
    protest = _PROTEST.search(text)
    return LetterContent(
        moves=tuple(moves),
        variants=tuple(variants),
        accepts_variant=accept is not None,
        accepted_variant_label=accepted_label,
        draw_offer=bool(_DRAW_OFFER.search(text)),
        draw_accept=not draw_decline and bool(_DRAW_ACCEPT.search(text)),
        draw_decline=draw_decline,
        resignation=bool(_RESIGN.search(text)),
        break_mention=break_mention,
        overstep_claim=bool(_OVERSTEP.search(text)),
        protest=_sentence_around(text, protest.start()) if protest else None,
        issues=tuple(issues),
    )


def _mentions(line: str, geometry: Geometry) -> Iterator[MoveMention]:
    """Moves of one line with numbers and sides: ``7. a-b c-d`` is white then black of 7."""
    number: int | None = None
    side: Side | None = None
    folded = line.translate(_HOMOGLYPHS)  # one character for one: positions stay the same
    pattern = _move_token(geometry)
    position = 0
    while (match := pattern.search(folded, position)) is not None:
        if not _is_move(match, geometry, line):
            # «Вариант 1: 32-28»: the rejected «1: 32-28» must not swallow the move inside it.
            position = match.start() + 1
            continue
        position = match.end()
        written = match.group("full") or match.group("short")
        if match.group("number"):
            number = int(match.group("number"))
            side = Side.WHITE if match.group("dots") == "." else Side.BLACK
        elif side is Side.WHITE:
            side = Side.BLACK
        elif side is Side.BLACK and number is not None:
            number, side = number + 1, Side.WHITE
        yield MoveMention(
            text=normalize_move_text(written),
            number=number,
            side=side,
            short_notation=match.group("short") is not None,
        )


def _is_move(match: re.Match[str], geometry: Geometry, line: str) -> bool:
    """Whether a token found in prose is a move rather than a date, a time or a number.

    Algebraic squares (``c3-d4``) are unmistakable. Numeric squares are read only on boards
    numbered so (100-square draughts, Lasca), and only when the token goes along diagonals
    (:func:`notation.written.reads_as_move`) or carries a move number (``12. 32-29`` is meant as
    a move, and notation will call it impossible, 002 §4.2.10); a day range followed by a month
    («с 7-12 ноября») is a date.
    """
    written = normalize_move_text(match.group("full") or match.group("short"))
    if match.group("short") is not None:
        try:
            return isinstance(read_written(written, geometry), WrittenShortMove)
        except IllegibleMoveError:
            return False
    if not any(name.isdigit() for name in re.split(r"[-:]", written)):
        return True
    if geometry.default_style is not SquareStyle.NUMERIC:
        return False
    if _DATE_WORD.match(line, match.end()) or _is_clock_time(match, line):
        return False
    return match.group("number") is not None or reads_as_move(written, geometry)


def _break_mention(text: str) -> BreakMention | None:
    standard = _BREAK_STANDARD.search(text)
    if standard:
        return BreakMention(standard.group(0).rstrip(".,;"), standard_wording=True)
    other = _BREAK_OTHER.search(text)
    if other:
        return BreakMention(_sentence_around(text, other.start()), standard_wording=False)
    return None


def _sentence_around(text: str, position: int) -> str:
    """The sentence (or line) of ``text`` that contains ``position``."""
    starts = [match.end() for match in _SENTENCE_END.finditer(text, 0, position)]
    following = _SENTENCE_END.search(text, position)
    end = following.start() + 1 if following else len(text)
    return text[starts[-1] if starts else 0 : end].strip()


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
