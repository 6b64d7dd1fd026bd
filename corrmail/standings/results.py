"""A tournament's results as `scoring` reads them, and the table `scoring` computes from them.

The one adapter from database rows to `scoring.model.Tournament`, used by the standings pages,
the JSON API, the exports, the CLI, the bulletins (``as_of`` a date), the rounds and the
referee's desk, so that every one of them shows the same points. It maps what is on record and
nothing more (docs/adjudication.md, "Outcomes for scoring"; docs/rules/standings.md):

* a forfeit (``ResultKind.FORFEIT``) is ``+``/``−`` (002 §4.5.8), a double loss ``−/−``;
* an adjudicated result keeps its value and is marked (000 §3.14.4, 002 §4.5);
* an annulled game is kept but not counted (002 §4.5.3, 000 §3.14.3);
* a game without a result is pending; begun (at least one move in its effective ledger,
  corrections applied, 002 §4.2.5) it is also ``in_progress``: for a withdrawal it counts as
  played and awaits adjudication, never ``−``/``+`` (000 §3.14.4);
* every withdrawal the referee decided is passed with his decision: ``ANNUL`` when he annulled
  every game of the player (round robins only: 002 §4.5.3, 000 §3.14.3), so the player takes no
  place, ``KEEP`` otherwise (000 §3.14.3, §3.14.5), so his games never begun become ``−``/``+``.
  A withdrawal recorded but not yet decided is not passed, unless every game of the player is
  already annulled on record (that annulment is the referee's ruling): until he rules, the
  table shows what is on record, not a default he may still overrule. Pairing passes it anyway
  (``undecided_withdrawals``): a player who left is not paired again (000 §3.18.2).

Points, tiebreaks, shared places and the crosstable are `scoring`'s (`scoring.standings`,
`scoring.crosstable`); this module only chooses the tournament's tiebreak order.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import groupby
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session, selectinload

from adjudication import case_from_dict
from corrmail.games.ledger import effective_letters, letter_date
from corrmail.games.state import begun_games
from corrmail.models import (
    Case,
    CaseType,
    Game,
    GameResult,
    Letter,
    Participant,
    ResultKind,
    TournamentNotFound,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
)
from corrmail.models import Tournament as TournamentRow
from corrmail.models.enums import ROUND_BY_ROUND_SYSTEMS
from scoring.crosstable import Cell, Crosstable, crosstable
from scoring.errors import PlayoffError
from scoring.model import Colour, Unpaired, WithdrawalDecision
from scoring.model import Game as ScoringGame
from scoring.model import Player as ScoringPlayer
from scoring.model import Tournament as ScoringTournament
from scoring.model import TournamentSystem as ScoringSystem
from scoring.model import Withdrawal as ScoringWithdrawal
from scoring.points import PointSystem
from scoring.result import GameResult as ScoringResult
from scoring.result import Result as ScoringSide
from scoring.standings import StandingRow, default_tiebreaks, standings
from scoring.teams import TeamStandingRow

__all__ = [
    "ADJUDICATED_MARK",
    "DECIDED_MARK",
    "OVERSTEP_MARK",
    "MarkedResult",
    "MissingStartNumber",
    "TournamentNotFound",
    "TournamentTable",
    "cell_text",
    "decided_withdrawals",
    "GameResultRow",
    "games_in_progress",
    "load_tournament",
    "mark_of",
    "marked_results",
    "marker",
    "result_kind_marks",
    "result_rows",
    "round_cell_text",
    "scoring_game",
    "scoring_tournament",
    "tiebreak_order",
    "tournament_table",
    "unpaired_entries",
    "withdrawal_after_round",
]

ADJUDICATED_MARK = "*"
"""Follows an adjudicated result (000 §3.14.4); pages show the marks as superscripts."""
OVERSTEP_MARK = "†"
"""Follows a result given for an overstep (002 §4.3.7)."""
DECIDED_MARK = "‡"
"""Follows a result the referee decided without adjudication (e.g. 002 §4.5.3)."""
KIND_MARKS = {ResultKind.OVERSTEP: OVERSTEP_MARK, ResultKind.DECIDED: DECIDED_MARK}

Marker = Callable[[Cell], str]


class MissingStartNumber(ValueError):
    """A game's player has no start number, so `scoring` cannot place him (002 §4.3.2)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"game {game_id}: both players need start numbers for the standings (002 §4.3.2)"
        )
        self.game_id = game_id


