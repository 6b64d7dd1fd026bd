"""A game as the mail layer needs to see it: the board, who moves, the partner's new moves and
variants, and the time chart — all derived from the letters ledger.

Nothing here decides a rule: the board comes from :mod:`notation` replaying the moves written in
the ledger, the times from :func:`timekeeping.compute_chart` over the same letters.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import chain
from typing import Any

from sqlalchemy import and_, bindparam, event, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import ORMExecuteState, Session, joinedload, object_session, relationship
from sqlalchemy.orm.attributes import set_committed_value

from corrmail.games.ledger import effective_letters, standing_penalties
from corrmail.games.move_walk import color_of
from corrmail.letters.recipients import plays_by_email
from corrmail.models import (
    AuditEntry,
    Break,
    Case,
    CaseType,
    Channel,
    Forwarding,
    Game,
    GameState,
    Letter,
    OutboxMessage,
    PairedRound,
    Participant,
    Tournament,
)
from corrmail.models import InboundMessage as InboundRow
from corrmail.models import Penalty as PenaltyRow
from corrmail.models.enums import ROUND_BY_ROUND_SYSTEMS
from notation.full import format_full
from notation.game_position import (
    GamePosition,
    initial_position,
    position_fen,
    position_from_fen,
)
from notation.letter_form import forced_plies
from notation.letters import LegalMove, PlayedGame, play_moves, read_move
from notation.rules import Color
from notation.rules import GameType as BoardType
from notation.variants import VariantOffer, parse_variants
from timekeeping import Break as BreakSpan
from timekeeping import (
    ErrorReport,
    Ledger,
    LetterEntry,
    Penalty,
    RefereeGrant,
    Side,
    TimeChart,
    TimeControl,
    compute_chart,
)

__all__ = [
    "GameView", "MoveTally", "break_span", "referee_grant", "HeldMoveRefused", "UnsupportedGameType", "side_of", "color_of", "load_mail_game",
    "steward_forwards",
]


# ``game.overstep_claims``: the game's overstep claims, whose suspensions the ledger leaves off
# the clock (:attr:`GameView.suspensions`); the intake loads them with the game (one join).
sa_inspect(Game).add_property("overstep_claims", relationship(
    Case, primaryjoin=lambda: and_(Case.game_id == Game.id,
                                   Case.case_type == CaseType.OVERSTEP_CLAIM),
    foreign_keys=lambda: [Case.game_id], viewonly=True, lazy="select", order_by=lambda: Case.id))


class UnsupportedGameType(ValueError):
    """The notation package has no rules engine for this game type yet."""

    def __init__(self, game_type: str) -> None:
        super().__init__(
            f"moves of {game_type!r} games cannot be checked by e-mail yet; "
            "the steward enters them by hand"
        )
        self.game_type = game_type


class HeldMoveRefused(ValueError):
    """The reply an overstep claimant holds for the referee (002 §4.3.6) cannot be held."""

    def __init__(self, text: str, reason: str, rule: str, code: str) -> None:
        super().__init__(f"{rule}: the reply cannot be held: {reason}")
        self.text = text
        self.reason = reason
        self.rule = rule
        #: ``not_to_move`` (the claimant waits for the partner's move) or ``illegal``.
        self.code = code


#: The channels whose letters reach the server itself (and their stored state's values).
SERVER_CHANNELS = frozenset((Channel.EMAIL, Channel.WEB))
_SERVER_CHANNEL_VALUES = frozenset(channel.value for channel in SERVER_CHANNELS)


def steward_forwards(move_channel: Channel | str | None, recipient: Participant | None) -> bool:
    """Whether a move that came by ``move_channel`` reaches ``recipient`` through the steward,
    who posts or telephones it (002 §4.1.1, docs/rules/mail.md 19): it came by e-mail or on the
    web, and the recipient plays by post or telephone. The game core's forwarding, the game
    page and the dashboard's count all ask this."""
    # Who plays how is the tournament's (its channel, the player's own); read when asked.
    value = move_channel.value if isinstance(move_channel, Channel) else move_channel
    return (recipient is not None and value in _SERVER_CHANNEL_VALUES
            and not plays_by_email(recipient))


def side_of(game: Game, participant_id: int) -> Side:
    if participant_id == game.white_id:
        return Side.WHITE
    if participant_id == game.black_id:
        return Side.BLACK
    raise ValueError(f"participant {participant_id} does not play game {game.id}")


def load_mail_game(session: Session, game_id: int) -> Game | None:
    """The game a letter is for, locked for the transaction, with everything a letter reads.

    Three statements instead of one per relationship: the game locked with its tournament, both
    participants and players and its stored state (one join), its letters (read after the lock,
    see :func:`corrmail.games.append.load_locked_game`), and both participants' breaks.
    """
    # The game core judges letters through this view: import its ledger lock when called.
    from corrmail.games.append import load_locked_game

    if not session.identity_map:
        # A session that holds nothing yet (the intake's): the same three statements read as
        # Core rows, their objects made from them (a quarter of a letter's CPU went to the
        # ORM's loading of this one game).
        game = _read_mail_game(session, game_id)
        if game is None:
            return None
        seed_board(game)
        return game
    game = load_locked_game(session, game_id, *_mail_game_options())
    if game is None:
        return None
    breaks: dict[int, list[Break]] = {game.white_id: [], game.black_id: []}
    for item in session.scalars(_BREAKS_OF_PLAYERS, {"players": list(breaks)}):
        breaks[item.participant_id].append(item)
    for participant in (game.white, game.black):
        set_committed_value(participant, "breaks", breaks[participant.id])
    seed_board(game)
    return game


