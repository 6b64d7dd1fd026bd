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
from notation.errors import AmbiguousMoveError, FenError, NoSuchMoveError, NotationError
from notation.full import fitting_move, format_full
from notation.game_position import GamePosition, initial_position, position_fen, position_from_fen
from notation.geometry import UnknownSquareError
from notation.move import Move
from notation.rules import Color, GameType
from notation.short import format_short, parse_short
from notation.written import WrittenMove, WrittenShortMove, read_written

RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
_GAME_TYPES = {"25": GameType.RUSSIAN, "20": GameType.INTERNATIONAL}
# Game types PDN has no number for, named by [Rules "…"] (column draughts: docs/columns.md).
_RULES_TAG_TYPES = {t.value: t for t in GameType if t is GameType.GIVEAWAY or t.is_column}
# PDN 3.0 numbers of the 8x8 games that are not Russian: named when refusing them, and when
# numeric 8x8 text does not replay as Russian draughts.
_OTHER_GAME_TYPES = {
    "21": "English/American checkers",
    "22": "Italian draughts",
    "23": "American pool checkers",
    "26": "Brazilian draughts",
    "29": "Czech draughts",
    "30": "Turkish draughts",
    "31": "Pool checkers",
    "32": "Thai draughts",
}
# Outcome of each result text, so "2-0" and a Result tag "1-0" agree while "0-1" does not.
_OUTCOMES = {"1-0": "white", "2-0": "white", "0-1": "black", "0-2": "black",
             "1/2-1/2": "draw", "1-1": "draw", "0-0": "none"}

# PDN's escape mechanism: a line starting with '%' is for the program that wrote it.
_ESCAPE_LINE = re.compile(r"^%[^\n]*", re.MULTILINE)
_TOKEN = re.compile(
    # Move numbers and moves are most tokens.  A move stops before a trailing annotation
    # ("c3-d4!"), read as a NAG.  Numeric moves may hold whitespace around their separator, as
    # column-aligned archives write them ("17. 43-39  1- 6"); a result is tried before them.
    r"""
    (?P<header>\[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
    | (?P<comment>\{[^}]*\}?)
    | (?P<line_comment>;[^\n]*)
    | (?P<number>\d+\s*\.(?:\.\.)?)
    | (?P<ellipsis>\.\.\.?)
    | (?P<result>(?:1-0|0-1|1/2-1/2|2-0|0-2|1-1|0-0|\*)(?=[\s\[{(]|$))
    | (?P<move>\d+(?:[ \t]*[-x:][ \t]*\d+)+(?![\w-])|[^\s{}()\[\];!?$]+)
    | (?P<nag>\$\d+|[!?]+)
    | (?P<open>\() | (?P<close>\))
    """,
    re.VERBOSE,
)
_LEADING_ZERO = re.compile(r"(?<![0-9a-z])0+(?=[1-9])")
_ALGEBRAIC_SQUARE = re.compile(r"[a-k](?:10|[1-9])")


@dataclass(frozen=True)
class PdnIssue:
    """An error (the game stops) or a warning (a repair or a doubt) in one game of a PDN file."""

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
    """Faults that stopped the game: the moves after the first are not read."""
    warnings: list[PdnIssue] = field(default_factory=list)
    """Repairs and doubts: the game was read, but not exactly as written (docs/notation.md)."""
    nags: dict[int, list[str]] = field(default_factory=dict)
    """Annotations (``!``, ``?!``, ``$3``) keyed by the number of moves played before them."""

    @property
    def end(self) -> GamePosition:
        position = self.start
        for move in self.moves:
            position = position.play(move)
        return position


def _declared_game_type(headers: dict[str, str]) -> GameType | str | None:
    """The game type the headers name, a reason it is refused, or None if they name none."""
    if headers.get("Rules", "").strip().lower() in _RULES_TAG_TYPES:
        return _RULES_TAG_TYPES[headers["Rules"].strip().lower()]
    code = headers.get("GameType")
    if code is None:
        return None
    number = code.split(",")[0].strip()
    if number in _GAME_TYPES:
        return _GAME_TYPES[number]
    named = f" ({_OTHER_GAME_TYPES[number]})" if number in _OTHER_GAME_TYPES else ""
    return f"unsupported GameType {code!r}{named}: only 25 (Russian) and 20 (international) are played"


