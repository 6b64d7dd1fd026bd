"""The state of each game kept with its ledger: what pages and the intake of a letter read
instead of replaying every letter (docs/benchmarks/load.md named the replay as the cost).

A :class:`StoredGameState` row (table ``game_states``, one per game) holds what follows from a
game's ledger: the position (FEN), the side to move on the board and the ply count, which plies
were forced, the number of the game's penalty rows, the variants offered in the letter now
being answered, both players' totals, who owes the reply and his current period (the counted
move his reply will be) with its limit, the day his clock counts from, the last safe reply
date, the day he comes within :data:`NEAR_OVERSTEP_DAYS` of an overstep, the repeat date (002
§4.3.4), the chart's overstep, the game's merged break days, the last letter's dates and the day
the steward forwarded the last move, when it was his to forward (002 §4.1.1).
Flags that depend on today are stored as the day they turn on, so a page compares dates (and
SQL can count them) without the ledger.

It is derived data, and :func:`replay_values` is the one definition of it: the same
:class:`corrmail.games.view.GameView` replay (``notation`` for the board, ``timekeeping``
for the chart and clock) that the game page's chart, a case's evidence and bulletins use.
``corrmail games verify`` replays every ledger and compares; ``corrmail games rebuild``
recomputes every row.

How the rows stay current: a session listener, not a call in each writer. ``after_flush``
notes every game whose letters, penalties, forwardings, state, result or players changed, every player
whose breaks or start sheet changed, every tournament whose dates, time control or game type
changed and every round whose start changed; ``before_commit`` recomputes those games' rows in
the same transaction, with each game's row locked first as every letter's append locks it
(so a concurrent letter cannot be overwritten by a stale replay). The listener does not care
which function wrote the rows — a web form, the mail intake, the referee's desk, the sweep or a
future game-core module — so no writer can forget it, and a writer moved elsewhere keeps it.
Readers in a transaction that has not committed yet call :func:`settle` first (the readers in
this module do), so a page never reads a row older than the session's own writes. Rows written
with raw SQL, outside a session, are not seen: ``corrmail games rebuild`` repairs them, and
``corrmail games verify`` finds them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, cast

from sqlalchemy import ForeignKey, Row, String, Table, Text, bindparam, event, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import (
    Mapped,
    ORMExecuteState,
    Session,
    joinedload,
    mapped_column,
    relationship,
    selectinload,
)
from sqlalchemy.orm.attributes import get_history, set_committed_value
from sqlalchemy.orm.strategy_options import _AbstractLoad
from sqlalchemy.orm.util import identity_key

from corrmail.clock import NEAR_OVERSTEP_DAYS, ClockReading
from corrmail.models.base import Base
from corrmail.models.enums import GameState
from corrmail.models.games import Forwarding, Game, Letter, Penalty
from corrmail.models.rounds import PairedRound
from corrmail.models.tournaments import Break, Participant, Tournament, TournamentNotFound
from timekeeping import ReplyClock, Side
from timekeeping.daycount import NO_BREAKS, BreakCalendar

__all__ = [
    "NEAR_OVERSTEP_DAYS",
    "Difference",
    "StoredClock",
    "StoredGameState",
    "begun_games",
    "rebuild",
    "letter_owed_by",
    "replay_values",
    "settle",
    "stored_state_rows",
    "stored_states",
    "verify",
]

#: A player with this many days left or fewer is near an overstep (002 §4.3.5).

_OPEN = (GameState.NOT_STARTED, GameState.IN_PLAY)


class StoredGameState(Base):
    """What a game's ledger amounts to now; recomputed with every change of the ledger."""

    __tablename__ = "game_states"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: Board: FEN of the position after the last ply; None when the ledger cannot be replayed
    #: (``board_problem`` says why).
    fen: Mapped[str | None] = mapped_column(Text)
    #: FEN of the position before the plies the side to move has to repeat (002 §4.2.9: the
    #: partner's, since his own last move letter) and his own last ply before them, when the
    #: game has one (``corrmail.games.view.seed_depth``): the intake starts its board here.
    fen_before: Mapped[str | None] = mapped_column(Text)
    #: Which plies of the ledger were forced (002 §4.2.4), one character a ply: "1" forced,
    #: "0" not; None when the board cannot be replayed. The intake's time ledger reads the
    #: flags of earlier plies here instead of playing the game again to find them.
    forced_plies: Mapped[str | None] = mapped_column(Text)
    board_turn: Mapped[str | None] = mapped_column(String(5))
    #: How many penalty rows the game has: with none, the intake does not read them.
    penalty_count: Mapped[int] = mapped_column(default=0)
    ply_count: Mapped[int] = mapped_column(default=0)
    board_problem: Mapped[str] = mapped_column(Text, default="")
    #: The variants (002 §4.2.7) of the partner's letter the side to move is answering, as written.
    pending_variants: Mapped[str] = mapped_column(Text, default="")
    letter_count: Mapped[int] = mapped_column(default=0)
    #: The sender of the last letter with a move (who owes the next letter is his partner).
    last_mover_id: Mapped[int | None]
    #: How that letter came (post, phone, e-mail, web): an e-mail or web move to a partner who
    #: plays by post is the steward's to forward (002 §4.1.1).
    last_move_channel: Mapped[str | None] = mapped_column(String(8))
    #: The day the steward posted (or telephoned) that move to its recipient, when it is his to
    #: forward (002 §4.1.1): the latest forwarding on record; None while it waits for him.
    forwarded_on: Mapped[dt.date | None]
    last_sent: Mapped[dt.date | None]
    last_received: Mapped[dt.date | None]
    #: Time (002 §4.3): totals after the last letter and the chart's first overstep.
    white_total: Mapped[int] = mapped_column(default=0)
    black_total: Mapped[int] = mapped_column(default=0)
    overstep_side: Mapped[str | None] = mapped_column(String(5))
    #: The reply owed: who, from which day his days count, the counted move and its limit.
    to_move: Mapped[str | None] = mapped_column(String(5))
    counting_from: Mapped[dt.date | None]
    period_moves: Mapped[int | None]
    period_limit: Mapped[int | None]
    clock_end: Mapped[dt.date | None]
    reply_due: Mapped[dt.date | None]
    near_overstep_on: Mapped[dt.date | None]
    repeat_due: Mapped[dt.date | None]
    #: The game's break days (both players', merged, as the chart counts them): "first/last;…".
    break_days: Mapped[str] = mapped_column(Text, default="")
    clock_problem: Mapped[str] = mapped_column(Text, default="")


