"""Probing the tables: the value of a position, a best move and the line of best play."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from notation.endgame.material import Material, MaterialIndex
from notation.endgame.values import Result, moves_of, plies_of, result_of
from notation.move import Move
from notation.position import Position
from notation.rules import Color, RuleSet


class OutsideDatabaseError(LookupError):
    """A position the tables do not cover; ``reason`` is one of the codes below."""

    TOO_MANY_PIECES = "too-many-pieces"
    NOT_BUILT = "not-built"
    MAN_ON_LAST_ROW = "man-on-last-row"
    GAME_OVER = "game-over"
    OTHER_RULES = "other-rules"

    _TEXTS = {
        TOO_MANY_PIECES: "{pieces} pieces; the tables hold positions of up to {limit}",
        NOT_BUILT: "the table {material} is not built",
        MAN_ON_LAST_ROW: "a man stands on the row where it would have been crowned",
        GAME_OVER: "the side not to move has no pieces: the game is already over",
        OTHER_RULES: "the tables are for {rules}, the position is {position}",
    }

    def __init__(self, reason: str, **values: object) -> None:
        super().__init__(self._TEXTS[reason].format(**values))
        self.reason = reason
        self.values = values


@dataclass(frozen=True)
class Verdict:
    """What the tables say of a position, for the side to move."""

    result: Result
    plies: int | None
    """Half-moves to the end of the game with best play; ``None`` for a draw."""
    material: Material
    best_move: Move | None
    """A move keeping the value (quickest win, slowest loss); ``None`` if there is no move."""

    @property
    def moves(self) -> int | None:
        """The winner's moves to the end (the count the rules' move limits use)."""
        return None if self.plies is None else moves_of(self.plies)


class Endgames:
    """Probes over a set of tables (in memory, or :class:`~notation.endgame.store.StoredTables`)."""

    def __init__(self, rules: RuleSet, tables: Mapping[Material, bytes | bytearray]) -> None:
        self.rules = rules
        self.tables = tables
        self._indexes: dict[Material, MaterialIndex] = {}
        self.pieces = max((m.pieces for m in tables), default=0)

    def material_of(self, position: Position) -> Material:
        me, opp = (position.white, position.black)
        if position.turn is Color.BLACK:
            me, opp = opp, me
        kings = position.kings
        return Material(
            (me & kings).bit_count(), (me & ~kings).bit_count(),
            (opp & kings).bit_count(), (opp & ~kings).bit_count(),
        )

    def value(self, position: Position) -> int:
        """The stored byte of ``position`` (:mod:`notation.endgame.values`); raises
        :class:`OutsideDatabaseError`."""
        if position.rules != self.rules:
            raise OutsideDatabaseError(
                OutsideDatabaseError.OTHER_RULES, rules=self.rules.game_type.value,
                position=position.rules.game_type.value,
            )
        material = self.material_of(position)
        if not material.kings + material.men:
            return 1  # no piece to move: lost
        if not material.their_kings + material.their_men:
            raise OutsideDatabaseError(OutsideDatabaseError.GAME_OVER)
        if material.pieces > self.pieces:
            raise OutsideDatabaseError(
                OutsideDatabaseError.TOO_MANY_PIECES, pieces=material.pieces, limit=self.pieces
            )
        if material not in self.tables:
            raise OutsideDatabaseError(OutsideDatabaseError.NOT_BUILT, material=material.name)
        index = self._indexes.get(material)
        if index is None:
            index = self._indexes[material] = MaterialIndex(self.rules, material)
        kings = position.kings
        me, opp = position.white, position.black
        white = position.turn is Color.WHITE
        if not white:
            me, opp = opp, me
        try:
            masks = (me & kings, me & ~kings, opp & kings, opp & ~kings)
            at = index.index(*masks) if white else index.index_flipped(*masks)
        except KeyError:
            raise OutsideDatabaseError(OutsideDatabaseError.MAN_ON_LAST_ROW) from None
        return self.tables[material][at]

    def verdict(self, position: Position) -> Verdict:
        byte = self.value(position)
        return Verdict(result_of(byte), plies_of(byte), self.material_of(position),
                       self._best(position, byte))

    def _best(self, position: Position, byte: int) -> Move | None:
        for move in position.legal_moves():
            after = self.value(position.play(move))
            if (byte and after == byte - 1) or (not byte and not after):
                return move
        return None

    def line(self, position: Position, limit: int = 254) -> list[Move]:
        """Best play from ``position``: to the end of the game for a win or loss, ``limit``
        plies of a draw (the stronger side's tries held)."""
        moves: list[Move] = []
        byte = self.value(position)
        while len(moves) < limit:
            move = self._best(position, byte)
            if move is None:
                break
            moves.append(move)
            position = position.play(move)
            byte = self.value(position)
        return moves
