"""The referee's cases as pure state machines: overstep claims, adjudication of unfinished games,
game records, withdrawals, disputes and protests, sanctions and special breaks (002 §4, 000 §3.14).

A case is an immutable dataclass. Each transition takes the revision the caller saw and returns a
:class:`Transition`: the next case and the effects (results, penalties, letters) the service must
carry out. Cases round-trip through ``to_dict`` / :func:`case_from_dict` for storage.
"""

from adjudication.case import (
    Case,
    CaseState,
    Channel,
    Decision,
    Instance,
    Protest,
    Receipt,
    Transition,
)
from adjudication.deadlines import Awaiting, Deadline, days_after, local_date, month_after
from adjudication.dispute import Dispute, DisputeRuling
from adjudication.effects import Addressee, Effect, LetterTemplate
from adjudication.errors import (
    AdjudicationError,
    AgreedResultBinding,
    CaseClosed,
    CaseConflict,
    DecisionFinal,
    DuplicateSubmission,
    IllegalTransition,
    ImpossibleDates,
    InvalidBan,
    InvalidBreakRequest,
    InvalidCaseData,
    InvalidSanction,
    InvalidWithdrawalPlan,
    MissingEvidence,
    NaiveTimestamp,
    NoRightToProtest,
    ProtestAlreadyFiled,
    ProtestOutOfTime,
    ReasonsRequired,
    UnknownRuling,
    WindowOpen,
)
from adjudication.game_record import GameRecordCase, RecordRuling
from adjudication.outcomes import Assessment, GameOutcome, InvalidOutcome, OutcomeKind, Side
from adjudication.overstep import Evidence, OverstepClaim, OverstepRuling
from adjudication.queue import QueueEntry, referee_queue
from adjudication.registry import CASE_TYPES, case_from_dict, effect_from_dict, effect_to_dict
from adjudication.sanction import Sanction, SanctionKind, SanctionRuling
from adjudication.special_break import BreakKind, BreakRuling, SpecialBreakRequest
from adjudication.unfinished import Adjudication, Submission, Verdict
from adjudication.withdrawal import (
    Disposition,
    GameDisposition,
    GameStatus,
    TournamentSystem,
    Withdrawal,
    WithdrawalRuling,
    WithdrawnGame,
)

__all__ = [
    "CASE_TYPES",
    "Addressee",
    "Adjudication",
    "AdjudicationError",
    "AgreedResultBinding",
    "Assessment",
    "Awaiting",
    "BreakKind",
    "BreakRuling",
    "Case",
    "CaseClosed",
    "CaseConflict",
    "CaseState",
    "Channel",
    "Decision",
    "DecisionFinal",
    "Deadline",
    "Dispute",
    "DisputeRuling",
    "Disposition",
    "DuplicateSubmission",
    "Effect",
    "Evidence",
    "GameDisposition",
    "GameOutcome",
    "GameRecordCase",
    "GameStatus",
    "IllegalTransition",
    "ImpossibleDates",
    "Instance",
    "InvalidBan",
    "InvalidBreakRequest",
    "InvalidCaseData",
    "InvalidOutcome",
    "InvalidSanction",
    "InvalidWithdrawalPlan",
    "LetterTemplate",
    "MissingEvidence",
    "NaiveTimestamp",
    "NoRightToProtest",
    "OutcomeKind",
    "OverstepClaim",
    "OverstepRuling",
    "Protest",
    "ProtestAlreadyFiled",
    "ProtestOutOfTime",
    "QueueEntry",
    "ReasonsRequired",
    "Receipt",
    "RecordRuling",
    "Sanction",
    "SanctionKind",
    "SanctionRuling",
    "Side",
    "SpecialBreakRequest",
    "Submission",
    "TournamentSystem",
    "Transition",
    "UnknownRuling",
    "Verdict",
    "WindowOpen",
    "Withdrawal",
    "WithdrawalRuling",
    "WithdrawnGame",
    "case_from_dict",
    "days_after",
    "effect_from_dict",
    "effect_to_dict",
    "local_date",
    "month_after",
    "referee_queue",
]
