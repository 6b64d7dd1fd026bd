"""Postal entry: a postcard a steward or referee received, judged and entered into the ledger.

The card is checked exactly as the server checks an e-mail (:mod:`corrmail.games.move_walk`): the
partner's new moves repeated (002 §4.2.9), the sender's moves in full notation (002 §4.2.2) and
legal (002 §4.2.10, with the recipient's single-move substitution), the three dates and the
declared times present (002 §4.3.1, §4.3.3), and the chart :mod:`timekeeping` computes with the
card added. :func:`check_postcard` writes nothing and says, per rule, what is wrong and what
follows; :func:`enter_postcard` stores the card (or refuses it as a whole, storing nothing)
with the outcome in the audit log.

Two kinds of problems are told apart:

* **entry errors** (:class:`PostcardRejected`): the card cannot be entered as typed — a date
  that is not a date, a card from the player not to move, a game that is over, no dispatch date
  at all, dates the chart refuses (a reply sent before it was received). Nothing is stored.
* **findings**: what the card does under the rules. The card was posted and received, so it is
  kept (002 §4.1.13) together with what follows: a stop of play with 6 penalty days
  (002 §4.2.11) and the partner's 3-day notice (002 §4.2.9), a single-move substitution, a
  first omission of a date.
"""

from __future__ import annotations

import datetime as dt
import enum
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from corrmail import audit, games
from corrmail.games import BreakRefused, LetterInput, MoveCheck, record_start_sheet_receipt
from corrmail.games.chart_notes import N_, date_error, note_message, violation_message
from corrmail.games.move_walk import RuleNotice
from corrmail.games.view import GameView, UnsupportedGameType, side_of
from corrmail.letters.recipients import plays_by_email
from corrmail.letters.write import LetterWriter
from corrmail.mail.content import MoveMention, normalize_move_text
from corrmail.mail.correspondence import Correspondence, numbered
from corrmail.models import (
    Break,
    Channel,
    Game,
    GameResult,
    GameState,
    Letter,
    Participant,
    ResultKind,
    User,
)
from notation.letter_form import LetterElement, LetterIncomplete, check_elements, forced_plies
from notation.letters import LegalMove, read_move
from timekeeping import (
    PENALTY_DAYS,
    DateFormatError,
    LetterEntry,
    RuleViolation,
    Side,
    TimeChart,
    compute_chart,
    parse_player_date,
    rule_violation,
)

__all__ = [
    "NOTICE_DAYS",
    "BreakRefused",
    "Declaration",
    "Finding",
    "PostcardCheck",
    "PostcardEntry",
    "PostcardRejected",
    "PostcardStale",
    "CARD_ELEMENTS",
    "card_text",
    "check_postcard",
    "element_names",
    "enter_postcard",
    "moves_to_repeat",
    "postcard_fingerprint",
    "written_moves",
    "record_break_notice",
    "record_start_sheet_receipt",
]

#: 002 §4.2.9: the recipient points out a faulty letter within 3 days (not his think time).
NOTICE_DAYS = 3

#: The elements of 002 §4.2.3 only the card in the steward's hand shows; the others (the
#: repetition, the move, the three dates, the time) are read from what he types, and named under
#: the rules that say what follows from their absence (002 §4.2.9, §4.3.3).
CARD_ELEMENTS = (LetterElement.GREETING, LetterElement.TOURNAMENT_CODE,
                 LetterElement.RETURN_ADDRESS, LetterElement.SIGNATURE)

#: How each element of 002 §4.2.3 is named to people.
ELEMENT_NAMES = {
    LetterElement.GREETING: N_("greeting"),
    LetterElement.TOURNAMENT_CODE: N_("tournament code"),
    LetterElement.PARTNER_MOVES_REPEATED: N_("the partner's move(s) repeated"),
    LetterElement.OWN_MOVE: N_("own move"),
    LetterElement.THREE_DATES: N_("the three dates"),
    LetterElement.TIME_TOTALS: N_("each player's total time"),
    LetterElement.RETURN_ADDRESS: N_("return address"),
    LetterElement.SIGNATURE: N_("signature"),
}


def element_names(elements: Sequence[LetterElement]) -> str:
    """The elements of 002 §4.2.3, named in the reader's language, in the rule's order."""
    return ", ".join(_(ELEMENT_NAMES[element]) for element in elements)


class Declaration(enum.StrEnum):
    """What the card declares besides moves."""

    NONE = "none"
    RESIGNS = "resigns"
    ACCEPTS_DRAW = "accepts_draw"


