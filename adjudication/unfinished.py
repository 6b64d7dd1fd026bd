"""Adjudication of games unfinished at the end-of-play date (002 §4.5.2–4.5.7).

Both players send, within ten days after the end date, the final-position diagram, their
assessment (win, draw or loss from their own side) and an analysis (§4.5.2). Matching assessments
fix the result unless the referee marks it as sharply contradicting the position (§4.5.4);
otherwise the referee decides within one month of receiving the analyses (§4.5.5) and tells
both players and the steward, the player whose assessment differs in a letter saying so. A player who sent his analysis in time may protest within ten
days to the organizer, whose decision is final (§4.5.6–4.5.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, GameCase, Instance, Transition
from adjudication.deadlines import ANALYSIS_DAYS, Awaiting, Deadline, days_after, month_after
from adjudication.effects import Addressee, Effect, LetterTemplate, RecordResult, SuspendGame
from adjudication.errors import (
    AgreedResultBinding,
    DuplicateSubmission,
    IllegalTransition,
    ImpossibleDates,
    NoRightToProtest,
    ReasonsRequired,
    UnreasonedAdjudication,
    WindowOpen,
)
from adjudication.outcomes import Assessment, GameOutcome, OutcomeKind, Side

REQUEST_RULE = "002 §4.5.2"
AGREEMENT_RULE = "002 §4.5.4"
DECISION_RULE = "002 §4.5.5"
PROTEST_RULE = "002 §4.5.6"
FINAL_RULE = "002 §4.5.7"


class Verdict(StrEnum):
    """An adjudicated result, named from white's side."""

    WHITE_WINS = "white_wins"
    DRAW = "draw"
    BLACK_WINS = "black_wins"

    @property
    def outcome(self) -> GameOutcome:
        """The result the scoring package records: played, marked as adjudicated."""
        if self is Verdict.WHITE_WINS:
            return GameOutcome.win_for(Side.WHITE, adjudicated=True)
        if self is Verdict.BLACK_WINS:
            return GameOutcome.win_for(Side.BLACK, adjudicated=True)
        return GameOutcome.draw(adjudicated=True)

    @classmethod
    def from_assessment(cls, side: Side, assessment: Assessment) -> Verdict:
        """The verdict ``side`` proposes by assessing his own position as ``assessment``."""
        white = assessment.outcome_for(side).white
        if white is OutcomeKind.WIN:
            return cls.WHITE_WINS
        if white is OutcomeKind.LOSS:
            return cls.BLACK_WINS
        return cls.DRAW


@dataclass(frozen=True)
class Submission:
    """A player's diagram, assessment and analysis (§4.5.2).

    ``sent_on`` (postmark, or the e-mail's local arrival date) decides whether it came in time;
    ``received_on`` (the day the referee had it) starts the referee's month (§4.5.5).
    """

    side: Side
    assessment: Assessment
    analysis: str
    sent_on: date
    received_on: date
    diagram: str = ""

    def __post_init__(self) -> None:
        if self.received_on < self.sent_on:
            raise ImpossibleDates(
                self.sent_on,
                self.received_on,
                "an analysis received before it was sent",
                REQUEST_RULE,
            )


