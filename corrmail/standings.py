"""A tournament's results as `scoring` reads them, and the table `scoring` computes from them.

The one adapter from database rows to `scoring.model.Tournament`, used by the standings pages,
the JSON API, the exports, the CLI, the bulletins and the referee's desk. It maps results and
nothing more (docs/adjudication.md, "Outcomes for scoring"):

* a forfeit (``ResultKind.FORFEIT``) is ``+``/``−`` (002 §4.5.8), a double loss ``−/−``;
* an adjudicated result keeps its value and is marked (000 §3.14.4, 002 §4.5);
* an annulled game is kept but not counted; a withdrawn player whose every game the referee
  annulled takes no place (002 §4.5.3, 000 §3.14.3);
* a game still in play (or in adjudication) is pending.

Points, tiebreaks, shared places and the crosstable are `scoring`'s (`scoring.standings`,
`scoring.crosstable`); this module only chooses the tournament's tiebreak order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from corrmail.models import Game, GameResult, Participant, ResultKind, TournamentSystem
from corrmail.models import Tournament as TournamentRow
from scoring.crosstable import Cell, Crosstable, crosstable
from scoring.model import Colour, WithdrawalDecision
from scoring.model import Game as ScoringGame
from scoring.model import Player as ScoringPlayer
from scoring.model import Tournament as ScoringTournament
from scoring.model import TournamentSystem as ScoringSystem
from scoring.model import Withdrawal as ScoringWithdrawal
from scoring.points import PointSystem
from scoring.result import GameResult as ScoringResult
from scoring.standings import StandingRow, default_tiebreaks, standings

__all__ = [
    "ADJUDICATED_MARK",
    "DECIDED_MARK",
    "OVERSTEP_MARK",
    "MissingStartNumber",
    "TournamentNotFound",
    "TournamentTable",
    "cell_text",
    "load_tournament",
    "round_cell_text",
    "scoring_game",
    "scoring_tournament",
    "tiebreak_order",
    "tournament_table",
]

ADJUDICATED_MARK = "*"
"""Follows an adjudicated result (000 §3.14.4); pages show the marks as superscripts."""
OVERSTEP_MARK = "†"
"""Follows a result given for an overstep (002 §4.3.7)."""
DECIDED_MARK = "‡"
"""Follows a result the referee decided without adjudication (e.g. 002 §4.5.3)."""
KIND_MARKS = {ResultKind.OVERSTEP: OVERSTEP_MARK, ResultKind.DECIDED: DECIDED_MARK}

Marker = Callable[[Cell], str]


class TournamentNotFound(LookupError):
    def __init__(self, code: str) -> None:
        super().__init__(f"no tournament with the code {code!r}")
        self.code = code


class MissingStartNumber(ValueError):
    """A game's player has no start number, so `scoring` cannot place him (002 §4.3.2)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"game {game_id}: both players need start numbers for the standings (002 §4.3.2)"
        )
        self.game_id = game_id


def load_tournament(session: Session, code: str, *, with_letters: bool = False) -> TournamentRow:
    """The tournament with everything the table reads (and, for the PDN, every game's letters)
    in a fixed number of queries whatever its size."""
    games = selectinload(TournamentRow.games)
    tournament = session.scalar(
        select(TournamentRow)
        .where(TournamentRow.code == code)
        .options(
            selectinload(TournamentRow.participants).selectinload(Participant.player),
            games.selectinload(Game.letters) if with_letters else games,
        )
    )
    if tournament is None:
        raise TournamentNotFound(code)
    return tournament


def scoring_game(game: Game, start_numbers: Mapping[int, int | None] | None = None) -> ScoringGame:
    """The game for `scoring`: forfeits as ``+``/``−``, adjudicated results marked, annulled
    games kept but not counted. ``start_numbers`` (participant id → start number) spares a
    whole tournament the relationship look-ups of every game."""
    if start_numbers is None:
        white, black = game.white.start_number, game.black.start_number
    else:
        white, black = start_numbers[game.white_id], start_numbers[game.black_id]
    if white is None or black is None:
        raise MissingStartNumber(game.id)
    forfeit = game.result_kind is ResultKind.FORFEIT
    result = {
        None: ScoringResult.PENDING,
        GameResult.ANNULLED: ScoringResult.PENDING,
        GameResult.DRAW: ScoringResult.DRAW,
        GameResult.DOUBLE_LOSS: ScoringResult.DOUBLE_FORFEIT,
        GameResult.WHITE_WIN: (
            ScoringResult.WHITE_FORFEIT_WIN if forfeit else ScoringResult.WHITE_WINS
        ),
        GameResult.BLACK_WIN: (
            ScoringResult.BLACK_FORFEIT_WIN if forfeit else ScoringResult.BLACK_WINS
        ),
    }[game.result]
    return ScoringGame(
        round=game.round,
        white=white,
        black=black,
        result=result,
        adjudicated=game.result_kind is ResultKind.ADJUDICATED,
        annulled=game.result is GameResult.ANNULLED,
    )