@dataclass(frozen=True)
class PostcardEntry:
    """A postcard as written. Dates are the texts on the card (``10.10.26``, ``10.10``), read
    with :func:`timekeeping.parse_player_date` against the postmark."""

    sender_id: int
    moves_text: str = ""
    variants_text: str = ""
    partner_sent: str = ""
    received: str = ""
    sent: str = ""
    postmark: str = ""
    registered: bool = False
    declared_white_days: int | None = None
    declared_black_days: int | None = None
    raw_text: str = ""
    declaration: Declaration = Declaration.NONE
    #: The letter this card replaces (002 §4.2.5, §4.2.10): a sender's corrected card.
    corrects_letter_id: int | None = None
    #: The letter replaced was this very card entered wrongly (the steward's slip): what that
    #: entry caused — a penalty for a move the card does not carry — stands no more.
    entry_error: bool = False
    #: How the move came: a postcard, or a telephone call the steward took down (002 §4.1.1 в);
    #: a call's date stands for the postmark (docs/rules/timekeeping.md).
    channel: Channel = Channel.POST
    #: The elements of 002 §4.2.3 the steward sees missing on the card itself (codes of
    #: :data:`CARD_ELEMENTS`); the moves, dates and times are judged from what he typed.
    lacks: tuple[str, ...] = ()
    #: The receipt date the sender left out of his previous card, supplied on this one
    #: (002 §4.3.3), as written.
    supplied_receipt: str = ""


@dataclass(frozen=True)
class Finding:
    """One point of the check: the rule, what is wrong, what follows."""

    rule: str
    problem: str
    consequence: str = ""
    #: The rule package's code of the problem, when it has one (to tell a repeated one).
    code: str = ""


class PostcardRejected(ValueError):
    """The card cannot be entered as typed; nothing was stored."""

    def __init__(self, game_id: int, errors: Sequence[Finding]) -> None:
        super().__init__(
            f"game {game_id}: postcard not entered: "
            + "; ".join(f"{e.rule}: {e.problem}" for e in errors)
        )
        self.game_id = game_id
        self.errors = tuple(errors)


class PostcardStale(PostcardRejected):
    """The card to store is not the card that was checked, or the ledger moved on since."""


#: The line of a stored card's text that keeps its moves line exactly as the steward typed it
#: (the ledger's moves are those that reached the board; a faulty move does not).
WRITTEN_MOVES_LINE = "Ходы (как написано): "
WRITTEN_VARIANTS_LINE = "Варианты (как написано): "


def card_text(entry: PostcardEntry) -> str:
    """The text stored on the letter: the moves and variants lines as typed, then the card's
    text, so what the player wrote is never lost to what the board accepted."""
    lines = []
    if entry.moves_text.strip():
        lines.append(WRITTEN_MOVES_LINE + " ".join(entry.moves_text.split()))
    if entry.variants_text.strip():
        lines.append(WRITTEN_VARIANTS_LINE + " ".join(entry.variants_text.split()))
    if entry.raw_text.strip():
        lines.append(entry.raw_text.strip())
    return "\n".join(lines)


def written_moves(letter: Letter) -> str:
    """The moves line of a stored card as typed (``""`` for a letter entered otherwise)."""
    for line in letter.raw_text.splitlines():
        if line.startswith(WRITTEN_MOVES_LINE):
            return line[len(WRITTEN_MOVES_LINE):]
    return ""


@dataclass(frozen=True)
class Totals:
    """Both players' think time, in days (002 §4.3.1)."""

    white: int
    black: int


@dataclass
class PostcardCheck:
    """The verdict on a card, before anything is stored."""

    entry: PostcardEntry
    errors: list[Finding] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: The sender's moves that reach the board, in full notation (substitutions applied).
    own_moves: str = ""
    #: Partner's conditional replies applied from an accepted variant (002 §4.2.13).
    variant_reply: str = ""
    stops_play: bool = False
    #: The fault that stops play (002 §4.2.9, §4.2.10), when there is one.
    stop: Finding | None = None
    penalty_days: int = 0
    #: The last day the recipient may point out the fault (002 §4.2.9).
    notice_due: dt.date | None = None
    partner_sent: dt.date | None = None
    received: dt.date | None = None
    sent: dt.date | None = None
    postmark: dt.date | None = None
    #: The receipt date of the sender's previous card, supplied now (002 §4.3.3).
    supplied_receipt: dt.date | None = None
    chart: TimeChart | None = None
    result: GameResult | None = None
    #: The core's verdict on the card's moves (:func:`corrmail.games.check_moves`).
    moves: MoveCheck | None = None
    #: The partner's moves the card must repeat (002 §4.2.9), numbered, in full notation.
    repeats: str = ""
    #: Think time before the card and with it (002 §4.3.1).
    time_before: Totals | None = None
    time_after: Totals | None = None
    #: Ties the store step to exactly this checked card on exactly this ledger.
    fingerprint: str = ""

    @property
    def accepted(self) -> bool:
        return not self.errors


