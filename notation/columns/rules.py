"""Rule options of column draughts: Bashni (8x8) and Lasca (7x7), direct and reverse.

The federation's own text for these games survives only as a table of contents
(column-draughts digest, preamble), so every reading the digest marks as recommended is an
option here rather than hard-wired (docs/rules/columns.md):

``moves``
    ``bashni``: Russian draughts' movement — men capture backwards, kings fly, a man promoted
    during a capture goes on capturing as a king (digest §2).  ``lasker``: Lasker's Lasca —
    soldiers move and capture forward only, officers step one square, promotion ends the move
    (digest §4).  Default: ``bashni`` for Bashni, ``lasker`` for Lasca (digest §9 Q3).
``rejump``
    ``forbidden`` (default, the Turkish-strike reading, digest §9 Q1) or ``allowed``: a column
    may be jumped again in the same move while an enemy piece is on top of what is left of it.
``placement``
    ``deferred`` (default, digest §9 Q2): jumped columns stay unchanged, and block, until the
    move ends.  ``immediate``: each jumped column loses its top as it is jumped, so a column
    emptied that way no longer blocks the rest of the move.
``king-landing``
    ``continue`` (default, the Russian landing rule, digest §2): a flying king must land where
    the capture continues if any landing square allows it.  ``free``: it may land on any square
    beyond the victim (and must go on capturing only if it can from where it landed).
``numbering`` (Lasca only)
    ``a1`` (default, digest §9 Q4): square 1 is a1 and each row is numbered left to right as
    White sees the board.  ``g1``: square 1 is g1, rows numbered right to left.  Either way
    White starts on 1–11 and Black on 15–25; only the names of the squares differ.
``quiet-limit``
    ``off`` (default) or a number N: a draw may be claimed once each side has made N moves in a
    row with king-topped columns and no capture — a Russian-draughts-style move-count limit,
    which the digest asks to keep configurable and off (§2 "Result", §9 Q5).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from notation.geometry import Geometry, NumberingOrigin, SquareStyle
from notation.rules import GameType, Goal


class Movement(enum.Enum):
    """How men and kings move and capture (the ``moves`` option)."""

    BASHNI = "bashni"
    LASKER = "lasker"


class Rejump(enum.Enum):
    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class Placement(enum.Enum):
    DEFERRED = "deferred"
    IMMEDIATE = "immediate"


class KingLanding(enum.Enum):
    CONTINUE = "continue"
    FREE = "free"


class Numbering(enum.Enum):
    """Where Lasca's square 1 lies (the ``numbering`` option)."""

    A1 = "a1"
    G1 = "g1"


@dataclass(frozen=True)
class _NumberedFromTheRight(Geometry):
    """A board numbered from White's side like its parent, but each row right to left."""

    def __post_init__(self) -> None:
        super().__post_init__()
        numbers = [0] * self.count
        number = 0
        for row in range(self.size):
            for square in sorted(
                (s for s in range(self.count) if self.row(s) == row), key=self.column, reverse=True
            ):
                number += 1
                numbers[square] = number
        object.__setattr__(self, "_numbers", tuple(numbers))


BOARD_7X7_FROM_G1 = _NumberedFromTheRight(
    7, "abcdefg", NumberingOrigin.WHITE_SIDE, SquareStyle.NUMERIC
)
"""Lasca's board with square 1 on g1 (``numbering=g1``, digest §9 Q4)."""


COLUMN_GAME_TYPES = tuple(game_type for game_type in GameType if game_type.is_column)
"""Russian (Bashni) and international (Lasca) column draughts, direct and reverse (002 §4.1.4)."""

def _quiet_limit(text: str) -> int | None:
    if text == "off":
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(text)
    return int(text)


# option name -> (ColumnRules field, reader of the written value, the values it takes)
_OPTIONS: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "moves": ("movement", Movement, "bashni|lasker"),
    "rejump": ("rejump", Rejump, "forbidden|allowed"),
    "placement": ("placement", Placement, "deferred|immediate"),
    "king-landing": ("king_landing", KingLanding, "continue|free"),
    "numbering": ("numbering", Numbering, "a1|g1"),
    "quiet-limit": ("quiet_limit", _quiet_limit, "off|N"),
}


