"""What a bulletin, a final report and a player's sheet say, as plain data.

The builders (:mod:`corrmail.bulletins.build`) fill these from the database as of a date; the
archive stores :func:`to_json` of them and every rendering (web page, printable view, e-mail)
reads that JSON, so an issued bulletin reads the same forever.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from corrmail.standings.results import MarkedResult

__all__ = [
    "AdjudicationLine",
    "BreakLine",
    "Bulletin",
    "ClaimLine",
    "ClockLine",
    "Crosstable",
    "RoundCell",
    "DeadlineLine",
    "DecisionLine",
    "ProtestMark",
    "FinalReport",
    "DelayLine",
    "FinishedGame",
    "GameCourse",
    "Heading",
    "IssueLine",
    "OverstepLine",
    "PenaltyLine",
    "PlayerSheet",
    "RecordLine",
    "SheetGame",
    "StandingLine",
    "Statistics",
    "StewardReport",
    "TeamLine",
    "UnfinishedGame",
    "WithdrawalLine",
    "to_json",
]


@dataclass(frozen=True)
class Heading:
    code: str
    title: str
    game_type: str
    system: str
    start_date: dt.date
    end_date: dt.date
    control: str
    """Think time as the start sheet writes it: ``50 days / 10 moves`` → ``"50/10"``."""


@dataclass(frozen=True)
class StandingLine:
    place: str
    start_no: int
    name: str
    points: float
    games_played: int
    tiebreaks: tuple[tuple[str, float | None], ...]
    withdrawn: bool


@dataclass(frozen=True)
class TeamLine:
    """A team's line of a team event's table: the places are the teams' (000 §3.17.6)."""

    place: str
    team: str
    match_points: float
    game_points: float
    tiebreaks: tuple[tuple[str, float | None], ...]


@dataclass(frozen=True)
class RoundCell:
    """One round of a player in a table printed by rounds: his opponent's start number and his
    colour (``w``/``b``; both ``None`` for a round without a partner, a bye or an absence) and
    his result with its mark, as the web's table by rounds prints it."""

    opponent: int | None
    colour: str | None
    results: tuple[MarkedResult, ...]


@dataclass(frozen=True)
class Crosstable:
    start_numbers: tuple[int, ...]
    names: tuple[str, ...]
    cells: tuple[tuple[tuple[MarkedResult, ...], ...], ...]
    """``cells[i][j]``: row player i's results against column player j with their marks, as
    the web crosstable prints them (empty on the diagonal). Issued before the marks were
    archived, a cell is its text (``"½"``, ``"×"`` on the diagonal)."""
    points: tuple[float, ...]
    rounds: tuple[tuple[RoundCell | None, ...], ...] = ()
    """A Swiss or team event's table by rounds, as the web prints it: ``rounds[i][r]`` is row
    player i's round r + 1 (``None``: not yet paired). Empty for a round robin, printed as
    the matrix, and in a paper issued before tables by rounds were archived."""


@dataclass(frozen=True)
class FinishedGame:
    game_id: int
    round: int
    white: str
    black: str
    result: str
    """``1-0``, ``½-½``, ``0-1``, ``+/−``, ``−/+``, ``−/−`` or ``×/×`` (annulled)."""
    how: str
    """The result kind: played, overstep, forfeit, adjudicated, decided."""
    rule: str | None
    finished_on: dt.date | None
    record: str
    """The moves in short notation (002 §4.5.1), ``1.cd4 fg5 2.dc5 b:d4 …``."""
    moves: int
    diagram_svg: str | None
    """The final position; ``None`` when `notation` cannot draw this game type."""


@dataclass(frozen=True)
class AdjudicationLine:
    game_id: int
    white: str
    black: str
    opened_on: dt.date
    analyses_due: dt.date
    decision_due: dt.date | None
    state: str


@dataclass(frozen=True)
class OverstepLine:
    game_id: int
    player: str
    move: int
    total: int
    limit: int
    rule: str
    white: str
    black: str
    state: str
    """The game's state on the date (in play, finished, in adjudication…): the final report
    lists oversteps of games in every state."""


@dataclass(frozen=True)
class ProtestMark:
    """A protest against a decision, as data: the party (``white``/``black`` or a player's
    entry), the day it was filed and the instance it went to — the page words each in its
    reader's language."""

    party: str
    filed_on: dt.date
    to: str


