"""Errors raised by the scoring engine; each is a ``ValueError`` carrying the offending input."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: A value an error carries beside its code: a number (a round, a start number, a count), a text,
#: or several start numbers or texts.
ErrorValue = int | str | tuple[int, ...] | tuple[str, ...]

#: The values that are start numbers (in a team Swiss, the teams' numbers: their order).
START_NUMBER_VALUES = frozenset(
    {"player", "players", "opponent", "others", "white", "black", "whites", "bye_candidates"}
)

_NO_VALUES: Mapping[str, ErrorValue] = MappingProxyType({})


class ScoringError(ValueError):
    """Base class of every error the scoring engine raises for bad input.

    ``code`` names what is wrong and ``values`` the values of its English text, so that a reader
    can be told in his own words; an error without a code (``""``) has only its English text.
    The values named in :data:`START_NUMBER_VALUES` are start numbers.
    """

    code: str = ""
    values: Mapping[str, ErrorValue] = _NO_VALUES


class SelfPairingError(ScoringError):
    """A player is recorded as meeting himself (000 §3.18.2: a game has two different players)."""

    def __init__(self, round_no: int, start_no: int) -> None:
        super().__init__(f"round {round_no}: player {start_no} cannot meet himself")
        self.round_no = round_no
        self.start_no = start_no


class UnknownPlayerError(ScoringError):
    """A game, bye, team or withdrawal names a start number that is not in the tournament."""

    def __init__(self, start_no: int, where: str) -> None:
        super().__init__(f"{where}: no player with start number {start_no}")
        self.start_no = start_no
        self.where = where


class DuplicatePlayerError(ScoringError):
    """Two players share a start number."""

    def __init__(self, start_no: int) -> None:
        super().__init__(f"start number {start_no} is given to two players")
        self.start_no = start_no


class DuplicatePairingError(ScoringError):
    """A player appears twice in one round (000 §3.18.2: one game per player and round)."""

    def __init__(self, round_no: int, start_no: int) -> None:
        super().__init__(f"round {round_no}: player {start_no} is recorded twice")
        self.round_no = round_no
        self.start_no = start_no


class InconsistentResultError(ScoringError):
    """The two sides of one game disagree (e.g. both claim a win), or a result is not allowed."""

    def __init__(self, message: str, round_no: int, start_nos: tuple[int, ...]) -> None:
        super().__init__(message)
        self.round_no = round_no
        self.start_nos = start_nos


class PointSystemError(ScoringError):
    """A points triple that cannot be used (000 §3.15: win > loss, win >= draw >= loss)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"invalid point system {text!r}: {reason} (000 §3.15.1-3.15.2)")
        self.text = text


class WithdrawalError(ScoringError):
    """A withdrawal decision the rules do not allow (000 §3.14.3)."""

    def __init__(self, start_no: int, reason: str) -> None:
        super().__init__(f"withdrawal of player {start_no}: {reason}")
        self.start_no = start_no


class UnknownTiebreakError(ScoringError):
    """A tiebreak, preset or unplayed-game policy name the engine does not know."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown name {name!r}; known: {', '.join(known)}")
        self.name = name
        self.known = known


class TiebreakNotApplicableError(ScoringError):
    """A tiebreak configured for a tournament it does not apply to (e.g. 001 §5.4.8.4.3)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"tiebreak {name!r} cannot be used here: {reason}")
        self.name = name


class PlayoffError(ScoringError):
    """A recorded play-off that does not fit the table (000 §3.16.2: only players level on points)."""

    def __init__(self, start_nos: tuple[object, ...], reason: str, *, code: str = "",
                 values: dict[str, str] | None = None) -> None:
        super().__init__(f"play-off {list(start_nos)}: {reason}")
        self.start_nos = start_nos
        #: What is wrong, for a reader's own words: ``takes_no_place`` (``numbers``),
        #: ``listed_twice``, ``not_level``, ``teams_not_level``, ``runner_up_lost`` (``team``).
        self.code = code
        self.values = dict(values or {})


class FormatError(ScoringError):
    """A tournament file (TRF-16 or JSON) that cannot be read; ``problems`` lists every defect found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        shown = "; ".join(problems[:10]) + (f"; ... {len(problems) - 10} more" if len(problems) > 10 else "")
        super().__init__(f"{source}: {shown}")
        self.source = source
        self.problems = problems


class ScheduleError(ScoringError):
    """A Scheveningen schedule that cannot be drawn for teams of ``size`` players (004).

    Codes: ``scheveningen_size`` (a team needs at least one player), ``semi_scheveningen_size``
    (the halves meet each other, so a team needs an even number); value ``size``.
    """

    def __init__(self, size: int, semi: bool) -> None:
        super().__init__(
            f"a {'semi-' if semi else ''}Scheveningen match needs "
            f"{'an even number of' if semi else 'at least one'} player(s) a team, not {size}"
        )
        self.size = size
        self.code = "semi_scheveningen_size" if semi else "scheveningen_size"
        self.values = {"size": size}
