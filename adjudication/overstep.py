"""Overstep claims: a player says his partner exceeded the think time (002 §4.3.6–4.3.8).

The claimant holds back his reply move and sends the referee the file; the game is suspended
until the referee decides. The accused may protest the claim within ten days of receiving the
notice (§4.3.8); until then the referee may reject the claim but not confirm it, because silence
is what lets him take the overstep as admitted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, Channel, GameCase, Instance, Protest, Transition
from adjudication.deadlines import PENALTY_DAYS, PROTEST_DAYS, Awaiting, Deadline, days_after
from adjudication.effects import (
    Addressee,
    ClearResult,
    Effect,
    ForwardHeldMove,
    ImposePenalty,
    LetterTemplate,
    RecordResult,
    ResumeGame,
    RevokePenalty,
    SuspendGame,
)
from adjudication.errors import (
    DecisionAgainstChart,
    IllegalTransition,
    ImpossibleDates,
    MissingEvidence,
    NotApprovedOnCompleteFile,
    ProtestAlreadyFiled,
    ProtestIncomplete,
    ProtestOutOfTime,
    WindowOpen,
)
from adjudication.outcomes import GameOutcome, Side

CLAIM_RULE = "002 §4.3.6"
DECISION_RULE = "002 §4.3.7"
OBJECTION_RULE = "002 §4.3.8"


class OverstepRuling(StrEnum):
    CONFIRMED = "confirmed"
    """The overstep took place: the offender loses the game (§4.3.7)."""
    REJECTED = "rejected"
    """No overstep: the held move goes to the accused, the claimant gets 6 penalty days (§4.3.7)."""
    NOT_APPROVED = "not_approved"
    """Materials incomplete: the claim is not approved and play continues (§4.3.7, 2nd para.).
    Only then: on a complete file the referee confirms or rejects."""


class Evidence(StrEnum):
    """The materials of 002 §4.3.6."""

    OFFENDER_LETTERS = "offender_letters"
    """Every letter and postcard received from the offender."""
    REGISTERED_RECEIPTS = "registered_receipts"
    """Receipts of the registered letters (postal play only: the server stamps e-mail)."""
    GAME_RECORD = "game_record"
    """The game record with the claimant's held reply move."""
    TIME_CHART = "time_chart"
    """The chart of think time in the form of §4.3.6."""
    OVERSTEP_NOTICE = "overstep_notice"
    """The registered notice of the overstep sent to the offender."""


_REQUIRED_EVIDENCE = {
    Channel.POST: frozenset(Evidence),
    Channel.EMAIL: frozenset(Evidence) - {Evidence.REGISTERED_RECEIPTS},
}

#: The materials of 002 §4.3.6 an accused's protest carries (002 §4.3.8), read from his side:
#: the letters he received from the claimant and their registered receipts, the game record and
#: his chart of think time. The overstep notice is the claimant's letter, already in the file.
#: In an e-mail game the server holds all of them (every letter with its stamp, the record, the
#: chart recomputed), so the protest needs only its grounds.
_PROTEST_MATERIALS = {
    Channel.POST: frozenset(Evidence) - {Evidence.OVERSTEP_NOTICE},
    Channel.EMAIL: frozenset(),
}