@dataclass(frozen=True)
class DecisionLine:
    case_id: int
    case_ref: str
    case_type: str
    subject: str
    instance: str
    ruling: str
    decided_on: dt.date
    rules: tuple[str, ...]
    reasons: str
    protests: tuple[str, ...]
    """Protests against this decision: ``"white 12.03.2027 → referee"``."""
    audit_id: int | None
    """The audit-log entry that recorded the decision."""
    protest_marks: tuple[ProtestMark, ...] = ()
    """The same protests as data (issues archived before them have only ``protests``)."""
    sanction: str | None = None
    """A sanction case: which one (002 §4.1.9: ``warning`` — замечание, ``reprimand`` —
    выговор, ``bulletins_withheld`` — лишение текущей информации, ``forfeit``,
    ``exclusion_request``), so the report says what was imposed."""


@dataclass(frozen=True)
class PenaltyLine:
    """Penalty days charged to a player (002 §4.2.11, §4.3.3, §4.3.7)."""

    game_id: int
    player: str
    days: int
    rule: str
    reason: str
    charged_on: dt.date


@dataclass(frozen=True)
class BreakLine:
    player: str
    start: dt.date
    end: dt.date
    days: int
    kind: str
    in_force: bool
    state: str = ""
    """``announced`` (to come), ``in_force`` or ``taken`` (over by the date)."""


@dataclass(frozen=True)
class ClaimLine:
    """An overstep claim not yet decided for good (002 §4.3.6–§4.3.8): the game stays suspended
    while it waits, and its result is not on record."""

    case_id: int
    case_ref: str
    game_id: int | None
    white: str
    black: str
    claimant: str
    accused: str
    opened_on: dt.date
    state: str
    """The claim's state as `adjudication` names it (``open``, ``decided`` within the protest
    window, ``protested``)."""
    next_due: dt.date | None
    next_what: str


@dataclass(frozen=True)
class UnfinishedGame:
    """A game without a result on record, named (002 §4.1.7 asks the results of the
    tournament: the report says which games are still open, not only how many)."""

    game_id: int
    round: int
    white: str
    black: str
    moves: int
    state: str
    """``in_play``, ``not_started``, ``adjudication`` or ``suspended`` (a claim waits)."""


@dataclass(frozen=True)
class ClockLine:
    """One game in play: the time fraction and the clock of the player to move."""

    game_id: int
    white: str
    black: str
    moves: int
    white_days: int
    black_days: int
    to_move: str
    to_move_side: str
    limit: int
    days_left: int | None
    last_safe_reply: dt.date | None
    suspended: bool = False
    """Play is stopped while an overstep claim waits (002 §4.3.6): no clock runs."""


@dataclass(frozen=True)
class DeadlineLine:
    due: dt.date
    who: str
    what: str
    rule: str
    game_id: int | None


@dataclass(frozen=True)
class Bulletin:
    """The steward's current information (002 §4.1.8)."""

    heading: Heading
    number: int
    as_of: dt.date
    since: dt.date | None
    tiebreak_order: tuple[str, ...]
    standings: tuple[StandingLine, ...]
    crosstable: Crosstable
    finished: tuple[FinishedGame, ...]
    in_adjudication: tuple[AdjudicationLine, ...]
    oversteps: tuple[OverstepLine, ...]
    decisions: tuple[DecisionLine, ...]
    penalties: tuple[PenaltyLine, ...]
    breaks: tuple[BreakLine, ...]
    clocks: tuple[ClockLine, ...]
    deadlines: tuple[DeadlineLine, ...]
    kind: str = "bulletin"
    teams: tuple[TeamLine, ...] = ()
    team_tiebreak_order: tuple[str, ...] = ()
    open_claims: tuple[ClaimLine, ...] = ()


@dataclass(frozen=True)
class WithdrawalLine:
    player: str
    withdrawn_on: dt.date
    reason: str
    decision: str
    ban_until: dt.date | None
    """The organizer bars the player from his tournaments until this day (002 §4.1.14)."""


@dataclass(frozen=True)
class RecordLine:
    """A finished game's records (002 §4.5.1): who sent one, who did not."""

    game_id: int
    white: str
    black: str
    result: str
    channel: str
    white_record: str
    black_record: str
    """``received``, ``generated`` (an e-mail game: the server writes it), ``due``, ``missing``
    or ``not_registered`` (no game-record case was opened)."""
    white_record_on: dt.date | None
    black_record_on: dt.date | None
    """The day the record arrived, or the day it is due."""


@dataclass(frozen=True)
class Statistics:
    games: int
    finished: int
    unfinished: int
    played: int
    """Decided over the board or adjudicated (not ``+``/``−``, not annulled)."""
    white_wins: int
    black_wins: int
    draws: int
    unplayed: int
    adjudicated: int
    annulled: int
    average_moves: float | None
    average_days: float | None
    """From the first letter's dispatch to the result, over played games with letters."""