def _split_games(text: str) -> Iterator[list[re.Match[str]]]:
    current: list[re.Match[str]] = []
    in_moves = False
    for match in _TOKEN.finditer(_ESCAPE_LINE.sub("", text)):
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
    if any(m.lastgroup not in ("line_comment", "comment") for m in current):
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
    declared = _declared_game_type(headers)
    if isinstance(declared, str):
        return PdnGame(headers, errors=[PdnIssue(number, None, headers.get("GameType", ""), declared)])
    if declared is not None:
        return _replay(number, tokens, headers, declared)
    return _read_undeclared(number, tokens, headers, default)


def _read_undeclared(number: int, tokens: list[re.Match[str]], headers: dict[str, str], default: GameType) -> PdnGame:
    """A game without ``GameType``: the board is inferred where only one fits (docs/notation.md)."""
    if default not in (GameType.RUSSIAN, GameType.GIVEAWAY, GameType.INTERNATIONAL):
        game = _replay(number, tokens, headers, default)
        game.warnings.insert(0, _assumed(number, default, "the default game type for files without one"))
        return game
    small = default if default is not GameType.INTERNATIONAL else GameType.RUSSIAN
    beyond = _square_beyond_8x8(headers, tokens)
    if beyond is not None:
        game = _replay(number, tokens, headers, GameType.INTERNATIONAL)
        game.warnings.insert(0, _assumed(number, GameType.INTERNATIONAL, f"square {beyond} is not on the 8x8 board"))
        return game
    # Both boards hold every square named: the moves decide, and the default where both replay.
    first, second = (default, small) if default is GameType.INTERNATIONAL else (default, GameType.INTERNATIONAL)
    games = {game_type: _replay(number, tokens, headers, game_type) for game_type in (first, second)}
    fitting = [game_type for game_type, game in games.items() if not game.errors]
    if len(fitting) == 1:
        (chosen,) = fitting
        game = games[chosen]
        game.warnings.insert(0, _assumed(number, chosen, "the moves replay only on its board"))
        return game
    if fitting:
        game = games[default]
        why = "both boards fit the squares and moves; the default game type" if game.moves or "FEN" in headers else "the default game type"
        game.warnings.insert(0, _assumed(number, default, why))
        return game
    small_game, large_game = games[small], games[GameType.INTERNATIONAL]
    if large_game.moves and len(large_game.moves) > len(small_game.moves):
        large_game.warnings.insert(0, _assumed(number, GameType.INTERNATIONAL, "its board replays the most moves"))
        return large_game
    small_game.warnings.insert(0, _assumed(number, small, "its board replays the most moves"))
    if _numeric_movetext(tokens):
        small_game.errors = [
            PdnIssue(
                issue.game_number, issue.move_number, issue.text,
                f"numeric 8x8 text that does not replay as {_type_name(small)} ({issue.reason}): "
                "probably another game, GameType 21 (English/American checkers) or 22 (Italian)",
            )
            for issue in small_game.errors
        ]
    else:
        small_game.errors = [
            PdnIssue(
                issue.game_number, issue.move_number, issue.text,
                f"{issue.reason}; read as {_type_name(small)} for want of a GameType header: "
                "another 8x8 game (GameType 29 Czech, 26 Brazilian, …) must be named in one",
            )
            for issue in small_game.errors
        ]
    return small_game


def _assumed(number: int, game_type: GameType, why: str) -> PdnIssue:
    return PdnIssue(number, None, "", f"no GameType header: assumed {_type_name(game_type)} "
                    f"(GameType {game_type.pdn_code}): {why}")


def _type_name(game_type: GameType) -> str:
    return {GameType.RUSSIAN: "Russian draughts", GameType.INTERNATIONAL: "international draughts",
            GameType.GIVEAWAY: "giveaway"}.get(game_type, game_type.value)