def scoring_tournament(tournament: TournamentRow) -> ScoringTournament:
    """The tournament as `scoring` reads it.

    A player who withdrew and whose every game the referee annulled (002 §4.5.3) is passed as
    an annulling withdrawal, so he takes no place. Kept results need no scoring withdrawal: the
    referee's decision already recorded every game of the player who left (``+``/``−``,
    adjudication), and a game still in adjudication must stay pending, not turn into ``−``.
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
    numbers = {p.id: p.start_number for p in tournament.participants}
    games = tuple(scoring_game(game, numbers) for game in tournament.games)
    annulled_everything = _players_with_every_game_annulled(tournament.games)
    withdrawals = tuple(
        ScoringWithdrawal(p.start_number, 0, WithdrawalDecision.ANNUL)
        for p in tournament.participants
        if p.withdrawn and p.start_number is not None and p.id in annulled_everything
    )
    swiss = tournament.system is TournamentSystem.SWISS
    return ScoringTournament(
        players=players,
        games=games,
        withdrawals=withdrawals,
        system=ScoringSystem.SWISS if swiss else ScoringSystem.ROUND_ROBIN,
        cycles=2 if tournament.system is TournamentSystem.ROUND_ROBIN_DOUBLE else 1,
        points=PointSystem(
            float(Decimal(tournament.points_win)),
            float(Decimal(tournament.points_draw)),
            float(Decimal(tournament.points_loss)),
        ),
        name=tournament.code,
    )


def _players_with_every_game_annulled(games: Sequence[Game]) -> set[int]:
    counted: set[int] = set()
    seen: set[int] = set()
    for game in games:
        for participant_id in (game.white_id, game.black_id):
            seen.add(participant_id)
            if game.result is not GameResult.ANNULLED:
                counted.add(participant_id)
    return seen - counted


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

    def mark_of(self, start_no: int, cell: Cell) -> str:
        """The mark after ``start_no``'s result in ``cell``: ``*`` adjudicated, ``†`` overstep,
        ``‡`` referee's decision, else nothing (plain results, pluses and minuses)."""
        if not cell.symbol:
            return ""
        if cell.adjudicated:
            return ADJUDICATED_MARK
        if cell.opponent is None or cell.colour is None:
            return ""
        white, black = ((start_no, cell.opponent) if cell.colour is Colour.WHITE
                        else (cell.opponent, start_no))
        return self.kind_marks.get((cell.round, white, black), "")

    def marker(self, start_no: int) -> Marker:
        return lambda cell: self.mark_of(start_no, cell)

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
        return {
            "tournament": self.tournament.code,
            "title": self.tournament.title,
            "points": [str(self.tournament.points_win), str(self.tournament.points_draw),
                       str(self.tournament.points_loss)],
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
    """Compute the table; raises `MissingStartNumber` or a `scoring.errors` ``ValueError``."""
    scoring = scoring_tournament(tournament)
    order = tiebreak_order(tournament, scoring)
    rows = tuple(standings(scoring, tiebreaks=order))
    table = crosstable(scoring, order=[row.start_no for row in rows])
    numbers = {p.id: p.start_number for p in tournament.participants}
    marks = {
        (game.round, numbers[game.white_id] or 0, numbers[game.black_id] or 0):
            KIND_MARKS[game.result_kind]
        for game in tournament.games
        if game.result_kind in KIND_MARKS and game.result is not GameResult.ANNULLED
    }
    return TournamentTable(tournament, scoring, order, rows, table, marks)


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


def cell_text(cells: Sequence[Cell], mark: Marker = adjudication_mark) -> str:
    """The results of one pairing as printed: ``1``, ``½``, ``+``, ``−``, followed by the
    cell's mark (``TournamentTable.marker``; by default ``*`` for an adjudicated one), an
    annulled one in parentheses; both games of a double round robin."""
    parts = []
    for cell in cells:
        text = cell.symbol + mark(cell)
        parts.append(f"({text})" if cell.annulled and text else text)
    return " ".join(part for part in parts if part)