@dataclass(frozen=True, kw_only=True)
class Adjudication(GameCase):
    """The adjudication of one unfinished game."""

    TYPE: ClassVar[str] = "adjudication"
    RULINGS: ClassVar[type[StrEnum]] = Verdict
    PROTEST_RULE: ClassVar[str] = PROTEST_RULE
    HEARING_RULE: ClassVar[str] = FINAL_RULE

    end_date: date
    """The end-of-play date of the start sheet."""
    diagram: str = ""
    """The final position as the server knows it (FEN), shown beside the players' diagrams."""
    submissions: tuple[Submission, ...] = ()
    agreement_overridden: bool = False
    """The referee marked the agreed result as sharply contradicting the position (§4.5.4)."""

    @classmethod
    def open(
        cls, case_id: str, *, game: str, end_date: date, diagram: str = ""
    ) -> Transition[Adjudication]:
        """Open the case at the end-of-play date and ask both players for their analyses."""
        case = cls(
            case_id=case_id,
            opened_on=end_date,
            state=CaseState.AWAITING_PARTIES,
            game=game,
            end_date=end_date,
            diagram=diagram,
        )
        effects = (
            SuspendGame(game, REQUEST_RULE),
            case._letter(Side.WHITE, LetterTemplate.ADJUDICATION_REQUEST, REQUEST_RULE),
            case._letter(Side.BLACK, LetterTemplate.ADJUDICATION_REQUEST, REQUEST_RULE),
        )
        return Transition(case, effects)

    # -- reading ----------------------------------------------------------------------------

    @property
    def analyses_due(self) -> date:
        """The last day the players may send their analyses (§4.5.2)."""
        return days_after(self.end_date, ANALYSIS_DAYS)

    def submission(self, side: Side) -> Submission | None:
        for submission in self.submissions:
            if submission.side is side:
                return submission
        return None

    def sent_in_time(self, side: Side) -> bool:
        submission = self.submission(side)
        return submission is not None and submission.sent_on <= self.analyses_due

    @property
    def agreed_verdict(self) -> Verdict | None:
        """The result both players proposed, if their assessments match (§4.5.4)."""
        white, black = self.submission(Side.WHITE), self.submission(Side.BLACK)
        if white is None or black is None:
            return None
        proposed = Verdict.from_assessment(Side.WHITE, white.assessment)
        if proposed is not Verdict.from_assessment(Side.BLACK, black.assessment):
            return None
        return proposed

    @property
    def month_starts(self) -> date:
        """The day the referee's month runs from (§4.5.5): the later receipt of the two analyses
        sent in time, or the end of the analysis window when one of them is missing or late."""
        receipts = [s.received_on for s in self.submissions if self.sent_in_time(s.side)]
        if len(receipts) < 2:
            receipts.append(self.analyses_due)
        return max(receipts)

    @property
    def decision_due(self) -> date:
        """The last day of the referee's month (§4.5.5)."""
        return month_after(self.month_starts)

    # -- transitions ------------------------------------------------------------------------

    def submit(
        self,
        side: Side,
        assessment: Assessment,
        analysis: str,
        *,
        sent_on: date,
        revision: int,
        received_on: date | None = None,
        diagram: str = "",
    ) -> Transition[Adjudication]:
        """Record a player's assessment and analysis; a late one is kept but costs him the right
        to protest (§4.5.6)."""
        self._check_revision(revision, "receive an analysis")
        self._check_undecided("receive an analysis")
        earlier = self.submission(side)
        if earlier is not None:
            raise DuplicateSubmission(side.value, "assessment and analysis", REQUEST_RULE)
        submission = Submission(
            side, assessment, analysis, sent_on, received_on or sent_on, diagram
        )
        submissions = self.submissions + (submission,)
        state = CaseState.AWAITING_DECISION if len(submissions) == 2 else self.state
        return Transition(self._next(submissions=submissions, state=state), ())

    def fix_agreed_result(self, on: date, *, revision: int) -> Transition[Adjudication]:
        """Fix the result both players proposed (§4.5.4)."""
        agreed = self.agreed_verdict
        if agreed is None:
            raise IllegalTransition(
                self.case_id, "without matching assessments", "fix an agreed result", AGREEMENT_RULE
            )
        return self.decide(agreed, on, revision=revision)

    def decide(
        self,
        verdict: Verdict | str,
        on: date,
        *,
        revision: int,
        sharply_contradicting: bool = False,
        reasons: str = "",
        reasons_required: bool = False,
    ) -> Transition[Adjudication]:
        """The referee's adjudication (§4.5.4–4.5.5).

        ``sharply_contradicting`` is the referee's finding that the players' agreed result sharply
        contradicts the position; only with it may he fix another result than theirs.
        ``reasons_required``: a result on the merits (not the players' agreed one, §4.5.4) must
        give the referee's reasons (§4.5.5); the service asks for them always.
        """
        self._check_revision(revision, "adjudicate")
        self._check_undecided("adjudicate")
        verdict = Verdict(self._check_ruling(verdict))
        if len(self.submissions) < 2 and on <= self.analyses_due:
            raise WindowOpen("the players' analyses", self.analyses_due, REQUEST_RULE)
        agreed = self.agreed_verdict
        if sharply_contradicting and (agreed is None or agreed is verdict):
            raise IllegalTransition(
                self.case_id,
                "without an agreed result to set aside",
                "mark an agreement as sharply contradicting the position",
                AGREEMENT_RULE,
            )
        if agreed is not None and agreed is not verdict and not sharply_contradicting:
            raise AgreedResultBinding(agreed.value, verdict.value)
        if sharply_contradicting and not reasons.strip():
            raise ReasonsRequired("setting the players' agreed result aside", AGREEMENT_RULE)
        by_agreement = agreed is verdict
        if reasons_required and not by_agreement and not reasons.strip():
            raise UnreasonedAdjudication(self.case_id, DECISION_RULE)
        rule = AGREEMENT_RULE if by_agreement else DECISION_RULE
        # Both players learn the result of their game (002 §4.5.5 names the one whose
        # assessment differs; the other has his right to protest too, §4.5.6): the letter
        # saying "differs from your assessment" goes only to a player who sent one.
        letters: list[Effect] = [
            self._letter(
                side,
                LetterTemplate.ADJUDICATION_RESULT_DIFFERS
                if self._differs(side, verdict) else LetterTemplate.ADJUDICATION_RESULT,
                DECISION_RULE if self._differs(side, verdict) else rule,
            )
            for side in Side
        ]
        letters.append(self._letter(Addressee.STEWARD, LetterTemplate.ADJUDICATION_RESULT, rule))
        return self._decide(
            Instance.REFEREE,
            verdict,
            on,
            rules=(rule,),
            reasons=reasons,
            extra_effects=tuple(letters),
            agreement_overridden=sharply_contradicting,
        )

    # -- rules hooks ------------------------------------------------------------------------

    def _differs(self, side: Side, verdict: Verdict) -> bool:
        """Whether ``side`` sent an assessment and the result differs from it (002 §4.5.5); a
        player who sent none has no assessment the result could differ from."""
        submission = self.submission(side)
        if submission is None:
            return False
        return Verdict.from_assessment(side, submission.assessment) is not verdict

    def _check_undecided(self, action: str) -> None:
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, action, DECISION_RULE)

    def _check_protest_right(self, party: str) -> None:
        self._check_party(party)
        if not self.sent_in_time(Side(party)):
            raise NoRightToProtest(
                party,
                f"no analysis sent by {self.analyses_due.isoformat()}",
                PROTEST_RULE,
            )

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        decision = Deadline(self.decision_due, Awaiting.REFEREE, "adjudication", DECISION_RULE)
        if self.state is CaseState.AWAITING_DECISION:
            return (decision,)
        analyses = Deadline(
            self.analyses_due, Awaiting.PLAYERS, "assessments and analyses", REQUEST_RULE
        )
        return (analyses, decision)

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        if ruling == previous:
            return ()
        if previous is not None:
            rule = FINAL_RULE
        elif self.agreed_verdict == ruling:
            rule = AGREEMENT_RULE
        else:
            rule = DECISION_RULE
        return (RecordResult(self.game, Verdict(ruling).outcome, rule),)