def load_tournament(
    session: Session, code: str, *, with_letters: bool = False, with_games: bool = True
) -> TournamentRow:
    """The tournament with everything the table reads (and, for the PDN, every game's letters)
    in a fixed number of queries whatever its size. ``with_games=False`` leaves the games
    unloaded, for a table computed from :func:`result_rows` (a page that shows only the table
    need not build an ORM object for each of its 500 games)."""
    participants = selectinload(TournamentRow.participants).selectinload(Participant.player)
    games = selectinload(TournamentRow.games)
    if with_letters:
        games = games.selectinload(Game.letters)
    tournament = session.scalar(
        select(TournamentRow)
        .where(TournamentRow.code == code)
        .options(participants, *([games] if with_games or with_letters else []))
    )
    if tournament is None:
        raise TournamentNotFound(code)
    return tournament


class GameResultRow(Protocol):
    """What the table reads of a game: a :class:`~corrmail.models.Game` or a row of
    :func:`result_rows`."""

    @property
    def id(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def white_id(self) -> int: ...
    @property
    def black_id(self) -> int: ...
    @property
    def result(self) -> GameResult | None: ...
    @property
    def result_kind(self) -> ResultKind | None: ...
    @property
    def result_on(self) -> dt.date | None: ...


def result_rows(session: Session, tournament: TournamentRow) -> Sequence[GameResultRow]:
    """The tournament's games as plain rows of the columns the table reads, in the order of
    ``tournament.games``: one query and no ORM object per game."""
    return session.execute(
        select(Game.id, Game.round, Game.white_id, Game.black_id, Game.result,
               Game.result_kind, Game.result_on)
        .where(Game.tournament_id == tournament.id)
        .order_by(Game.round, Game.id)
    ).all()


def result_on_record(game: GameResultRow, as_of: dt.date | None = None) -> GameResult | None:
    """The game's result as the record stood on ``as_of`` (today when ``None``): a result
    counts from its ``result_on`` date; one without a date has always been on record."""
    if game.result is None or as_of is None or game.result_on is None:
        return game.result
    return game.result if game.result_on <= as_of else None


#: How a result on record reads for `scoring`; a forfeit's win is ``+``/``−`` (002 §4.5.8).
_RESULTS: Mapping[GameResult | None, ScoringResult] = {
    None: ScoringResult.PENDING,
    GameResult.ANNULLED: ScoringResult.PENDING,
    GameResult.DRAW: ScoringResult.DRAW,
    GameResult.DOUBLE_LOSS: ScoringResult.DOUBLE_FORFEIT,
    GameResult.WHITE_WIN: ScoringResult.WHITE_WINS,
    GameResult.BLACK_WIN: ScoringResult.BLACK_WINS,
}
_FORFEIT_RESULTS: Mapping[GameResult | None, ScoringResult] = {
    **_RESULTS,
    GameResult.WHITE_WIN: ScoringResult.WHITE_FORFEIT_WIN,
    GameResult.BLACK_WIN: ScoringResult.BLACK_FORFEIT_WIN,
}


def scoring_game(
    game: GameResultRow | Game,
    start_numbers: Mapping[int, int | None] | None = None,
    *,
    in_progress: bool = False,
    as_of: dt.date | None = None,
) -> ScoringGame:
    """The game for `scoring`: forfeits as ``+``/``−``, adjudicated results marked, annulled
    games kept but not counted, a pending game ``in_progress`` when the caller says it is begun
    (`games_in_progress`). ``start_numbers`` (participant id → start number) spares a whole
    tournament the relationship look-ups of every game; ``as_of`` reads the result on record
    on that date (`result_on_record`)."""
    if start_numbers is None:
        assert isinstance(game, Game)  # a plain row has no players to look up
        white, black = game.white.start_number, game.black.start_number
    else:
        white, black = start_numbers[game.white_id], start_numbers[game.black_id]
    if white is None or black is None:
        raise MissingStartNumber(game.id)
    recorded = result_on_record(game, as_of)
    forfeit = game.result_kind is ResultKind.FORFEIT
    result = (_FORFEIT_RESULTS if forfeit else _RESULTS)[recorded]
    return ScoringGame(
        round=game.round,
        white=white,
        black=black,
        result=result,
        adjudicated=recorded is not None and game.result_kind is ResultKind.ADJUDICATED,
        annulled=recorded is GameResult.ANNULLED,
        in_progress=recorded is None and in_progress,
    )


def scoring_tournament(
    tournament: TournamentRow,
    *,
    as_of: dt.date | None = None,
    unpaired: Sequence[Unpaired] | None = None,
    undecided_withdrawals: bool = False,
    games: Sequence[GameResultRow] | None = None,
) -> ScoringTournament:
    """The tournament as `scoring` reads it (see the module docstring), in at most two queries
    beyond the loaded tournament whatever its size: none per game.

    ``as_of`` reads the record as it stood on that date (the bulletins): results from their
    ``result_on``, letters from their day (`corrmail.games.ledger.letter_date`), withdrawals from
    ``withdrawn_on`` and the referee's decisions from their ``decided_on``. ``unpaired`` are
    the byes (``+``) and known absences (``0``) of published rounds; when not given they are
    read with :func:`unpaired_entries` (one query, Swiss and team events only). They are passed
    on and count for `withdrawal_after_round`. ``undecided_withdrawals`` passes every
    recorded withdrawal, decided or not, as ``KEEP`` unless decided otherwise: pairing must not
    pair a player who left (000 §3.18.2), whatever the referee has yet to rule. ``games``
    (:func:`result_rows`) stand for ``tournament.games`` when given.
    """
    players = tuple(
        ScoringPlayer(
            start_no=p.start_number,
            name=p.player.name,
            rating=p.rating,
            club=p.player.club or "",
        )
        for p in tournament.participants
        if p.start_number is not None
    )
    session = _session_of(tournament)
    numbers = {p.id: p.start_number for p in tournament.participants}
    if unpaired is None:
        unpaired = unpaired_entries(session, tournament)
    rows = tournament.games if games is None else games
    begun = games_in_progress(session, tournament, as_of=as_of, games=rows)
    scored = tuple(
        scoring_game(game, numbers, in_progress=game.id in begun, as_of=as_of)
        for game in rows
    )
    decided = decided_withdrawals(session, tournament, as_of=as_of)
    withdrawals: list[ScoringWithdrawal] = []
    for participant in tournament.participants:
        withdrawn_on = participant.withdrawn_on
        if participant.start_number is None or withdrawn_on is None:
            continue
        if as_of is not None and withdrawn_on > as_of:
            continue
        withdrawal = _withdrawal(tournament, participant, scored, unpaired)
        # Annulling every game is itself the referee's ruling, decided case or not.
        if (undecided_withdrawals or participant.id in decided
                or withdrawal.decision is WithdrawalDecision.ANNUL):
            withdrawals.append(withdrawal)
    swiss = tournament.system is TournamentSystem.SWISS
    return ScoringTournament(
        players=players,
        games=scored,
        unpaired=tuple(unpaired),
        withdrawals=tuple(withdrawals),
        system=ScoringSystem.SWISS if swiss else ScoringSystem.ROUND_ROBIN,
        cycles=2 if tournament.system is TournamentSystem.ROUND_ROBIN_DOUBLE else 1,
        points=PointSystem(
            float(Decimal(tournament.points_win)),
            float(Decimal(tournament.points_draw)),
            float(Decimal(tournament.points_loss)),
        ),
        playoff=tuple(tuple(group) for group in tournament.playoff or ()),
        team_playoff=tuple(tuple(group) for group in tournament.team_playoff or ()),
        name=tournament.code,
    )


_UNPAIRED_RESULT = {UnpairedKind.BYE: ScoringSide.BYE, UnpairedKind.ABSENT: ScoringSide.ABSENT}


def unpaired_entries(session: Session, tournament: TournamentRow) -> tuple[Unpaired, ...]:
    """The byes (``+``, 002 note а) and known absences (``0``, 000 §3.18.2) of the published
    rounds, for `scoring`; round robins have none and cost no query."""
    if tournament.system not in ROUND_BY_ROUND_SYSTEMS:
        return ()
    number_of = {p.id: p.start_number for p in tournament.participants}
    return tuple(
        Unpaired(entry.round, number, _UNPAIRED_RESULT[entry.kind])
        for entry in session.scalars(
            select(UnpairedEntry)
            .where(UnpairedEntry.tournament_id == tournament.id)
            .order_by(UnpairedEntry.round, UnpairedEntry.id)
        )
        if (number := number_of.get(entry.participant_id)) is not None
    )


def _session_of(tournament: TournamentRow) -> Session:
    session = object_session(tournament)
    if session is None:
        raise RuntimeError(f"tournament {tournament.code} is not attached to a session")
    return session


def games_in_progress(
    session: Session, tournament: TournamentRow, *, as_of: dt.date | None = None,
    games: Sequence[GameResultRow] | None = None,
) -> frozenset[int]:
    """Ids of the games begun and without a result on record: at least one move in the
    effective ledger (each letter read as last corrected, 002 §4.2.5; `effective_letters`),
    only letters on record by ``as_of`` when given. One query for the whole tournament: of the
    stored game states (their ply count, :mod:`corrmail.games.state`) for today's table, of the
    letters for a table as of a past date. ``games`` (:func:`result_rows`) stand for
    ``tournament.games`` when given."""
    games = tournament.games if games is None else games
    open_ids = {game.id for game in games if result_on_record(game, as_of) is None}
    if not open_ids:
        return frozenset()
    if as_of is None:
        return frozenset(open_ids & begun_games(session, tournament.id))
    rows = session.execute(
        select(Letter.game_id, Letter.id, Letter.corrects_letter_id, Letter.moves_text,
               Letter.sent, Letter.entered_at)
        .where(Letter.game_id.in_(sorted(open_ids)))
        .order_by(Letter.game_id, Letter.sequence)
    ).all()
    zone = tournament.time_zone
    begun = set()
    for game_id, letters in groupby(rows, key=lambda row: row.game_id):
        on_record = [row for row in letters
                     if as_of is None or letter_date(row, zone) <= as_of]
        if any(row.moves_text.strip() for row in effective_letters(on_record)):
            begun.add(game_id)
    return frozenset(begun)


def decided_withdrawals(
    session: Session, tournament: TournamentRow, *, as_of: dt.date | None = None
) -> frozenset[int]:
    """Participant ids whose withdrawal case carries the referee's decision (002 §4.5.3),
    taken by ``as_of`` when given. One query."""
    rows = session.execute(
        select(Case.participant_id, Case.payload)
        .where(Case.tournament_id == tournament.id, Case.case_type == CaseType.WITHDRAWAL)
    ).all()
    return frozenset(
        participant_id
        for participant_id, payload in rows
        if participant_id is not None
        and any(as_of is None or decision.decided_on <= as_of
                for decision in case_from_dict(payload).decisions)
    )


def withdrawal_after_round(
    start_no: int, games: Iterable[ScoringGame], unpaired: Iterable[Unpaired] = ()
) -> int:
    """The round after which ``start_no`` left: the last round he took part in — a game begun,
    or finished other than by forfeit and not annulled, or a bye or known absence recorded for
    him (Swiss) — 0 when none (docs/rules/standings.md). It dates his score at withdrawal for
    the Swiss credit (000 §3.16.11) and ends his pairing (000 §3.18.2)."""
    played = (
        game.round
        for game in games
        if start_no in (game.white, game.black)
        and (game.in_progress or (game.result.sides[0].is_played and not game.annulled))
    )
    recorded = (entry.round for entry in unpaired if entry.player == start_no)
    return max((*played, *recorded), default=0)


def _withdrawal(
    tournament: TournamentRow,
    participant: Participant,
    games: Sequence[ScoringGame],
    unpaired: Sequence[Unpaired],
) -> ScoringWithdrawal:
    """``ANNUL`` when the referee annulled every game of the player in a round robin (002
    §4.5.3), else ``KEEP`` (000 §3.14.3, §3.14.5)."""
    start_no = participant.start_number
    assert start_no is not None  # the caller passes numbered participants only
    own = [game for game in games if start_no in (game.white, game.black)]
    annulled_all = bool(own) and all(game.annulled for game in own)
    round_robin = tournament.system is not TournamentSystem.SWISS
    decision = (WithdrawalDecision.ANNUL if annulled_all and round_robin
                else WithdrawalDecision.KEEP)
    return ScoringWithdrawal(start_no, withdrawal_after_round(start_no, games, unpaired),
                             decision)


def tiebreak_order(tournament: TournamentRow, scoring: ScoringTournament) -> tuple[str, ...]:
    """The regulations' order, else the rulebook's recommendation for the system (003 §14)."""
    return tuple(tournament.tiebreak_order) or tuple(default_tiebreaks(scoring))


@dataclass(frozen=True)
class TournamentTable:
    """Standings and crosstable of one tournament, in the order of the standings."""

    tournament: TournamentRow
    scoring: ScoringTournament
    tiebreaks: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    crosstable: Crosstable
    kind_marks: Mapping[tuple[int, int, int], str]
    """(round, White's start number, Black's) → the mark of how the result came about."""
    playoff_problem: str = ""
    """Why the recorded play-off no longer fits the table (a result corrected after it was
    recorded); the table is then shown without it until the referee records it again."""
    teams: tuple[TeamStandingRow, ...] = ()
    """A team event: the team table, which gives the places (000 §3.17.6); the players' rows
    are the boards' results beside it."""

    @property
    def team_tiebreaks(self) -> tuple[str, ...]:
        return tuple(self.teams[0].tiebreaks) if self.teams else ()

    def mark_of(self, start_no: int, cell: Cell) -> str:
        """The mark after ``start_no``'s result in ``cell`` (:func:`mark_of`)."""
        return mark_of(self.kind_marks, start_no, cell)

    def marker(self, start_no: int) -> Marker:
        return marker(self.kind_marks, start_no)

    @property
    def by_rounds(self) -> bool:
        """A Swiss table is printed by rounds (opponent, colour, result), a round robin as a
        player-against-player matrix."""
        return not self.scoring.system.is_round_robin

    @property
    def round_count(self) -> int:
        return max((len(row) for row in self.crosstable.rounds), default=0)

    def as_dict(self) -> dict[str, object]:
        """The JSON of the API, the ``standings --format json`` command and the JSON export."""
        teams = (
            {"team_tiebreaks": list(self.team_tiebreaks),
             "teams": [row.as_dict() for row in self.teams]}
            if self.teams else {}
        )
        return {
            "tournament": self.tournament.code,
            "title": self.tournament.title,
            "points": [str(self.tournament.points_win), str(self.tournament.points_draw),
                       str(self.tournament.points_loss)],
            **teams,
            "tiebreaks": list(self.tiebreaks),
            "standings": [row.as_dict() for row in self.rows],
            "crosstable": self.crosstable.as_dict(),
            # Adjudications are flagged in the cells; oversteps and decisions are listed here.
            "marks": [
                {"round": round_no, "white": white, "black": black, "mark": mark}
                for (round_no, white, black), mark in sorted(self.kind_marks.items())
            ],
        }


def tournament_table(tournament: TournamentRow) -> TournamentTable:
    """Compute the table; raises `MissingStartNumber` or a `scoring.errors` ``ValueError``.

    The games loaded with the tournament are read as they are; a tournament loaded without
    them (``load_tournament(..., with_games=False)``) has them read as :func:`result_rows`."""
    games = (tournament.games if "games" in tournament.__dict__
             else result_rows(_session_of(tournament), tournament))
    scoring = scoring_tournament(tournament, games=games)
    order = tiebreak_order(tournament, scoring)
    problem = ""
    try:
        rows = tuple(standings(scoring, tiebreaks=order))
    except PlayoffError as error:
        # A results correction after the play-off: the rest of the table must still be readable.
        problem = str(error)
        scoring = dataclasses.replace(scoring, playoff=())
        rows = tuple(standings(scoring, tiebreaks=order))
    table = crosstable(scoring, order=[row.start_no for row in rows])
    marks = result_kind_marks(tournament, games)
    return TournamentTable(tournament, scoring, order, rows, table, marks, problem,
                           teams=team_rows(tournament, scoring))


KindMarks = Mapping[tuple[int, int, int], str]
"""(round, White's start number, Black's) → the mark of how the game's result came about."""


def result_kind_marks(
    tournament: TournamentRow, games: Iterable[GameResultRow], as_of: dt.date | None = None
) -> KindMarks:
    """The ``†`` (overstep, 002 §4.3.7) and ``‡`` (referee's decision, 002 §4.5.3) of the
    games whose result is on record (by ``as_of`` when given), annulled ones unmarked."""
    numbers = {p.id: p.start_number for p in tournament.participants}
    return {
        (game.round, numbers[game.white_id] or 0, numbers[game.black_id] or 0):
            KIND_MARKS[game.result_kind]
        for game in games
        if game.result_kind in KIND_MARKS
        and result_on_record(game, as_of) not in (None, GameResult.ANNULLED)
    }


def mark_of(kind_marks: KindMarks, start_no: int, cell: Cell) -> str:
    """The mark after ``start_no``'s result in ``cell``: ``*`` adjudicated (000 §3.14.4),
    ``†`` overstep, ``‡`` referee's decision (``kind_marks``, :func:`result_kind_marks`),
    else nothing (plain results, pluses and minuses)."""
    if not cell.symbol:
        return ""
    if cell.adjudicated:
        return ADJUDICATED_MARK
    if cell.opponent is None or cell.colour is None:
        return ""
    white, black = ((start_no, cell.opponent) if cell.colour is Colour.WHITE
                    else (cell.opponent, start_no))
    return kind_marks.get((cell.round, white, black), "")


def marker(kind_marks: KindMarks, start_no: int) -> Marker:
    """:func:`mark_of` for ``start_no``'s cells."""
    return lambda cell: mark_of(kind_marks, start_no, cell)


def team_rows(tournament: TournamentRow, scoring: ScoringTournament) -> tuple[TeamStandingRow, ...]:
    """A team event's team table over the players' results in ``scoring`` (none otherwise)."""
    if tournament.system is not TournamentSystem.TEAM:
        return ()
    # The teams and their boards are the rounds package's (it pairs them); it imports this
    # module for the results, hence the import here.
    from corrmail.rounds.teams import team_table

    return tuple(team_table(_session_of(tournament), tournament, scoring))


def adjudication_mark(cell: Cell) -> str:
    return ADJUDICATED_MARK if cell.adjudicated and cell.symbol else ""


def round_cell_text(cell: Cell | None, mark: Marker = adjudication_mark) -> str:
    """One round of a Swiss table: ``12w1`` (opponent 12, White, won), ``7b½*`` (adjudicated),
    ``+`` for a bye, empty when the player had no game that round."""
    if cell is None:
        return ""
    text = cell.symbol + mark(cell)
    if cell.opponent is None:
        return text
    colour = cell.colour.value if cell.colour is not None else ""
    played = f"{cell.opponent}{colour}{text}"
    return f"({played})" if cell.annulled else played


@dataclass(frozen=True)
class MarkedResult:
    """One result of a crosstable cell as every table prints it: its symbol (``1``, ``½``,
    ``+``, ``−``…), the mark after it (``*``, ``†``, ``‡`` or nothing) and whether it is
    annulled (kept, not counted, 002 §4.5.3) or adjudicated (000 §3.14.4). The web tables, the
    bulletins' and final report's crosstable (archived as this data) and the text export read
    the same results."""

    symbol: str
    mark: str = ""
    annulled: bool = False
    adjudicated: bool = False


def marked_results(cells: Iterable[Cell], mark: Marker = adjudication_mark) -> tuple[MarkedResult, ...]:
    """The results of one pairing (both games of a double round robin) with their marks
    (``TournamentTable.marker``), pending ones left out."""
    return tuple(
        MarkedResult(cell.symbol, mark(cell), cell.annulled, cell.adjudicated)
        for cell in cells if cell.symbol
    )


def cell_text(cells: Sequence[Cell], mark: Marker = adjudication_mark) -> str:
    """The results of one pairing as printed: ``1``, ``½``, ``+``, ``−``, followed by the
    cell's mark (``TournamentTable.marker``; by default ``*`` for an adjudicated one), an
    annulled one in parentheses; both games of a double round robin."""
    return " ".join(
        f"({result.symbol}{result.mark})" if result.annulled else result.symbol + result.mark
        for result in marked_results(cells, mark)
    )
