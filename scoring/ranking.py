"""Places from points and an ordered list of criteria (000 §3.16.1–3.16.3, 003 §1–6).

Participants are sorted by points; each criterion in turn splits the groups still level.
A criterion sees the group it has to split and the provisional order of everyone (needed for
"the best result against the others in order of places", 001 §5.4.8.2). A recorded play-off
overrides the order for the players in it (000 §3.16.2, 003 §2.5); whoever is still level at
the end shares the place ("3-4", 003 §2.6) or, if the regulations say so, is separated by lot
(003 §1).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from scoring.errors import PlayoffError

P = TypeVar("P", bound=Hashable)

#: Comparison key of a criterion: tuples compare element by element, higher is better.
Key = tuple[float, ...]

#: Tolerance for comparing sums of floats (averages under the russian policy).
EPSILON = 1e-9


class TiebreakValue(NamedTuple):
    """A criterion's value for one participant: what is printed, and what is compared."""

    display: float | None
    key: Key

    @classmethod
    def of(cls, value: float) -> TiebreakValue:
        return cls(value, (value,))


#: A criterion: given the level group and the provisional order of everyone, a value per member.
Criterion = Callable[[Sequence[P], Sequence[P]], Mapping[P, TiebreakValue]]


def direct_encounter_values(
    group: Sequence[P], points: Mapping[P, float], met: Mapping[P, set[P]], full_score: float
) -> dict[P, TiebreakValue]:
    """Direct encounter among the level ``group`` (003 §9.8, 000 §3.16.3, 000 §3.17.6).

    ``points[p]``: what ``p`` scored against the others of the group; ``met[p]``: whom of them he
    met; ``full_score``: a win (a match win for teams). If everyone met everyone, the points
    decide. Otherwise a participant is placed first only when no other could reach his points by
    winning all his missing encounters; then the next, and so on; the rest stay level."""
    others = len(group) - 1
    if all(len(met[p]) == others for p in group):
        return {p: TiebreakValue.of(points[p]) for p in group}
    reachable = {p: points[p] + full_score * (others - len(met[p])) for p in group}
    values: dict[P, TiebreakValue] = {}
    remaining = list(group)
    tier = len(group)
    while remaining:
        leaders = [p for p in remaining if all(points[p] > reachable[q] + EPSILON for q in remaining if q != p)]
        if not leaders:
            break
        leader = leaders[0]
        values[leader] = TiebreakValue(points[leader], (float(tier),))
        remaining.remove(leader)
        tier -= 1
    for p in remaining:
        values[p] = TiebreakValue(points[p], (0.0,))
    return values


class TieRule(enum.Enum):
    """What to do with participants level after every criterion."""

    SHARED = "shared"
    LOT = "lot"


@dataclass
class Ranked(Generic[P]):
    participant: P
    position: int
    place: str
    values: dict[str, float | None] = field(default_factory=dict)
    by_lot: bool = False


def rank(
    participants: Sequence[P],
    primary: Mapping[P, float],
    criteria: Sequence[tuple[str, Criterion[P]]],
    playoff: Sequence[Sequence[P]] = (),
    tie_rule: TieRule = TieRule.SHARED,
    seed: int = 0,
) -> list[Ranked[P]]:
    """Rank ``participants`` (given in their tiebreak-free order, e.g. start numbers)."""
    seat = {participant: index for index, participant in enumerate(participants)}
    ordered = sorted(participants, key=lambda p: (-_rounded(primary[p]), seat[p]))
    groups = _split(ordered, {p: (primary[p],) for p in ordered})
    values: dict[P, dict[str, float | None]] = {p: {} for p in participants}
    for name, criterion in criteria:
        provisional = [p for group in groups for p in group]
        regrouped: list[list[P]] = []
        for group in groups:
            evaluated = criterion(group, provisional)
            for member in group:
                values[member][name] = evaluated[member].display
            if len(group) == 1:
                regrouped.append(group)
                continue
            keys = {member: evaluated[member].key for member in group}
            ordered_group = sorted(group, key=lambda p: tuple(-_rounded(k) for k in keys[p]))
            regrouped.extend(_split(ordered_group, keys))
        groups = regrouped
    groups = _apply_playoff(groups, primary, playoff)
    return _places(groups, values, tie_rule, seed)


def _rounded(value: float) -> float:
    return round(value / EPSILON) * EPSILON


def _split(ordered: list[P], keys: Mapping[P, Key]) -> list[list[P]]:
    groups: list[list[P]] = []
    for participant in ordered:
        if groups and _same(keys[groups[-1][0]], keys[participant]):
            groups[-1].append(participant)
        else:
            groups.append([participant])
    return groups


def _same(first: Key, second: Key) -> bool:
    return len(first) == len(second) and all(abs(a - b) < EPSILON for a, b in zip(first, second, strict=True))


def _apply_playoff(groups: list[list[P]], primary: Mapping[P, float], playoff: Sequence[Sequence[P]]) -> list[list[P]]:
    """The play-off's players take the places they occupy together, in the play-off's order;
    players of one play-off group stay level (003 §2.6). Within a group the criteria left level,
    the play-off's players go first: the play-off was for the higher of those places."""
    if not playoff:
        return groups
    in_playoff = [p for group in playoff for p in group]
    unknown = [p for p in in_playoff if p not in primary]
    if unknown:
        raise PlayoffError(tuple(in_playoff), f"{unknown} take no place in this table",
                           code="takes_no_place", values={"numbers": str(unknown)})
    if len(set(in_playoff)) != len(in_playoff):
        raise PlayoffError(tuple(in_playoff), "a player is listed twice", code="listed_twice")
    if len({_rounded(primary[p]) for p in in_playoff}) > 1:
        raise PlayoffError(tuple(in_playoff), "a play-off is only for players level on points (000 §3.16.2)",
                           code="not_level")
    finishing = iter([(index, p) for index, group in enumerate(playoff) for p in group])
    members = set(in_playoff)
    result: list[list[P]] = []
    last_tag: tuple[str, int] | None = None
    for index, group in enumerate(groups):
        ordered = [p for p in group if p in members] + [p for p in group if p not in members]
        for participant in ordered:
            if participant in members:
                playoff_group, participant = next(finishing)
                tag = ("playoff", playoff_group)
            else:
                tag = ("criteria", index)
            if tag == last_tag:
                result[-1].append(participant)
            else:
                result.append([participant])
                last_tag = tag
    return result


def _places(
    groups: list[list[P]], values: dict[P, dict[str, float | None]], tie_rule: TieRule, seed: int
) -> list[Ranked[P]]:
    lot = random.Random(seed)
    ranked: list[Ranked[P]] = []
    position = 1
    for group in groups:
        if tie_rule is TieRule.LOT and len(group) > 1:
            drawn = list(group)
            lot.shuffle(drawn)
            for offset, participant in enumerate(drawn):
                ranked.append(Ranked(participant, position + offset, str(position + offset), values[participant], True))
        else:
            last = position + len(group) - 1
            place = str(position) if last == position else f"{position}-{last}"
            ranked.extend(Ranked(participant, position, place, values[participant]) for participant in group)
        position += len(group)
    return ranked