@dataclass(frozen=True)
class _RowPart:
    """One mapped object's columns in a joined row: its class, attribute keys and first index."""

    cls: type[Any]
    keys: tuple[str, ...]
    start: int

    def values(self, row: Sequence[Any]) -> dict[str, Any]:
        return dict(zip(self.keys, row[self.start:self.start + len(self.keys)], strict=True))


@dataclass(frozen=True)
class _MailGameQuery:
    statement: Any
    game: _RowPart
    tournament: _RowPart
    white: _RowPart
    white_player: _RowPart
    black: _RowPart
    black_player: _RowPart
    state: _RowPart
    claim: _RowPart
    breaks: Any
    break_keys: tuple[str, ...]


@cache
def _mail_game_query() -> _MailGameQuery:
    """The Core statements of :func:`_read_mail_game`: the game locked and joined with what
    :func:`_mail_game_options` loads (the same joins), and both players' breaks."""
    from sqlalchemy.orm import class_mapper

    from corrmail.games.state import StoredGameState
    from corrmail.models import Player

    def keys(cls: type[Any]) -> tuple[str, ...]:
        mapper = class_mapper(cls)
        return tuple(mapper.get_property_by_column(column).key
                     for column in mapper.local_table.columns)

    games = Game.__table__
    tournaments = Tournament.__table__
    white = Participant.__table__.alias("white")
    black = Participant.__table__.alias("black")
    white_player = Player.__table__.alias("white_player")
    black_player = Player.__table__.alias("black_player")
    states = StoredGameState.__table__
    claims = Case.__table__.alias("claims")
    parts: list[tuple[type[Any], Any]] = [
        (Game, games), (Tournament, tournaments), (Participant, white), (Player, white_player),
        (Participant, black), (Player, black_player), (StoredGameState, states), (Case, claims)]
    laid: list[_RowPart] = []
    start = 0
    for cls, table in parts:
        laid.append(_RowPart(cls, keys(cls), start))  # an alias has its table's columns
        start += len(table.columns)
    statement = (
        select(*chain.from_iterable(table.columns for _, table in parts))
        .select_from(games)
        .join(tournaments, tournaments.c.id == games.c.tournament_id)
        .join(white, white.c.id == games.c.white_id)
        .join(white_player, white_player.c.id == white.c.player_id)
        .join(black, black.c.id == games.c.black_id)
        .join(black_player, black_player.c.id == black.c.player_id)
        .outerjoin(states, states.c.game_id == games.c.id)
        .outerjoin(claims, and_(claims.c.game_id == games.c.id,
                                claims.c.case_type == CaseType.OVERSTEP_CLAIM))
        .where(games.c.id == bindparam("game_id"))
        .order_by(claims.c.id)
        .with_for_update(of=games)
    )
    breaks = Break.__table__
    game, tournament, white_part, white_player_part, black_part, black_player_part, state, \
        claim = laid
    return _MailGameQuery(
        statement, game, tournament, white_part, white_player_part, black_part,
        black_player_part, state, claim,
        # Two plain parameters rather than an expanding IN, which is compiled anew each time.
        breaks=select(*breaks.columns).where(
            (breaks.c.participant_id == bindparam("white"))
            | (breaks.c.participant_id == bindparam("black")))
        .order_by(breaks.c.start_date),
        break_keys=keys(Break))


def _read_mail_game(session: Session, game_id: int) -> Game | None:
    """What :func:`load_locked_game` with :func:`_mail_game_options` and the breaks make of
    game `game_id` — the same objects with the same loaded attributes, persistent in
    `session`, the game locked and its letters read under the lock — from Core rows, for a
    session holding no object yet (so none needs refreshing)."""
    from corrmail.games.append import adopt_row, note_locked, read_letters, take_sqlite_write_lock

    query = _mail_game_query()
    take_sqlite_write_lock(session)
    rows = session.execute(query.statement, {"game_id": game_id}).all()
    if not rows:
        return None
    first = rows[0]
    game: Game = adopt_row(Game, query.game.values(first))
    tournament = adopt_row(Tournament, query.tournament.values(first))
    sides = []
    players: dict[int, Any] = {}
    for part, player_part in ((query.white, query.white_player),
                              (query.black, query.black_player)):
        participant = adopt_row(Participant, part.values(first))
        player_values = player_part.values(first)
        player = players.get(player_values["id"])
        if player is None:
            player = players[player_values["id"]] = adopt_row(player_part.cls, player_values)
        set_committed_value(participant, "player", player)
        sides.append(participant)
    white, black = sides
    state_values = query.state.values(first)
    state = (adopt_row(query.state.cls, state_values)
             if state_values["game_id"] is not None else None)
    claims = [adopt_row(Case, values) for values in map(query.claim.values, rows)
              if values["id"] is not None]
    set_committed_value(game, "tournament", tournament)
    set_committed_value(game, "white", white)
    set_committed_value(game, "black", black)
    set_committed_value(game, "stored_state", state)
    set_committed_value(game, "overstep_claims", claims)
    set_committed_value(game, "letters", read_letters(session, game_id))
    breaks: dict[int, list[Break]] = {white.id: [], black.id: []}
    for row in session.execute(query.breaks, {"white": white.id, "black": black.id}):
        item = adopt_row(Break, dict(zip(query.break_keys, row, strict=True)))
        breaks[item.participant_id].append(item)
    for participant in sides:
        set_committed_value(participant, "breaks", breaks[participant.id])
    # The stored state and the claims hang from view-only relationships, which do not cascade.
    session.add_all([game, *([state] if state is not None else []), *claims])
    note_locked(session, game)
    return game