# ``game.stored_state``: the intake loads it with the game (one join, no query of its own).
sa_inspect(Game).add_property("stored_state", relationship(
    StoredGameState, uselist=False, viewonly=True, lazy="select"))


def with_stored_state() -> _AbstractLoad:
    """The loader option that reads a game's stored state in the game's own query."""
    return joinedload(Game.stored_state)  # type: ignore[attr-defined]


#: The columns compared by ``verify`` (everything but the key).
FIELDS = tuple(column.name for column in StoredGameState.__table__.columns
               if column.name != "game_id")


# --- the replay: the one definition of the state ---------------------------------------------


def _format_breaks(intervals: Iterable[tuple[dt.date, dt.date]]) -> str:
    return ";".join(f"{first.isoformat()}/{last.isoformat()}" for first, last in intervals)


def _parse_breaks(text: str) -> BreakCalendar:
    if not text:
        return NO_BREAKS
    pairs = (item.split("/") for item in text.split(";"))
    return BreakCalendar.from_intervals(
        (dt.date.fromisoformat(first), dt.date.fromisoformat(last)) for first, last in pairs)


def replay_values(game: Game) -> dict[str, Any]:
    """The state of ``game`` replayed from its whole ledger: a value for each of :data:`FIELDS`.

    ``game`` must carry its current letters, players and their breaks
    (:func:`corrmail.games.view.load_mail_game` loads them).
    """
    from corrmail.games.view import GameView, seed_depth
    from notation.game_position import position_fen
    from timekeeping import NotToMoveError, repeat_due_of, reply_clock

    view = GameView(game)
    values: dict[str, Any] = {name: None for name in FIELDS}
    values.update(ply_count=len(view.plies), board_problem="", pending_variants="",
                  letter_count=len(view.letters), white_total=0, black_total=0,
                  break_days="", clock_problem="")
    movers = [letter for letter in view.letters if letter.moves_text.strip()]
    if movers:
        values["last_mover_id"] = movers[-1].sender_id
        values["last_move_channel"] = movers[-1].channel.value
    to_forward = view.move_to_forward()
    if to_forward is not None and to_forward.id in view.forwardings:
        values["forwarded_on"] = view.forwardings[to_forward.id].forwarded_on
    if view.letters:
        values["last_sent"] = view.letters[-1].sent
        values["last_received"] = view.letters[-1].received
    try:
        position = view.position
    except ValueError as error:  # UnsupportedGameType, an illegal ledger, a bad rule option
        values["board_problem"] = str(error)
    else:
        values["fen"] = position_fen(position)
        values["board_turn"] = view.side_to_move.value
        mover = view.participant(view.side_to_move)
        to_repeat = len(view.partner_new_plies(mover.id))
        values["fen_before"] = position_fen(
            view.position_before(seed_depth(len(view.plies), to_repeat)))
        for letter in reversed(view.letters_since_own(mover.id)):
            if letter.variants_text.strip():
                values["pending_variants"] = letter.variants_text
                break
    values["penalty_count"] = len(view.game_penalties())
    flags = view.forced_flags()
    if flags is not None:
        values["forced_plies"] = "".join("1" if forced else "0" for forced in flags)
    try:
        ledger = view.ledger()
        chart = view.chart_of(ledger)
    except ValueError as error:
        values["clock_problem"] = str(error)
        return values
    values.update(white_total=chart.totals.white, black_total=chart.totals.black,
                  break_days=_format_breaks(chart.break_calendar.intervals()),
                  clock_end=ledger.end_date)
    if chart.overstep is not None:
        values["overstep_side"] = chart.overstep.player.value
    if game.state not in _OPEN:
        return values
    side = chart.rows[-1].sender.partner if chart.rows else Side.WHITE
    try:
        clock = reply_clock(ledger, side, view.relayed_to_mover(), chart=chart)
    except NotToMoveError:
        return values
    values.update(to_move=side.value, counting_from=clock.counting_from,
                  period_moves=clock.next_counted_moves, period_limit=clock.limit,
                  reply_due=clock.last_safe_reply_date(),
                  near_overstep_on=_near_overstep_on(clock))
    if chart.rows:
        values["repeat_due"] = repeat_due_of(ledger.letters[-1], chart.break_calendar)
    return values