def _square_beyond_8x8(headers: dict[str, str], tokens: list[re.Match[str]]) -> str | None:
    """A square named in the FEN or the main line that the 8x8 board does not have."""
    names: list[str] = []
    for part in "".join(headers.get("FEN", "").split()).rstrip(".").split(":")[1:]:
        items = part[1:].lower().split(",")
        names += [name for item in items for name in item.lstrip("k").split("-")]
    for token in _main_line(tokens):
        if token.lastgroup == "move":
            names += re.split(r"[-x:]", "".join(token.group().lower().split()))
    for name in names:
        if name.isdigit() and int(name) > 32:
            return name
        if re.fullmatch(r"[a-k]\d+", name) and (name[0] in "ijk" or int(name[1:]) > 8):
            return name
    return None


def _numeric_movetext(tokens: list[re.Match[str]]) -> bool:
    moves = [token.group() for token in _main_line(tokens) if token.lastgroup == "move"]
    return bool(moves) and all(re.fullmatch(r"[\d\s:x-]+", move) for move in moves)


def _main_line(tokens: list[re.Match[str]]) -> Iterator[re.Match[str]]:
    depth = 0
    for token in tokens:
        kind = token.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif not depth:
            yield token


def _start_position(
    number: int, tokens: list[re.Match[str]], headers: dict[str, str], game_type: GameType
) -> GamePosition | PdnIssue:
    try:
        options = parse_rule_options(headers.get(RULE_OPTIONS_TAG, "").split())
        position = initial_position(game_type, options)
    except RuleOptionError as error:
        return PdnIssue(number, None, headers[RULE_OPTIONS_TAG], str(error))
    if "FEN" not in headers:
        return position
    fen = headers["FEN"].strip()
    if fen.startswith("?"):
        fen = _black_or_white(tokens) + fen[1:]
    try:
        return position_from_fen(fen, game_type, options)
    except FenError as error:
        return PdnIssue(number, None, headers["FEN"], str(error))


def _black_or_white(tokens: list[re.Match[str]]) -> str:
    """The side to move where a FEN says '?': Black if the movetext starts with "1..."."""
    for token in _main_line(tokens):
        if token.lastgroup == "ellipsis" or (token.lastgroup == "number" and token.group().endswith("...")):
            return "B"
        if token.lastgroup == "move":
            return "W"
    return "W"


def _replay(number: int, tokens: list[re.Match[str]], headers: dict[str, str], game_type: GameType) -> PdnGame:
    start = _start_position(number, tokens, headers, game_type)
    if isinstance(start, PdnIssue):
        return PdnGame(headers, game_type, errors=[start])
    game = PdnGame(headers, game_type, start)
    if headers.get("FEN", "").strip().startswith("?"):
        side = "White" if start.turn is Color.WHITE else "Black"
        game.warnings.append(PdnIssue(number, None, headers["FEN"], f"FEN gives '?' for the side to move: {side} assumed from the movetext"))
    position = start
    moves = game.moves
    depth = 0
    stopped = False
    variation_start = 0
    main_moves = [token.group() for token in _main_line(tokens) if token.lastgroup == "move"]
    for token in tokens:
        kind = token.lastgroup
        # Moves are most tokens: they are tested first.
        if kind == "move":
            if depth or stopped:
                continue
            move_number = (len(moves) + (0 if start.turn is Color.WHITE else 1)) // 2 + 1
            try:
                try:
                    move, repairs = _read_move(position, token.group())
                except AmbiguousMoveError:
                    move, repairs = _resolve_by_the_rest(position, token.group(), main_moves[len(moves) + 1 :])
            except (NotationError, UnknownSquareError) as error:
                game.errors.append(PdnIssue(number, move_number, token.group(), str(error)))
                # The rest of the game cannot be replayed; its comments and result are still read.
                stopped = True
                continue
            game.warnings.extend(PdnIssue(number, move_number, token.group(), reason) for reason in repairs)
            moves.append(move)
            position = position.play(move)
        elif kind == "open":
            if not depth:
                variation_start = token.start()
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
            if not depth and not stopped:
                skipped = token.string[variation_start : token.end()]
                game.warnings.append(PdnIssue(number, None, " ".join(skipped.split())[:60],
                                              f"variation after move {len(moves)} skipped: it is not checked"))
        elif depth:
            continue
        elif kind == "comment":
            game.comments[len(moves)] = token.group().strip("{}").strip()
        elif kind == "nag":
            game.nags.setdefault(len(moves), []).append(token.group())
        elif kind == "result":
            game.result = token.group()
    _check_result_tag(number, headers, game)
    return game