#: Both players' breaks, in order: one statement object for every letter (its SQLAlchemy cache
#: key is computed once).
_BREAKS_OF_PLAYERS = select(Break).where(
    Break.participant_id.in_(bindparam("players", expanding=True))).order_by(Break.start_date)


_PENALTIES_OF_GAME = select(PenaltyRow).where(
    PenaltyRow.game_id == bindparam("game_id")).order_by(PenaltyRow.id)

_FORWARDINGS_OF_GAME = select(Forwarding).where(
    Forwarding.game_id == bindparam("game_id")).order_by(Forwarding.id)


@cache
def _mail_game_options() -> tuple[Any, ...]:
    """The loader options of :func:`load_mail_game`, made once: the locked query built from
    them is then made once too (:func:`corrmail.games.append.load_locked_game`)."""
    from corrmail.games.state import with_stored_state

    # The players (and so the letters' language, a column of theirs) come with the game.
    return (
        joinedload(Game.tournament, innerjoin=True),
        joinedload(Game.white, innerjoin=True).joinedload(Participant.player, innerjoin=True),
        joinedload(Game.black, innerjoin=True).joinedload(Participant.player, innerjoin=True),
        with_stored_state(),
        joinedload(Game.overstep_claims),  # type: ignore[attr-defined]
    )


#: Where :attr:`GameView.played` keeps a game object's last replay (not a mapped attribute):
#: (board key, plies, the plies played from ply ``offset`` on, ``offset``).
_REPLAY_MEMO = "_corrmail_replay_memo"
#: Where :meth:`GameView.forced_flags` keeps a game object's last forced-move flags.
_FORCED_MEMO = "_corrmail_forced_memo"


def _board_key(game: Game, board_type: BoardType) -> tuple[BoardType, str]:
    return (board_type, repr(game.tournament.rule_options or None))


def seed_depth(ply_count: int, to_repeat: int) -> int:
    """How many plies back from the end the stored state's ``fen_before`` stands: before the
    `to_repeat` plies the player to move must repeat (002 §4.2.9) and his own last ply before
    them, when the game has one — the checking of a letter that writes that own ply again
    («1. c3-d4 f6-e5 2. d4:f6», ``corrmail.games.moves``) reads the position before it."""
    return min(to_repeat + 1, ply_count)


def seed_board(game: Game) -> None:
    """Start the game object's board from its stored state (:mod:`corrmail.games.state`)
    instead of replaying every ply: the position before the plies the player to move must
    repeat (002 §4.2.9) and his own ply before them is stored with the position
    (:func:`seed_depth`), so the intake plays only those plies.

    Only a stored state that matches the ledger just read is used — as many letters and plies,
    and those plies lead from the stored position before them to the stored position;
    otherwise nothing is kept and the board is replayed from the start as before.
    """
    state = game.__dict__.get("stored_state")
    if state is None or not state.fen or not state.fen_before or state.board_problem:
        return
    view = GameView(game)
    try:
        plies = tuple(view.plies)
        if state.ply_count != len(plies) or state.letter_count != len(view.letters):
            return
        mover = view.participant(Side(state.board_turn))
        count = seed_depth(len(plies), len(view.partner_new_plies(mover.id)))
        start = position_from_fen(state.fen_before, view.board_type,
                                  game.tournament.rule_options or None)
        tail = play_moves(view.board_type, plies[len(plies) - count:], start=start)
        if not tail.complete or position_fen(tail.position) != state.fen:
            return
    except (ValueError, TypeError):  # no engine for the game type, a bad option or FEN: replay
        return
    key = _board_key(game, view.board_type)
    game.__dict__[_REPLAY_MEMO] = (key, plies, tail, len(plies) - count)
    flags = state.forced_plies
    if flags is not None and len(flags) == len(plies) and not flags.strip("01"):
        game.__dict__[_FORCED_MEMO] = (key, plies, tuple(flag == "1" for flag in flags))
    session = object_session(game)
    if (state.penalty_count == 0 and session is not None
            and not session.info.get(_PENALTY_WRITES)):
        # No penalty rows when the state was written (in the transaction of the game's last
        # change, under its lock, as every penalty's is), and this session has written none
        # since: nothing to read for this letter.
        game.__dict__[_PENALTY_MEMO] = (_penalty_stamp(session), ())


#: Where :meth:`GameView.game_penalties` keeps a game object's penalties, and the count of
#: penalty writes in a session that makes such a copy stale.
_PENALTY_MEMO = "_corrmail_penalty_memo"
_PENALTY_WRITES = "corrmail.game_view.penalty_writes"


def _penalty_stamp(session: Session) -> tuple[object, int]:
    """What a copy of a game's penalties is valid for: this transaction, while no penalty has
    been written in it since."""
    return (session.get_transaction(), session.info.get(_PENALTY_WRITES, 0))


@event.listens_for(Session, "after_flush")
def _count_penalty_writes(session: Session, flush_context: object) -> None:
    if any(isinstance(item, PenaltyRow)
           for item in (*session.new, *session.dirty, *session.deleted)):
        session.info[_PENALTY_WRITES] = session.info.get(_PENALTY_WRITES, 0) + 1


@event.listens_for(Session, "do_orm_execute")
def _count_penalty_statements(execute_state: ORMExecuteState) -> None:
    if execute_state.is_select:
        return
    table = getattr(execute_state.statement, "table", None)
    if getattr(table, "name", None) == PenaltyRow.__tablename__:
        session = execute_state.session
        session.info[_PENALTY_WRITES] = session.info.get(_PENALTY_WRITES, 0) + 1