def _near_overstep_on(clock: ReplyClock) -> dt.date | None:
    """The first day on which the player to move has :data:`NEAR_OVERSTEP_DAYS` days left or
    fewer; None when no day before the end of play brings him there (002 §4.3.2)."""
    room = clock.limit - clock.total - NEAR_OVERSTEP_DAYS
    if room <= 0:
        return clock.counting_from
    day = dt.date.fromordinal(clock.break_calendar.nth_counted_day(
        clock.counting_from.toordinal(), room))
    if clock.end_date is not None and day > clock.end_date:
        return None
    return day


def stored_break_calendar(state: StoredGameState | Row[Any]) -> BreakCalendar:
    """The game's break days as its stored state keeps them (``break_days``)."""
    return _parse_breaks(state.break_days)


def _values_of(row: StoredGameState) -> dict[str, Any]:
    return {name: getattr(row, name) for name in FIELDS}


# --- what pages read --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StoredClock(ClockReading):
    """A game's clock on ``today`` read off its stored state: the figures of
    :class:`corrmail.games.page.GameClock` without its chart (which only the game page draws)."""

    chart_overstep: Side | None

    @property
    def chart_shows_overstep(self) -> bool:
        return self.chart_overstep is not None

    @classmethod
    def of(cls, state: StoredGameState | Row[Any], today: dt.date) -> StoredClock | None:
        """None when the ledger's dates could not be charted (``state.clock_problem``)."""
        if state.clock_problem:
            return None
        to_move = Side(state.to_move) if state.to_move else None
        left = limit = None
        if to_move is not None:
            assert state.counting_from is not None and state.period_limit is not None
            clock = ReplyClock(
                player=to_move, counting_from=state.counting_from,
                total=state.white_total if to_move is Side.WHITE else state.black_total,
                next_counted_moves=state.period_moves or 1, limit=state.period_limit,
                end_date=state.clock_end, break_calendar=_parse_breaks(state.break_days))
            left, limit = clock.days_left(today), state.period_limit
        return cls(to_move, state.white_total, state.black_total, left, state.reply_due,
                   state.repeat_due, today, limit,
                   chart_overstep=Side(state.overstep_side) if state.overstep_side else None)


