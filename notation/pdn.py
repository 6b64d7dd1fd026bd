"""PDN 3.0 game records: a lenient reader that collects errors per game, and a writer.

The ``GameType`` header decides the rules: ``25`` Russian, ``20`` international; giveaway is
written ``25`` with ``[Rules "giveaway"]`` (PDN has no number for it); column draughts
likewise with ``[Rules "bashni"]``, ``"lasca"``, … and ``[RuleOptions "rejump=allowed"]``.
Without a ``GameType`` header the reader assumes the ``default`` game type it is given.  Moves may be in
full notation (``c3-d4``, ``c3:e5:g3``, ``32-28``, ``19x28``) or short notation (``cd4``,
``b:d4``, 002 §4.5.1).  Comments ``{…}`` are kept after the move they follow; variations
``(…)`` and NAGs (``$1``, ``!``, ``?``) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from notation.columns.position import ColumnPosition
from notation.columns.rules import (
    RULE_OPTIONS_TAG,
    RuleOptionError,
    parse_rule_options,
    rule_options_tag,
)
from notation.errors import FenError, NotationError
from notation.full import format_full
from notation.game_position import GamePosition, initial_position, position_fen, position_from_fen
from notation.geometry import UnknownSquareError
from notation.move import Move
from notation.rules import Color, GameType
from notation.short import format_short, parse_short

RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
_GAME_TYPES = {"25": GameType.RUSSIAN, "20": GameType.INTERNATIONAL}
# Game types PDN has no number for, named by [Rules "…"] (column draughts: docs/columns.md).
_RULES_TAG_TYPES = {t.value: t for t in GameType if t is GameType.GIVEAWAY or t.is_column}

_TOKEN = re.compile(
    # Most tokens are move numbers and moves: they are tried first.  A move stops before a
    # trailing annotation ("c3-d4!"), which is then read as a NAG and skipped.
    r"""
    (?P<number>\d+\s*(?:\.\.\.|\.))
    | (?P<result>1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)(?=\s|$|\[)
    | (?P<move>[^\s{}()\[\];!?$]+)
    | (?P<header>\[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
    | (?P<comment>\{[^}]*\}?)
    | (?P<line_comment>;[^\n]*)
    | (?P<nag>\$\d+|[!?]+)
    | (?P<open>\() | (?P<close>\))
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class PdnIssue:
    """A fault in one game of a PDN file."""

    game_number: int
    move_number: int | None
    text: str
    reason: str

    def __str__(self) -> str:
        where = f"game {self.game_number}"
        if self.move_number is not None:
            where += f", move {self.move_number}"
        return f"{where}: {self.reason} ({self.text!r})"


@dataclass
class PdnGame:
    headers: dict[str, str] = field(default_factory=dict)
    game_type: GameType = GameType.RUSSIAN
    start: GamePosition = field(default_factory=lambda: initial_position(GameType.RUSSIAN))
    moves: list[Move] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    """Comment text keyed by the number of moves played before it."""
    result: str = "*"
    errors: list[PdnIssue] = field(default_factory=list)

    @property
    def end(self) -> GamePosition:
        position = self.start
        for move in self.moves:
            position = position.play(move)
        return position


def _game_type_of(headers: dict[str, str], default: GameType) -> GameType | str:
    if headers.get("Rules", "").strip().lower() in _RULES_TAG_TYPES:
        return _RULES_TAG_TYPES[headers["Rules"].strip().lower()]
    code = headers.get("GameType")
    if code is None:
        return default
    number = code.split(",")[0].strip()
    return _GAME_TYPES.get(number, f"unsupported GameType {code!r}")


def _split_games(text: str) -> Iterator[list[re.Match[str]]]:
    current: list[re.Match[str]] = []
    in_moves = False
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "header" and in_moves:
            yield current
            current, in_moves = [], False
        current.append(match)
        if kind not in ("header", "comment", "line_comment"):
            in_moves = True
        if kind == "result":
            yield current
            current, in_moves = [], False
    if any(m.lastgroup != "line_comment" for m in current):
        yield current


def read_pdn(text: str, *, default: GameType = GameType.RUSSIAN) -> list[PdnGame]:
    """Every game in ``text``; faults are collected in each game's ``errors``, never raised."""
    return list(iter_pdn(text, default=default))


def iter_pdn(text: str, *, default: GameType = GameType.RUSSIAN) -> Iterator[PdnGame]:
    """The games of ``text`` one at a time, so a large archive is checked in constant memory."""
    for number, tokens in enumerate(_split_games(text), start=1):
        yield _read_game(number, tokens, default)


def _read_game(number: int, tokens: list[re.Match[str]], default: GameType) -> PdnGame:
    headers = {
        token.group("tag"): token.group("value").replace('\\"', '"')
        for token in tokens
        if token.lastgroup == "header"
    }
    game_type = _game_type_of(headers, default)
    if isinstance(game_type, str):
        return PdnGame(headers, errors=[PdnIssue(number, None, headers.get("GameType", ""), game_type)])
    try:
        options = parse_rule_options(headers.get(RULE_OPTIONS_TAG, "").split())
        position = initial_position(game_type, options)
    except RuleOptionError as error:
        return PdnGame(
            headers, game_type, errors=[PdnIssue(number, None, headers[RULE_OPTIONS_TAG], str(error))]
        )
    if "FEN" in headers:
        try:
            position = position_from_fen(headers["FEN"], game_type, options)
        except FenError as error:
            return PdnGame(headers, game_type, errors=[PdnIssue(number, None, headers["FEN"], str(error))])
    game = PdnGame(headers, game_type, position)
    moves = game.moves
    depth = 0
    stopped = False
    for token in tokens:
        kind = token.lastgroup
        # Moves are most tokens: they are tested first.
        if kind == "move":
            if depth or stopped:
                continue
            try:
                move = parse_short(position, token.group())
            except (NotationError, UnknownSquareError) as error:
                first_turn_offset = 0 if game.start.turn is Color.WHITE else 1
                move_number = (len(moves) + first_turn_offset) // 2 + 1
                game.errors.append(PdnIssue(number, move_number, token.group(), str(error)))
                # The rest of the game cannot be replayed; its comments and result are still read.
                stopped = True
                continue
            moves.append(move)
            position = position.play(move)
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif kind == "comment":
            game.comments[len(moves)] = token.group().strip("{}").strip()
        elif kind == "result":
            game.result = token.group()
    if "Result" in headers and game.result == "*":
        game.result = headers["Result"]
    return game


def write_pdn(game: PdnGame, *, short: bool = False) -> str:
    """One game as PDN: headers (``GameType`` set from the game type), movetext, result."""
    headers = dict(game.headers)
    headers["GameType"] = game.game_type.pdn_code
    if game.game_type is GameType.GIVEAWAY or game.game_type.is_column:
        headers["Rules"] = game.game_type.value
    if isinstance(game.start, ColumnPosition) and rule_options_tag(game.start.rules):
        headers[RULE_OPTIONS_TAG] = rule_options_tag(game.start.rules)
    if position_fen(game.start) != position_fen(initial_position(game.game_type)):
        headers["FEN"] = position_fen(game.start)
    headers["Result"] = game.result
    lines = [f'[{tag} "{value.replace(chr(34), chr(92) + chr(34))}"]' for tag, value in headers.items()]
    words: list[str] = []
    position = game.start
    ply = 0 if position.turn is Color.WHITE else 1
    for index, move in enumerate(game.moves):
        if index in game.comments:
            words.append("{" + game.comments[index] + "}")
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        elif index == 0:
            words.append(f"{ply // 2 + 1}...")
        formatter = format_short if short else _format_record
        words.append(formatter(position, move))
        position = position.play(move)
        ply += 1
    if len(game.moves) in game.comments:
        words.append("{" + game.comments[len(game.moves)] + "}")
    words.append(game.result)
    return "\n".join(lines) + "\n\n" + _wrap(words) + "\n"


def _format_record(position: GamePosition, move: Move) -> str:
    return format_full(position, move, route=False)


def _wrap(words: list[str], width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)