@event.listens_for(Session, "after_soft_rollback")
def _forget_penalty_reads(session: Session, previous_transaction: object) -> None:
    session.info[_PENALTY_WRITES] = session.info.get(_PENALTY_WRITES, 0) + 1
    session.info[_GAME_WRITES] = session.info.get(_GAME_WRITES, 0) + 1


#: Where :meth:`GameView.ledger` keeps a game object's last time ledger and its chart, and the
#: count of writes in a session that make such a copy stale.
_LEDGER_MEMO = "_corrmail_ledger_memo"
_GAME_WRITES = "corrmail.game_view.game_writes"
#: Rows no game's ledger reads: the letters the server writes, the audit log, the received
#: messages. Writing them (the intake does, between the relayed letter's chart and the stored
#: state's) leaves a kept ledger current; a write of anything else makes it stale.
_NOT_READ_BY_LEDGERS = (OutboxMessage, AuditEntry, InboundRow)


def _writes_ledger_input(items: Any) -> bool:
    return any(not isinstance(item, _NOT_READ_BY_LEDGERS) for item in items)


@event.listens_for(Session, "after_flush")
def _count_game_writes(session: Session, flush_context: object) -> None:
    if _writes_ledger_input(chain(session.new, session.dirty, session.deleted)):
        session.info[_GAME_WRITES] = session.info.get(_GAME_WRITES, 0) + 1


@event.listens_for(Session, "do_orm_execute")
def _count_game_statements(execute_state: ORMExecuteState) -> None:
    """A statement that may write (any but a SELECT; raw SQL too) makes kept ledgers stale,
    unless it writes one of the tables no ledger reads."""
    if execute_state.is_select:
        return
    table = getattr(execute_state.statement, "table", None)
    if getattr(table, "name", None) not in _UNREAD_TABLES:
        session = execute_state.session
        session.info[_GAME_WRITES] = session.info.get(_GAME_WRITES, 0) + 1


_UNREAD_TABLES = frozenset(kind.__tablename__ for kind in _NOT_READ_BY_LEDGERS)


class MoveTally:
    """Moves counted per player as the ledger's letters bring them (002 §4.2.4, §4.3.5).

    A move counts for the player whose move it is, whichever letter carried it. One that reached
    the board through the mover's own accepted variant — written in the partner's letter, or in
    the letter of the variant's reply — is left uncounted unless it was forced. A partner's move
    a player wrote in his own letter that is not a variant's reply is a forced one (002 §4.2.4),
    and counts. Without a replayable board (``known=False``) the older count stands: a player's
    moves carried by the partner's letter are not counted at all.
    """

    def __init__(self, known: bool) -> None:
        self.known = known
        self.board = 0
        self.moves = {Side.WHITE: 0, Side.BLACK: 0}
        self.uncounted = {Side.WHITE: 0, Side.BLACK: 0}
        self.forced = {Side.WHITE: 0, Side.BLACK: 0}

    def skip(self, plies: int) -> None:
        self.board += plies

    def ply(self, sender: Side, *, forced: bool, through_variant: bool = False) -> None:
        mover = Side.WHITE if self.board % 2 == 0 else Side.BLACK
        self.board += 1
        if not self.known:
            if mover is sender:
                self.moves[mover] += 1
            return
        self.moves[mover] += 1
        if forced:
            self.forced[mover] += 1
        elif mover is not sender or through_variant:
            self.uncounted[mover] += 1

    def entry(self, sender: Side) -> tuple[int, int, int]:
        """The sender's move, uncounted moves and forced moves since his previous letter."""
        forced, self.forced[sender] = self.forced[sender], 0
        return self.moves[sender], self.uncounted[sender], forced


def _corrects(letter: Letter, letter_id: int) -> bool:
    """``letter`` replaces ``letter_id``, directly or through a chain of corrections."""
    corrected = letter.corrects
    while corrected is not None:
        if corrected.id == letter_id:
            return True
        corrected = corrected.corrects
    return False