def letter_owed_by(game: Game, state: StoredGameState | None) -> Participant | None:
    """Who owes the next letter (:func:`corrmail.games.ledger.to_move`) read off the stored state:
    the partner of whoever sent the last move, White before any, nobody in a closed game."""
    if state is None:
        from corrmail.games.ledger import to_move

        return to_move(game)
    if game.state in (GameState.FINISHED, GameState.ADJUDICATION):
        return None
    if state.ply_count == 0:
        return game.white
    if state.last_mover_id is None:
        return None
    return game.partner_of(state.last_mover_id)


def stored_state_rows(session: Session, tournament_id: int) -> dict[int, Row[Any]]:
    """A tournament's stored states as plain rows (no ORM objects: a page of 500 games reads
    them in a fraction of the time), current with the session's own uncommitted writes."""
    settle(session)
    table = StoredGameState.__table__
    query = select(*table.columns).join(Game.__table__, Game.__table__.c.id == table.c.game_id) \
        .where(Game.__table__.c.tournament_id == tournament_id)
    return {row.game_id: row for row in session.execute(query)}


def begun_games(session: Session, tournament_id: int) -> frozenset[int]:
    """Ids of the tournament's games with at least one ply on their stored board (one column
    query: the standings ask this of every request and need no state object), current with the
    session's own uncommitted writes."""
    settle(session)
    table, games = StoredGameState.__table__, Game.__table__
    return frozenset(session.scalars(
        select(table.c.game_id).join(games, games.c.id == table.c.game_id)
        .where(games.c.tournament_id == tournament_id, table.c.ply_count > 0)))


def stored_states(session: Session, game_ids: Sequence[int] | None = None, *,
                  tournament_id: int | None = None) -> dict[int, StoredGameState]:
    """The stored states of these games (or of a tournament's), current with the session's
    own uncommitted writes."""
    settle(session)
    query = select(StoredGameState)
    if tournament_id is not None:
        query = query.join(Game, Game.id == StoredGameState.game_id).where(
            Game.tournament_id == tournament_id)
    if game_ids is not None:
        query = query.where(StoredGameState.game_id.in_(list(game_ids)))
    return {row.game_id: row for row in session.scalars(query)}


# --- keeping the rows current -----------------------------------------------------------------

_PENDING = "corrmail.games.state.pending"


@dataclass
class _Pending:
    games: set[int]
    participants: set[int]
    tournaments: set[int]
    rounds: set[tuple[int, int]]
    #: Games whose copy in the session may miss a letter: read them again before the replay.
    reload: set[int] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.games or self.participants or self.tournaments or self.rounds)


def _pending(session: Session) -> _Pending:
    pending = session.info.get(_PENDING)
    if pending is None:
        pending = session.info[_PENDING] = _Pending(set(), set(), set(), set())
    return pending


#: Attributes whose change changes what a game's ledger amounts to.
_GAME_ATTRIBUTES = ("state", "white_id", "black_id", "round", "tournament_id")
_TOURNAMENT_ATTRIBUTES = ("start_date", "end_date", "time_control_days", "time_control_moves",
                          "game_type", "rule_options", "system")
_PARTICIPANT_ATTRIBUTES = ("start_sheet_received",)
_ROUND_ATTRIBUTES = ("starts_on", "published_at", "number")


def _changed(instance: object, names: Iterable[str]) -> bool:
    return any(get_history(instance, name).has_changes() for name in names)


