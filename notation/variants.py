"""Conditional variants offered in a letter (002 §4.2.7) and their acceptance (§4.2.12–13).

A variant is a line of plies starting with the partner's next move and alternating with the
proposer's replies.  The rulebook's wordings are read, in Russian and English:

* «если 12.c3-d4, то 12...f6-g5 13.d4:f6 g7:e5» / ``if 12.c3-d4 then 12...f6-g5``
* «на 12.c3-d4 предлагаю 12...f6-g5» / ``on 12.c3-d4 I propose 12...f6-g5``
* «предлагаю вариант 12.c3-d4 f6-g5» / ``I propose the variant 12.c3-d4 f6-g5``
* several variants, each labelled: «вариант А: …», «вариант Б: …» / ``variant A: …``

A variant holding an impossible or illegible move stands up to that move, without penalty
(002 §4.2.12).  Several variants form a tree (:class:`VariantTree`); acceptance walks it with
the partner's actual moves, and the variant is accepted up to the first changed move (§4.2.13).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from notation.errors import VariantError
from notation.game_position import GamePosition
from notation.letters import (
    IllegibleMove,
    ImpossibleMove,
    LegalMove,
    MoveReading,
    NotationWarning,
    read_move,
    read_moves,
)
from notation.move import Move

_MARK = re.compile(
    r"""(?ix)
    (?P<propose>\b(?:предлагаю|(?:i\s+)?propose)\s+(?:(?:the|a)\s+)?(?:вариант|variant)\b
        (?:\s+(?P<propose_label>[A-ZА-ЯЁ])(?![\w.]))?\s*[:.)\-–—]?\s*)
    | (?P<label>\b(?:вариант|variant)\s+(?P<label_letter>[A-ZА-ЯЁ])(?![\w.])\s*[:.)\-–—]?\s*)
    | (?P<if>\b(?:если|if)\s+)
    | (?P<on>\b(?:на|on)\s+(?=\d|[a-kасе]\d))
    """
)
_IF = re.compile(r"(?is)^(?:если|if)\s+(?P<partner>.+?)\s*,?\s*\b(?:то|then)\b\s*(?P<line>.*)$")
_ON = re.compile(
    r"(?is)^(?:на|on)\s+(?P<partner>.+?)\s*,?\s*\b(?:предлагаю|(?:i\s+)?propose)\b\s*(?P<line>.*)$"
)


@dataclass(frozen=True)
class Variant:
    """One offered line: ``plies[0]`` is the partner's move, then proposer and partner alternate.

    ``cut`` is the impossible or illegible move at which the variant stops (002 §4.2.12, no
    penalty); ``plies`` holds the moves before it.
    """

    label: str | None
    text: str
    plies: tuple[Move, ...]
    cut: ImpossibleMove | IllegibleMove | None = None
    warnings: tuple[NotationWarning, ...] = ()


@dataclass(frozen=True)
class VariantOffer:
    variants: tuple[Variant, ...]
    errors: tuple[VariantError, ...] = ()

    def tree(self) -> VariantTree:
        return VariantTree.build(self.variants)


def parse_variants(
    position: GamePosition, text: str, *, next_move_number: int | None = None
) -> VariantOffer:
    """Every variant offered in ``text``, for ``position`` (the partner to move).

    Text before the first wording (the letter's own move, greetings) is ignored.  A block that
    names a wording but cannot be read (``если`` without ``то``) is a :class:`VariantError`.
    """
    variants: list[Variant] = []
    errors: list[VariantError] = []
    for label, block in _blocks(text):
        line = _line_of(block)
        if line is None:
            errors.append(VariantError(block, "wording not understood; use «если…, то…», «на… предлагаю…» or «предлагаю вариант…»"))
            continue
        reading = read_moves(position, line, expected_number=next_move_number)
        if not reading.readings:
            errors.append(VariantError(block, "the variant names no moves"))
            continue
        last = reading.readings[-1]
        cut = last if isinstance(last, ImpossibleMove | IllegibleMove) else None
        variants.append(Variant(label, block, reading.moves, cut, reading.warnings))
    return VariantOffer(tuple(variants), tuple(errors))


def _blocks(text: str) -> list[tuple[str | None, str]]:
    """Split into (label, line) blocks; a label or a new wording starts a block.

    The line of an «если…, то…» or «на… предлагаю…» block keeps its wording, which
    :func:`_line_of` takes apart; a missing «то» / «предлагаю» leaves the wording in place and
    makes the block unreadable.
    """
    marks = list(_MARK.finditer(text))
    blocks: list[tuple[str | None, str]] = []
    label: str | None = None
    for index, mark in enumerate(marks):
        stop = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        kind = mark.lastgroup
        if kind == "label":
            label = mark.group("label_letter").upper()
        elif kind == "propose" and mark.group("propose_label"):
            label = mark.group("propose_label").upper()
        body_start = mark.start() if kind in ("if", "on") else mark.end()
        body = text[body_start:stop].strip()
        if body:
            blocks.append((label, body))
            label = None
    return blocks


def _line_of(block: str) -> str | None:
    for pattern in (_IF, _ON):
        match = pattern.match(block)
        if match:
            return _moves_part(f"{match.group('partner')} {match.group('line')}")
    if re.match(r"(?i)(?:если|if|на|on)\s", block):
        return None
    return _moves_part(block)


def _moves_part(line: str) -> str:
    """The line up to the first word holding no digit: prose after a variant is not a move.

    A token with a digit is an attempt at a move and is judged (an illegible one cuts the
    variant, §4.2.12); a plain word such as «С уважением» just ends the line.
    """
    kept: list[str] = []
    for token in line.split():
        if not any(ch.isdigit() for ch in token) and token.strip("-:–—.,;") != "":
            break
        kept.append(token)
    return " ".join(kept)


# -- the tree and its acceptance ----------------------------------------------------------------


@dataclass
class VariantNode:
    """After a partner's move: the proposer's reply (None if the line ends) and what follows."""

    reply: Move | None = None
    children: dict[Move, VariantNode] = field(default_factory=dict)


@dataclass
class VariantTree:
    root: dict[Move, VariantNode] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    """Labels of variants that give a different reply where an earlier one already did."""

    @classmethod
    def build(cls, variants: Sequence[Variant]) -> VariantTree:
        tree = cls()
        for variant in variants:
            branches = tree.root
            plies = variant.plies
            for index in range(0, len(plies), 2):
                node = branches.setdefault(plies[index], VariantNode())
                if index + 1 < len(plies):
                    reply = plies[index + 1]
                    if node.reply is None:
                        node.reply = reply
                    elif node.reply != reply:
                        tree.conflicts.append(variant.label or variant.text)
                        break
                branches = node.children
        return tree


@dataclass(frozen=True)
class Acceptance:
    """Outcome of checking the partner's moves against the offered variants (002 §4.2.13)."""

    accepted: tuple[Move, ...]
    """Accepted plies, partner's and proposer's alternating, from the variant's start."""
    proposer_replies: tuple[Move, ...]
    """The proposer's moves that reach the board through the acceptance."""
    changed: MoveReading | None
    """The partner's first move off the variants, judged; None if all moves were in them."""
    position: GamePosition
    next_move: MoveReading | None = None
    """The partner's move after a variant played to its end: a new move, not a change."""
    """Position after the accepted plies and, if legal, the changed move."""

    @property
    def penalty(self) -> bool:
        """The changed move is impossible: §4.2.10 applies with the §4.2.11 penalty."""
        return isinstance(self.changed, ImpossibleMove | IllegibleMove)


def accept_variants(
    position: GamePosition, offer: VariantOffer | VariantTree, partner_moves: Sequence[str]
) -> Acceptance:
    """Walk the variants with the partner's moves (full notation, in order)."""
    tree = offer.tree() if isinstance(offer, VariantOffer) else offer
    branches = tree.root
    accepted: list[Move] = []
    replies: list[Move] = []
    for text in partner_moves:
        reading = read_move(position, text)
        if not isinstance(reading, LegalMove) or reading.move not in branches:
            if isinstance(reading, LegalMove):
                position = position.play(reading.move)
            if not branches and accepted:
                return Acceptance(tuple(accepted), tuple(replies), None, position, reading)
            return Acceptance(tuple(accepted), tuple(replies), reading, position)
        node = branches[reading.move]
        accepted.append(reading.move)
        position = position.play(reading.move)
        if node.reply is None:
            return Acceptance(tuple(accepted), tuple(replies), None, position)
        accepted.append(node.reply)
        replies.append(node.reply)
        position = position.play(node.reply)
        branches = node.children
    return Acceptance(tuple(accepted), tuple(replies), None, position)
