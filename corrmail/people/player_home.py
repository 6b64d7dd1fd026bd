"""A player's own page ("my games"): his games with their clocks, his place and points in each
tournament, his breaks and open cases.

Every figure is the one the directors' dashboard and the game page show: the clock is read off
each game's stored state (:class:`corrmail.games.state.StoredClock`, the figures of
:func:`corrmail.games.page.game_clock` over the same ledger without replaying it) as of the
tournament's own day, and the variants in play are the stored ones read against the stored
position. Only the player's own games, entries and cases are read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, selectinload

from adjudication import case_from_dict
from corrmail.clock import ClockReading
from corrmail.games.page import game_clock, read_clock
from corrmail.games.state import StoredGameState, stored_states
from corrmail.games.view import GameView, UnsupportedGameType, referee_grant, side_of
from corrmail.models import Case, Game, GameState, Participant, Tournament
from corrmail.referee.open_cases import is_open
from corrmail.standings.results import load_tournament, tournament_table
from notation.game_position import position_from_fen
from notation.variants import VariantOffer, parse_variants
from timekeeping import RefereeGrant, Side

__all__ = ["BreakAllowance", "MyGame", "PlayerHome", "player_home"]


@dataclass(frozen=True)
class MyGame:
    game: Game
    side: Side
    partner: Participant
    clock: ClockReading | None
    #: The variants in play (002 §4.2.7): offered to him in the letter he is to answer, or his
    #: own, waiting for the partner's move.
    pending_variants: tuple[str, ...]
    problem: str = ""

    @property
    def my_move(self) -> bool:
        return self.clock is not None and self.clock.to_move is self.side

    @property
    def partners_move(self) -> bool:
        return self.clock is not None and self.clock.to_move is self.side.partner

    @property
    def days_used(self) -> int | None:
        """His days used by today (002 §4.3.6), as every page counts them
        (:meth:`corrmail.clock.ClockReading.days_used`)."""
        return self.clock.days_used(self.side) if self.clock is not None else None

    @property
    def partner_days_over(self) -> int | None:
        """How far past his limit the partner who owes the letter is (002 §4.3.5), or None."""
        return self.clock.days_over_limit if self.partners_move and self.clock else None

    @property
    def reply_by(self) -> dt.date | None:
        """The last day his reply keeps him within the limit (002 §4.3.5)."""
        return self.clock.last_safe_date if self.my_move and self.clock else None


@dataclass(frozen=True)
class BreakAllowance:
    """His breaks in one tournament this calendar year (002 §4.4.1)."""

    tournament: Tournament
    year: int
    taken: int
    days_taken: int
    allowed: int
    max_days: int

    @property
    def left(self) -> int:
        return max(self.allowed - self.taken, 0)


@dataclass(frozen=True)
class MyStanding:
    """His line of a tournament's standings, the same table the standings page shows."""

    tournament: Tournament
    place: str
    points: float
    games_played: int


@dataclass(frozen=True)
class PlayerHome:
    games: Sequence[MyGame]
    breaks: Sequence[BreakAllowance]
    cases: Sequence[Case]
    standings: Sequence[MyStanding] = ()

    @property
    def my_move(self) -> list[MyGame]:
        return [row for row in self.games if row.my_move]