def _in_loaded_ledger(session: Session, letter: Letter) -> bool:
    game = session.identity_map.get(identity_key(Game, letter.game_id))
    return game is not None and letter in game.__dict__.get("letters", ())


@event.listens_for(Session, "after_flush")
def _note_changes(session: Session, flush_context: object) -> None:
    pending = _pending(session)
    for instance in (*session.new, *session.dirty, *session.deleted):
        if isinstance(instance, Letter):
            pending.games.add(instance.game_id)
            if instance not in session.new or not _in_loaded_ledger(session, instance):
                pending.reload.add(instance.game_id)
        elif isinstance(instance, Penalty | Forwarding):
            pending.games.add(instance.game_id)  # the replay reads them afresh
        elif isinstance(instance, Game):
            if instance in session.new or _changed(instance, _GAME_ATTRIBUTES):
                pending.games.add(instance.id)
        elif isinstance(instance, Break):
            pending.participants.add(instance.participant_id)
            for old in get_history(instance, "participant_id").deleted or ():
                pending.participants.add(old)
        elif isinstance(instance, Participant):
            if _changed(instance, _PARTICIPANT_ATTRIBUTES):
                pending.participants.add(instance.id)
        elif isinstance(instance, Tournament):
            if instance not in session.new and _changed(instance, _TOURNAMENT_ATTRIBUTES):
                pending.tournaments.add(instance.id)
        elif isinstance(instance, PairedRound) and (
                instance in session.new or _changed(instance, _ROUND_ATTRIBUTES)):
            pending.rounds.add((instance.tournament_id, instance.number))


#: Tables whose rows a bulk statement (``session.execute(insert(Letter), rows)``,
#: ``delete(Penalty).where(…)``) may write, and the column naming the game or player concerned.
_STATEMENT_TARGETS = {Letter.__tablename__: ("games", "game_id"),
                      Penalty.__tablename__: ("games", "game_id"),
                      Forwarding.__tablename__: ("games", "game_id"),
                      Game.__tablename__: ("games", "id"),
                      Break.__tablename__: ("participants", "participant_id")}


@event.listens_for(Session, "do_orm_execute")
def _note_statement(execute_state: ORMExecuteState) -> None:
    """Bulk statements through the session change rows the flush never sees: note their games
    (or players) too — inserts from their parameters, updates and deletes by selecting the rows
    they are about to touch."""
    if not (execute_state.is_insert or execute_state.is_update or execute_state.is_delete):
        return
    statement = execute_state.statement
    table = getattr(statement, "table", None)
    target = _STATEMENT_TARGETS.get(getattr(table, "name", ""))
    if target is None:
        return
    kind, column = target
    assert isinstance(table, Table)
    found: set[int] = set()
    if execute_state.is_insert:
        parameters = execute_state.parameters
        rows: list[Mapping[str, Any]] = []
        if isinstance(parameters, Mapping):
            rows.append(parameters)
        elif parameters:
            rows.extend(parameters)
        # insert(Letter).values(game_id=…): the values written into the statement itself.
        inline = {getattr(key, "key", key): getattr(value, "value", value)
                  for key, value in (getattr(statement, "_values", None) or {}).items()}
        for row in rows:
            value = row.get(column, inline.get(column))
            if value is not None:
                found.add(int(value))
    else:
        where = statement.whereclause  # type: ignore[attr-defined]
        query = select(table.c[column]) if where is None else select(table.c[column]).where(where)
        found.update(int(value) for value in execute_state.session.scalars(query)
                     if value is not None)
    pending = _pending(execute_state.session)
    (pending.games if kind == "games" else pending.participants).update(found)


@event.listens_for(Session, "before_commit")
def _recompute_before_commit(session: Session) -> None:
    settle(session)


def settle(session: Session) -> None:
    """Recompute, in this transaction, the stored state of every game changed since the last
    time; flushes the session.

    Games already noted by an earlier flush (the ledger's append flushes its letter) are
    recomputed before the session's other pending rows are flushed, so those rows and the
    state rows go out in one flush. A change still unflushed meanwhile (a break, a penalty)
    is noted by that flush and recomputed in the next turn of the loop, its game read afresh.
    """
    while True:
        pending = session.info.get(_PENDING)
        if not pending:
            session.flush()
            pending = session.info.get(_PENDING)
            if not pending:
                return
        session.info[_PENDING] = _Pending(set(), set(), set(), set())
        _recompute(session, _games_of(session, pending), trusted=_trusted(session, pending))