def check_postcard(game: Game, entry: PostcardEntry, *, today: dt.date) -> PostcardCheck:
    """Judge ``entry`` against ``game`` as it stands; nothing is written.

    Every check runs every time: a card with impossible dates is refused for them whether its
    move is right or wrong, and its move is judged all the same, so the steward sees at once
    everything that is wrong with it.
    """
    check = PostcardCheck(entry, fingerprint=postcard_fingerprint(game, entry))
    if game.state in (GameState.FINISHED, GameState.ADJUDICATION):
        check.errors.append(Finding("002 §4.5", _("the game is finished; no letter moves it")
                                    if game.state is GameState.FINISHED else
                                    _("the game is being adjudicated; no letter moves it")))
        return check
    if entry.sender_id not in (game.white_id, game.black_id):
        check.errors.append(Finding("002 §4.1.13", _("participant %(id)s does not play this game", id=entry.sender_id)))
        return check
    full = GameView(game)
    side = side_of(game, entry.sender_id)
    # A card that replaces the letter play waits for (002 §4.2.5, §4.2.10) is judged against
    # the game as it stood before that letter: its dates, its place in the chart, its moves.
    replaced = _replaced_letter(full, entry.corrects_letter_id)
    view = full.before(replaced) if replaced is not None and replaced is full.letters[-1] else full
    if replaced is not None and entry.entry_error:
        # The card entered again as written: the wrong entry's penalty is void (what the
        # stored letter will say, ``Letter.entry_error``), so the check counts without it.
        view.void_penalties_of = frozenset({replaced.id})
    _read_dates(check, today)
    _check_date_order(check, view, side)
    _check_forwarding(check, view)
    _check_duplicate(check, view)
    correcting = entry.corrects_letter_id is not None
    if game.state is GameState.SUSPENDED and not correcting:
        check.errors.append(Finding("002 §4.3.6", _("play is suspended until the referee decides")))
        return check
    if entry.declaration is Declaration.RESIGNS:
        check.result = games.resignation_result(side)
        return check
    if entry.declaration is Declaration.ACCEPTS_DRAW:
        if not games.partner_offered_draw(view, entry.sender_id):
            check.errors.append(Finding("002 §4.2.3", _("the partner offered no draw to accept")))
        else:
            check.result = GameResult.DRAW
        return check
    if not correcting and view.side_to_move is not side:
        check.errors.append(Finding("002 §4.2.8", _("this player is not to move; the partner is")))
        return check
    check.repeats = moves_to_repeat(view, entry.sender_id)
    if check.supplied_receipt is not None:
        refused = games.supplied_receipt_problem(view, entry.sender_id, check.supplied_receipt)
        if refused is not None:
            check.errors.append(Finding(refused.rule, refused.message, code="supplied_receipt"))
            check.supplied_receipt = None  # refused: the chart is not told it a second time
    _check_moves(check, full, side, today)
    _check_elements(check, view)
    if check.sent is not None:
        _check_time(check, view, side)
    return check