@dataclass
class GameView:
    game: Game
    #: Letters whose penalties this view leaves out of the time chart: a card about to be
    #: entered again as written voids those of its wrong entry (the postcard check shows the
    #: chart as it will read once the card is stored; :func:`~corrmail.games.ledger.
    #: standing_penalties` is the stored rule).
    void_penalties_of: frozenset[int] = frozenset()

    @cached_property
    def board_type(self) -> BoardType:
        # notation names its game types as corrmail's enum does; the values differ.
        try:
            return BoardType[self.game.tournament.game_type.name]
        except KeyError:
            raise UnsupportedGameType(str(self.game.tournament.game_type)) from None

    @cached_property
    def letters(self) -> list[Letter]:
        """The letters of play as they now read; a report of a partner's error (002 §4.2.9)
        is kept in the archive but moves nothing, and is read by :meth:`error_reports`."""
        return effective_letters([letter for letter in self.game.letters
                                  if letter.reports_error_of_id is None])

    def letter_as_it_reads(self, letter_id: int) -> Letter | None:
        """The letter of play that is ``letter_id`` or stands for it through corrections
        (002 §4.2.5): a letter named by the id it was first sent under is found as corrected."""
        for letter in self.letters:
            if letter.id == letter_id or _corrects(letter, letter_id):
                return letter
        return None

    def error_report_letters(self) -> list[Letter]:
        """The letters that report a partner's faulty letter (002 §4.2.9), in ledger order."""
        return [letter for letter in self.game.letters if letter.reports_error_of_id is not None]

    @cached_property
    def plies(self) -> list[str]:
        return [ply for letter in self.letters for ply in letter.moves_text.split()]

    @cached_property
    def start(self) -> GamePosition:
        """The initial position under the tournament's rule options (column draughts); a bad
        option raises `notation.columns.RuleOptionError` (a ``ValueError``)."""
        return initial_position(self.board_type, self.game.tournament.rule_options or None)

    def _tail(self) -> tuple[int, PlayedGame]:
        """``(offset, played)``: the ledger's plies from ply ``offset`` on, played from the
        position after the first ``offset`` plies — the whole game (offset 0) unless the intake
        started the board from the stored state (:func:`seed_board`).

        The last replay of the game object is kept on it: a view of the same game after a
        letter was appended (the intake checks the letter, then writes the answer, then the
        stored state is recomputed) plays only the new plies from where the last one ended.
        """
        plies = tuple(self.plies)
        key = _board_key(self.game, self.board_type)
        memo: tuple[object, tuple[str, ...], PlayedGame, int] | None = self.game.__dict__.get(
            _REPLAY_MEMO)
        if memo is not None and memo[0] == key and plies[:len(memo[1])] == memo[1]:
            _, known_plies, known, offset = memo
            if len(plies) == len(known_plies):
                return offset, known
            if known.complete:
                rest = play_moves(self.board_type, plies[len(known_plies):], start=known.position)
                played = PlayedGame(known.positions + rest.positions[1:],
                                    known.readings + rest.readings)
                self.game.__dict__[_REPLAY_MEMO] = (key, plies, played, offset)
                return offset, played
        played = play_moves(self.board_type, plies, start=self.start)
        self.game.__dict__[_REPLAY_MEMO] = (key, plies, played, 0)
        return 0, played

    @cached_property
    def played(self) -> PlayedGame:
        """The ledger's plies replayed from :attr:`start`, with each reading."""
        offset, played = self._tail()
        if offset == 0:
            return played
        # The board was started from the stored state: the whole game is wanted here.
        plies = tuple(self.plies)
        played = play_moves(self.board_type, plies, start=self.start)
        self.game.__dict__[_REPLAY_MEMO] = (_board_key(self.game, self.board_type), plies,
                                            played, 0)
        return played

    @cached_property
    def positions(self) -> tuple[GamePosition, ...]:
        played = self.played
        if not played.complete:
            raise ValueError(f"the ledger of game {self.game.id} holds an illegal move")
        return played.positions

    def _tail_positions(self) -> tuple[int, tuple[GamePosition, ...]]:
        if "played" in self.__dict__:
            return 0, self.positions
        offset, played = self._tail()
        if not played.complete:
            raise ValueError(f"the ledger of game {self.game.id} holds an illegal move")
        return offset, played.positions

    @property
    def position(self) -> GamePosition:
        return self._tail_positions()[1][-1]

    @property
    def side_to_move(self) -> Side:
        return Side.WHITE if self.position.turn is Color.WHITE else Side.BLACK

    def participant(self, side: Side) -> Participant:
        return self.game.white if side is Side.WHITE else self.game.black

    def relayed_to_mover(self) -> dt.date | None:
        """The day the server relayed the partner's last move letter to the player now to move
        by e-mail: the day he received it (002 §4.3.1, second date). None when the server did
        not relay it (the player's own next letter states the day; until then a clock estimates
        it, 002 §4.3.3) or no move letter has come yet."""
        for letter in reversed(self.letters):
            if letter.moves_text.strip():
                return letter.relayed_on
        return None

    # -- the steward's forwarding (002 §4.1.1) ------------------------------------------------

    def move_to_forward(self) -> Letter | None:
        """The move letter the steward forwards now, by post or telephone: the last move letter
        of a game still played, when it came by e-mail or on the web and its recipient gets his
        moves from the steward (:func:`steward_forwards`). It stays the one to forward (and its
        forwarding may be corrected) until the recipient's own letter comes."""
        if self.game.state in (GameState.FINISHED, GameState.ADJUDICATION):
            return None
        last = next((letter for letter in reversed(self.letters) if letter.moves_text.strip()),
                    None)
        if last is None or last.sender_id is None:
            return None
        return last if steward_forwards(last.channel, self.game.partner_of(last.sender_id)) else None

    def forwarding_rows(self) -> list[Forwarding]:
        """Every record of the steward forwarding a letter of this game, oldest first."""
        session = object_session(self.game)
        if session is None:
            raise RuntimeError(f"game {self.game.id} is not attached to a session")
        return list(session.scalars(_FORWARDINGS_OF_GAME, {"game_id": self.game.id}))

    @cached_property
    def suspensions(self) -> tuple[tuple[dt.date, dt.date], ...]:
        """The days play stood suspended by an overstep claim and then went on (002 §4.3.6:
        «до решения судьи игра приостанавливается»): from the day after the claim to the day
        of the decision that resumed play, both included (docs/rules/timekeeping.md, «Play
        suspended by a claim counts for nobody»). They are nobody's think time: the ledger
        reads them as days off the clock in this game, like a break no limit applies to. A
        claim still waiting for the referee has no end yet: the game is suspended and nobody
        is to move; a confirmed claim ended the game."""
        from adjudication import OverstepClaim, OverstepRuling, case_from_dict

        if object_session(self.game) is None or self.game.id is None:
            return ()
        spans = []
        # Loaded with the game for a letter (:func:`load_mail_game`): no statement of its own.
        for row in self.game.overstep_claims:  # type: ignore[attr-defined]
            claim = case_from_dict(row.payload)
            if not isinstance(claim, OverstepClaim):
                continue
            resumed = next((decision.decided_on for decision in claim.decisions
                            if decision.ruling in (OverstepRuling.REJECTED.value,
                                                   OverstepRuling.NOT_APPROVED.value)), None)
            first = claim.opened_on + dt.timedelta(days=1)
            if resumed is not None and resumed >= first:
                spans.append((first, resumed))
        return tuple(spans)

    @cached_property
    def forwardings(self) -> dict[int, Forwarding]:
        """The latest forwarding of each move letter, by the id of the letter as it now reads
        (a forwarding names the letter as it was when posted, 002 §4.2.5): a correction of a
        forwarding is a later record, and the latest counts. Read only where the game can have
        one — a letter came by e-mail or on the web, and a player gets his moves from the
        steward — so a game between two e-mail players asks nothing more."""
        if not any(letter.channel in SERVER_CHANNELS for letter in self.letters) or all(
                plays_by_email(player) for player in (self.game.white, self.game.black)):
            return {}
        latest: dict[int, Forwarding] = {}
        for row in self.forwarding_rows():
            letter = self.letter_as_it_reads(row.letter_id)
            if letter is not None:
                latest[letter.id] = row
        return latest

    def letters_since_own(self, participant_id: int) -> list[Letter]:
        """The partner's letters after ``participant_id``'s last letter that carried moves."""
        result: list[Letter] = []
        for letter in reversed(self.letters):
            if letter.sender_id == participant_id and letter.moves_text.strip():
                break
            if letter.sender_id != participant_id:
                result.append(letter)
        return list(reversed(result))

    def before(self, letter: Letter) -> GameView:
        """The game as it stood before ``letter`` (a letter being replaced, 002 §4.2.5)."""
        earlier = GameView(self.game)
        earlier.__dict__["letters"] = self.letters[: self.letters.index(letter)]
        return earlier

    def partner_new_plies(self, participant_id: int) -> list[str]:
        """What ``participant_id`` must repeat (002 §4.2.3, §4.2.9): plies since his last move."""
        count = 0
        for letter in reversed(self.letters):
            if letter.sender_id == participant_id and letter.moves_text.strip():
                break
            count += len(letter.moves_text.split())
        return self.plies[len(self.plies) - count :] if count else []

    def position_before(self, ply_count_from_end: int) -> GamePosition:
        offset, positions = self._tail_positions()
        index = len(self.plies) - ply_count_from_end
        if 0 <= index - offset < len(positions):
            return positions[index - offset]
        return self.positions[len(self.positions) - 1 - ply_count_from_end]

    def pending_variants(self, participant_id: int) -> VariantOffer | None:
        """The variants of the partner's letter now being answered, read against the board."""
        for letter in reversed(self.letters_since_own(participant_id)):
            if letter.variants_text.strip():
                return parse_variants(self.position, letter.variants_text)
        return None

    def held_reply(self, claimant: Side, text: str) -> str:
        """The claimant's reply held until the referee decides (002 §4.3.6), in full notation,
        checked as the partner would check it (002 §4.2.10); ``""`` when none is written.

        Raises :class:`HeldMoveRefused` when the claimant is not to move or the move is not a
        legal move of the position. A game type `notation` cannot replay keeps the text as
        written, for the referee to read.
        """
        written = text.strip()
        if not written:
            return ""
        try:
            position = self.position
        except UnsupportedGameType:
            return written
        if self.side_to_move is not claimant:
            raise HeldMoveRefused(written, "the claimant is not to move", "002 §4.3.6", "not_to_move")
        reading = read_move(position, written)
        if not isinstance(reading, LegalMove):
            raise HeldMoveRefused(written, f"{written!r} is not a legal move here", "002 §4.2.10",
                                  "illegal")
        return format_full(position, reading.move)

    # -- time -------------------------------------------------------------------------------

    def forced_flags(self) -> tuple[bool, ...] | None:
        """For each ply of the ledger, whether it was forced (002 §4.2.4), as
        :func:`notation.letter_form.forced_plies` finds it; ``None`` when the board cannot be
        replayed (a game type without an engine, an illegal move on record).

        Kept on the game object like the replay, keyed by the plies as written: a later view
        finds only the new plies' flags. The intake starts it from the stored state's flags
        (:func:`seed_board`), so the flags of the plies before the board's start are read,
        not found by playing the whole game again.
        """
        try:
            offset, played = (0, self.played) if "played" in self.__dict__ else self._tail()
        except (UnsupportedGameType, ValueError):
            return None
        if not played.complete:
            return None
        plies = tuple(self.plies)
        key = _board_key(self.game, self.board_type)
        memo: tuple[object, tuple[str, ...], tuple[bool, ...]] | None = self.game.__dict__.get(
            _FORCED_MEMO)
        if (memo is not None and memo[0] == key and offset <= len(memo[1])
                and plies[:len(memo[1])] == memo[1]):
            known = len(memo[1]) - offset  # the plies already flagged, of those played here
            flags = memo[2] + forced_plies(played.positions[known], played.moves[known:])
        elif offset == 0:
            flags = forced_plies(played.positions[0], played.moves)
        else:  # the board started late and the flags before it are not known: the whole game
            flags = forced_plies(self.start, self.played.moves)
        self.game.__dict__[_FORCED_MEMO] = (key, plies, flags)
        return flags

    def move_tally(self) -> MoveTally:
        """Each player's moves, variant moves left uncounted and forced moves (002 §4.2.4,
        §4.3.5) after the whole ledger: :meth:`ledger` counts the same way, and a letter not yet
        stored (a postcard being checked) continues from here."""
        flags = self.forced_flags()
        tally = MoveTally(flags is not None)
        self._tally_letters(tally, flags)
        return tally

    def _tally_letters(self, tally: MoveTally, flags: Sequence[bool] | None
                       ) -> list[tuple[Letter, tuple[int, int, int]]]:
        # The game core's mark of the letter carrying a variant's reply (002 §4.2.13).
        from corrmail.games.changes import VARIANT_REPLY_TEXT

        counted: list[tuple[Letter, tuple[int, int, int]]] = []
        for letter in self.letters:
            plies = letter.moves_text.split()
            if not plies or letter.sender_id is None or letter.sent is None:
                tally.skip(len(plies))
                continue
            sender = side_of(self.game, letter.sender_id)
            through_variant = letter.raw_text == VARIANT_REPLY_TEXT
            for _ in plies:
                forced = flags is not None and tally.board < len(flags) and flags[tally.board]
                tally.ply(sender, forced=forced, through_variant=through_variant)
            counted.append((letter, tally.entry(sender)))
        return counted

    def ledger(self) -> Ledger:
        """The timekeeping ledger of the game's move letters and charged penalties.

        Each letter's ``move`` counts every move of its sender so far; ``uncounted_moves`` those
        that reached the board through his own accepted variant (the partner's letter carried
        them, or the letter of the variant's reply did) and were not forced; ``forced_moves``
        the forced ones among his moves since his previous letter (002 §4.2.4, §4.3.5).

        The ledger is kept on the game object (:meth:`_ledger_stamp` says while it holds): the
        intake's relayed letter and the stored state's replay at commit read the same one.
        """
        stamp = self._ledger_stamp()
        memo = self.game.__dict__.get(_LEDGER_MEMO)
        if stamp is not None and memo is not None and memo[0] == stamp:
            kept: Ledger = memo[1]
            return kept
        ledger = self._read_ledger()
        if stamp is not None:
            self.game.__dict__[_LEDGER_MEMO] = (stamp, ledger, None)
        return ledger

    def chart_of(self, ledger: Ledger) -> TimeChart:
        """``compute_chart(ledger)``, computed once for the ledger :meth:`ledger` keeps."""
        memo = self.game.__dict__.get(_LEDGER_MEMO)
        if memo is not None and memo[1] is ledger:
            if memo[2] is None:
                memo = self.game.__dict__[_LEDGER_MEMO] = (memo[0], ledger, compute_chart(ledger))
            chart: TimeChart = memo[2]
            return chart
        return compute_chart(ledger)

    def _ledger_stamp(self) -> tuple[object, ...] | None:
        """What a kept ledger of this game is valid for: this transaction, while nothing it
        reads has been written in it (:data:`_NOT_READ_BY_LEDGERS` aside) or is waiting to be
        flushed, the same letters loaded and the same penalties voided. None: keep nothing — a
        view that reads the game its own way (a subclass), a game outside a session, or one
        whose session holds unflushed changes (they could be undone or changed again unseen).
        """
        if type(self) is not GameView:
            return None
        session = object_session(self.game)
        if session is None or _writes_ledger_input(
                chain(session.new, session.dirty, session.deleted)):
            return None
        return (session.get_transaction(), session.info.get(_GAME_WRITES, 0),
                self.void_penalties_of, tuple(self.game.letters))

    def _read_ledger(self) -> Ledger:
        tournament = self.game.tournament
        entries: list[LetterEntry] = []
        last_sent: dict[Side, dt.date] = {}
        forwardings = self.forwardings
        forwarded: dict[Side, bool] = {}  # the side's last letter was forwarded by the steward
        number: dict[int, int] = {}  # letter id -> its 1-based place among the entries
        flags = self.forced_flags()
        tally = MoveTally(flags is not None)
        for letter, (move, uncounted, forced) in self._tally_letters(tally, flags):
            assert letter.sender_id is not None and letter.sent is not None
            sender = side_of(self.game, letter.sender_id)
            forwarding = forwardings.get(letter.id)
            entries.append(
                LetterEntry(
                    sender=sender,
                    move=max(move, 1),
                    sent=letter.sent,
                    received=letter.received,
                    partner_sent_postmark=letter.partner_sent,
                    # A first date differing from the partner's declared dispatch is the
                    # postmark correction of 002 §4.3.1 (postal cards; e-mail dates agree).
                    # The postmark on a move the steward forwarded is his: it corrects nothing.
                    corrects_partner=(letter.partner_sent is not None
                                      and not forwarded.get(sender.partner, False)
                                      and last_sent.get(sender.partner) not in
                                      (None, letter.partner_sent)),
                    moves_text=" ".join(letter.moves_text.split()),
                    uncounted_moves=uncounted,
                    forced_moves=forced,
                    supplied_receipt=letter.supplied_receipt,
                    forwarded_on=forwarding.forwarded_on if forwarding is not None else None,
                    forwarded_by_phone=(forwarding is not None
                                        and forwarding.channel is Channel.PHONE),
                )
            )
            last_sent[sender] = letter.sent
            forwarded[sender] = forwarding is not None
            number[letter.id] = len(entries)
            corrected = letter.corrects_letter_id
            while corrected is not None and corrected not in number:
                number[corrected] = len(entries)  # a report may name the letter as first sent
                corrected = next((earlier.corrects_letter_id for earlier in self.game.letters
                                  if earlier.id == corrected), None)
        reports = tuple(
            ErrorReport(side_of(self.game, report.sender_id), number[report.reports_error_of_id],
                        received=report.received, reported=report.sent)
            for report in self.error_report_letters()
            if report.sender_id is not None and report.received is not None
            and report.sent is not None and report.reports_error_of_id in number
        )
        spans = []
        for side in (Side.WHITE, Side.BLACK):
            for item in self.participant(side).breaks:
                spans.append(break_span(side, item, notice_postmark=item.announced_on))
        spans.extend(BreakSpan(Side.WHITE, first, last, referee_grant=RefereeGrant.SUSPENSION)
                     for first, last in self.suspensions)
        letter_index = {letter.id: index for index, letter in enumerate(self.letters)}
        void = self.void_penalties_of
        penalties = [
            Penalty(
                side_of(self.game, row.participant_id),
                row.days,
                # A penalty stands after the letter that caused it (0: before the first letter).
                after_letter=_entries_through(self.letters, letter_index.get(row.letter_id or -1)),
                rule=row.rule,
                reason=row.reason,
            )
            for row in self.game_penalties()
            if row.letter_id is None or row.letter_id not in void
        ]
        received_sheets: dict[Side, dt.date] = {}
        for side in (Side.WHITE, Side.BLACK):
            received = self.participant(side).start_sheet_received
            if received is not None:
                received_sheets[side] = received
        return Ledger(
            start_date=self.clock_start(),
            end_date=tournament.end_date,
            control=TimeControl(tournament.time_control_days, tournament.time_control_moves),
            start_sheet_received=received_sheets,
            breaks=tuple(spans),
            letters=tuple(entries),
            penalties=tuple(penalties),
            players={Side.WHITE: self.game.white.player.name,
                     Side.BLACK: self.game.black.player.name},
            error_reports=reports,
        )

    def clock_start(self) -> dt.date:
        """The day this game's clock starts (002 §4.3.2): see :func:`game_start_date`."""
        session = object_session(self.game)
        if session is None:
            raise RuntimeError(f"game {self.game.id} is not attached to a session")
        return game_start_date(session, self.game)

    def game_penalties(self) -> list[PenaltyRow]:
        """The game's penalties; read once per transaction while no penalty is written (the
        intake's chart and the stored state's replay of the same letter share one read)."""
        session = object_session(self.game)
        if session is None:
            raise RuntimeError(f"game {self.game.id} is not attached to a session")
        memo = self.game.__dict__.get(_PENALTY_MEMO)
        unflushed = any(isinstance(item, PenaltyRow)
                        for item in (*session.new, *session.dirty, *session.deleted))
        if memo is not None and memo[0] == _penalty_stamp(session) and not unflushed:
            rows = list(memo[1])
        else:
            rows = list(session.scalars(_PENALTIES_OF_GAME, {"game_id": self.game.id}))
            self.game.__dict__[_PENALTY_MEMO] = (_penalty_stamp(session), tuple(rows))
        # Read against the letters each time: a letter entered again voids its wrong entry's
        # penalty without writing one (the memo keeps the rows as stored).
        return standing_penalties(rows, self.letters_on_record())

    def letters_on_record(self) -> list[Letter]:
        """Every letter of the game as stored, corrected and correcting ones alike."""
        return list(self.game.letters)

    def chart(self) -> TimeChart:
        return self.chart_of(self.ledger())


