"""A player leaves the tournament: what becomes of each of his games (000 §3.14, 002 §4.5.3).

The count that matters is of games *played*, and unfinished games count as played (000 §3.14.4).
With half or more played, or in any Swiss event (000 §3.14.5), finished results stand, unfinished
games are adjudicated and games never started are ``−`` for him and ``+`` for the partner
(000 §3.14.3). With fewer than half played in a round robin the referee chooses (002 §4.5.3):
annul all his results, or keep the finished ones and declare the unfinished lost or send them to
adjudication. Quitting without a good reason may cost a ban of up to three years (002 §4.1.14).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, Instance, PlayerCase, Transition
from adjudication.deadlines import BAN_YEARS, Deadline, years_after
from adjudication.effects import (
    Addressee,
    Effect,
    LetterTemplate,
    OpenAdjudication,
    RecordBan,
    RecordResult,
    SendLetter,
)
from adjudication.errors import IllegalTransition, InvalidBan, InvalidWithdrawalPlan
from adjudication.outcomes import GameOutcome, Side

HALF_RULE = "000 §3.14.3"
UNFINISHED_RULE = "000 §3.14.4"
SWISS_RULE = "000 §3.14.5"
REFEREE_RULE = "002 §4.5.3"
BAN_RULE = "002 §4.1.14"


class TournamentSystem(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class GameStatus(StrEnum):
    """A withdrawn player's game at the day he left."""

    FINISHED = "finished"
    UNFINISHED = "unfinished"
    """Moves were exchanged but the game has no result: it counts as played (000 §3.14.4)."""
    NOT_STARTED = "not_started"
    """Neither player made a move in it: an unplayed game."""


class Disposition(StrEnum):
    """What the referee does with one game."""

    KEEP = "keep"
    """The finished result stands."""
    ANNUL = "annul"
    """The game does not count (002 §4.5.3)."""
    LOSS = "loss"
    """The unfinished game is lost by the player who left (002 §4.5.3)."""
    ADJUDICATE = "adjudicate"
    """The unfinished game goes to adjudication (000 §3.14.4, 002 §4.5.3)."""
    FORFEIT = "forfeit"
    """The unplayed game: ``−`` for the player who left, ``+`` for the partner (000 §3.14.3)."""


class WithdrawalRuling(StrEnum):
    KEEP_RESULTS = "keep_results"
    ANNUL_RESULTS = "annul_results"


@dataclass(frozen=True)
class WithdrawnGame:
    """One game of the player who left; ``side`` is his colour in it."""

    game: str
    partner: str
    side: Side
    status: GameStatus
    outcome: GameOutcome | None = None
    """The recorded result of a finished game (restored if an annulment is overturned)."""

    def __post_init__(self) -> None:
        if (self.status is GameStatus.FINISHED) != (self.outcome is not None):
            raise InvalidWithdrawalPlan(
                self.game, "a finished game needs its result, and only a finished one", REFEREE_RULE
            )


@dataclass(frozen=True)
class GameDisposition:
    game: str
    disposition: Disposition


