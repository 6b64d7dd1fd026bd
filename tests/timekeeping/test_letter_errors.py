"""Errors in letters and their penalties as the ledger records them: 002 §4.2.4, §4.2.9, §4.2.11,
§4.3.3 (docs/rules/timekeeping.md, readings 31–35)."""

from __future__ import annotations

from datetime import date

from timekeeping import (
    ErrorReport,
    Ledger,
    LetterEntry,
    Side,
    compute_chart,
    error_report_due,
    ledger_from_dict,
    ledger_to_dict,
)

W, B = Side.WHITE, Side.BLACK


def d(day: int, month: int = 3) -> date:
    return date(2026, month, day)


def three_letters(**black: object) -> tuple[LetterEntry, ...]:
    return (
        LetterEntry(W, 1, sent=d(2)),
        LetterEntry(B, 1, sent=d(8), received=d(5)),
        LetterEntry(W, 2, sent=d(14), received=d(11), **black),  # type: ignore[arg-type]
        LetterEntry(B, 2, sent=d(20), received=d(17)),
    )


# 002 §4.2.9 ------------------------------------------------------------------------------------

def test_error_reported_within_three_days_costs_nothing() -> None:
    # Black got white's letter 1 on 5 March without the repetition of his move; he reports on
    # 8 March (the third day) and, by reading 26, the ledger records the corrected letter's
    # arrival as his receipt. Nothing is added.
    report = ErrorReport(B, 1, received=d(5), reported=d(8))
    assert error_report_due(report) == d(8)
    ledger = Ledger(start_date=d(1), letters=three_letters(), error_reports=(report,))
    chart = compute_chart(ledger)
    assert list(chart.errors) == [] and chart.totals.black == 3 + 3


def test_error_reported_after_three_days_charges_the_late_days_to_the_reporter() -> None:
    report = ErrorReport(B, 1, received=d(5), reported=d(12))
    ledger = Ledger(start_date=d(1), letters=three_letters(), error_reports=(report,))
    chart = compute_chart(ledger)
    assert [(e.rule, e.code, e.values["days"]) for e in chart.errors] == [
        ("002 §4.2.9", "error_report_late", 4)]
    assert [(c.player, c.days, c.rule, c.after_letter) for c in chart.charges] == [
        (B, 4, "002 §4.2.9", 1)]
    assert chart.totals.black == 3 + 3 + 4


def test_error_report_of_a_letter_not_the_partners_or_before_it_came_is_refused() -> None:
    for report, code in ((ErrorReport(B, 2, received=d(8), reported=d(15)), "error_report_wrong_letter"),
                         (ErrorReport(B, 1, received=d(5), reported=d(4)), "error_report_before_receipt")):
        chart = compute_chart(Ledger(start_date=d(1), letters=three_letters(), error_reports=(report,)))
        assert [e.code for e in chart.errors] == [code] and chart.charges == ()


# 002 §4.2.11 -----------------------------------------------------------------------------------

def test_penalty_with_its_reason_is_applied_and_shows_the_reason() -> None:
    letters = three_letters(penalty_days_charged_to_partner=6, penalty_reason="move 1 not repeated",
                            penalty_for_letter=2)
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert list(chart.errors) == []
    assert [(c.player, c.days, c.reason) for c in chart.charges] == [
        (B, 6, "charged by white for letter 2: move 1 not repeated")]


def test_penalty_without_its_reason_is_refused() -> None:
    chart = compute_chart(Ledger(start_date=d(1), letters=three_letters(
        penalty_days_charged_to_partner=6, penalty_reason=" ")))
    assert [(e.rule, e.code) for e in chart.errors] == [("002 §4.2.11", "penalty_without_reason")]
    assert chart.charges == () and chart.totals.black == 6


def test_penalty_charged_later_than_the_very_next_reply_is_refused() -> None:
    # White's letter 5 charges for black's letter 2: the right was white's in letter 3 only.
    letters = (*three_letters(), LetterEntry(W, 3, sent=d(25), received=d(23),
                                             penalty_days_charged_to_partner=6,
                                             penalty_reason="move 1 not repeated",
                                             penalty_for_letter=2))
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert [(e.code, e.values) for e in chart.errors] == [
        ("penalty_right_lost", {"charged_for": 2, "answered": 4})]
    assert chart.charges == ()


# 002 §4.3.3 ------------------------------------------------------------------------------------

def test_a_receipt_date_supplied_in_the_next_letter_is_used_and_the_omission_stays() -> None:
    letters = (
        LetterEntry(W, 1, sent=d(2)),
        LetterEntry(B, 1, sent=d(12), received=None),                     # omitted
        LetterEntry(W, 2, sent=d(16), received=d(15)),
        LetterEntry(B, 2, sent=d(20), received=d(18), supplied_receipt=d(9)),
    )
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert chart.rows[1].received == d(9) and chart.rows[1].days == 3
    assert not chart.rows[1].received_estimated
    assert [(n.letter, n.code) for n in chart.notes] == [
        (2, "first_omission"), (2, "receipt_supplied_later")]
    # The omission is still counted: white may charge the next one (002 §4.3.3).
    assert ledger_from_dict(ledger_to_dict(Ledger(start_date=d(1), letters=letters))).letters == letters


def test_supplying_a_date_nobody_omitted_is_reported() -> None:
    letters = three_letters()[:3] + (LetterEntry(B, 2, sent=d(20), received=d(17), supplied_receipt=d(6)),)
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert [e.code for e in chart.errors] == ["receipt_supplied_nothing_omitted"]
    assert chart.rows[1].received == d(5)


# 002 §4.2.4 with §4.3.5 ------------------------------------------------------------------------

def test_a_forced_move_recorded_in_the_ledger_counts_inside_an_accepted_variant() -> None:
    # White's letter carries moves 2-4 through his accepted variant; move 3 was forced. Only
    # moves 2 and 4 may go uncounted.
    letters = (
        LetterEntry(W, 1, sent=d(2)),
        LetterEntry(B, 1, sent=d(8), received=d(5)),
        LetterEntry(W, 4, sent=d(14), received=d(11), uncounted_moves=3, forced_moves=1),
    )
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert [(e.rule, e.code) for e in chart.errors] == [("002 §4.3.5", "forced_move_uncounted")]
    assert chart.rows[2].counted_moves == 2
    ok = letters[:2] + (LetterEntry(W, 4, sent=d(14), received=d(11), uncounted_moves=2, forced_moves=1),)
    chart = compute_chart(Ledger(start_date=d(1), letters=ok))
    assert list(chart.errors) == [] and chart.rows[2].counted_moves == 2
    assert ledger_to_dict(Ledger(start_date=d(1), letters=ok))["letters"][2]["forced_moves"] == 1
