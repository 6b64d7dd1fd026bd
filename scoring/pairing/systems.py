"""The four programs of ``000 §3.18.4–3.18.7``: how each one orders, folds and floats a score group.

A program here is only the *order* in which the rulebook tries things: who is paired first,
which opponents he is offered and in what order, who floats down and whom he meets.  Legality
(``000 §3.18.2``) and the look-ahead that replaces the rulebook's breaking of pairs live in
:mod:`scoring.pairing.engine`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from scoring.pairing.model import Entrant, PairingSystem

__all__ = [
    "Accept",
    "truncated_solkoff",
    "current_buchholz",
    "group_order",
    "round_one_pairs",
    "floater_candidates",
    "floater_opponents",
    "pair_within_group",
]

Accept = Callable[[int, int], bool]


def truncated_solkoff(entrant: Entrant, scores: Mapping[int, float]) -> float:
    """``000 §3.16.8`` as ``000 §3.18.6.2`` uses it: opponents' points without the worst one."""
    points = sorted(scores[opponent] for opponent in entrant.opponents)
    return float(sum(points[1:]))


def current_buchholz(entrant: Entrant, scores: Mapping[int, float]) -> float:
    """``000 §3.16.6`` on the current scores: the sum of the points of every opponent met."""
    return float(sum(scores[opponent] for opponent in entrant.opponents))


def group_order(
    system: PairingSystem,
    members: Sequence[Entrant],
    round_no: int,
    scores: Mapping[int, float],
    lot: random.Random,
    *,
    for_pairing: bool = True,
) -> list[Entrant]:
    """The order of one score group before pairing (``for_pairing=False``: the classification
    itself, without the even-round reversal, for the bye and colours of ``000 §3.18.2``).

    * random (``000 §3.18.4``): the order in which the lots are drawn;
    * coefficients (``000 §3.18.5.3``): start numbers ascending in odd rounds, descending in even;
    * Solkoff (``000 §3.18.6.2``): as coefficients in round 2, from round 3 truncated Solkoff
      descending, then start number;
    * Buchholz (``000 §3.18.7.3``): start numbers before round 2; from round 3 current Buchholz
      descending, then start number (our completion of the cut-off text).

    ``secondary`` (a team's game points, ``000 §3.17.6``) comes before all of these.
    """
    ordered = sorted(members, key=lambda e: e.start_no)
    if system is PairingSystem.RANDOM:
        lot.shuffle(ordered)
    elif system is PairingSystem.COEFFICIENTS or round_no < 3:
        if for_pairing and round_no % 2 == 0 and system is not PairingSystem.BUCHHOLZ:
            ordered.reverse()
    elif system is PairingSystem.SOLKOFF:
        ordered.sort(key=lambda e: -truncated_solkoff(e, scores))
    else:
        ordered.sort(key=lambda e: -current_buchholz(e, scores))
    ordered.sort(key=lambda e: -e.secondary)
    return ordered


def round_one_pairs(system: PairingSystem, ranked: Sequence[int]) -> list[tuple[int, int]]:
    """Round 1 pairs, each written (top-half player, opponent), for an even number of players.

    random (``000 §3.18.4``): 1–2, 3–4, …; coefficients and Solkoff (``000 §3.18.5.2``): top
    half against bottom half in order; Buchholz (``000 §3.18.7.2``): first against last.
    """
    half = len(ranked) // 2
    if system is PairingSystem.RANDOM:
        return [(ranked[i], ranked[i + 1]) for i in range(0, len(ranked), 2)]
    if system is PairingSystem.BUCHHOLZ:
        return [(ranked[i], ranked[-1 - i]) for i in range(half)]
    return [(ranked[i], ranked[half + i]) for i in range(half)]


def floater_candidates(system: PairingSystem, order: Sequence[int]) -> list[int]:
    """Who goes down from an odd group, in the order they are tried.

    The last first (``000 §3.18.5.4``; the last drawn in a blind draw), the first first for
    current Buchholz (``000 §3.18.7.4``).
    """
    return list(order) if system is PairingSystem.BUCHHOLZ else list(reversed(order))


def floater_opponents(system: PairingSystem, order: Sequence[int]) -> list[int]:
    """Whom a floater meets in the next group, in order: the first, second, … (``000 §3.18.5.4``)
    or the last, last but one, … (``000 §3.18.7.4``)."""
    return list(reversed(order)) if system is PairingSystem.BUCHHOLZ else list(order)


def pair_within_group(
    system: PairingSystem, order: Sequence[int], accept: Accept
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair a score group in the program's order; returns the pairs and whoever found nobody.

    ``accept(a, b)`` is asked about candidates in the rulebook's order and must say whether
    ``a``–``b`` may be fixed (it commits when it says yes).  Because ``accept`` looks ahead,
    the first yes is the pair the rulebook's breaking of pairs (``000 §3.18.5.5``) would end
    with: it keeps every earlier pair and changes the latest ones first.
    """
    if system is PairingSystem.COEFFICIENTS or system is PairingSystem.SOLKOFF:
        return _pair_by_halves(order, accept)
    pairs: list[tuple[int, int]] = []
    unpaired: list[int] = []
    remaining = list(order)
    while remaining:
        player = remaining.pop(0)
        candidates = reversed(remaining) if system is PairingSystem.BUCHHOLZ else iter(remaining)
        partner = next((c for c in candidates if accept(player, c)), None)
        if partner is None:
            unpaired.append(player)
        else:
            remaining.remove(partner)
            pairs.append((player, partner))
    return pairs, unpaired


def _pair_by_halves(
    order: Sequence[int], accept: Accept
) -> tuple[list[tuple[int, int]], list[int]]:
    """``000 §3.18.5.5``: first of the top half against the first possible of the bottom half,
    then against the last, last but one, … of the top half.

    When one half runs out, what is left is halved again: the only reading under which "first of
    the top half against first of the bottom half" still means something.
    """
    pairs: list[tuple[int, int]] = []
    unpaired: list[int] = []
    top = list(order[: len(order) // 2])
    bottom = list(order[len(order) // 2 :])
    while top or bottom:
        if not top:
            if len(bottom) == 1:
                unpaired.append(bottom.pop())
                break
            top, bottom = bottom[: len(bottom) // 2], bottom[len(bottom) // 2 :]
        player = top.pop(0)
        partner = next((c for c in bottom if accept(player, c)), None)
        if partner is not None:
            bottom.remove(partner)
        else:
            partner = next((c for c in reversed(top) if accept(player, c)), None)
            if partner is not None:
                top.remove(partner)
        if partner is None:
            unpaired.append(player)
        else:
            pairs.append((player, partner))
    return pairs, unpaired
