"""Pair the next round of a Swiss event (``000 §3.18``, ``002``, ``004``).

The rulebook's procedure is greedy and top-down: score groups from the top, each in its
program's order, an odd group sending one player down, a dead end repaired by breaking the
latest pairs (``000 §3.18.5.5``).  This module follows that order exactly but never has to break
a pair: before a pair (or a floater) is fixed, a maximum-matching check (:mod:`.matching`) asks
whether everyone still unpaired can still be paired legally.  The first choice that passes is
the one the rulebook's backtracking would end with, and a legal pairing is always found when one
exists; when none exists the error names the players who cannot be served and why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NoReturn

from scoring.errors import ErrorValue
from scoring.pairing.colours import (
    ABSOLUTE_MAX_RUN,
    PREFERRED_MAX_RUN,
    trailing_run,
)
from scoring.pairing.criteria import LegalPairs
from scoring.pairing.errors import EntrantError, NoLegalPairingError, UnknownSystemError
from scoring.pairing.matching import Matcher
from scoring.pairing.model import (
    Colour,
    Draw,
    Entrant,
    Float,
    FloatDirection,
    Pair,
    PairingSystem,
)
from scoring.pairing.pool import Pool
from scoring.pairing.systems import (
    floater_candidates,
    floater_opponents,
    group_order,
    pair_within_group,
    round_one_pairs,
)

__all__ = ["pair_round", "parse_system", "validate_entrants", "lot_for"]


def parse_system(name: str | PairingSystem) -> PairingSystem:
    """``"coefficients"`` → :attr:`PairingSystem.COEFFICIENTS`; anything unknown is an error."""
    if isinstance(name, PairingSystem):
        return name
    try:
        return PairingSystem(name.strip().lower())
    except ValueError:
        raise UnknownSystemError(name, [s.value for s in PairingSystem]) from None


def lot_for(seed: int, round_no: int) -> random.Random:
    """The seeded lot of one round: the same seed and round always draw the same lots."""
    return random.Random(f"corrmail-pairing:{seed}:{round_no}")


def validate_entrants(entrants: Sequence[Entrant]) -> None:
    """Reject histories no tournament can have; each error names the player and the rule."""
    by_number: dict[int, Entrant] = {}
    for entrant in entrants:
        if entrant.start_no < 1:
            raise EntrantError(
                entrant.start_no, "start numbers begin at 1 (000 §3.18.5.1)",
                code="start_number_below_one",
            )
        if entrant.start_no in by_number:
            raise EntrantError(
                entrant.start_no, "start number used twice (000 §3.18.5.1)",
                code="start_number_twice",
            )
        by_number[entrant.start_no] = entrant
    for entrant in entrants:
        if len(entrant.colours) != len(entrant.opponents):
            raise EntrantError(
                entrant.start_no,
                f"{len(entrant.opponents)} games played but {len(entrant.colours)} colours",
                code="colours_not_games",
                games=len(entrant.opponents),
                colours=len(entrant.colours),
            )
        if len(set(entrant.opponents)) != len(entrant.opponents):
            raise EntrantError(
                entrant.start_no, "met the same opponent twice (000 §3.18.2)", code="met_twice"
            )
        for opponent in entrant.opponents:
            if opponent == entrant.start_no:
                raise EntrantError(
                    entrant.start_no, "recorded as meeting himself", code="meets_himself"
                )
            other = by_number.get(opponent)
            if other is None:
                raise EntrantError(
                    entrant.start_no, f"opponent {opponent} is not in the event",
                    code="opponent_not_in_event", opponent=opponent,
                )
            if entrant.start_no not in other.opponents:
                raise EntrantError(
                    entrant.start_no, f"met {opponent}, whose history does not list the game",
                    code="game_not_in_history", opponent=opponent,
                )


def pair_round(
    entrants: Sequence[Entrant],
    round_no: int,
    system: PairingSystem | str,
    seed: int = 0,
) -> Draw:
    """Pair round ``round_no`` by ``system``; the lots come from ``seed`` and the round number.

    Withdrawn players are left out; absent ones are listed in ``Draw.absent`` and score 0
    (``000 §3.18.2``, ``004``).  Raises :class:`NoLegalPairingError` when the absolute criteria
    cannot all be met, naming the players who cannot be paired.
    """
    program = parse_system(system)
    if round_no < 1:
        raise NoLegalPairingError(round_no, "rounds are numbered from 1", code="round_below_one")
    validate_entrants(entrants)
    playing = [e for e in entrants if not e.withdrawn and not e.absent]
    absent = tuple(sorted(e.start_no for e in entrants if e.absent and not e.withdrawn))
    lot = lot_for(seed, round_no)
    notes = [f"player {n} is absent: not paired, scores 0 (000 §3.18.2, 004)" for n in absent]
    if not playing:
        return Draw(round_no, program, (), None, absent, (), tuple(notes))
    if all(not e.opponents and not e.had_point_without_play for e in playing) and round_no == 1:
        return _first_round(program, playing, absent, lot, notes)
    return _Round(program, entrants, playing, round_no, lot, notes).draw(absent)


def _first_round(
    program: PairingSystem,
    playing: Sequence[Entrant],
    absent: tuple[int, ...],
    lot: random.Random,
    notes: list[str],
) -> Draw:
    """Round 1 by ``000 §3.18.4``, ``§3.18.5.2``, ``§3.18.7.2``; the last classified gets the bye."""
    ranked = sorted(e.start_no for e in playing)
    bye: int | None = None
    if len(ranked) % 2:
        bye = ranked.pop()
        notes.append(
            f"player {bye} receives the bye (+): odd number, last classified (000 §3.18.2)"
        )
    if program is PairingSystem.RANDOM:
        first_colour = Colour.WHITE
    else:
        first_colour = lot.choice([Colour.WHITE, Colour.BLACK])
        notes.append(
            f"lot: the first pair's top player has {first_colour.name.lower()} ({program.rule})"
        )
    pairs = []
    for position, (top, other) in enumerate(round_one_pairs(program, ranked), start=1):
        colour = first_colour if position % 2 == 1 else first_colour.opposite
        if program is PairingSystem.RANDOM:
            colour = Colour.WHITE
        pairs.append(Pair(top, other) if colour is Colour.WHITE else Pair(other, top))
    return Draw(1, program, tuple(pairs), bye, absent, (), tuple(notes))


class _Round:
    """The pairing of one round after the first, top score group first."""

    def __init__(
        self,
        program: PairingSystem,
        everyone: Sequence[Entrant],
        playing: Sequence[Entrant],
        round_no: int,
        lot: random.Random,
        notes: list[str],
    ) -> None:
        self.program = program
        self.round_no = round_no
        self.lot = lot
        self.notes = notes
        self.scores = {e.start_no: e.score for e in everyone}
        self.relaxed = LegalPairs.build(playing, ABSOLUTE_MAX_RUN)
        self.groups = self._score_groups(playing)
        self.ranking = self._classification(playing)
        self.rank = {n: i for i, n in enumerate(self.ranking)}

    def _score_groups(self, playing: Sequence[Entrant]) -> list[list[int]]:
        """Score groups, highest first, each in the program's pairing order."""
        return [
            [
                e.start_no
                for e in group_order(self.program, group, self.round_no, self.scores, self.lot)
            ]
            for group in _by_score(playing)
        ]

    def _classification(self, playing: Sequence[Entrant]) -> list[int]:
        """Highest first: score, then the program's order without the even-round reversal (a
        blind draw has no classification: its lots stand in, ``000 §3.18.4``)."""
        if self.program is PairingSystem.RANDOM:
            return [n for group in self.groups for n in group]
        return [
            e.start_no
            for group in _by_score(playing)
            for e in group_order(
                self.program, group, self.round_no, self.scores, self.lot, for_pairing=False
            )
        ]

    # -- the whole round ---------------------------------------------------------------------

    def draw(self, absent: tuple[int, ...]) -> Draw:
        bye = self._choose_bye()
        if bye is not None:
            self.notes.append(
                f"player {bye} receives the bye (+): lowest classified who has had no point "
                "without play (000 §3.18.2, 002 note a)"
            )
        players = [n for n in self.ranking if n != bye]
        field, pool = self._colour_limits(players)
        pairs = self._pair_groups(field, pool, bye)
        draw_pairs = tuple(self._colours(field, a, b) for a, b in pairs)
        floats = self._floats(field, pairs)
        for pair in draw_pairs:
            for player, colour in ((pair.white, Colour.WHITE), (pair.black, Colour.BLACK)):
                last, run = trailing_run(self.relaxed.entrants[player].colours)
                if last is colour and run >= PREFERRED_MAX_RUN:
                    self.notes.append(
                        f"player {player} has {colour.name.lower()} for the third game running: "
                        "no legal pairing spares him (002: exceptional case; never a fourth, "
                        "000 §3.18.2)"
                    )
        return Draw(
            self.round_no,
            self.program,
            draw_pairs,
            bye,
            absent,
            tuple(floats),
            tuple(self.notes),
        )

    def _colour_limits(self, players: list[int]) -> tuple[LegalPairs, Pool]:
        """``002``: a third colour running only in exceptional cases.

        Everyone starts limited to two in a row.  While the round cannot be paired, players are
        allowed a third (``000 §3.18.2`` still forbids a fourth), highest classified first and
        as few as possible: first anyone left with no colour at all under two running, then as
        many as the colour counts demand (more than half needing one colour), then one at a time
        from the obstruction the matching reports (the odd blocks of a Tutte barrier).  Each
        step allows at least one more player; the bye was chosen so that the fully relaxed
        field pairs, so the loop ends.
        """
        entrants = [self.relaxed.entrants[n] for n in players]
        relaxed: set[int] = set()
        while True:
            field = LegalPairs.build(entrants, PREFERRED_MAX_RUN, relaxed=relaxed)
            counts = field.counts(players)
            if not counts.could_all_pair():
                assert len(relaxed) < len(players), "the bye leaves a field that pairs relaxed"
                # A history already beyond the limits (four whites, then two blacks) can leave
                # a player no colour at all under two running: he must have a third.
                stuck = [n for n in players if n not in relaxed and field.stuck(n)]
                if stuck:
                    relaxed.update(stuck)
                    continue
                over = Colour.WHITE if 2 * counts.must_white > counts.size else Colour.BLACK
                excess = 2 * (counts.must_white if over is Colour.WHITE else counts.must_black)
                needed = max(1, (excess - counts.size + 1) // 2)
                spared = [
                    n
                    for n in players
                    if n not in relaxed
                    and field.must(n) is over
                    and self.relaxed.must(n) is not over
                ]
                relaxed.update(spared[:needed] if spared else players)
                continue
            pool = Pool(players, field)
            if pool.complete:
                return field, pool
            barrier = pool.matcher.explain()
            blocked = set(barrier.outer) if barrier else set(pool.matcher.exposed())
            candidates = [n for n in players if n in blocked and n not in relaxed]
            relaxed.add((candidates or [n for n in players if n not in relaxed])[0])

    def _choose_bye(self) -> int | None:
        """``000 §3.18.2``: with an odd number the lowest classified gets "+", never twice."""
        pool = Pool(self.ranking, self.relaxed)
        if len(self.ranking) % 2 == 0:
            if not pool.complete:
                self._fail(pool.matcher)
            return None
        eligible = [
            n for n in reversed(self.ranking) if not self.relaxed.entrants[n].had_point_without_play
        ]
        if not eligible:
            raise NoLegalPairingError(
                self.round_no,
                "odd number of players and every one has already had a point without play "
                "(000 §3.18.2)",
                blocked=self.ranking,
                code="every_bye_taken",
            )
        for candidate in eligible:
            if pool.take([candidate]):
                return candidate
        self._fail(
            Matcher([n for n in self.ranking if n != eligible[0]], self.relaxed.allowed),
            bye_candidates=sorted(eligible),
        )

    def _fail(self, matcher: Matcher, bye_candidates: Sequence[int] = ()) -> NoReturn:
        """Raise :class:`NoLegalPairingError` naming a Tutte barrier of the unpairable field;
        ``bye_candidates``: the players of whom none could take the bye."""
        barrier = matcher.explain()
        blocked = sorted(matcher.exposed())
        field = self.relaxed
        lonely = sorted(
            n for n in self.ranking if not any(field.allowed(n, m) for m in self.ranking if m != n)
        )
        values: dict[str, ErrorValue]
        if lonely:
            code, values = "cannot_meet_anyone", {"players": tuple(lonely)}
            reason = (
                f"player(s) {lonely} cannot meet anyone: every other player already met "
                "(000 §3.18.2) or no colour within the limits (000 §3.18.2, 002)"
            )
        elif barrier is None or not barrier.inner:
            code, values = "no_legal_opponent", {"players": tuple(blocked)}
            reason = f"players {blocked} have no legal opponent left (000 §3.18.2, 002)"
        else:
            inner = sorted(barrier.inner)
            outer = sorted(barrier.outer)
            code = "odd_blocks"
            values = {"players": tuple(outer), "count": len(inner), "others": tuple(inner)}
            reason = (
                f"players {outer} may meet only one another (in blocks of odd size) or the "
                f"{len(inner)} player(s) {inner}, too few for them, so one is left over "
                "(never the same pair twice, colour limits: 000 §3.18.2, 002)"
            )
        if bye_candidates:
            values["bye_candidates"] = tuple(bye_candidates)
            reason += (
                f" whoever of {list(bye_candidates)} takes the bye (000 §3.18.2: never a second "
                "point without play)"
            )
        raise NoLegalPairingError(
            self.round_no,
            reason,
            blocked=blocked,
            barrier=sorted(barrier.inner) if barrier else (),
            code=code,
            **values,
        )

    # -- score groups ------------------------------------------------------------------------

    def _pair_groups(
        self, field: LegalPairs, everyone: Pool, bye: int | None
    ) -> list[tuple[int, int]]:
        groups = [[n for n in group if n != bye] for group in self.groups]
        groups = [g for g in groups if g]
        pairs: list[tuple[int, int]] = []
        pending: list[int] = []
        for index, group in enumerate(groups):
            rest = self._pair_floaters(everyone, pending, group, pairs)
            if not rest:
                continue
            lower_players = pending + [n for g in groups[index + 1 :] for n in g]
            next_group = next((g for g in groups[index + 1 :]), [])
            inside = Pool.if_pairable(rest, field, spare=len(rest) % 2)
            lower = Pool.if_pairable(lower_players, field, spare=len(lower_players) % 2)
            floaters = None
            if inside is not None and lower is not None:
                floaters = self._choose_floaters(field, rest, inside, lower, next_group)
            if inside is not None and lower is not None and floaters is not None:
                staying = [n for n in rest if n not in floaters]
                found, left = pair_within_group(self.program, staying, inside.accepts)
                assert not left, "the group's matching guaranteed a complete pairing"
                pairs.extend(found)
                pending.extend(floaters)
                everyone = lower
                continue
            found, left = pair_within_group(self.program, rest, everyone.accepts)
            pairs.extend(found)
            pending.extend(left)
            self.notes.append(
                f"score group {_points(self.scores[rest[0]])} cannot be paired inside with at "
                f"most one player going down without stranding players below; paired against the "
                f"whole field, {left or 'nobody'} going down (000 §3.18.5.4-3.18.5.5)"
            )
        assert not pending, "the field's matching guaranteed a complete pairing"
        return pairs

    def _pair_floaters(
        self, everyone: Pool, pending: list[int], group: list[int], pairs: list[tuple[int, int]]
    ) -> list[int]:
        """Pair players come down from above with the first possible of this group (000 §3.18.5.4)."""
        rest = list(group)
        for floater in list(pending):
            offered = floater_opponents(self.program, rest)
            offered.sort(key=lambda n: everyone.legal.entrants[n].float_balance < 0)
            for opponent in offered:
                if everyone.accepts(floater, opponent):
                    pairs.append((floater, opponent))
                    pending.remove(floater)
                    rest.remove(opponent)
                    break
        return rest

    def _choose_floaters(
        self,
        field: LegalPairs,
        rest: list[int],
        inside: Pool,
        lower: Pool,
        next_group: list[int],
    ) -> list[int] | None:
        """Who leaves the group so that both it and everyone below can still be paired.

        An even group keeps everyone (``[]``), an odd one sends one player down (000 §3.18.5.4,
        §3.18.7.4); ``None`` when that is impossible and the group must be paired against the
        whole field.
        """
        if len(rest) % 2 == 0:
            return [] if inside.complete and lower.complete else None
        candidates = floater_candidates(self.program, rest)
        # A player already owing a downfloat goes down only if nobody else can (002).
        candidates.sort(key=lambda n: field.entrants[n].float_balance > 0)
        meets_next = [c for c in candidates if any(field.allowed(c, o) for o in next_group)]
        others = [c for c in candidates if c not in meets_next]
        for candidate in meets_next + others:
            if not inside.take([candidate]):
                continue
            if lower.give(candidate):
                return [candidate]
            inside.give(candidate, spare=1)
        return None

    # -- colours and floats ------------------------------------------------------------------

    def _colours(self, field: LegalPairs, a: int, b: int) -> Pair:
        """``000 §3.18.2``; in a blind draw equal histories are decided by lot (002)."""
        first, second = field.entrants[a], field.entrants[b]
        if self.program is PairingSystem.RANDOM and first.colours == second.colours:
            return field.with_colours(a, b, a_first=self.lot.random() < 0.5)
        return field.with_colours(a, b, a_first=self.rank[a] < self.rank[b])

    def _floats(self, field: LegalPairs, pairs: Sequence[tuple[int, int]]) -> list[Float]:
        floats = field.floats(self.round_no, pairs)
        partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        for drift in floats:
            if drift.direction is FloatDirection.DOWN:
                opponent = partner[drift.start_no]
                self.notes.append(
                    f"player {drift.start_no} ({_points(self.scores[drift.start_no])}) meets "
                    f"{opponent} ({_points(self.scores[opponent])}): float down and up"
                    + (", forced: not counted (002)" if drift.forced else f" ({self.program.rule})")
                )
        return floats


def _by_score(playing: Sequence[Entrant]) -> list[list[Entrant]]:
    by_score: dict[float, list[Entrant]] = {}
    for entrant in playing:
        by_score.setdefault(entrant.score, []).append(entrant)
    return [by_score[score] for score in sorted(by_score, reverse=True)]


def _points(score: float) -> str:
    return f"{score:g}"