def _trusted(session: Session, pending: _Pending) -> dict[int, Game]:
    """The games whose copy in the session is current: locked in this transaction by the
    ledger (:func:`corrmail.games.ledger.load_locked_game`), every letter of theirs flushed through
    their ``letters``, their players' breaks and start sheets and their tournament unchanged.
    Their replay needs no second read of the game."""
    # The ledger's lock is the core's; imported here, as the models load this module.
    from corrmail.games.append import holds_lock

    trusted = {}
    for game_id in pending.games - pending.reload:
        game = session.identity_map.get(identity_key(Game, game_id))
        if (isinstance(game, Game) and holds_lock(session, game)
                and game.white_id not in pending.participants
                and game.black_id not in pending.participants
                and game.tournament_id not in pending.tournaments
                and all(_loaded(game.__dict__.get(side), "breaks") for side in ("white", "black"))
                and "tournament" in game.__dict__):
            trusted[game_id] = game
    return trusted


def _loaded(instance: object, name: str) -> bool:
    return instance is not None and name in instance.__dict__


def _games_of(session: Session, pending: _Pending) -> list[int]:
    ids = set(pending.games)
    if pending.participants:
        participants = list(pending.participants)
        ids.update(session.scalars(select(Game.id).where(
            Game.white_id.in_(participants) | Game.black_id.in_(participants))))
    if pending.tournaments:
        ids.update(session.scalars(select(Game.id).where(
            Game.tournament_id.in_(list(pending.tournaments)))))
    for tournament_id, number in pending.rounds:
        ids.update(session.scalars(select(Game.id).where(
            Game.tournament_id == tournament_id, Game.round == number)))
    return sorted(ids)


#: Games replayed per batch: one locking query and one per relationship for each batch.
_BATCH = 200


def _load_games(session: Session, game_ids: Sequence[int], *, lock: bool = True) -> Iterator[Game]:
    """The games read afresh with their letters, tournament, players and breaks, a batch at a
    time; locked (as an append locks them: no letter can slip in between) unless only read."""
    ids = list(game_ids)
    participant = (selectinload(Participant.player), selectinload(Participant.breaks))
    for start in range(0, len(ids), _BATCH):
        query = (
            select(Game).where(Game.id.in_(ids[start:start + _BATCH]))
            .options(selectinload(Game.letters), joinedload(Game.tournament, innerjoin=True),
                     selectinload(Game.white).options(*participant),
                     selectinload(Game.black).options(*participant))
            .order_by(Game.id)
            .execution_options(populate_existing=True)
        )
        if lock:
            query = query.with_for_update(of=Game)
        yield from session.scalars(query).unique()


def _recompute(session: Session, game_ids: Sequence[int],
               trusted: dict[int, Game] | None = None) -> None:
    trusted = trusted or {}
    stored: dict[int, StoredGameState | None] = {}
    for game_id, game in trusted.items():
        row = session.identity_map.get(identity_key(StoredGameState, game_id))
        if row is None and "stored_state" in game.__dict__:
            row = game.__dict__["stored_state"]  # read with the locked game, or None
        if row is not None or "stored_state" in game.__dict__:
            stored[game_id] = row
    others = [game_id for game_id in game_ids if game_id not in stored]
    for start in range(0, len(others), _BATCH):
        stored.update((row.game_id, row) for row in session.scalars(
            select(StoredGameState).where(
                StoredGameState.game_id.in_(others[start:start + _BATCH]))))
    seen = set()
    untrusted = [game_id for game_id in game_ids if game_id not in trusted]
    # Only the games not trusted are read again (a letter's own game is trusted: no loader
    # options to build for an empty list).
    games = _load_games(session, untrusted) if untrusted else iter(())
    for game in chain(trusted.values(), games):
        seen.add(game.id)
        values = replay_values(game)
        row = stored.get(game.id)
        if row is None:
            session.add(StoredGameState(game_id=game.id, **values))
        elif game.id in trusted:
            # The game of a letter just entered: written at once (see _write_state).
            if any(getattr(row, name) != value for name, value in values.items()):
                _write_state(session, row, values)
        else:  # games read again in batches (a rebuild): the flush writes their rows together
            for name, value in values.items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
    gone = set(game_ids) - seen  # deleted games: the database's cascade took their rows
    for game_id in gone:
        row = session.identity_map.get(identity_key(StoredGameState, game_id))
        if row is not None:
            session.expunge(row)


