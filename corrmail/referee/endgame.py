"""The endgame tables as evidence for the referee: the value of a game's position and a line
of best play he can follow on the board.

The tables are `notation.endgame`'s, stored under ``var/endgame`` (or ``CORRMAIL_ENDGAME_DIR``).
When none are there, the first game that needs them builds every position of up to
:data:`BUILD_ON_FIRST_NEED` pieces (seconds); four pieces are built by the command
``python -m notation endgame build --pieces 4 -o var/endgame`` (docs/notation.md gives the time).

The referee still decides (002 §4.5.5): a verdict is evidence, shown on the case page and cited
in the decision letter as such, never a ruling.
"""

from __future__ import annotations

import fcntl
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from corrmail.games.view import GameView, UnsupportedGameType
from corrmail.models import Case, CaseType, Game
from corrmail.paths import var_dir
from notation.endgame.probe import Endgames, OutsideDatabaseError
from notation.endgame.store import DamagedTableError, StoredTables, build_tables
from notation.endgame.values import Result
from notation.full import format_full
from notation.position import Position
from notation.rules import Color, GameType
from notation.svg import board_svg

__all__ = ["BUILD_ON_FIRST_NEED", "EndgameVerdict", "LineStep", "batch_listing", "describe",
           "endgame_verdict", "settled_cases", "settled_first", "tables_root"]

BUILD_ON_FIRST_NEED = 3
"""Pieces built when no tables exist yet (every position of up to 3 pieces: seconds)."""
LINE_LIMIT = 86
"""Plies of the line shown: every 4-piece line fits (the longest in the whole Russian 4-piece
build: a man against three lost in 86 plies, three men against a king won in 85)."""

_lock = threading.Lock()
_loaded: dict[tuple[Path, GameType], Endgames] = {}


def tables_root() -> Path:
    configured = os.environ.get("CORRMAIL_ENDGAME_DIR")
    return Path(configured) if configured else var_dir() / "endgame"


def _endgames(game_type: GameType) -> Endgames:
    """The tables of ``game_type``, built on first need (one process builds, others wait)."""
    root = tables_root()
    key = (root, game_type)
    with _lock:
        found = _loaded.get(key)
        if found is None:
            stored = StoredTables(root, game_type)
            if stored.pieces < BUILD_ON_FIRST_NEED:
                root.mkdir(parents=True, exist_ok=True)
                with open(root / f".{game_type.value}.lock", "w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    build_tables(root, game_type, BUILD_ON_FIRST_NEED)
                stored = StoredTables(root, game_type)
            found = _loaded[key] = Endgames(game_type.rules, stored)
        return found


@dataclass(frozen=True)
class LineStep:
    """One move of the line of best play: its number as a record writes it, the move in full
    notation and the board after it (SVG, the move marked)."""

    label: str
    move: str
    board_svg: str


@dataclass(frozen=True)
class EndgameVerdict:
    """What the tables say of a game's current position."""

    to_move: Color
    result: Result
    """For the side to move."""
    plies: int | None
    moves: int | None
    material: str
    pieces: int
    """The largest piece count the tables hold in full."""
    line: tuple[LineStep, ...]

    @property
    def winner(self) -> Color | None:
        if self.result is Result.DRAW:
            return None
        return self.to_move if self.result is Result.WIN else self.to_move.opponent

    @property
    def ruling(self) -> str:
        """The adjudication ruling the verdict points to (``white_wins``, ``draw``,
        ``black_wins``) — for comparison with the referee's own."""
        winner = self.winner
        return "draw" if winner is None else f"{winner.value}_wins"


def _pieces(position: Position) -> int:
    return (position.white | position.black).bit_count()


def endgame_verdict(game: Game, *, limit: int = LINE_LIMIT) -> EndgameVerdict | None:
    """The verdict of the game's current position, or ``None`` when the tables do not cover
    it (another game type, more pieces than built, a ledger that does not replay, damaged
    tables)."""
    try:
        view = GameView(game)
        if view.board_type is not GameType.RUSSIAN:
            return None
        position = view.position
    except (UnsupportedGameType, ValueError):
        return None
    if not isinstance(position, Position) or _pieces(position) > 4:
        return None
    try:
        endgames = _endgames(GameType.RUSSIAN)
        verdict = endgames.verdict(position)
        moves = endgames.line(position, limit=limit) if verdict.plies is not None else []
    except (OutsideDatabaseError, DamagedTableError):
        return None
    to_move = position.turn
    ply = len(view.plies)
    steps: list[LineStep] = []
    for move in moves:
        number = ply // 2 + 1
        label = f"{number}." if ply % 2 == 0 else f"{number}..."
        text = format_full(position, move)
        position = position.play(move)
        steps.append(LineStep(label, text, board_svg(position, last_move=move, square_size=24,
                                                      title=f"{label} {text}")))
        ply += 1
    return EndgameVerdict(
        to_move=to_move,
        result=verdict.result,
        plies=verdict.plies,
        moves=verdict.moves,
        material=verdict.material.name,
        pieces=endgames.pieces,
        line=tuple(steps),
    )


def settled_first(games: list[Game]) -> list[tuple[Game, EndgameVerdict | None]]:
    """The games of an end-of-play batch with their verdicts, those the tables settle first
    (in the given order otherwise)."""
    judged = [(game, endgame_verdict(game, limit=0)) for game in games]
    return [pair for pair in judged if pair[1] is not None] + [
        pair for pair in judged if pair[1] is None
    ]


def settled_cases(rows: list[Case]) -> list[tuple[Case, EndgameVerdict]]:
    """The adjudication cases among ``rows`` whose game the tables settle, with the verdicts
    (the queue lists them first)."""
    found = []
    for row in rows:
        if row.case_type is CaseType.ADJUDICATION and row.game is not None:
            verdict = endgame_verdict(row.game, limit=0)
            if verdict is not None:
                found.append((row, verdict))
    return found


def describe(verdict: EndgameVerdict) -> str:
    """``white wins in 7 moves (13 plies), KKKvK`` — for command-line listings."""
    text = "draw" if verdict.winner is None else f"{verdict.winner.value} wins"
    if verdict.moves is not None:
        text += f" in {verdict.moves} moves ({verdict.plies} plies)"
    return f"{text}, {verdict.material}"


def batch_listing(rows: list[Case]) -> list[str]:
    """One line per case of an end-of-play batch, those the tables settle first."""
    games = [row.game for row in rows if row.game is not None]
    case_of = {row.game.id: row for row in rows if row.game is not None}
    lines = []
    for game, verdict in settled_first(games):
        row = case_of[game.id]
        players = f"{game.white.player.name} — {game.black.player.name}"
        known = f": endgame tables: {describe(verdict)} (evidence)" if verdict else ""
        lines.append(f"  case #{row.id} {players}{known}")
    return lines
