"""The endgame tables as evidence for the referee: the value of a game's position and a line
of best play he can follow on the board.

The tables are `notation.endgame`'s, stored under ``var/endgame`` (or ``CORRMAIL_ENDGAME_DIR``),
one directory per game type: Russian and international draughts (:data:`BUILD_ON_FIRST_NEED`
names them; other game types get no verdict). When a game type's tables are not there, the first
game of that type that needs them builds every position of up to ``BUILD_ON_FIRST_NEED[type]``
pieces: 3 for Russian draughts (under a second of CPU), only 2 for international draughts, whose
3-piece build takes 4 s of CPU and 8 to 16 s on a shared machine — too long for a case page to
wait. The tables a referee relies on are built by the command (docs/notation.md gives the
times)::

    python -m notation endgame build --type russian --pieces 4 -o var/endgame
    python -m notation endgame build --type international --pieces 4 -o var/endgame

A running service notices a newer build (the manifest is rewritten last) and probes it from
the next verdict on, without a restart.

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
from notation.endgame.store import MANIFEST, DamagedTableError, StoredTables, build_tables
from notation.endgame.values import Result
from notation.full import format_full
from notation.position import Position
from notation.rules import Color, GameType
from notation.svg import board_svg

__all__ = ["BUILD_ON_FIRST_NEED", "MAX_PIECES", "EndgameVerdict", "LineStep", "batch_listing", "describe",
           "endgame_verdict", "settled_cases", "settled_first", "tables_root", "TablesToBuild",
           "tables_to_build"]

BUILD_ON_FIRST_NEED: dict[GameType, int] = {GameType.RUSSIAN: 3, GameType.INTERNATIONAL: 2}
"""The game types the referee gets verdicts for, each with the pieces built when none of its
tables exist yet: every position of up to 3 pieces of Russian draughts (0.8 s of CPU), of up to
2 of international draughts (0.2 s; 3 pieces would take 4 s of CPU, 8 to 16 s on a shared
machine)."""
MAX_PIECES = 4
"""The most pieces the tables are built for: a position of more builds and probes nothing."""
LINE_LIMIT = 86
"""Plies of the line shown: every 4-piece line fits (the longest in the whole Russian 4-piece
build: a man against three lost in 86 plies, three men against a king won in 85; international
43)."""

_lock = threading.Lock()
_loaded: dict[tuple[Path, GameType], tuple[tuple[int, int] | None, Endgames, int]] = {}
"""Per tables directory and game type: the manifest's stamp when read, the probes over the
tables, the largest piece count they hold in full."""


def tables_root() -> Path:
    configured = os.environ.get("CORRMAIL_ENDGAME_DIR")
    return Path(configured) if configured else var_dir() / "endgame"


def _manifest_stamp(root: Path, game_type: GameType) -> tuple[int, int] | None:
    """Which manifest is there: a build writes a new file and renames it over the old one."""
    try:
        found = (root / game_type.value / MANIFEST).stat()
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns


def _endgames(game_type: GameType) -> tuple[Endgames, int]:
    """The tables of ``game_type`` and the largest piece count they hold in full, built on
    first need (one process builds, others wait) and read again when a build (the command,
    another process) has rewritten their manifest since."""
    root = tables_root()
    key = (root, game_type)
    with _lock:
        stamp = _manifest_stamp(root, game_type)
        found = _loaded.get(key)
        if found is None or found[0] != stamp:
            stored = StoredTables(root, game_type)
            first_need = BUILD_ON_FIRST_NEED[game_type]
            if stored.pieces < first_need:
                root.mkdir(parents=True, exist_ok=True)
                with open(root / f".{game_type.value}.lock", "w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    build_tables(root, game_type, first_need)
                stored = StoredTables(root, game_type)
                stamp = _manifest_stamp(root, game_type)
            found = _loaded[key] = (stamp, Endgames(game_type.rules, stored), stored.pieces)
        return found[1], found[2]


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


def _small_position(game: Game) -> tuple[GameView, GameType, Position] | None:
    """The game's current position when the tables are made for its type and it has no more
    than :data:`MAX_PIECES` pieces; ``None`` otherwise (or when its ledger does not replay)."""
    try:
        view = GameView(game)
        game_type = view.board_type
        if game_type not in BUILD_ON_FIRST_NEED:
            return None
        position = view.position
    except (UnsupportedGameType, ValueError):
        return None
    if not isinstance(position, Position) or _pieces(position) > MAX_PIECES:
        return None
    return view, game_type, position


def endgame_verdict(game: Game, *, limit: int = LINE_LIMIT) -> EndgameVerdict | None:
    """The verdict of the game's current position, or ``None`` when the tables do not cover
    it (a game type without tables, more pieces than built, a ledger that does not replay,
    damaged tables)."""
    found = _small_position(game)
    if found is None:
        return None
    view, game_type, position = found
    try:
        endgames, pieces = _endgames(game_type)
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
        pieces=pieces,
        line=tuple(steps),
    )


@dataclass(frozen=True)
class TablesToBuild:
    """A game's position the tables would hold once built: what the case page tells the
    referee instead of a verdict (international tables are built on first need to 2 pieces)."""

    game_type: str
    pieces: int
    """Of the position."""
    built: int
    """The largest piece count the tables hold in full."""
    directory: str

    @property
    def command(self) -> str:
        return (f"python -m notation endgame build --type {self.game_type} "
                f"--pieces {MAX_PIECES} -o {self.directory}")


def tables_to_build(game: Game) -> TablesToBuild | None:
    """For a game of a type the tables are made for, whose position has no more than
    :data:`MAX_PIECES` pieces but whose material is not built: the build that would settle it;
    ``None`` otherwise."""
    found = _small_position(game)
    if found is None:
        return None
    _view, game_type, position = found
    if not position.white or not position.black or position.rules != game_type.rules:
        return None
    try:
        endgames, built = _endgames(game_type)
    except DamagedTableError:
        return None
    if endgames.material_of(position) in endgames.tables:
        return None
    return TablesToBuild(game_type.value, _pieces(position), built, str(tables_root()))


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