@dataclass(frozen=True)
class ColumnRules:
    """The rules one column-draughts game is played under: its type plus the options."""

    game_type: GameType
    movement: Movement
    rejump: Rejump = Rejump.FORBIDDEN
    placement: Placement = Placement.DEFERRED
    king_landing: KingLanding = KingLanding.CONTINUE
    numbering: Numbering = Numbering.A1
    quiet_limit: int | None = None

    def __post_init__(self) -> None:
        if self.game_type not in COLUMN_GAME_TYPES:
            raise NotAColumnGameError(self.game_type)
        if self.numbering is not Numbering.A1 and self.game_type.rules.geometry.size != 7:
            raise RuleOptionError(
                f"numbering={self.numbering.value}", "numbering applies to Lasca's 1-25 only"
            )

    @classmethod
    def default(cls, game_type: GameType) -> ColumnRules:
        """The recommended readings of the digest for ``game_type``."""
        if game_type in (GameType.COLUMN_INTERNATIONAL, GameType.COLUMN_INTERNATIONAL_GIVEAWAY):
            return cls(game_type, Movement.LASKER)
        return cls(game_type, Movement.BASHNI)

    @classmethod
    def of(cls, game_type: GameType, options: Mapping[str, str] | None = None) -> ColumnRules:
        """The default rules of ``game_type`` with ``options`` (``{"rejump": "allowed"}``)."""
        rules = cls.default(game_type)
        return rules.with_options(options) if options else rules

    def with_options(self, options: Mapping[str, str]) -> ColumnRules:
        """These rules with some options changed; raises :class:`RuleOptionError`."""
        changes: dict[str, Any] = {}
        for name, value in options.items():
            key = name.strip().lower().replace("_", "-")
            if key not in _OPTIONS:
                raise RuleOptionError(f"{name}={value}", f"unknown rule option {name!r}")
            field, read, allowed = _OPTIONS[key]
            try:
                changes[field] = read(value.strip().lower())
            except ValueError:
                raise RuleOptionError(
                    f"{name}={value}", f"rule option {key} takes {allowed}"
                ) from None
        return replace(self, **changes)

    def options(self) -> dict[str, str]:
        """Every option as ``name -> value`` (for headers and the CLI)."""
        written: dict[str, str] = {}
        for key, (field, _, _) in _OPTIONS.items():
            value = getattr(self, field)
            written[key] = value.value if isinstance(value, enum.Enum) else str(value or "off")
        return written

    def changed_options(self) -> dict[str, str]:
        """Only the options that differ from the game type's default."""
        default = ColumnRules.default(self.game_type).options()
        return {key: value for key, value in self.options().items() if default[key] != value}

    # -- what the options mean for the engine ---------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        if self.numbering is Numbering.G1:
            return BOARD_7X7_FROM_G1
        return self.game_type.rules.geometry

    @property
    def goal(self) -> Goal:
        return self.game_type.rules.goal

    @property
    def men_rows(self) -> int:
        return self.game_type.rules.men_rows

    @property
    def men_capture_backwards(self) -> bool:
        return self.movement is Movement.BASHNI

    @property
    def flying_kings(self) -> bool:
        return self.movement is Movement.BASHNI

    @property
    def promotion_ends_move(self) -> bool:
        """Lasker: a soldier reaching the far row stops there, even if it could capture on."""
        return self.movement is Movement.LASKER


def rule_option_choices() -> dict[str, str]:
    """Every option and the values it takes, ``{"rejump": "forbidden|allowed", …}`` (forms, help)."""
    return {key: allowed for key, (_, _, allowed) in _OPTIONS.items()}


RULE_OPTIONS_TAG = "RuleOptions"
"""PDN header naming the options that differ from the default: ``[RuleOptions "rejump=allowed"]``."""


def rule_options_tag(rules: ColumnRules) -> str:
    """The :data:`RULE_OPTIONS_TAG` value for ``rules`` (empty when all options are default)."""
    return " ".join(f"{name}={value}" for name, value in rules.changed_options().items())


def parse_rule_options(texts: Iterable[str]) -> dict[str, str]:
    """``["rejump=allowed", "moves=bashni"]`` as a mapping; raises :class:`RuleOptionError`."""
    options: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise RuleOptionError(text, "a rule option is written NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


class RuleOptionError(ValueError):
    """A rule option that does not exist or has no such value (docs/rules/columns.md)."""

    def __init__(self, text: str, reason: str) -> None:
        names = ", ".join(f"{key}={allowed}" for key, (_, _, allowed) in _OPTIONS.items())
        super().__init__(f"{reason}: {text!r} (options: {names})")
        self.text = text


class NotAColumnGameError(ValueError):
    def __init__(self, game_type: GameType) -> None:
        super().__init__(f"{game_type.value} is not a column-draughts game type")
        self.game_type = game_type