def game_start_date(session: Session, game: Game) -> dt.date:
    """The date a game's clock starts: its round's start when the round was published on its
    own (a Swiss round), else the tournament's start (002 §4.3.2)."""
    starts = round_start_dates(session, game.tournament, rounds=(game.round,))
    return starts.get(game.round, game.tournament.start_date)


def round_start_dates(
    session: Session, tournament: Tournament, *, rounds: Sequence[int] | None = None
) -> dict[int, dt.date]:
    """Round number → start date of each round published on its own, in one query; rounds
    absent from the map start with the tournament (002 §4.3.2). Round robins are paired whole
    and all their games start together, so they need no query."""
    if tournament.system not in ROUND_BY_ROUND_SYSTEMS:
        return {}
    query = select(PairedRound.number, PairedRound.starts_on).where(
        PairedRound.tournament_id == tournament.id,
        PairedRound.published_at.is_not(None),
        PairedRound.starts_on.is_not(None),
    )
    if rounds is not None:
        query = query.where(PairedRound.number.in_(rounds))
    return {number: starts_on for number, starts_on in session.execute(query)}


def _entries_through(letters: list[Letter], index: int | None) -> int:
    """How many move letters (timekeeping entries) stand up to and including ``letters[index]``."""
    if index is None:
        return sum(1 for letter in letters if letter.moves_text.strip() and letter.sent)
    return sum(1 for letter in letters[: index + 1] if letter.moves_text.strip() and letter.sent)


def break_span(side: Side, row: Break, notice_postmark: dt.date | None = None) -> BreakSpan:
    """A stored break as timekeeping reads it, with what the referee granted (002 §4.4.5)."""
    return BreakSpan(side, row.start_date, row.end_date, notice_postmark=notice_postmark,
                     referee_grant=referee_grant(row.referee_grant))


def referee_grant(stored: str | None) -> RefereeGrant | None:
    """A break row's ``referee_grant`` for the time chart (002 §4.4.5); an unknown value reads as
    ``late_notice``, the grant that keeps the one-break-a-year rule (002 §4.4.1)."""
    if stored is None:
        return None
    try:
        return RefereeGrant(stored)
    except ValueError:
        return RefereeGrant.LATE_NOTICE