@dataclass(frozen=True)
class FinalReport:
    """The referee's report to the organizer (002 §4.1.7)."""

    heading: Heading
    as_of: dt.date
    tiebreak_order: tuple[str, ...]
    tiebreak_rules: tuple[tuple[str, str], ...]
    """Each criterion with the rule that defines it, in the order used."""
    standings: tuple[StandingLine, ...]
    crosstable: Crosstable
    decisions: tuple[DecisionLine, ...]
    penalties: tuple[PenaltyLine, ...]
    withdrawals: tuple[WithdrawalLine, ...]
    records: tuple[RecordLine, ...]
    statistics: Statistics
    kind: str = "final_report"
    teams: tuple[TeamLine, ...] = ()
    team_tiebreak_order: tuple[str, ...] = ()
    open_claims: tuple[ClaimLine, ...] = ()
    oversteps: tuple[OverstepLine, ...] = ()
    breaks: tuple[BreakLine, ...] = ()
    unfinished: tuple[UnfinishedGame, ...] = ()


@dataclass(frozen=True)
class SheetGame:
    game_id: int
    round: int
    opponent: str
    colour: str
    state: str
    result: str
    moves: int
    own_days: int | None
    partner_days: int | None
    to_move: bool
    days_left: int | None
    last_safe_reply: dt.date | None


@dataclass(frozen=True)
class PlayerSheet:
    """One player's own games, clocks and deadlines, and the last bulletin."""

    heading: Heading
    as_of: dt.date
    participant_id: int
    name: str
    start_no: int | None
    place: str | None
    points: float | None
    games: tuple[SheetGame, ...]
    deadlines: tuple[DeadlineLine, ...]
    last_bulletin: tuple[int, int, dt.date] | None
    """(archive id, number, as-of date) of the last bulletin issued on or before ``as_of``."""
    kind: str = "player_sheet"


@dataclass(frozen=True)
class GameCourse:
    """One game as the steward reports it to the referee (002 §4.1.8): where it stands, its
    letters, each side's think time and penalty days, and an overstep the chart shows."""

    game_id: int
    round: int
    white: str
    black: str
    state: str
    """``finished``, ``in_play``, ``not_started``, ``adjudication`` or ``suspended``."""
    result: str
    how: str
    """The result kind of a finished game (played, overstep, forfeit, adjudicated); else ``""``."""
    finished_on: dt.date | None
    moves: int
    letters: int
    first_sent: dt.date | None
    last_sent: dt.date | None
    white_days: int | None
    black_days: int | None
    """Think time on the chart (002 §4.3.6); ``None`` when the chart cannot be computed."""
    white_penalty_days: int
    black_penalty_days: int
    overstep: str
    """The player the chart shows past his limit (002 §4.3.5), or ``""``."""


@dataclass(frozen=True)
class DelayLine:
    """A game waiting longer than the rules let a letter wait: the last move letter unanswered
    on its repeat date, or the first move not received on its query date (002 §4.3.4)."""

    game_id: int
    white: str
    black: str
    waiting_for: str
    """The player whose move is awaited."""
    since: dt.date
    """The last move letter's dispatch, or the start of play for a first move."""
    days: int
    """Calendar days from ``since`` to the report's date."""
    due: dt.date
    """The repeat (or query) date that has passed."""
    what: str
    """``repeat`` (002 §4.3.4: repeat the move by registered letter) or ``first_move``."""
    rule: str


@dataclass(frozen=True)
class IssueLine:
    """A bulletin the steward issued to the players (002 §4.1.8: he informs them periodically)."""

    number: int
    version: int
    as_of: dt.date


@dataclass(frozen=True)
class StewardReport:
    """The steward's report to the referee on the games he serves (002 §4.1.8): the course of
    every game, delays, oversteps, claims, penalties, breaks, his own decisions (002 §4.1.9,
    §4.1.12), the game records he registered and the bulletins he issued."""

    heading: Heading
    as_of: dt.date
    steward: str
    referees: tuple[str, ...]
    statistics: Statistics
    games: tuple[GameCourse, ...]
    unfinished: tuple[UnfinishedGame, ...]
    delays: tuple[DelayLine, ...]
    oversteps: tuple[OverstepLine, ...]
    open_claims: tuple[ClaimLine, ...]
    penalties: tuple[PenaltyLine, ...]
    breaks: tuple[BreakLine, ...]
    decisions: tuple[DecisionLine, ...]
    """The steward's own decisions: players' disputes and sanctions within his powers."""
    records: tuple[RecordLine, ...]
    withdrawals: tuple[WithdrawalLine, ...]
    bulletins: tuple[IssueLine, ...]
    kind: str = "steward_report"


def to_json(document: Bulletin | FinalReport | PlayerSheet | StewardReport) -> dict[str, Any]:
    """The document as JSON-able data: dates in ISO form, tuples as lists."""
    converted: dict[str, Any] = _plain(dataclasses.asdict(document))
    return converted


def _plain(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