def _check_result_tag(number: int, headers: dict[str, str], game: PdnGame) -> None:
    tag = headers.get("Result", "").strip()
    if game.result == "*":
        if tag in _OUTCOMES or tag == "*":
            game.result = tag
        return
    if _OUTCOMES.get(tag, _OUTCOMES[game.result]) != _OUTCOMES[game.result]:
        game.warnings.append(PdnIssue(number, None, tag, f"Result tag {tag} contradicts the movetext's {game.result}; the movetext's is kept"))


def _resolve_by_the_rest(position: GamePosition, text: str, rest: list[str]) -> tuple[Move, list[str]]:
    """An ambiguous move (one start and end, different pieces taken) chosen by the moves after it.

    Only when exactly one of the fitting moves lets the rest of the game replay to its end is it
    taken, with a warning; otherwise the move stays ambiguous and stops the game.
    """
    written = read_written("".join(text.split()), position.geometry)
    if isinstance(written, WrittenShortMove):
        raise AmbiguousMoveError(text, "fits several legal moves")
    first, last = (position.geometry.parse_square(written.squares[i]) for i in (0, -1))
    fitting = {m for m in position.routes_between(first, last) if m.is_capture == written.capture}
    whole = [move for move in fitting if _replays(position.play(move), rest)]
    if len(whole) != 1:
        reason = "the moves after it do not tell them apart" if rest else "it is the last move"
        raise AmbiguousMoveError(text, f"fits {len(fitting)} different legal moves and {reason}")
    return whole[0], [f"fits {len(fitting)} different legal moves: the one after which the rest of the game replays is taken"]


def _replays(position: GamePosition, texts: list[str]) -> bool:
    for text in texts:
        try:
            move, _ = _read_move(position, text)
        except (NotationError, UnknownSquareError):
            return False
        position = position.play(move)
    return True


def _read_move(position: GamePosition, text: str) -> tuple[Move, list[str]]:
    """The legal move ``text`` names, with the repairs needed to read it (docs/notation.md)."""
    repairs: list[str] = []
    # The repairs are tested only where they can apply: this runs for every move of an archive.
    cleaned = "".join(text.split()) if " " in text or "\t" in text else text
    if "0" in cleaned and _LEADING_ZERO.search(cleaned):
        cleaned = _LEADING_ZERO.sub("", cleaned)
        repairs.append(f"leading zero in a square number: read as {cleaned!r}")
    if not any(separator in cleaned for separator in "-:xX") and len(cleaned) > 3:
        squares = _ALGEBRAIC_SQUARE.findall(cleaned.lower())
        if len(squares) > 1 and "".join(squares) == cleaned.lower():
            cleaned = ("-" if len(squares) == 2 else ":").join(squares)
            repairs.append(f"squares written without a separator: read as {cleaned!r}")
    written = read_written(cleaned, position.geometry)
    if isinstance(written, WrittenShortMove):
        return parse_short(position, cleaned), repairs
    try:
        move, remarks = fitting_move(position, written)
    except NoSuchMoveError:
        if not written.capture or len(written.squares) != 2:
            raise
        quiet = WrittenMove(written.text, written.squares, capture=False)
        try:
            move, remarks = fitting_move(position, quiet)
        except NotationError:
            raise NoSuchMoveError(text, "no legal move fits") from None
        if move.is_capture:
            raise NoSuchMoveError(text, "no legal move fits") from None
        remarks = ("quiet move written as a capture",)
    repairs.extend(remarks)
    return move, repairs


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
        words.extend(game.nags.get(index, ()))
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
    words.extend(game.nags.get(len(game.moves), ()))
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
