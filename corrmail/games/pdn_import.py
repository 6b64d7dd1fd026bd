"""Importing finished games from a PDN archive, e.g. games played before the service was used.

The archive is read by ``notation.pdn`` exactly as ``python -m notation check`` reads it, with the
tournament's game type as the default for games without ``GameType``: every repair or doubt is a
warning shown with its game, and a game is imported only when nothing stands in its way (it
replays to its end in the tournament's game type, it has a result, its players are entries of the
tournament, its round is given, and no game of those two players in that round is on record).
Nothing stored is changed: an import only adds games. All rows are written by
:func:`write_imported_game`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from flask_babel import gettext as _
from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from corrmail.audit import record as audit_record
from corrmail.models import (
    Game,
    GameImport,
    GameResult,
    GameState,
    Participant,
    ResultKind,
    Tournament,
    User,
)
from notation.full import format_full
from notation.pdn import PdnGame, iter_pdn, write_pdn
from notation.rules import GameType as BoardType

MAX_BYTES = 4 * 1024 * 1024

_RESULTS = {
    "1-0": GameResult.WHITE_WIN, "2-0": GameResult.WHITE_WIN,
    "0-1": GameResult.BLACK_WIN, "0-2": GameResult.BLACK_WIN,
    "1/2-1/2": GameResult.DRAW, "1-1": GameResult.DRAW,
    "0-0": GameResult.DOUBLE_LOSS,
}


class ArchiveError(ValueError):
    """The file as a whole cannot be read (size, encoding)."""


@dataclass
class ArchiveGame:
    """One game of the archive: what it would become, and why it cannot if it cannot."""

    number: int
    white: str
    black: str
    round: int | None
    result: GameResult | None
    white_id: int | None = None
    black_id: int | None = None
    played_on: dt.date | None = None
    moves_text: str = ""
    pdn: str = ""
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    game_id: int | None = None

    @property
    def importable(self) -> bool:
        return not self.problems


@dataclass
class ArchiveCheck:
    source: str
    games: list[ArchiveGame]

    @property
    def importable(self) -> list[ArchiveGame]:
        return [game for game in self.games if game.importable]

    @property
    def warning_count(self) -> int:
        return sum(len(game.warnings) for game in self.games)


def decode_archive(data: bytes) -> str:
    """The archive's text: UTF-8 (with or without BOM) or, as older Russian programs write, cp1251."""
    if len(data) > MAX_BYTES:
        raise ArchiveError(_("The file is larger than %(limit)s MB.", limit=MAX_BYTES // (1024 * 1024)))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1251")


def _name_key(name: str) -> str:
    return re.sub(r"[\s.,]+", " ", name.replace("ё", "е").replace("Ё", "Е")).strip().casefold()


def check_archive(session: Session, tournament: Tournament, text: str, source: str) -> ArchiveCheck:
    """Every game of ``text`` checked against the tournament; nothing is written."""
    board_type = BoardType[tournament.game_type.name]
    by_name: dict[str, list[Participant]] = {}
    for participant in tournament.participants:
        by_name.setdefault(_name_key(participant.player.name), []).append(participant)
    seen: set[tuple[int, frozenset[int]]] = set()
    games: list[ArchiveGame] = []
    for number, record in enumerate(iter_pdn(text, default=board_type), start=1):
        entry = _entry(number, record)
        move_word = _("move")
        for issue in record.warnings:
            where = f"{move_word} {issue.move_number}: " if issue.move_number is not None else ""
            entry.warnings.append(where + issue.reason + (f" ({issue.text})" if issue.text and issue.text not in issue.reason else ""))
        for issue in record.errors:
            where = f"{move_word} {issue.move_number}: " if issue.move_number is not None else ""
            entry.problems.append(
                _("The record does not replay (002 §4.2.10): %(where)s%(reason)s", where=where, reason=issue.reason))
        if not record.errors and record.game_type is not board_type:
            entry.problems.append(_("The game is %(found)s; the tournament plays %(plays)s (002 §4.1.4).",
                                    found=record.game_type.value, plays=board_type.value))
        if entry.result is None:
            entry.problems.append(_("No result: only finished games are imported (002 §4.5)."))
        if entry.round is None:
            entry.problems.append(_("No round: the Round tag must give the round's number."))
        for side, name in (("white", entry.white), ("black", entry.black)):
            found = by_name.get(_name_key(name), [])
            if len(found) != 1:
                entry.problems.append(
                    _("%(name)s is not an entry of this tournament.", name=name or "?") if not found
                    else _("%(name)s fits several entries of this tournament.", name=name))
            else:
                setattr(entry, f"{side}_id", found[0].id)
        if entry.white_id is not None and entry.white_id == entry.black_id:
            entry.problems.append(_("A player cannot play himself."))
        if entry.importable and entry.round is not None and entry.white_id and entry.black_id:
            key = (entry.round, frozenset((entry.white_id, entry.black_id)))
            if key in seen or _on_record(session, tournament, entry):
                entry.problems.append(
                    _("A game of these players in round %(round)s is already on record; it is left as it is.",
                      round=entry.round))
            seen.add(key)
        games.append(entry)
    return ArchiveCheck(source, games)


def _entry(number: int, record: PdnGame) -> ArchiveGame:
    round_text = record.headers.get("Round", "").strip().split(".")[0]
    entry = ArchiveGame(
        number=number,
        white=record.headers.get("White", "").strip(),
        black=record.headers.get("Black", "").strip(),
        round=int(round_text) if round_text.isdigit() and int(round_text) > 0 else None,
        result=_RESULTS.get(record.result),
        played_on=_date(record.headers.get("Date", "")),
    )
    if not record.errors:
        position = record.start
        words = []
        for move in record.moves:
            words.append(format_full(position, move))
            position = position.play(move)
        entry.moves_text = " ".join(words)
        entry.pdn = write_pdn(record)
    return entry


def _date(text: str) -> dt.date | None:
    match = re.fullmatch(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", text.strip())
    if not match:
        return None
    try:
        return dt.date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def _on_record(session: Session, tournament: Tournament, entry: ArchiveGame) -> bool:
    a, b = entry.white_id, entry.black_id
    found = session.scalar(
        select(Game.id).where(
            Game.tournament_id == tournament.id,
            Game.round == entry.round,
            or_(and_(Game.white_id == a, Game.black_id == b), and_(Game.white_id == b, Game.black_id == a)),
        )
    )
    return found is not None


def import_archive(
    session: Session, tournament: Tournament, text: str, source: str, user: User | None
) -> ArchiveCheck:
    """Check the archive and add every importable game; the others are reported, not written."""
    check = check_archive(session, tournament, text, source)
    for entry in check.importable:
        entry.game_id = write_imported_game(session, tournament, entry, source, user).id
    return check


def write_imported_game(
    session: Session, tournament: Tournament, entry: ArchiveGame, source: str, user: User | None
) -> Game:
    """The one place an imported game is written: a finished game and its import record."""
    assert entry.importable and entry.round is not None and entry.white_id and entry.black_id
    game = Game(
        tournament_id=tournament.id,
        round=entry.round,
        white_id=entry.white_id,
        black_id=entry.black_id,
        state=GameState.FINISHED,
        result=entry.result,
        result_kind=ResultKind.PLAYED,
        result_on=entry.played_on,
    )
    session.add(game)
    session.flush()
    session.add(GameImport(
        game_id=game.id, source=source[:300], game_number=entry.number, pdn=entry.pdn,
        moves_text=entry.moves_text, warnings=list(entry.warnings),
        imported_by_id=user.id if user is not None else None,
    ))
    audit_record(
        session, user=user, action="game.import", entity="game", entity_id=game.id,
        tournament_id=tournament.id, rule="002 §4.5",
        summary=f"{source} #{entry.number}: round {entry.round}, {entry.white} - {entry.black}, {entry.result}",
        detail={"source": source, "game_number": entry.number, "warnings": list(entry.warnings)},
    )  # fmt: skip
    session.flush()
    return game
