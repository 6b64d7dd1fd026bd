"""What 002 §4.2 requires of a letter's moves, judged the same whatever channel carried it.

A postcard a steward types, an e-mail the server reads and a letter entered on the web reach
:func:`check_moves` as the same list of written moves; each channel only reads its own medium
(the card's moves line, the e-mail's text). The order is the recipient's: the partner's new
moves repeated first (002 §4.2.9), then the sender's own moves with a single-move substitution
(002 §4.2.10), the partner's conditional reply of an accepted variant (002 §4.2.13), forced
moves written for the partner (002 §4.2.4) and the sender's new variants, cut at a faulty move
without penalty (002 §4.2.7, §4.2.12). Nothing here writes; :func:`corrmail.games.enter_letter`
stores the verdict.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from corrmail.games.move_walk import RuleNotice, Walk, check_repetition, color_of, walk_own_moves
from corrmail.games.view import GameView, side_of
from corrmail.mail.content import MoveMention, read_letter
from corrmail.models import GameResult
from notation.full import format_full
from notation.game_position import GamePosition
from notation.letters import legal_move_named
from notation.move import Move
from notation.variants import parse_variants
from timekeeping import PENALTY_DAYS, Side

__all__ = [
    "MoveCheck",
    "board_result",
    "check_moves",
    "partner_offered_draw",
    "resignation_result",
]

Ply = tuple[GamePosition, Move]


@dataclass
class MoveCheck:
    """The verdict on a letter's moves, before anything is stored."""

    sender_id: int
    side: Side
    #: Plies played before the sender's own moves (for move numbers).
    first_index: int
    #: The partner's plies the letter repeated (002 §4.2.9).
    repeated: list[Ply] = field(default_factory=list)
    #: The sender's moves that reach the board, up to his last own one (substitutions applied).
    own: list[Ply] = field(default_factory=list)
    #: The partner's conditional replies applied from an accepted variant (002 §4.2.13).
    trailing: list[Ply] = field(default_factory=list)
    accepted_variant: list[str] = field(default_factory=list)
    #: The fault that ends the reading of the letter (002 §4.2.4, §4.2.9, §4.2.10).
    stop: RuleNotice | None = None
    #: Whether the fault costs 6 penalty days (002 §4.2.11).
    penalty: bool = False
    #: Faults told to the sender with the stop.
    notices: list[RuleNotice] = field(default_factory=list)
    #: Points both players are told that do not stop play (substitutions, numbers, variants).
    notes: list[RuleNotice] = field(default_factory=list)
    #: The sender's new variants, as written, when his own moves stand.
    variants_text: str = ""

    @property
    def own_moves(self) -> str:
        return " ".join(format_full(p, m) for p, m in self.own)

    @property
    def variant_reply(self) -> str:
        return " ".join(format_full(p, m) for p, m in self.trailing)

    @property
    def penalty_days(self) -> int:
        return PENALTY_DAYS if self.stop is not None and self.penalty else 0

    @property
    def refused(self) -> bool:
        """Nothing reaches the board and nothing stops play: a letter with no own move
        (002 §4.2.3) is not a letter of the game; nothing is stored."""
        return not self.own and self.stop is None

    @property
    def stored(self) -> bool:
        return not self.refused


def check_moves(
    view: GameView,
    sender_id: int,
    mentions: Sequence[MoveMention],
    variants_text: str = "",
) -> MoveCheck:
    """Walk ``mentions`` (the moves as written) over the game seen by ``view``."""
    side = side_of(view.game, sender_id)
    expected = view.partner_new_plies(sender_id)
    walk = Walk(view.position_before(len(expected)), len(view.plies) - len(expected))
    written = list(mentions)[_own_move_restated(view, len(expected), mentions):]
    consumed = check_repetition(walk, side, expected, written)
    check = MoveCheck(sender_id, side, len(view.plies))
    check.repeated = list(walk.plies)
    if walk.stop is None:
        walk.plies.clear()
        walk.start_index += len(check.repeated)
        offer = view.pending_variants(sender_id)
        walk_own_moves(walk, side, written[consumed:], offer.tree().root if offer else {})
        mine = color_of(side)
        last_own = max((i for i, (p, _) in enumerate(walk.plies) if p.turn is mine), default=-1)
        check.own = walk.plies[: last_own + 1]
        check.trailing = walk.plies[last_own + 1:]
    check.accepted_variant = walk.accepted_variant
    check.stop, check.penalty = walk.stop, walk.penalty
    check.notices, check.notes = walk.notices, walk.notes
    if check.own and variants_text.strip():
        check.variants_text = variants_text.strip()
        last, move = check.own[-1]
        offer = parse_variants(last.play(move), check.variants_text, next_move_number=None)
        # A faulty variant never stops play (002 §4.2.12): both players are told.
        for error in offer.errors:
            check.notes.append(RuleNotice("002 §4.2.7", "variant_unreadable", error.text))
        for variant in offer.variants:
            if variant.cut is not None:
                check.notes.append(RuleNotice("002 §4.2.12", "variant_cut", variant.cut.text))
    return check


def _own_move_restated(view: GameView, expected: int, mentions: Sequence[MoveMention]) -> int:
    """1 when the letter opens with the sender's own last move, already in the ledger, before
    the partner's reply it repeats — «1. c3-d4 f6-e5 2. d4:f6», as players write a move pair
    whole — else 0. 002 §4.2.9 asks for the partner's moves; writing one's own again is no
    error, and it is passed over rather than read as a wrong repetition (docs/rules/notation.md)."""
    own_index = len(view.plies) - expected - 1
    if not mentions or not expected or own_index < 0:
        return 0
    position = view.position_before(expected + 1)
    played = legal_move_named(position, view.plies[own_index])
    return int(played is not None and legal_move_named(position, mentions[0].text) == played)


def partner_offered_draw(view: GameView, participant_id: int) -> bool:
    """Whether a letter of the partner since ``participant_id``'s last move offers a draw."""
    return any(read_letter(letter.raw_text).draw_offer
               for letter in view.letters_since_own(participant_id))


def lapsed_draw_offer(view: GameView, participant_id: int) -> dt.date | None:
    """The day the partner's last draw offer was sent, when ``participant_id`` has answered it
    with a move since: an offer stands until the partner's next letter (docs/rules/mail.md 7),
    so it can no longer be accepted. None when the partner's last offer still stands or there
    was none."""
    waiting = {letter.id for letter in view.letters_since_own(participant_id)}
    for letter in reversed(view.letters):
        if letter.sender_id == participant_id or letter.id in waiting:
            continue
        if read_letter(letter.raw_text).draw_offer:
            return letter.sent
    return None


def resignation_result(side: Side) -> GameResult:
    return GameResult.BLACK_WIN if side is Side.WHITE else GameResult.WHITE_WIN


def board_result(view: GameView) -> GameResult | None:
    """The result the board itself gives (no move left, or a drawn position), if any."""
    outcome = view.position.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return GameResult.DRAW
    return GameResult.WHITE_WIN if outcome.winner == color_of(Side.WHITE) else GameResult.BLACK_WIN

