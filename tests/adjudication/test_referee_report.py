"""The referee's report covers what 002 §4.1.7 lists; letters are kept a month after the results
(002 §4.1.13)."""

from __future__ import annotations

from datetime import date

import pytest

from adjudication.deadlines import correspondence_kept_until
from adjudication.referee_report import ReportSection, by_section, case_types, report_section
from adjudication.registry import CASE_TYPES


def test_every_kind_of_decision_has_its_section_of_the_report() -> None:
    # A decision the report could not place would be a decision the organizer never hears of.
    assert case_types() == frozenset(CASE_TYPES)
    assert report_section("overstep_claim") is ReportSection.OVERSTEPS
    assert report_section("dispute") is ReportSection.CONFLICTS
    assert report_section("sanction") is ReportSection.RULES_AND_DISCIPLINE
    assert report_section("adjudication") is ReportSection.GAME_RESULTS
    with pytest.raises(KeyError):
        report_section("something_new")


def test_the_sections_follow_the_rule_and_none_is_left_out_when_empty() -> None:
    # 002 §4.1.7: results of finished games, oversteps, breaches of the rules and discipline,
    # conflicts between players, the final results — in that order.
    assert list(ReportSection) == [ReportSection.GAME_RESULTS, ReportSection.OVERSTEPS,
                                   ReportSection.RULES_AND_DISCIPLINE, ReportSection.CONFLICTS,
                                   ReportSection.FINAL_RESULTS]
    counts = by_section(["overstep_claim", "overstep_claim", "dispute"])
    assert counts == {ReportSection.GAME_RESULTS: 0, ReportSection.OVERSTEPS: 2,
                      ReportSection.RULES_AND_DISCIPLINE: 0, ReportSection.CONFLICTS: 1,
                      ReportSection.FINAL_RESULTS: 0}


def test_correspondence_is_kept_a_month_after_the_results() -> None:
    # 002 §4.1.13: "в течение месяца после получения итогов соревнования".
    assert correspondence_kept_until(date(2027, 3, 15)) == date(2027, 4, 15)
    assert correspondence_kept_until(date(2027, 1, 31)) == date(2027, 2, 28)
