"""The engine's own JSON tournament format (``docs/scoring.md`` describes every field).

:func:`read_json` collects every defect it finds and raises one
:class:`~scoring.errors.FormatError` listing them; :func:`to_json` writes the same shape back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from scoring.errors import FormatError, ScoringError
from scoring.model import (
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

FORMAT = "corrmail-scoring/1"
_UNPAIRED = {"bye": Result.BYE, "absent": Result.ABSENT}
T = TypeVar("T")


def to_data(tournament: Tournament) -> dict[str, Any]:
    points = tournament.points
    return {
        "format": FORMAT,
        "name": tournament.name,
        "system": tournament.system.value,
        "cycles": tournament.cycles,
        "rounds": tournament.rounds,
        "points": [points.win, points.draw, points.loss],
        "players": [
            {"start_no": p.start_no, "name": p.name, "rating": p.rating, "club": p.club, "federation": p.federation}
            for p in tournament.players
        ],
        "games": [
            {
                "round": g.round,
                "white": g.white,
                "black": g.black,
                "result": g.result.value,
                "adjudicated": g.adjudicated,
                "annulled": g.annulled,
                "in_progress": g.in_progress,
            }
            for g in tournament.games
        ],
        "unpaired": [
            {"round": u.round, "player": u.player, "result": "bye" if u.result is Result.BYE else "absent"}
            for u in tournament.unpaired
        ],
        "withdrawals": [
            {"player": w.player, "after_round": w.after_round, "decision": w.decision.value} for w in tournament.withdrawals
        ],
        "teams": [{"name": t.name, "members": list(t.members)} for t in tournament.teams],
        "playoff": [list(group) for group in tournament.playoff],
        "team_playoff": [list(group) for group in tournament.team_playoff],
        "header": dict(tournament.header),
    }


def to_json(tournament: Tournament) -> str:
    return json.dumps(to_data(tournament), ensure_ascii=False, indent=2) + "\n"


def read_json(text: str, source: str = "JSON") -> Tournament:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(source, [f"not JSON: {error}"]) from None
    if not isinstance(data, dict):
        raise FormatError(source, ["the top level must be an object"])
    problems: list[str] = []

    def each(key: str, build: Callable[[dict[str, Any]], T]) -> tuple[T, ...]:
        items = data.get(key, [])
        if not isinstance(items, list):
            problems.append(f"{key}: must be a list")
            return ()
        built: list[T] = []
        for index, item in enumerate(items):
            try:
                if not isinstance(item, dict):
                    raise TypeError("must be an object")
                built.append(build(item))
            except (KeyError, TypeError, ValueError) as error:
                problems.append(f"{key}[{index}]: {error!s}" if not isinstance(error, KeyError) else f"{key}[{index}]: missing {error}")
        return tuple(built)

    players = each(
        "players",
        lambda d: Player(int(d["start_no"]), str(d["name"]), _optional_int(d.get("rating")), str(d.get("club") or ""), str(d.get("federation") or "")),
    )
    games = each(
        "games",
        lambda d: Game(int(d["round"]), int(d["white"]), int(d["black"]), GameResult.parse(str(d.get("result", "*"))), bool(d.get("adjudicated", False)), bool(d.get("annulled", False)), bool(d.get("in_progress", False))),
    )
    unpaired = each("unpaired", lambda d: Unpaired(int(d["round"]), int(d["player"]), _UNPAIRED[str(d.get("result", "bye"))]))
    withdrawals = each(
        "withdrawals", lambda d: Withdrawal(int(d["player"]), int(d["after_round"]), WithdrawalDecision(str(d.get("decision", "auto"))))
    )
    teams = each("teams", lambda d: Team(str(d["name"]), tuple(int(m) for m in d["members"])))
    try:
        raw_points = data.get("points", [1, 0.5, 0])
        points = PointSystem(*(float(v) for v in raw_points)) if isinstance(raw_points, list) else PointSystem.parse(str(raw_points))
    except (ScoringError, TypeError, ValueError) as error:
        problems.append(f"points: {error}")
        points = PointSystem()
    try:
        system = TournamentSystem(str(data.get("system", "swiss")))
    except ValueError:
        problems.append(f"system: {data.get('system')!r} is neither 'swiss' nor 'round-robin'")
        system = TournamentSystem.SWISS
    if problems:
        raise FormatError(source, problems)
    try:
        return Tournament(
            players=players,
            games=games,
            unpaired=unpaired,
            withdrawals=withdrawals,
            teams=teams,
            system=system,
            cycles=int(data.get("cycles", 1)),
            rounds=_optional_int(data.get("rounds")),
            points=points,
            playoff=tuple(tuple(int(s) for s in group) for group in data.get("playoff", [])),
            team_playoff=tuple(tuple(str(t) for t in group) for group in data.get("team_playoff", [])),
            name=str(data.get("name", "")),
            header={str(k): str(v) for k, v in dict(data.get("header", {})).items()},
        )
    except ScoringError as error:
        raise FormatError(source, [str(error)]) from None


def _optional_int(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str | float):
        raise TypeError(f"expected a number, got {value!r}")
    return int(value)
