"""What the referee's report to the organizer covers (002 §4.1.7).

"Судья контролирует ход соревнования, ведет учет результатов законченных партий, принимает
решения по просрочкам времени, при нарушениях правил и турнирной дисциплины и при конфликтах
между игроками, информирует участников об итоговых результатах соревнования, представляет отчет
о ходе и результатах турнира в организацию, проводящую соревнование."

The report therefore has a section for each thing the referee keeps or decides: the results of
finished games, his decisions on oversteps, on breaches of the rules and of tournament
discipline, on conflicts between players, and the final results. Every case type of this package
belongs to exactly one of them (:func:`report_section`), so no decision is left out of the report.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from adjudication.dispute import Dispute
from adjudication.game_record import GameRecordCase
from adjudication.overstep import OverstepClaim
from adjudication.sanction import Sanction
from adjudication.special_break import SpecialBreakRequest
from adjudication.unfinished import Adjudication
from adjudication.withdrawal import Withdrawal

REPORT_RULE = "002 §4.1.7"


class ReportSection(StrEnum):
    """The sections of the referee's report, in the order of 002 §4.1.7."""

    GAME_RESULTS = "game_results"
    """Results of finished games, their records (§4.5.1) and adjudications (§4.5.2–4.5.6)."""
    OVERSTEPS = "oversteps"
    """Decisions on oversteps (§4.3.7–4.3.8)."""
    RULES_AND_DISCIPLINE = "rules_and_discipline"
    """Decisions on breaches of the rules and of tournament discipline: sanctions (§4.1.9),
    withdrawals (§4.1.14, §4.5.3), breaks beyond the ordinary rules (§4.4.5)."""
    CONFLICTS = "conflicts"
    """Decisions on conflicts between players (§4.1.12)."""
    FINAL_RESULTS = "final_results"
    """The final standings the participants are told."""


_SECTION_OF: dict[str, ReportSection] = {
    GameRecordCase.TYPE: ReportSection.GAME_RESULTS,
    Adjudication.TYPE: ReportSection.GAME_RESULTS,
    OverstepClaim.TYPE: ReportSection.OVERSTEPS,
    Sanction.TYPE: ReportSection.RULES_AND_DISCIPLINE,
    Withdrawal.TYPE: ReportSection.RULES_AND_DISCIPLINE,
    SpecialBreakRequest.TYPE: ReportSection.RULES_AND_DISCIPLINE,
    Dispute.TYPE: ReportSection.CONFLICTS,
}


def report_section(case_type: str) -> ReportSection:
    """The section of the report a decision of ``case_type`` goes in; an unknown type is a
    ``KeyError``: a new kind of case must say where the referee reports it."""
    return _SECTION_OF[case_type]


def case_types() -> frozenset[str]:
    """Every case type the report places."""
    return frozenset(_SECTION_OF)


def by_section(case_types_decided: Iterable[str]) -> dict[ReportSection, int]:
    """How many decisions of each section; every section is present, empty ones with 0, since
    the report says "none" rather than leaving a heading of 002 §4.1.7 out."""
    counts = dict.fromkeys(ReportSection, 0)
    for case_type in case_types_decided:
        counts[report_section(case_type)] += 1
    return counts