def postcard_fingerprint(game: Game, entry: PostcardEntry) -> str:
    """The card as typed and the ledger's last letter: the store step stores exactly the card
    that was checked, against exactly the ledger it was checked on."""
    fields = {key: (value.value if isinstance(value, enum.Enum) else value)
              for key, value in entry.__dict__.items()}
    last = max((letter.id for letter in game.letters), default=0)
    text = json.dumps([game.id, last, fields], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def moves_to_repeat(view: GameView, participant_id: int) -> str:
    """The partner's new moves, numbered in full notation, as the card must repeat them."""
    try:
        expected = view.partner_new_plies(participant_id)
        position = view.position_before(len(expected))
    except (UnsupportedGameType, ValueError):
        return ""
    plies = []
    for text in expected:
        reading = read_move(position, text)
        if not isinstance(reading, LegalMove):
            return " ".join(expected)
        plies.append((position, reading.move))
        position = position.play(reading.move)
    return numbered(plies, len(view.plies) - len(expected))


def _check_date_order(check: PostcardCheck, view: GameView, side: Side) -> None:
    """The three dates in the order time runs (002 §4.3.1), whatever the card's moves: a letter
    received before the partner sent it, or answered before it was received, cannot be."""
    dispatch = check.partner_sent
    if dispatch is None:
        dispatch = next((letter.sent for letter in reversed(view.letters)
                         if letter.sender_id is not None and letter.sender_id != check.entry.sender_id
                         and letter.sent is not None), None)
    if check.received is not None and dispatch is not None and check.received < dispatch:
        check.errors.append(_violation(rule_violation(
            "002 §4.3.1", "received_before_dispatch", check.received.isoformat(),
            received=check.received, dispatch=dispatch)))
    if (check.entry.channel is Channel.PHONE and check.received is None and check.sent is not None
            and dispatch is not None and check.sent < dispatch):
        # A call answers the partner's move: it cannot come before that move was sent.
        check.errors.append(Finding("002 §4.3.1", _(
            "the call on %(sent)s comes before the partner's move it answers was sent on "
            "%(dispatch)s", sent=check.sent.strftime("%d.%m.%Y"),
            dispatch=dispatch.strftime("%d.%m.%Y")), code="call_before_dispatch"))
    if check.sent is not None and check.received is not None and check.sent < check.received:
        check.errors.append(_violation(rule_violation(
            "002 §4.3.1", "sent_before_received", check.sent.isoformat(),
            sent=check.sent, received=check.received)))
    _check_postmark(check, view)


def _check_postmark(check: PostcardCheck, view: GameView) -> None:
    """The card's postmark against its own dates (002 §4.3.1: the dispatch is dated by the
    postmark). Posted before its writer received the move it answers, or before his start sheet was
    sent, the card cannot be: one of the dates is mistyped, and the steward is told which. Posted on
    another day than the one written, it is kept as written — the partner may correct the
    dispatch to the postmark in his reply (docs/rules/timekeeping.md 5) — and the steward sees
    it. A call has no postmark (its date stands for it)."""
    postmark = check.postmark
    if postmark is None or check.entry.channel is Channel.PHONE:
        return
    if check.received is not None and postmark < check.received:
        check.errors.append(Finding("002 §4.3.1", _(
            "the postmark %(postmark)s comes before the receipt %(received)s of the move the "
            "card answers: a card is posted after its writer received that move; check both "
            "dates", postmark=f"{postmark:%d.%m.%Y}", received=f"{check.received:%d.%m.%Y}"),
            code="postmark_before_receipt"))
        return
    # A card posted before the start date is not a slip: «если игрок начал игру в день начала
    # игры … или ранее, то время на первый ход не начисляется» (002 §4.3.2), as an e-mail sent
    # before the start is received. What it cannot precede is its writer's start sheet, which
    # told him the pairing (docs/rules/timekeeping.md).
    writer = view.game.white if check.entry.sender_id == view.game.white_id else view.game.black
    # The day he received it when that is recorded, else the day it was sent to him.
    sheet = (writer.start_sheet_received or writer.start_sheet_sent_on) if writer is not None \
        else None
    if sheet is not None and postmark < sheet:
        check.errors.append(Finding("002 §4.3.2", _(
            "the postmark %(postmark)s comes before %(name)s's start sheet was sent on "
            "%(sheet)s, which made the game known; check the date",
            postmark=f"{postmark:%d.%m.%Y}", name=writer.player.name, sheet=f"{sheet:%d.%m.%Y}"),
            code="postmark_before_start_sheet"))
        return
    if check.sent is not None and postmark != check.sent:
        check.findings.append(Finding("002 §4.3.1", _(
            "the card is dated %(sent)s but its postmark is %(postmark)s",
            sent=f"{check.sent:%d.%m.%Y}", postmark=f"{postmark:%d.%m.%Y}"), _(
            "stored as written; the partner may correct the dispatch to the postmark in his "
            "reply (002 §4.3.1)"), code="postmark_differs"))


def _check_forwarding(check: PostcardCheck, view: GameView) -> None:
    """The card answers a move the steward forwarded (002 §4.1.1): its first date is the
    postmark of the steward's letter, so it should be the day he recorded posting it. A card
    that says otherwise is kept as it was written — the steward's record or the card is wrong,
    not the player — and the steward is told (docs/rules/mail.md 21); so is a receipt before
    the recorded day. Neither refuses the card: its own receipt date counts (002 §4.3.1)."""
    waiting = view.move_to_forward()
    if waiting is None or waiting.sender_id == check.entry.sender_id:
        return
    forwarding = view.forwardings.get(waiting.id)
    if forwarding is None:
        return
    day = forwarding.forwarded_on
    by = forwarding.entered_by.display_name if forwarding.entered_by is not None else "—"
    if check.partner_sent is not None and check.partner_sent != day:
        check.findings.append(Finding("002 §4.3.1", _(
            "the card's first date, %(first)s, is not the day the move was forwarded, %(day)s, "
            "as %(name)s recorded it", first=f"{check.partner_sent:%d.%m.%Y}",
            day=f"{day:%d.%m.%Y}", name=by), _(
            "the card is kept as written and its receipt date counts; the partner's time is not "
            "corrected (the postmark is the steward's). If the record is wrong, correct the "
            "forwarding before entering the card"), code="forwarded_first_date"))
    if check.received is not None and check.received < day:
        check.findings.append(Finding("002 §4.3.1", _(
            "the card's receipt date, %(received)s, comes before the day the move was "
            "forwarded, %(day)s", received=f"{check.received:%d.%m.%Y}", day=f"{day:%d.%m.%Y}"),
            _("the card's date counts; check the forwarding on record"),
            code="received_before_forwarding"))


def _violation(error: RuleViolation) -> Finding:
    """The rule error as the steward reads it: its message names the dates in dd.mm.yyyy; the
    raw offending value (an ISO date) is for the command line's chart, not for him."""
    return Finding(error.rule, violation_message(error), code=error.code)


def _check_duplicate(check: PostcardCheck, view: GameView) -> None:
    """A card already in the ledger is not entered twice (002 §4.2.8): same sender, same
    dates, same moves as written."""
    entry = check.entry
    written = " ".join(entry.moves_text.split())
    text = card_text(entry)
    for letter in view.letters:
        if letter.sender_id != entry.sender_id:
            continue
        if (letter.partner_sent, letter.received, letter.sent) != (
                check.partner_sent, check.received, check.sent):
            continue
        same_text = bool(text) and letter.raw_text.strip() == text
        same_moves = bool(written) and written in (written_moves(letter), letter.moves_text)
        if same_text or same_moves:
            check.errors.append(Finding("002 §4.2.8", _(
                "this card is already stored as letter %(n)s; a card is entered once",
                n=letter.sequence), code="duplicate"))
            return


def _read_dates(check: PostcardCheck, today: dt.date) -> None:
    entry = check.entry

    def read(text: str, what: str, reference: dt.date) -> dt.date | None:
        if not text.strip():
            return None
        try:
            day = parse_player_date(text, reference=reference)
        except DateFormatError as error:
            check.errors.append(Finding("002 §4.3.1", _("%(what)s: %(error)s", what=what, error=date_error(error))))
            return None
        if day > today:
            check.errors.append(Finding("002 §4.3.1", _("%(what)s: %(day)s is after today", what=what, day=f"{day:%d.%m.%Y}")))
        return day

    check.postmark = read(entry.postmark, _("postmark"), today)
    reference = check.postmark or today
    check.sent = read(entry.sent, _("dispatch date"), reference)
    check.received = read(entry.received, _("receipt date"), reference)
    check.partner_sent = read(entry.partner_sent, _("partner's dispatch date"), reference)
    check.supplied_receipt = read(entry.supplied_receipt, _("receipt date supplied"), reference)
    if check.sent is None and not check.errors:
        if check.postmark is None:
            check.errors.append(Finding(
                "002 §4.3.1", _("the card has neither a dispatch date nor a postmark to count from")))
        else:
            check.sent = check.postmark
            check.findings.append(Finding(
                "002 §4.3.3", _("no dispatch date written"),
                _("the postmark %(day)s stands for it; the partner points the omission out",
                  day=f"{check.postmark:%d.%m.%Y}")))


#: A move number: «7.» starts White's move; «7...», «7…» and «7. ...», «7. …» (a dot, then the
#: ellipsis that stands for White's move) start Black's.
_NUMBERED = re.compile(r"^(\d{1,4})\s*(\.\s*\.\.\.|\.\s*…|\.\.\.|…|\.)\s*")


def _mentions(text: str) -> list[MoveMention]:
    """The moves of the card's moves line, as written: ``7. c3-d4 f6-g5 8... 11-15``.

    The line holds moves only (the prose of the card is in its text), so every token is a move
    whatever the board's notation — algebraic or the numeric squares of Lasca; :mod:`notation`
    judges each one. A number with one dot starts White's move, with three dots Black's.
    """
    mentions: list[MoveMention] = []
    number: int | None = None
    side: Side | None = None
    # Spaces around a separator belong to the move: «c3 - d4».
    rest = re.sub(r"\s*([-:xх–—])\s*", r"\1", text.strip())
    while rest:
        numbered = _NUMBERED.match(rest)
        if numbered:
            number = int(numbered[1])
            side = Side.WHITE if numbered[2] == "." else Side.BLACK
            rest = rest[numbered.end():]
            continue
        token, _, rest = rest.partition(" ")
        rest = rest.strip()
        token = token.strip(",;!?()«»\"'")
        if token.endswith(".") and not token[:-1].isdigit():
            token = token[:-1]
        if not token:
            continue
        mentions.append(MoveMention(normalize_move_text(token), number, side))
        if side is Side.WHITE:
            side = Side.BLACK
        elif side is Side.BLACK:
            side, number = None, None
    return mentions


def _check_moves(check: PostcardCheck, view: GameView, side: Side, today: dt.date) -> None:
    entry = check.entry
    replaced = _replaced_letter(view, entry.corrects_letter_id)
    if entry.corrects_letter_id is not None and (replaced is None
                                                 or replaced is not view.letters[-1]):
        check.errors.append(Finding(
            "002 §4.2.5", _("letter %(id)s is not the last letter of this game; only the card play waits for "
              "can be replaced", id=entry.corrects_letter_id)))
        return
    mentions = _mentions(entry.moves_text)
    if not mentions:
        check.errors.append(Finding("002 §4.2.3", _("the card carries no move")))
        return
    judged = view if replaced is None else view.before(replaced)
    moves = games.check_moves(judged, entry.sender_id, mentions, entry.variants_text)
    check.moves = moves
    check.own_moves = moves.own_moves
    check.variant_reply = moves.variant_reply
    for note in moves.notes:
        check.findings.append(_finding_of(note, stops=False))
    if moves.stop is not None:
        stop = _finding_of(moves.stop, stops=moves.penalty)
        check.findings.append(stop)
        if moves.penalty:
            check.stops_play = True
            check.stop = stop
            check.penalty_days = moves.penalty_days
            # The card is read the day it is entered; the 3 days run from there.
            check.notice_due = today + dt.timedelta(days=NOTICE_DAYS)
    elif moves.refused:
        check.errors.append(Finding("002 §4.2.3", _("the card carries no move of its sender")))


def _check_elements(check: PostcardCheck, view: GameView) -> None:
    """002 §4.2.3: each element the card lacks is named (:func:`notation.letter_form.
    check_elements`). Only a card without a move of its sender is refused (it is no letter of the
    game, :func:`_check_moves`); any other missing element is a finding — 002 §4.2.3 attaches
    no penalty to it, and the penalties of 002 §4.2.11 and §4.3.3 are for the errors those
    points name (docs/rules/notation.md, reading 16)."""
    entry = check.entry
    lacks: list[LetterElement] = []
    for code in entry.lacks:
        try:
            element = LetterElement(code)
        except ValueError:
            element = None
        if element not in CARD_ELEMENTS:
            check.errors.append(Finding("002 §4.2.3", _(
                "%(code)s is not an element the steward reads off the card", code=code)))
            continue
        lacks.append(element)
    if check.moves is None or not check.moves.own:
        return  # no letter with a move: refused or stopped under its own rule
    opening = not any(letter.sent is not None and letter.moves_text.strip()
                      for letter in view.letters)
    try:
        check_elements(set(LetterElement) - set(lacks), opening=opening,
                       by_post=entry.channel is Channel.POST)
    except LetterIncomplete as incomplete:
        check.findings.append(Finding(
            incomplete.rule, _("the letter lacks: %(elements)s",
                               elements=element_names(incomplete.missing)),
            _("named to the sender; no penalty (002 §4.2.3 sets none)"), code=incomplete.code))


def _replaced_letter(view: GameView, letter_id: int | None) -> Letter | None:
    return None if letter_id is None else view.letter_as_it_reads(letter_id)


def _finding_of(notice: RuleNotice, *, stops: bool) -> Finding:
    problem = {
        "repetition_missing": _("the partner's move is not repeated; expected %(move)s",
                                move=notice.remedy),
        "repetition_wrong": _("the partner's move is repeated wrongly: %(move)s",
                              move=notice.remedy),
        "substituted": _("impossible move; the piece has a single move: %(move)s",
                         move=notice.remedy),
        "numbering": _("wrong move number: %(move)s", move=notice.remedy),
        "partner_move_not_forced": _("a partner's move written that is not forced: %(move)s",
                                     move=notice.remedy),
        "impossible:short_notation": _("%(move)s is written in short notation",
                                       move=notice.remedy),
        "impossible:illegal": _("%(move)s contradicts the rules of the game", move=notice.remedy),
        "impossible:capture_omitted": _("%(move)s omits a capture, and a capture is compulsory",
                                        move=notice.remedy),
        "impossible:ambiguous": _("%(move)s fits several legal moves", move=notice.remedy),
        "impossible:not_a_playing_square": _("%(move)s names a square that is not a playing "
                                             "square", move=notice.remedy),
        "illegible": _("%(move)s cannot be read", move=notice.remedy),
        "variant_unreadable": _("variant unreadable: %(text)s", text=notice.remedy),
        "variant_cut": _("variant cut at %(text)s", text=notice.remedy),
    }.get(notice.problem) or _("%(move)s: impossible move", move=notice.remedy)
    consequence = (
        _("play stops until the sender corrects the move; %(days)s penalty days to the sender "
          "(002 §4.2.11); the partner points the fault out within %(notice)s days (002 §4.2.9)",
          days=PENALTY_DAYS, notice=NOTICE_DAYS)
        if stops else _("play goes on"))
    if notice.problem == "variant_unreadable":
        consequence = _("the variant is not offered; play goes on")
    elif notice.problem == "variant_cut":
        consequence = _("offered up to that move; no penalty")
    elif notice.problem == "substituted":
        consequence = _("the recipient names the move and answers it; no penalty (002 §4.2.10)")
    elif notice.problem.startswith("impossible") or notice.problem == "illegible":
        # One clause after another, as the consequence itself is written (a lower-case
        # «play stops…» after a full stop read as two lines run together).
        consequence = _("the sender replaces the move; the sender's days of thinking and "
                        "correcting count; %(then)s", then=consequence)
    return Finding(notice.rule, problem, consequence)


def _check_time(check: PostcardCheck, view: GameView, side: Side) -> None:
    """The chart with this card added: dates missing (002 §4.3.3), refused dates, an overstep."""
    entry = check.entry
    assert check.sent is not None
    opening = not any(letter.sent is not None and letter.moves_text.strip()
                      for letter in view.letters)
    if not opening:
        # A move given by telephone has no postmark: the partner's dispatch is the day the
        # partner gave (002 §4.3.1, timekeeping's reading 28).
        dispatch = (_("partner's dispatch") if entry.channel is Channel.PHONE
                    else _("partner's dispatch (postmark)"))
        missing = [name for name, day in ((dispatch, check.partner_sent),
                                          (_("receipt"), check.received)) if day is None]
        if missing:
            check.findings.append(Finding(
                "002 §4.3.3", _("date(s) not written: %(dates)s", dates=", ".join(missing)),
                _("the partner points this out; a receipt date is estimated from the average "
                  "transit; the dates must follow in the next letter, a repeated omission "
                  "costs %(days)s days", days=PENALTY_DAYS)))
        if entry.declared_white_days is None or entry.declared_black_days is None:
            check.findings.append(Finding(
                "002 §4.3.3", _("the time used (white/black) is not written"),
                _("the partner points this out")))
    ledger = view.ledger()
    if not check.own_moves:
        # Nothing reaches the board: the card does not enter the chart; the time stands, but
        # for the penalty days a stop costs the sender (002 §4.2.11), shown as they will count.
        before = compute_chart(ledger)
        check.time_before = Totals(before.totals.white, before.totals.black)
        penalty = check.penalty_days if check.stops_play else 0
        check.time_after = Totals(before.totals.white + (penalty if side is Side.WHITE else 0),
                                  before.totals.black + (penalty if side is Side.BLACK else 0))
        return
    # The sender's moves counted as the ledger will count them once the card is stored
    # (variant moves uncounted unless forced, 002 §4.2.4, §4.3.5).
    replaced = _replaced_letter(view, entry.corrects_letter_id)
    tally = (view if replaced is None else view.before(replaced)).move_tally()
    own = check.moves.own if check.moves is not None else []
    flags = forced_plies(own[0][0], [move for _, move in own]) if own and tally.known else ()
    for index in range(len(own)):
        tally.ply(side, forced=bool(flags) and flags[index])
    move, uncounted, forced = tally.entry(side)
    previous = [e for e in ledger.letters if e.sender is not side]
    corrects = (check.partner_sent is not None and bool(previous)
                and previous[-1].sent != check.partner_sent)
    candidate = LetterEntry(
        sender=side, move=max(move, 1), sent=check.sent, received=check.received,
        partner_sent_postmark=check.partner_sent, corrects_partner=corrects,
        moves_text=check.own_moves, uncounted_moves=uncounted, forced_moves=forced,
        supplied_receipt=check.supplied_receipt,
    )
    chart = compute_chart(replace(ledger, letters=(*ledger.letters, candidate)))
    check.chart = chart
    number = len(ledger.letters) + 1
    # What the card adds to the chart: a note may concern the letter it answers (a postmark
    # correction of 002 §4.3.1 is noted on the corrected letter).
    before = compute_chart(ledger)
    check.time_before = Totals(before.totals.white, before.totals.black)
    row = chart.rows[-1]
    check.time_after = Totals(row.white_total, row.black_total)
    told = {(finding.rule, finding.code) for finding in check.errors}
    for error in chart.errors:
        if error not in before.errors and (error.rule, error.code) not in told:
            check.errors.append(_violation(error))
    for note in chart.notes:
        # A first date differing from a forwarding is told by the check of it, with who recorded it.
        if note not in before.notes and note.code != "forwarded_postmark_differs":
            check.findings.append(Finding(note.rule, note_message(note), _("noted in the time chart")))
    if chart.overstep is not None and chart.overstep.letter == number:
        check.findings.append(Finding(
            "002 §4.3.5",
            _("%(total)s days used at move %(move)s, more than the %(limit)s allowed",
              total=chart.overstep.total, move=chart.overstep.move, limit=chart.overstep.limit),
            _("the partner may claim the overstep (002 §4.3.6)")))
    row = chart.rows[-1]
    declared = (entry.declared_white_days, entry.declared_black_days)
    counted = (row.white_total, row.black_total)
    if None not in declared and declared != counted:
        check.findings.append(Finding(
            "002 §4.3.1",
            _("time declared %(declared)s, the chart counts %(counted)s",
              declared=f"{declared[0]}/{declared[1]}", counted=f"{counted[0]}/{counted[1]}"),
            _("the chart's count stands; the partner points the difference out")))


def enter_postcard(
    session: Session, game: Game, entry: PostcardEntry, user: User | None, *, today: dt.date,
    fingerprint: str | None = None, writer: LetterWriter | None = None,
) -> tuple[PostcardCheck, Letter]:
    """Check ``entry`` and store it with what follows, in the caller's transaction.

    With ``writer``, a partner who plays by e-mail gets the card's moves the day it is entered,
    as he would get an e-mail partner's, and that day is his receipt (002 §4.3.1); without it
    (a check of the card's bookkeeping alone) no letter is written and the partner's own next
    letter states his receipt.

    Raises :class:`PostcardRejected` (nothing stored) when the check has entry errors, and
    :class:`PostcardStale` when ``fingerprint`` (the check's, shown to the steward) is not this
    card's on this ledger: the card typed or the ledger changed since it was checked.

    The game row is locked before the check and the ledger read again under the lock, so two
    stewards entering the same card at once cannot both pass the check: the second sees the
    first card and is refused (002 §4.2.8), the ledger never holds the card twice.
    """
    games.lock_game(session, game.id)
    session.refresh(game)
    session.expire(game, ["letters"])
    check = check_postcard(game, entry, today=today)
    if fingerprint is not None and fingerprint != check.fingerprint:
        raise PostcardStale(game.id, [Finding("002 §4.2.8", _(
            "the card or the game's letters changed since the check; check the card again"),
            code="stale")])
    if not check.accepted:
        raise PostcardRejected(game.id, check.errors)
    relayed = (writer is not None and check.moves is not None and bool(check.moves.own)
               and plays_by_email(game.partner_of(entry.sender_id)))
    letter = games.enter_letter(session, game, LetterInput(
        sender_id=entry.sender_id,
        channel=entry.channel,
        raw_text=card_text(entry),
        partner_sent=check.partner_sent,
        received=check.received,
        sent=check.sent,
        postmark_date=check.postmark,
        registered=entry.registered,
        declared_white_days=entry.declared_white_days,
        declared_black_days=entry.declared_black_days,
        corrects_letter_id=entry.corrects_letter_id,
        entry_error=entry.entry_error and entry.corrects_letter_id is not None,
        supplied_receipt=check.supplied_receipt,
        relayed_on=today if relayed else None,
    ), check.moves, user, on=today)
    if check.result is not None:
        assert check.sent is not None
        games.record_result(session, game, check.result, ResultKind.PLAYED, on=check.sent,
                            user=user, summary=f"{entry.declaration}: {check.result}")
    if writer is not None:
        Correspondence(writer).relay_entered(session, game, letter, check.moves, on=today)
    audit.record(
        session, user=user, action="letter.postal", entity="letter", entity_id=letter.id,
        tournament_id=game.tournament_id,
        rule="002 §4.2.5" if entry.corrects_letter_id else "002 §4.1.13",
        summary=f"game {game.id}, letter {letter.sequence}: {check.own_moves or entry.declaration}",
        detail={"findings": [f.__dict__ for f in check.findings],
                "stops_play": check.stops_play, "penalty_days": check.penalty_days,
                "notice_due": check.notice_due.isoformat() if check.notice_due else None},
    )
    return check, letter


# -- other things the post brings ----------------------------------------------------------------


def record_break_notice(
    session: Session, participant: Participant, first_day: dt.date, last_day: dt.date,
    notice_postmark: dt.date, user: User | None, *, writer: LetterWriter | None = None,
) -> Break:
    """A registered notice «беру перерыв с … по …» received by post (002 §4.4.2, §4.4.3).

    Judged as every channel's announcement is (:func:`corrmail.games.record_break`): refused
    with nothing stored (:class:`corrmail.games.BreakRefused`) when it is a second break of its
    year, joins a break taken or ended before its postmark; one over 30 days stands for its
    first 30. With ``writer`` the partners who play by e-mail and the other stewards are told
    (:meth:`Correspondence.announce_entered_break`), as an e-mail announcement tells them.
    """
    recorded = games.record_break(session, participant, first_day, last_day,
                                  announced_on=notice_postmark, user=user)
    if writer is not None:
        Correspondence(writer).announce_entered_break(session, participant, recorded.verdict,
                                                      on=notice_postmark, entered_by=user)
    return recorded.row