_STATE_TABLE = cast(Table, StoredGameState.__table__)
#: A stored state's every field written by one UPDATE: one statement object whatever changed
#: (SQLAlchemy computes its cache key once), the bound names prefixed apart from the columns'.
_WRITE_STATE = (
    update(_STATE_TABLE).where(_STATE_TABLE.c.game_id == bindparam("state_game_id"))
    .values({name: bindparam(f"new_{name}") for name in FIELDS})
)


def _write_state(session: Session, row: StoredGameState, values: Mapping[str, Any]) -> None:
    """Write a game's recomputed state over its stored row, and keep the row object as read.

    An UPDATE through the session rather than the row's changed attributes left to the flush
    at commit: the unit of work's history of some thirty columns for one row whose every value
    is here was most of that flush. Unchanged fields are written with their stored values."""
    session.execute(_WRITE_STATE, {"state_game_id": row.game_id,
                                   **{f"new_{name}": value for name, value in values.items()}})
    for name, value in values.items():
        if getattr(row, name) != value:
            set_committed_value(row, name, value)


# --- verify and rebuild -----------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A game whose stored state differs from its replay: each differing field, stored and
    replayed."""

    game_id: int
    fields: tuple[tuple[str, Any, Any], ...]

    def describe(self) -> str:
        parts = ", ".join(f"{name}: stored {stored!r}, replay {replayed!r}"
                          for name, stored, replayed in self.fields)
        return f"game {self.game_id}: {parts}"


def _game_ids(session: Session, tournament_code: str | None) -> list[int]:
    query = select(Game.id).order_by(Game.id)
    if tournament_code is not None:
        if session.scalar(select(Tournament.id).where(Tournament.code == tournament_code)) is None:
            raise TournamentNotFound(tournament_code)
        query = query.join(Tournament).where(Tournament.code == tournament_code)
    return list(session.scalars(query))


def _replayed(session: Session, game_ids: Sequence[int]) -> Iterator[tuple[int, dict[str, Any]]]:
    for game in _load_games(session, game_ids, lock=False):
        yield game.id, replay_values(game)


def verify(session: Session, tournament_code: str | None = None, *,
           game_ids: Sequence[int] | None = None) -> list[Difference]:
    """Every game (of one tournament, or of ``game_ids``) whose stored state differs from its
    ledger's replay; a game without a stored state differs in every field."""
    settle(session)
    differences = []
    if game_ids is None:
        game_ids = _game_ids(session, tournament_code)
    stored = stored_states(session, game_ids)
    for game_id, replayed in _replayed(session, game_ids):
        row = stored.get(game_id)
        kept = _values_of(row) if row is not None else dict.fromkeys(FIELDS, "(no state)")
        fields = tuple((name, kept[name], replayed[name]) for name in FIELDS
                       if kept[name] != replayed[name])
        if fields:
            differences.append(Difference(game_id, fields))
    return differences


def rebuild(session: Session, tournament_code: str | None = None) -> int:
    """Recompute the stored state of every game (of one tournament); the number of games."""
    settle(session)
    game_ids = _game_ids(session, tournament_code)
    _recompute(session, game_ids)
    session.flush()
    return len(game_ids)


def fill_missing(session: Session) -> int:
    """Compute the state of every game that has none (a migration drops the states when what
    they hold is defined anew); the number of games filled."""
    settle(session)
    game_ids = list(session.scalars(
        select(Game.id).where(~Game.id.in_(select(StoredGameState.game_id))).order_by(Game.id)))
    _recompute(session, game_ids)
    session.flush()
    return len(game_ids)