@dataclass(frozen=True, kw_only=True)
class OverstepClaim(GameCase):
    """One claim of overstep in one game."""

    TYPE: ClassVar[str] = "overstep_claim"
    RULINGS: ClassVar[type[StrEnum]] = OverstepRuling

    claimant: Side
    channel: Channel
    held_move: str
    """The claimant's reply, kept from the offender until the referee decides (§4.3.6)."""
    notice_received_on: date
    """The day the offender received the overstep notice; his ten days start the day after."""
    evidence: frozenset[Evidence] = frozenset()
    detected_by_server: bool = False
    """The server found the overstep in an e-mail game and opened the claim itself."""
    chart_shows_overstep: bool | None = None
    """What the time chart recomputed from the letters shows (``None``: not computed)."""

    @classmethod
    def open(
        cls,
        case_id: str,
        *,
        game: str,
        claimant: Side,
        claimed_on: date,
        channel: Channel,
        held_move: str,
        evidence: frozenset[Evidence] = frozenset(),
        notice_received_on: date | None = None,
        detected_by_server: bool = False,
        chart_shows_overstep: bool | None = None,
        notify_offender: bool | None = None,
    ) -> Transition[OverstepClaim]:
        """Open the claim and suspend the game.

        ``notice_received_on`` defaults to ``claimed_on``: an e-mail notice arrives the day it is
        sent. An e-mail game's claim comes with the whole file, whoever opened it: the server
        holds every letter with its stamps, writes the record and recomputes the chart.
        ``notify_offender``: whether the service tells the accused (§4.3.6, the notice of the
        overstep). By default only in an e-mail game: by post the claimant sends the registered
        notice himself; a claim the claimant files himself through the service (on the web or
        by e-mail) is told to the accused whatever the channel.
        """
        if notice_received_on is not None and notice_received_on < claimed_on:
            raise ImpossibleDates(
                claimed_on, notice_received_on, "the notice received before the claim", CLAIM_RULE
            )
        if detected_by_server and channel is not Channel.EMAIL:
            raise IllegalTransition(
                case_id, "a postal game", "be detected by the server", CLAIM_RULE
            )
        if channel is Channel.EMAIL:
            evidence = _REQUIRED_EVIDENCE[Channel.EMAIL]
        claim = cls(
            case_id=case_id,
            opened_on=claimed_on,
            state=CaseState.AWAITING_DECISION,
            game=game,
            claimant=claimant,
            channel=channel,
            held_move=held_move,
            notice_received_on=notice_received_on or claimed_on,
            evidence=evidence,
            detected_by_server=detected_by_server,
            chart_shows_overstep=chart_shows_overstep,
        )
        effects: list[Effect] = [SuspendGame(game, CLAIM_RULE)]
        notify = channel is Channel.EMAIL if notify_offender is None else notify_offender
        if notify:
            # By post the claimant sends the registered notice himself (§4.3.6).
            effects.append(
                claim._letter(claim.offender, LetterTemplate.OVERSTEP_CLAIM_OPENED, CLAIM_RULE)
            )
        effects.append(
            claim._letter(Addressee.STEWARD, LetterTemplate.OVERSTEP_CLAIM_OPENED, CLAIM_RULE)
        )
        effects.append(
            claim._letter(Addressee.REFEREE, LetterTemplate.OVERSTEP_CLAIM_OPENED, CLAIM_RULE)
        )
        return Transition(claim, tuple(effects))

    @property
    def offender(self) -> Side:
        return self.claimant.other

    @property
    def required_evidence(self) -> frozenset[Evidence]:
        return _REQUIRED_EVIDENCE[self.channel]

    @property
    def missing_evidence(self) -> frozenset[Evidence]:
        return self.required_evidence - self.evidence

    @property
    def objection_due(self) -> date:
        """The last day the offender may protest the claim (§4.3.8)."""
        return days_after(self.notice_received_on, PROTEST_DAYS)

    @property
    def objection(self) -> Protest | None:
        """The offender's protest against the claim, if he sent one."""
        return self._protest_by(self.offender.value, None)

    def add_evidence(
        self, items: frozenset[Evidence], *, revision: int
    ) -> Transition[OverstepClaim]:
        """Materials of §4.3.6 arrived (they may come in several letters)."""
        self._check_revision(revision, "add evidence")
        self._check_undecided("add evidence")
        return Transition(self._next(evidence=self.evidence | items), ())

    @property
    def protest_materials(self) -> frozenset[Evidence]:
        """What the accused's protest must carry besides its grounds (§4.3.8)."""
        return _PROTEST_MATERIALS[self.channel]

    def protest_claim(
        self, on: date, *, revision: int, grounds: str = "",
        materials: frozenset[Evidence] = frozenset(),
    ) -> Transition[OverstepClaim]:
        """The offender disputes the overstep within ten days of the notice (§4.3.8), with a
        reasoned protest ("обоснованный протест") and the materials of §4.3.6."""
        self._check_revision(revision, "protest the claim")
        self._check_undecided("protest the claim")
        earlier = self.objection
        if earlier is not None:
            raise ProtestAlreadyFiled(self.case_id, self.offender.value, earlier.filed_on)
        if on > self.objection_due:
            raise ProtestOutOfTime(self.offender.value, on, self.objection_due, OBJECTION_RULE)
        missing = self.protest_materials - materials
        if not grounds.strip() or missing:
            raise ProtestIncomplete(self.case_id, grounds_missing=not grounds.strip(),
                                    materials_missing=frozenset(item.value for item in missing))
        protest = Protest(self.offender.value, on, Instance.REFEREE, None, grounds)
        letter = self._letter(Addressee.REFEREE, LetterTemplate.PROTEST_RECEIVED, OBJECTION_RULE)
        return Transition(self._next(protests=self.protests + (protest,)), (letter,))

    def decide(
        self, ruling: OverstepRuling | str, on: date, *, revision: int, reasons: str = "",
        chart_shows_overstep: bool | None = None,
    ) -> Transition[OverstepClaim]:
        """The referee's decision on the claim (§4.3.7), sent to both players and the steward.

        Deciding against the recomputed time chart needs ``reasons``: the letters are read by
        the referee, the chart by the program, and the referee must be able to defend the day.
        ``chart_shows_overstep`` is the chart read again at the decision (a letter corrected
        since the claim changes it); it replaces the reading of the claim day on the case.
        """
        if chart_shows_overstep is not None and chart_shows_overstep != self.chart_shows_overstep:
            return replace(self, chart_shows_overstep=chart_shows_overstep).decide(
                ruling, on, revision=revision, reasons=reasons)
        self._check_revision(revision, "decide the claim")
        self._check_undecided("decide the claim")
        ruling = OverstepRuling(self._check_ruling(ruling))
        if ruling is not OverstepRuling.NOT_APPROVED and self.missing_evidence:
            raise MissingEvidence(frozenset(e.value for e in self.missing_evidence))
        if ruling is OverstepRuling.NOT_APPROVED and not self.missing_evidence:
            raise NotApprovedOnCompleteFile(self.case_id, frozenset(e.value for e in self.evidence))
        if (
            ruling is OverstepRuling.CONFIRMED
            and self.objection is None
            and on <= self.objection_due
        ):
            raise WindowOpen("the accused's protest", self.objection_due, OBJECTION_RULE)
        against_chart = {
            OverstepRuling.CONFIRMED: self.chart_shows_overstep is False,
            OverstepRuling.REJECTED: self.chart_shows_overstep is True,
            OverstepRuling.NOT_APPROVED: False,
        }[ruling]
        if against_chart and not reasons.strip():
            raise DecisionAgainstChart(ruling.value, DECISION_RULE)
        template = {
            OverstepRuling.CONFIRMED: LetterTemplate.OVERSTEP_CONFIRMED,
            OverstepRuling.REJECTED: LetterTemplate.OVERSTEP_REJECTED,
            OverstepRuling.NOT_APPROVED: LetterTemplate.OVERSTEP_NOT_APPROVED,
        }[ruling]
        letters = tuple(
            self._letter(to, template, DECISION_RULE)
            for to in (Addressee.WHITE, Addressee.BLACK, Addressee.STEWARD)
        )
        rules = (DECISION_RULE, OBJECTION_RULE) if self.objection else (DECISION_RULE,)
        return self._decide(
            Instance.REFEREE, ruling, on, rules=rules, reasons=reasons, extra_effects=letters
        )

    def _check_undecided(self, action: str) -> None:
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, action, DECISION_RULE)

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        if self.objection is None:
            return (
                Deadline(self.objection_due, Awaiting.PLAYERS, "accused's protest", OBJECTION_RULE),
            )
        return ()

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        # Effects are the difference between two rulings, so an organizer who overturns a
        # decision (§4.1.12) undoes exactly what the referee's decision did.
        old = OverstepRuling(previous) if previous is not None else None
        new = OverstepRuling(ruling)
        confirmed = {OverstepRuling.CONFIRMED}
        in_play = {OverstepRuling.REJECTED, OverstepRuling.NOT_APPROVED}
        penalised = {OverstepRuling.REJECTED}
        effects: list[Effect] = []
        if new in confirmed and old not in confirmed:
            effects.append(
                RecordResult(self.game, GameOutcome.loss_for(self.offender), DECISION_RULE)
            )
        if old in confirmed and new not in confirmed:
            effects.append(ClearResult(self.game, self.PROTEST_RULE))
        if new in in_play and old not in in_play:
            effects.append(ResumeGame(self.game, on, DECISION_RULE))
            effects.append(ForwardHeldMove(self.game, self.offender, DECISION_RULE))
        if new in penalised and old not in penalised:
            effects.append(ImposePenalty(self.game, self.claimant, PENALTY_DAYS, DECISION_RULE))
        if old in penalised and new not in penalised:
            effects.append(RevokePenalty(self.game, self.claimant, PENALTY_DAYS, self.PROTEST_RULE))
        return tuple(effects)