@dataclass(frozen=True, kw_only=True)
class Withdrawal(PlayerCase):
    """The withdrawal of one player, with the disposition of each of his games."""

    TYPE: ClassVar[str] = "withdrawal"
    RULINGS: ClassVar[type[StrEnum]] = WithdrawalRuling

    system: TournamentSystem
    games: tuple[WithdrawnGame, ...]
    without_good_reason: bool = False
    plan: tuple[GameDisposition, ...] = ()
    ban_until: date | None = None

    @classmethod
    def open(
        cls,
        case_id: str,
        *,
        player: str,
        withdrew_on: date,
        system: TournamentSystem,
        games: tuple[WithdrawnGame, ...],
        without_good_reason: bool = False,
    ) -> Transition[Withdrawal]:
        """The referee records that ``player`` left on ``withdrew_on``."""
        case = cls(
            case_id=case_id,
            opened_on=withdrew_on,
            state=CaseState.AWAITING_DECISION,
            player=player,
            system=system,
            games=games,
            without_good_reason=without_good_reason,
        )
        return Transition(case, ())

    # -- reading ----------------------------------------------------------------------------

    @property
    def played(self) -> int:
        """Games played, unfinished ones included (000 §3.14.4)."""
        return sum(1 for g in self.games if g.status is not GameStatus.NOT_STARTED)

    @property
    def half_played(self) -> bool:
        """Half or more of his games played (000 §3.14.3)."""
        return 2 * self.played >= len(self.games)

    @property
    def referee_may_annul(self) -> bool:
        """Annulment is open only below half in a round robin (000 §3.14.3, §3.14.5)."""
        return self.system is TournamentSystem.ROUND_ROBIN and not self.half_played

    @property
    def parties(self) -> tuple[str, ...]:
        partners = dict.fromkeys(g.partner for g in self.games)
        return (self.player, *partners)

    def proposed_plan(
        self, ruling: WithdrawalRuling = WithdrawalRuling.KEEP_RESULTS
    ) -> tuple[GameDisposition, ...]:
        """The disposition the rules give each game under ``ruling``: annul everything, or keep
        finished results, adjudicate unfinished games and forfeit unplayed ones."""
        if ruling is WithdrawalRuling.ANNUL_RESULTS:
            return tuple(GameDisposition(g.game, Disposition.ANNUL) for g in self.games)
        keep = {
            GameStatus.FINISHED: Disposition.KEEP,
            GameStatus.UNFINISHED: Disposition.ADJUDICATE,
            GameStatus.NOT_STARTED: Disposition.FORFEIT,
        }
        return tuple(GameDisposition(g.game, keep[g.status]) for g in self.games)

    @property
    def default_ruling(self) -> WithdrawalRuling:
        """Annul below half in a round robin, keep otherwise (docs/rules/adjudication.md)."""
        if self.referee_may_annul:
            return WithdrawalRuling.ANNUL_RESULTS
        return WithdrawalRuling.KEEP_RESULTS

    # -- transitions ------------------------------------------------------------------------

    def decide(
        self,
        on: date,
        *,
        revision: int,
        plan: Mapping[str, Disposition] | None = None,
        reasons: str = "",
    ) -> Transition[Withdrawal]:
        """The referee's decision: one disposition per game; ``None`` takes the default plan."""
        self._check_revision(revision, "decide the withdrawal")
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, "decide twice", REFEREE_RULE)
        if plan is None:
            chosen = self.proposed_plan(self.default_ruling)
        else:
            chosen = self._validated(plan)
        ruling = (
            WithdrawalRuling.ANNUL_RESULTS
            if all(d.disposition is Disposition.ANNUL for d in chosen) and chosen
            else WithdrawalRuling.KEEP_RESULTS
        )
        rules = (REFEREE_RULE,) if self.referee_may_annul else (HALF_RULE, UNFINISHED_RULE)
        if self.system is TournamentSystem.SWISS:
            rules = (SWISS_RULE, UNFINISHED_RULE)
        letters = tuple(
            SendLetter(to, LetterTemplate.WITHDRAWAL_DECISION, rules[0])
            for to in (Addressee.PLAYER, Addressee.PARTNERS, Addressee.STEWARD)
        )
        decided = dataclasses.replace(self, plan=chosen)
        return decided._decide(
            Instance.REFEREE, ruling, on, rules=rules, reasons=reasons, extra_effects=letters
        )

    def record_ban(self, until: date, on: date, *, revision: int) -> Transition[Withdrawal]:
        """The organizer bars a player who quit without a good reason (002 §4.1.14).

        A separate decision of another instance, so it may come after the case closed.
        """
        self._check_fresh(revision)
        if not self.without_good_reason:
            raise InvalidBan("the player left for a good reason the referee accepted")
        if self.ban_until is not None:
            raise InvalidBan(f"a ban until {self.ban_until.isoformat()} is already recorded")
        longest = years_after(on, BAN_YEARS)
        if not on < until <= longest:
            raise InvalidBan(
                f"a ban must end after {on.isoformat()} and by {longest.isoformat()} "
                f"(at most {BAN_YEARS} years), not on {until.isoformat()}"
            )
        effects = (
            RecordBan(self.player, until, BAN_RULE),
            SendLetter(Addressee.PLAYER, LetterTemplate.BAN, BAN_RULE),
        )
        return Transition(self._next(ban_until=until), effects)

    # -- rules hooks ------------------------------------------------------------------------

    def _validated(self, plan: Mapping[str, Disposition]) -> tuple[GameDisposition, ...]:
        known = {g.game for g in self.games}
        for name in plan:
            if name not in known:
                raise InvalidWithdrawalPlan(name, "not a game of the player who left", REFEREE_RULE)
        chosen: list[GameDisposition] = []
        for game in self.games:
            if game.game not in plan:
                raise InvalidWithdrawalPlan(game.game, "no disposition given", REFEREE_RULE)
            disposition = Disposition(plan[game.game])
            self._check_disposition(game, disposition)
            chosen.append(GameDisposition(game.game, disposition))
        annulled = {d.disposition is Disposition.ANNUL for d in chosen}
        if annulled == {True, False}:
            first = next(d.game for d in chosen if d.disposition is Disposition.ANNUL)
            raise InvalidWithdrawalPlan(
                first, "the referee annuls all the player's results or none", REFEREE_RULE
            )
        return tuple(chosen)

    def _check_disposition(self, game: WithdrawnGame, disposition: Disposition) -> None:
        if disposition is Disposition.ANNUL:
            if not self.referee_may_annul:
                rule = SWISS_RULE if self.system is TournamentSystem.SWISS else HALF_RULE
                raise InvalidWithdrawalPlan(
                    game.game, f"results stand: {self.played} of {len(self.games)} played", rule
                )
            return
        allowed = {
            GameStatus.FINISHED: {Disposition.KEEP},
            GameStatus.UNFINISHED: (
                {Disposition.LOSS, Disposition.ADJUDICATE}
                if self.referee_may_annul
                else {Disposition.ADJUDICATE}
            ),
            GameStatus.NOT_STARTED: {Disposition.FORFEIT},
        }[game.status]
        if disposition not in allowed:
            rule = REFEREE_RULE if self.referee_may_annul else UNFINISHED_RULE
            if game.status is not GameStatus.UNFINISHED:
                rule = HALF_RULE
            choices = ", ".join(sorted(d.value for d in allowed))
            raise InvalidWithdrawalPlan(
                game.game,
                f"a {game.status.value} game can be {choices}, not {disposition.value}",
                rule,
            )

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        return ()

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        if ruling == previous:
            return ()
        # An overturning organizer applies the rules' plan for his ruling; the referee's own
        # plan (which may declare unfinished games lost) applies to the first decision.
        plan = self.plan if previous is None else self.proposed_plan(WithdrawalRuling(ruling))
        games = {g.game: g for g in self.games}
        effects: list[Effect] = []
        for item in plan:
            game = games[item.game]
            effect = self._game_effect(game, item.disposition, restoring=previous is not None)
            if effect is not None:
                effects.append(effect)
        return tuple(effects)

    def _game_effect(
        self, game: WithdrawnGame, disposition: Disposition, *, restoring: bool
    ) -> Effect | None:
        if disposition is Disposition.KEEP:
            if restoring and game.outcome is not None:
                return RecordResult(game.game, game.outcome, self.HEARING_RULE)
            return None
        if disposition is Disposition.ANNUL:
            return RecordResult(game.game, GameOutcome.annulled(), REFEREE_RULE)
        if disposition is Disposition.LOSS:
            return RecordResult(game.game, GameOutcome.loss_for(game.side), REFEREE_RULE)
        if disposition is Disposition.ADJUDICATE:
            return OpenAdjudication(game.game, UNFINISHED_RULE)
        return RecordResult(game.game, GameOutcome.forfeit_loss_for(game.side), HALF_RULE)

    def decide_protest(
        self,
        ruling: str,
        on: date,
        *,
        revision: int,
        rules: tuple[str, ...] = (),
        reasons: str = "",
    ) -> Transition[Withdrawal]:
        """The organizer keeps or annuls the results; the plan follows his ruling.

        The organizer is bound by 000 §3.14 like the referee: he cannot annul the results of a
        player who played half or more, or any in a Swiss event.
        """
        if ruling == WithdrawalRuling.ANNUL_RESULTS and not self.referee_may_annul:
            rule = SWISS_RULE if self.system is TournamentSystem.SWISS else HALF_RULE
            first = self.games[0].game if self.games else self.player
            raise InvalidWithdrawalPlan(
                first, f"results stand: {self.played} of {len(self.games)} played", rule
            )
        transition = super().decide_protest(
            ruling, on, revision=revision, rules=rules, reasons=reasons
        )
        if ruling == self.ruling:
            return transition
        plan = self.proposed_plan(WithdrawalRuling(ruling))
        return Transition(dataclasses.replace(transition.case, plan=plan), transition.effects)
