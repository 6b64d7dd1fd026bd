"""Repair a published round that breaks an absolute criterion, touching as few players as possible.

A published pairing stands unless it breaks the absolute criteria (``004``); then the redraw
"must touch the minimum number of participants" (``002``).  Every published pair that is still
legal is kept; the players left without a partner (their pair was illegal, or their opponent
withdrew or is known to be absent) are re-paired among themselves first, and a kept pair is
broken only along a shortest alternating path, i.e. only when those players cannot otherwise
all be paired.  A bye is kept if still due; an odd number gives the bye to the lowest
classified free player who has had no point without play (``000 §3.18.2``).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.pairing.colours import ABSOLUTE_MAX_RUN
from scoring.pairing.criteria import LegalPairs
from scoring.pairing.engine import validate_entrants
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.matching import Matcher
from scoring.pairing.model import Draw, Entrant, Pair

__all__ = ["redraw"]

_BYE = 0  # start numbers begin at 1, so 0 stands for "no partner: the bye"


def redraw(entrants: Sequence[Entrant], published: Draw) -> Draw:
    """The published draw with its illegal pairs repaired; ``entrants`` as before that round,
    with any withdrawal or absence now known."""
    validate_entrants(entrants)
    playing = [e for e in entrants if not e.withdrawn and not e.absent]
    legal = LegalPairs.build(playing, ABSOLUTE_MAX_RUN)
    ranking = sorted(legal.entrants, key=lambda n: (-legal.entrants[n].score, n))
    rank = {n: i for i, n in enumerate(ranking)}
    kept: list[Pair] = []
    notes: list[str] = []
    for pair in published.pairs:
        both_play = pair.white in legal.entrants and pair.black in legal.entrants
        if both_play and legal.allowed(pair.white, pair.black):
            if legal.colours_allowed(pair.white, pair.black):
                kept.append(pair)
            else:
                kept.append(Pair(pair.black, pair.white))
                notes.append(
                    f"pair {pair.white}-{pair.black}: colours swapped to keep the limits (000 §3.18.2)"
                )
        else:
            notes.append(
                f"pair {pair.white}-{pair.black} breaks an absolute criterion: redrawn (004)"
            )
    vertices = list(ranking)
    initial = [(p.white, p.black) for p in kept]

    def eligible_for_bye(player: int) -> bool:
        return not legal.entrants[player].had_point_without_play

    if len(vertices) % 2:
        vertices.append(_BYE)
        if published.bye in legal.entrants and eligible_for_bye(published.bye):
            initial.append((published.bye, _BYE))
        # Free players first, lowest classified first, so that the bye goes there if it can.
        paired = {n for pair in initial for n in pair}
        vertices = (
            [_BYE]
            + [n for n in reversed(ranking) if n not in paired]
            + [n for n in ranking if n in paired]
        )

    def allowed(a: int, b: int) -> bool:
        if a == _BYE or b == _BYE:
            return eligible_for_bye(b if a == _BYE else a)
        return legal.allowed(a, b)

    matcher = Matcher(vertices, allowed, initial)
    if matcher.exposed_count():
        blocked = sorted(n for n in matcher.exposed() if n != _BYE)
        raise NoLegalPairingError(
            published.round_no,
            f"the players {blocked} cannot be paired again without breaking 000 §3.18.2",
            blocked=blocked,
            code="redraw_blocked",
            players=tuple(blocked),
        )
    kept_by_players = {frozenset((p.white, p.black)): p for p in kept}
    pairs: list[Pair] = []
    bye: int | None = None
    touched: list[int] = []
    for a, b in matcher.pairs():
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        standing = kept_by_players.get(frozenset((a, b)))
        if standing is not None:
            pairs.append(standing)
            continue
        touched += [a, b]
        pairs.append(legal.with_colours(a, b, a_first=rank[a] < rank[b]))
    if bye != published.bye:
        touched += [n for n in (bye, published.bye) if n is not None]
    notes.append(
        f"redraw touches players {sorted(set(touched))}; every other pair stands (002, 004)"
    )
    pairs.sort(key=lambda p: min(rank[p.white], rank[p.black]))
    absent = tuple(sorted(e.start_no for e in entrants if e.absent and not e.withdrawn))
    floats = legal.floats(published.round_no, [(p.white, p.black) for p in pairs])
    return Draw(
        published.round_no, published.system, tuple(pairs), bye, absent, tuple(floats), tuple(notes)
    )