def player_home(session: Session, player_id: int,
                today_in: Callable[[Tournament], dt.date]) -> PlayerHome:
    """``today_in(tournament)`` is the service's day where the tournament is played."""
    entries = session.scalars(
        select(Participant).where(Participant.player_id == player_id)
        .options(selectinload(Participant.breaks), selectinload(Participant.tournament))
    ).all()
    ids = [entry.id for entry in entries]
    if not ids:
        return PlayerHome([], [], [])
    games = session.scalars(
        select(Game).where(or_(Game.white_id.in_(ids), Game.black_id.in_(ids)))
        .options(selectinload(Game.white).selectinload(Participant.player),
                 selectinload(Game.black).selectinload(Participant.player))
        .order_by(Game.tournament_id, Game.round, Game.id)
    ).all()
    states = stored_states(session, [game.id for game in games])
    rows = [_my_game(game, game.white if game.white_id in ids else game.black,
                     today_in(game.tournament), states.get(game.id)) for game in games]
    rows.sort(key=lambda row: (not row.my_move, row.game.state is GameState.FINISHED,
                               row.reply_by or dt.date.max, row.game.id))
    allowances = []
    for entry in entries:
        # The year of play he is in: before the start the first year's break is the one he can
        # still take, after the end of play the last year's is the one that counted.
        tournament = entry.tournament
        year = min(max(today_in(tournament), tournament.start_date), tournament.end_date).year
        # As 002 §4.4.1 counts them (timekeeping's reading 15): a break is its first day's
        # year's, and an extra break the referee granted beyond the norms (§4.4.5) is not one.
        this_year = [item for item in entry.breaks if item.start_date.year == year
                     and referee_grant(item.referee_grant) is not RefereeGrant.EXTRA]
        allowances.append(BreakAllowance(
            entry.tournament, year, len(this_year),
            sum((item.end_date - item.start_date).days + 1 for item in this_year),
            entry.tournament.breaks_per_year, entry.tournament.break_max_days))
    game_ids = [game.id for game in games]
    # His open cases as the referee's queue reads them (corrmail.referee.open_cases): a decided
    # case no one may protest any more waits for nobody, him included.
    cases = [row for row in session.scalars(
        select(Case).where(Case.closed_at.is_(None),
                           or_(Case.participant_id.in_(ids), Case.game_id.in_(game_ids)))
        .order_by(Case.deadline, Case.id)
    ) if is_open(case_from_dict(row.payload), today_in(row.tournament))]
    return PlayerHome(rows, allowances, cases, _my_standings(session, entries))


def _my_standings(session: Session, entries: Sequence[Participant]) -> list[MyStanding]:
    """His place and points in every tournament with games, from the one table
    (:func:`corrmail.standings.results.tournament_table`); a table that cannot be computed yet
    (a player without a start number) is left out, as the standings page refuses it."""
    lines = []
    for entry in entries:
        if entry.start_number is None:
            continue
        tournament = load_tournament(session, entry.tournament.code, with_games=False)
        try:
            table = tournament_table(tournament)
        except ValueError:
            continue
        if not table.scoring.games:  # not paired yet: no points to read
            continue
        mine = next((row for row in table.rows if row.start_no == entry.start_number), None)
        if mine is not None:
            lines.append(MyStanding(entry.tournament, mine.place, mine.points,
                                    mine.games_played))
    return lines


def _my_game(game: Game, me: Participant, today: dt.date,
             state: StoredGameState | None) -> MyGame:
    side = side_of(game, me.id)
    partner = game.partner_of(me.id)
    view = GameView(game)
    try:
        # Not stored (yet): the ledger replayed, as before the stored state.
        clock = game_clock(view, today) if state is None else read_clock(game, state, today)
        waiting_on = me.id if clock.to_move is side else partner.id
        pending = (None if clock.to_move is None
                   else _stored_variants(game, state, clock.to_move)
                   if state is not None and _variants_stored(state, clock.to_move)
                   else view.pending_variants(waiting_on))
    except (UnsupportedGameType, ValueError) as error:
        return MyGame(game, side, partner, None, (), str(error))
    variants = tuple(variant.text for variant in pending.variants) if pending else ()
    return MyGame(game, side, partner, clock, variants)


def _variants_stored(state: StoredGameState, to_move: Side) -> bool:
    """Whether the stored variants are the ones the player to move answers: they are stored
    for the side to move on the board, which is the chart's player to move in a sound ledger."""
    return bool(state.fen) and not state.board_problem and state.board_turn == to_move.value


def _stored_variants(game: Game, state: StoredGameState, to_move: Side) -> VariantOffer | None:
    """The stored variants read against the stored position, as
    :meth:`corrmail.games.view.GameView.pending_variants` reads them against the replay."""
    if not state.pending_variants.strip():
        return None
    assert state.fen is not None
    board_type = GameView(game).board_type
    position = position_from_fen(state.fen, board_type, game.tournament.rule_options or None)
    return parse_variants(position, state.pending_variants)
