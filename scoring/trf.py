"""FIDE TRF-16, the tournament report file that pairing and tiebreak tools exchange.

Reading is lenient: :func:`read_trf` keeps every record it can make sense of and collects a
message for each defect (an inconsistent pair of results, a player meeting himself, an unknown
opponent, …), like python-chess collects errors while reading PGN. :func:`load_trf` is the
strict wrapper: it raises :class:`~scoring.errors.FormatError` listing them all.

Besides the standard lines (``012`` name, ``0x2`` header, ``001`` players, ``013`` teams) the file
carries the point system in bbpPairings' extension lines ``BBW``/``BBD``/``BBL`` (points for a win,
a draw, a loss), the planned number of rounds in ``XXR`` (JaVaFo, bbpPairings; ``142`` in the
TRF-2025 files bbpPairings writes), and what TRF-16 has no line for in our own ``CM?`` extension
lines, documented in ``docs/scoring.md``.  Files of other programs name the system in their
``092`` line (Swiss-Manager: ``Individual: Round Robin``, ``Team: Swiss-System``; bbpPairings:
``FIDE_DUTCH_2025``): it is read when no ``CMS`` line says otherwise, and written for them::

    CMS round-robin 2      system and cycles (swiss | round-robin)
    CMW 12 5 keep          player 12 withdrew after round 5 (auto | keep | annul)
    CMA 3 12               the round-3 game of player 12 was adjudicated (000 §3.14.4)
    CMN 3 12               the round-3 game of player 12 is annulled (000 §3.14.3)
    CMP 3 7 / 5            recorded play-off: 3 and 7 share first, then 5 (000 §3.16.2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from scoring.errors import FormatError, PointSystemError, ScoringError
from scoring.model import (
    Colour,
    Game,
    Player,
    Team,
    Tournament,
    TournamentSystem,
    Unpaired,
    Withdrawal,
    WithdrawalDecision,
)
from scoring.points import PointSystem
from scoring.result import GameResult, Result

#: Header codes of TRF-16 and what they hold; ``012`` is the tournament name.
HEADER_CODES = {
    "022": "city",
    "032": "federation",
    "042": "start_date",
    "052": "end_date",
    "062": "players",
    "072": "rated_players",
    "082": "teams",
    "092": "type",
    "102": "chief_arbiter",
    "112": "deputy_arbiters",
    "122": "time_control",
    "132": "round_dates",
}
_CODE_BY_HEADER = {name: code for code, name in HEADER_CODES.items()}
_ROUNDS_COLUMN = 89  # 0-based start of round 1's block: two spaces, opponent at columns 92–95
_ROUND_WIDTH = 10
_PLAYED = {"1": Result.WIN, "=": Result.DRAW, "0": Result.LOSS, "W": Result.WIN, "D": Result.DRAW, "L": Result.LOSS}
_FORFEIT = {"+": Result.FORFEIT_WIN, "-": Result.FORFEIT_LOSS}


@dataclass
class TrfReading:
    """What :func:`read_trf` made of a file: the tournament and every defect found."""

    tournament: Tournament
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Side:
    line_no: int
    opponent: int
    colour: str
    result: str


def read_trf(text: str) -> TrfReading:
    """Read a TRF-16 file leniently; see the module docstring."""
    errors: list[str] = []
    players: list[Player] = []
    sides: dict[tuple[int, int], _Side] = {}
    teams: list[Team] = []
    header: dict[str, str] = {}
    name = ""
    rounds: int | None = None
    point_values: dict[str, float] = {}
    system = TournamentSystem.SWISS
    cycles = 1
    system_line: str | None = None
    withdrawals: list[Withdrawal] = []
    marks: list[tuple[str, int, int, int]] = []
    playoff: list[tuple[int, ...]] = []
    stated_points: dict[int, tuple[int, float]] = {}

    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        code, rest = line[:3], line[4:].strip()
        try:
            if code == "001":
                player, player_sides, stated = _read_player(line, line_no)
                if any(known.start_no == player.start_no for known in players):
                    errors.append(f"line {line_no}: start number {player.start_no} appears twice")
                    continue
                players.append(player)
                if stated is not None:
                    stated_points[player.start_no] = (line_no, stated)
                for round_no, side in player_sides.items():
                    sides[(round_no, player.start_no)] = side
            elif code == "012":
                name = rest
            elif code in HEADER_CODES:
                header[HEADER_CODES[code]] = rest
            elif code == "013":
                teams.append(_read_team(line))
            elif code in ("XXR", "142"):
                rounds = int(rest.split()[0])
            elif code in ("BBW", "BBD", "BBL"):
                point_values[code] = float(rest.split()[0])
            elif code == "CMS":
                fields = rest.split()
                system = TournamentSystem(fields[0])
                cycles = int(fields[1]) if len(fields) > 1 else 1
                system_line = code
            elif code == "CMW":
                fields = rest.split()
                decision = WithdrawalDecision(fields[2]) if len(fields) > 2 else WithdrawalDecision.AUTO
                withdrawals.append(Withdrawal(int(fields[0]), int(fields[1]), decision))
            elif code in ("CMA", "CMN"):
                round_text, player_text = rest.split()[:2]
                marks.append((code, int(round_text), int(player_text), line_no))
            elif code == "CMP":
                playoff.extend(
                    tuple(int(number) for number in group.split()) for group in rest.split("/") if group.strip()
                )
        except (ValueError, IndexError) as error:
            errors.append(f"line {line_no}: cannot read {code!r} line: {error}")

    if system_line is None and "type" in header:
        named = system_of_type_line(header["type"])
        if named is None:
            errors.append(f"092 line: cannot tell the system from {header['type']!r} (round robin or Swiss)")
        else:
            system, cycles = named
    try:
        points = PointSystem(
            point_values.get("BBW", 1.0), point_values.get("BBD", 0.5), point_values.get("BBL", 0.0)
        )
    except PointSystemError as error:
        errors.append(str(error))
        points = PointSystem()

    known = {player.start_no for player in players}
    games, unpaired = _assemble(sides, known, errors)
    games = _apply_marks(games, marks, errors)
    known_withdrawals = [w for w in withdrawals if w.player in known]
    errors.extend(f"withdrawal: no player {w.player}" for w in withdrawals if w.player not in known)
    known_teams = []
    for team in teams:
        missing = [start_no for start_no in team.members if start_no not in known]
        if missing:
            errors.append(f"team {team.name!r}: no player(s) {missing}")
        known_teams.append(Team(team.name, tuple(s for s in team.members if s in known)))
    try:
        tournament = Tournament(
            players=tuple(players),
            games=tuple(games),
            unpaired=tuple(unpaired),
            withdrawals=tuple(known_withdrawals),
            teams=tuple(known_teams),
            system=system,
            cycles=cycles,
            rounds=rounds,
            points=points,
            playoff=tuple(playoff),
            name=name,
            header=header,
        )
    except ScoringError as error:
        errors.append(str(error))
        tournament = Tournament(players=tuple(players), points=points, name=name, header=header)
    for start_no, (line_no, listed) in sorted(stated_points.items()):
        computed = tournament.scores[start_no]
        if abs(computed - listed) > 1e-9:
            errors.append(
                f"line {line_no}: player {start_no} is listed with {listed:g} points "
                f"but the results give {computed:g} (000 §3.15)"
            )
    return TrfReading(tournament, errors)


def load_trf(text: str, source: str = "TRF") -> Tournament:
    """Read a TRF-16 file, raising :class:`FormatError` listing every defect if there is any."""
    reading = read_trf(text)
    if reading.errors:
        raise FormatError(source, reading.errors)
    return reading.tournament


def system_of_type_line(text: str) -> tuple[TournamentSystem, int] | None:
    """System and cycles a ``092`` line names, as Swiss-Manager, JaVaFo and bbpPairings write it.

    ``Individual: Round Robin``, ``Team: Double Round Robin``, ``Individual: Swiss-System``,
    ``FIDE_DUTCH_2025``, ``FIDE_BURSTEIN``…; None when the text names neither.
    """
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    joined = " ".join(words)
    if "round robin" in joined or "roundrobin" in words or "rr" in words or "berger" in words:
        cycles = 2 if "double" in words else 1
        return TournamentSystem.ROUND_ROBIN, cycles
    if any(word in words for word in ("swiss", "dutch", "burstein", "dubov", "lim", "monrad")):
        return TournamentSystem.SWISS, 1
    return None


def type_line(tournament: Tournament) -> str:
    """The ``092`` text other programs read for this tournament (Swiss-Manager's wording)."""
    kind = "Team" if tournament.teams else "Individual"
    if tournament.system is TournamentSystem.SWISS:
        return f"{kind}: Swiss-System"
    return f"{kind}: {'Double ' if tournament.cycles == 2 else ''}Round Robin"


def _read_player(line: str, line_no: int) -> tuple[Player, dict[int, _Side], float | None]:
    padded = line.ljust(_ROUNDS_COLUMN)
    start_no = int(padded[4:8])
    rating_text = padded[48:52].strip()
    points_text = padded[80:84].strip()
    player = Player(
        start_no=start_no,
        name=padded[14:47].strip(),
        rating=int(rating_text) if rating_text and int(rating_text) > 0 else None,
        federation=padded[53:56].strip(),
        title=padded[10:13].strip(),
        sex=padded[9:10].strip(),
        fide_id=padded[57:68].strip(),
        birth_date=padded[69:79].strip(),
    )
    sides: dict[int, _Side] = {}
    blocks = line[_ROUNDS_COLUMN:]
    for index in range(0, len(blocks), _ROUND_WIDTH):
        block = blocks[index : index + _ROUND_WIDTH].ljust(_ROUND_WIDTH)
        if not block.strip():
            continue
        opponent_text, colour, result = block[2:6].strip(), block[7], block[9]
        if not opponent_text.isdigit() or colour not in "wb- ":
            raise ValueError(f"round {index // _ROUND_WIDTH + 1}: unreadable block {block!r}")
        sides[index // _ROUND_WIDTH + 1] = _Side(line_no, int(opponent_text), colour, result)
    return player, sides, float(points_text) if points_text else None


def _read_team(line: str) -> Team:
    members = tuple(int(number) for number in re.findall(r"\d+", line[36:]))
    return Team(line[4:36].strip(), members)


def _assemble(
    sides: Mapping[tuple[int, int], _Side], known: set[int], errors: list[str]
) -> tuple[list[Game], list[Unpaired]]:
    """Join the two sides of every game, checking that they agree (000 §3.15)."""
    games: list[Game] = []
    unpaired: list[Unpaired] = []
    for (round_no, start_no), side in sorted(sides.items()):
        where = f"line {side.line_no}, round {round_no}"
        if side.opponent == 0:
            if side.result in ("U", "F", "+"):
                unpaired.append(Unpaired(round_no, start_no, Result.BYE))
            elif side.result in ("Z", "0", "-"):
                unpaired.append(Unpaired(round_no, start_no, Result.ABSENT))
            elif side.result == "H":
                errors.append(f"{where}: half-point bye H is not in the rulebook (000 §3.18.2: + or 0)")
            elif side.result != " ":
                errors.append(f"{where}: result {side.result!r} without an opponent")
            continue
        if side.opponent == start_no:
            errors.append(f"{where}: player {start_no} cannot meet himself")
            continue
        if side.opponent not in known:
            errors.append(f"{where}: opponent {side.opponent} of player {start_no} is not in the file")
            continue
        other = sides.get((round_no, side.opponent))
        if other is None or other.opponent != start_no:
            listed = "nobody" if other is None or other.opponent == 0 else f"player {other.opponent}"
            errors.append(
                f"{where}: player {start_no} is paired with {side.opponent}, "
                f"whose line lists {listed} in that round"
            )
            continue
        if start_no > side.opponent:
            continue  # joined when the lower start number was reached
        game = _join(round_no, start_no, side, other, errors)
        if game is not None:
            games.append(game)
    return games, unpaired


def _join(round_no: int, start_no: int, side: _Side, other: _Side, errors: list[str]) -> Game | None:
    where = f"lines {side.line_no}/{other.line_no}, round {round_no}"
    colours = side.colour + other.colour
    if colours in ("ww", "bb"):
        errors.append(f"{where}: players {start_no} and {side.opponent} both have colour {side.colour!r}")
        return None
    # Without colours (a forfeit written "-") the lower start number is taken as white.
    partner_is_white = side.colour == "b" or other.colour == "w"
    white, black = (side.opponent, start_no) if partner_is_white else (start_no, side.opponent)
    white_side, black_side = (side, other) if white == start_no else (other, side)
    white_result = _side_result(white_side.result)
    black_result = _side_result(black_side.result)
    if white_result is None or black_result is None:
        errors.append(f"{where}: unknown result character in {side.result!r}/{other.result!r}")
        return None
    result = GameResult.from_sides(white_result, black_result)
    if result is None:
        errors.append(
            f"{where}: inconsistent results {white_side.result!r} (player {white}) and "
            f"{black_side.result!r} (player {black}) (000 §3.15)"
        )
        return None
    return Game(round_no, white, black, result)


def _side_result(char: str) -> Result | None:
    if char == " ":
        return Result.PENDING
    return _PLAYED.get(char) or _FORFEIT.get(char)


def _apply_marks(games: list[Game], marks: list[tuple[str, int, int, int]], errors: list[str]) -> list[Game]:
    index = {(game.round, player): position for position, game in enumerate(games) for player in (game.white, game.black)}
    for code, round_no, start_no, line_no in marks:
        position = index.get((round_no, start_no))
        if position is None:
            errors.append(f"line {line_no}: player {start_no} has no game in round {round_no}")
            continue
        game = games[position]
        if code == "CMA":
            if not game.result.sides[0].is_played:
                errors.append(f"line {line_no}: only a game with a result over the board is adjudicated (002 §4.5)")
                continue
            games[position] = replace(game, adjudicated=True)
        else:
            games[position] = replace(game, annulled=True)
    return games


def _rating(rating: int | None) -> str:
    """The rating field (columns 49–52): blank for an unrated player, as TRF-16 writes him and
    :func:`_read_player` reads him; a 0 there is a rating of zero to a rating office."""
    return f"{rating:4d}" if rating else "    "


def write_trf(tournament: Tournament, ranks: Mapping[int, int] | None = None) -> str:
    """The tournament as TRF-16 text; ``ranks`` (start number → place) fills the rank column."""
    lines = [f"012 {tournament.name}".rstrip()]
    for key, value in tournament.header.items():
        if key in _CODE_BY_HEADER and key != "type":
            lines.append(f"{_CODE_BY_HEADER[key]} {value}".rstrip())

    blocks = _round_blocks(tournament)
    last_recorded: dict[int, int] = {}
    for round_no, start_no in blocks:
        last_recorded[start_no] = max(round_no, last_recorded.get(start_no, 0))
    for player in sorted(tournament.players, key=lambda p: p.start_no):
        rank = (ranks or {}).get(player.start_no, 0)
        line = (
            f"001 {player.start_no:4d} {player.sex[:1]:1}{player.title[:3]:>3} {player.name[:33]:<33} "
            f"{_rating(player.rating)} {player.federation[:3]:<3} {player.fide_id[:11]:>11} "
            f"{player.birth_date[:10]:<10} {tournament.scores[player.start_no]:4.1f} {rank:4d}"
        )
        # A line ends with the player's last recorded round, and every block keeps its ten
        # columns even when its result is blank (a pending game, a round without a record):
        # pairing programs such as bbpPairings read a block only whole, and read a block after
        # the last played round as a pre-set absence from the round being paired.
        for round_no in range(1, last_recorded.get(player.start_no, 0) + 1):
            line += blocks.get((round_no, player.start_no), "  0000 -  ")
        lines.append(line)
    for team in tournament.teams:
        lines.append(f"013 {team.name[:32]:<32}" + "".join(f" {member:4d}" for member in team.members))
    # After the players, as bbpPairings writes it: a 092 line read from another program's file
    # is kept when it names the same system.
    stated = tournament.header.get("type")
    if stated is None or system_of_type_line(stated) != (tournament.system, tournament.cycles):
        stated = type_line(tournament)
    lines.append(f"092 {stated}")
    if tournament.rounds is not None:
        lines.append(f"XXR {tournament.rounds}")
    points = tournament.points
    lines += [f"BBW {points.win:4.1f}", f"BBD {points.draw:4.1f}", f"BBL {points.loss:4.1f}"]
    lines.append(f"CMS {tournament.system.value} {tournament.cycles}")
    for withdrawal in tournament.withdrawals:
        lines.append(f"CMW {withdrawal.player} {withdrawal.after_round} {withdrawal.decision.value}")
    for game in tournament.games:
        if game.adjudicated:
            lines.append(f"CMA {game.round} {game.white}")
        if game.annulled:
            lines.append(f"CMN {game.round} {game.white}")
    if tournament.playoff:
        lines.append("CMP " + " / ".join(" ".join(str(s) for s in group) for group in tournament.playoff))
    return "\n".join(lines) + "\n"


def _round_blocks(tournament: Tournament) -> dict[tuple[int, int], str]:
    blocks: dict[tuple[int, int], str] = {}
    for game in tournament.games:
        white_result, black_result = game.result.sides
        blocks[(game.round, game.white)] = f"  {game.black:4d} {Colour.WHITE.value} {white_result.value}"
        blocks[(game.round, game.black)] = f"  {game.white:4d} {Colour.BLACK.value} {black_result.value}"
    for entry in tournament.unpaired:
        blocks[(entry.round, entry.player)] = f"  0000 - {entry.result.value}"
    return blocks
