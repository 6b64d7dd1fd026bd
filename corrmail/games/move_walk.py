"""A letter's moves walked over the board as its recipient must check them (002 §4.2).

Shared by every way a letter reaches a game — an e-mail the server reads
(:mod:`corrmail.mail.correspondence`) and a postcard a steward enters (:mod:`corrmail.play.postcards`) —
so that the same letter is judged the same whichever channel carried it. The judging of each
move is :mod:`notation`'s; this module only applies the order of 002 §4.2: the partner's new
moves repeated first (002 §4.2.9), then the sender's own moves, a single-move substitution
(002 §4.2.10), the partner's conditional replies of an accepted variant (002 §4.2.13) and
forced moves written for the partner (002 §4.2.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corrmail.mail.content import MoveMention
from notation.full import format_full
from notation.game_position import GamePosition
from notation.letters import (
    IllegibleMove,
    ImpossibleMove,
    LegalMove,
    SingleMoveSubstituted,
    read_move,
)
from notation.move import Move
from notation.rules import Color
from notation.variants import VariantNode
from timekeeping import Side

__all__ = [
    "RuleNotice",
    "Walk",
    "check_number",
    "check_repetition",
    "color_of",
    "impossible_reason",
    "walk_own_moves",
]


def color_of(side: Side) -> Color:
    return Color.WHITE if side is Side.WHITE else Color.BLACK


@dataclass(frozen=True, slots=True)
class RuleNotice:
    """One point of an error notice: which rule, what happened, what to do."""

    rule: str
    problem: str
    remedy: str = ""


@dataclass
class Walk:
    """The moves of one letter as they reach the board."""

    position: GamePosition
    #: Plies played in the game before ``position`` (for move numbers).
    start_index: int = 0
    plies: list[tuple[GamePosition, Move]] = field(default_factory=list)
    own_count: int = 0
    notices: list[RuleNotice] = field(default_factory=list)
    #: Points both players are told that do not stop play (substitutions, cut variants).
    notes: list[RuleNotice] = field(default_factory=list)
    stop: RuleNotice | None = None
    penalty: bool = False
    accepted_variant: list[str] = field(default_factory=list)

    def play(self, move: Move) -> None:
        self.plies.append((self.position, move))
        self.position = self.position.play(move)


def check_number(walk: Walk, mention: MoveMention) -> None:
    """002 §4.2.14: a wrong move number is pointed out and does not stop play."""
    if mention.number is None:
        return
    right = (walk.start_index + len(walk.plies)) // 2 + 1
    if mention.number != right:
        walk.notes.append(RuleNotice("002 §4.2.14", "numbering",
                                     f"{mention.number} → {right} ({mention.text})"))


def check_repetition(
    walk: Walk, side: Side, expected: list[str], mentions: list[MoveMention]
) -> int:
    """002 §4.2.9: the partner's new moves must be repeated, in full and correctly.

    Returns how many of ``mentions`` the repetition consumed; a missing or wrong repetition sets
    ``walk.stop`` with the 6 penalty days of 002 §4.2.11.
    """
    consumed = 0
    for expected_text in expected:
        reading = read_move(walk.position, expected_text)
        if not isinstance(reading, LegalMove):  # the ledger only holds legal moves
            raise ValueError(f"ledger move {expected_text!r} is illegal")
        written = mentions[consumed] if consumed < len(mentions) else None
        again = read_move(walk.position, written.text) if written is not None else None
        if isinstance(again, LegalMove) and again.move == reading.move:
            assert written is not None
            check_number(walk, written)
            walk.play(reading.move)
            consumed += 1
            continue
        expected_written = format_full(walk.position, reading.move)
        # The player went straight to his own move: the repetition is missing, not wrong.
        skipped = written is None or (
            written.side is side and walk.position.turn is not color_of(side)
        )
        walk.stop = RuleNotice(
            "002 §4.2.9",
            "repetition_missing" if skipped else "repetition_wrong",
            expected_written if skipped or written is None
            else f"{written.text} ≠ {expected_written}",
        )
        walk.penalty = True
        return consumed
    return consumed


def walk_own_moves(
    walk: Walk, side: Side, mentions: list[MoveMention], branches: dict[Move, VariantNode]
) -> None:
    """The sender's own moves after the repetition; stops at the first one that cannot stand."""
    mine = color_of(side)
    pending_reply: Move | None = None
    for mention in mentions:
        check_number(walk, mention)
        reading = read_move(walk.position, mention.text)
        if walk.position.turn is mine:
            if isinstance(reading, ImpossibleMove) and isinstance(
                reading.resolution, SingleMoveSubstituted
            ):
                move = reading.resolution.move
                walk.notes.append(RuleNotice(
                    "002 §4.2.10", "substituted",
                    f"{mention.text} → {format_full(walk.position, move)}",
                ))
            elif isinstance(reading, LegalMove):
                move = reading.move
            else:
                rule = reading.rule if isinstance(reading, ImpossibleMove) else "002 §4.2.10"
                walk.stop = RuleNotice(rule, impossible_reason(reading), mention.text)
                walk.penalty = True
                return
            pending_reply = None
            walk.play(move)
            walk.own_count += 1
            node = branches.get(move)
            if node is not None and node.reply is not None:
                walk.accepted_variant.append(format_full(walk.plies[-1][0], move))
                pending_reply = node.reply
                branches = node.children
                walk.play(pending_reply)
            else:
                branches = {}
            continue
        # A partner's move written by this player: the repeated variant reply just applied,
        # or a forced move he must write and answer (002 §4.2.4).
        if pending_reply is not None and walk.plies and walk.plies[-1][1] == pending_reply:
            previous_position = walk.plies[-1][0]
            again = read_move(previous_position, mention.text)
            if isinstance(again, LegalMove) and again.move == pending_reply:
                pending_reply = None
                continue
        forced = walk.position.forced_move()
        if isinstance(reading, LegalMove) and forced is not None and reading.move == forced:
            walk.play(forced)
            continue
        walk.stop = RuleNotice("002 §4.2.4", "partner_move_not_forced", mention.text)
        walk.penalty = False
        return


def impossible_reason(reading: ImpossibleMove | IllegibleMove | LegalMove) -> str:
    if isinstance(reading, ImpossibleMove):
        return f"impossible:{reading.cause.name.lower()}"
    if isinstance(reading, IllegibleMove):
        return "illegible"
    return "legal"
