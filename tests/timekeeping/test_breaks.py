"""Breaks (002 §4.4): the announcement phrase, the limits, notices, and all games alike."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    Break,
    BreakAnnouncement,
    BreakAnnouncementError,
    Ledger,
    LetterEntry,
    Side,
    check_break_limits,
    compute_chart,
    find_break_announcements,
    game_break_days,
    parse_break_announcement,
    validate_player_breaks,
)

W, B = Side.WHITE, Side.BLACK


def test_rulebook_example_is_sixteen_days() -> None:
    announcement = parse_break_announcement("беру перерыв с 10.10.97 по 25.10.97")
    assert announcement == BreakAnnouncement(date(1997, 10, 10), date(1997, 10, 25))
    assert announcement.days == 16


@pytest.mark.parametrize(
    "text",
    [
        "«беру перерыв с 10.10.97 по 25.10.97»",
        "Беру перерыв с 10.10.1997 по 25.10.1997.",
        "беру  перерыв\nс 1997-10-10 по 1997-10-25",
        "беру перерыв с 10.10.97г. по 25.10.97г.",
    ],
)
def test_accepted_spellings_of_the_phrase(text: str) -> None:
    assert parse_break_announcement(text) == BreakAnnouncement(date(1997, 10, 10), date(1997, 10, 25))


def test_missing_years_come_from_the_letter_and_roll_over_new_year() -> None:
    assert parse_break_announcement("беру перерыв с 10.10 по 25.10", reference=date(1997, 10, 1)) == \
        BreakAnnouncement(date(1997, 10, 10), date(1997, 10, 25))
    assert parse_break_announcement("беру перерыв с 25.12 по 10.01", reference=date(2026, 12, 1)) == \
        BreakAnnouncement(date(2026, 12, 25), date(2027, 1, 10))


@pytest.mark.parametrize(
    "text",
    [
        "беру отпуск с 10.10.97 по 25.10.97",
        "перерыв с 10.10.97 по 25.10.97",
        "беру перерыв от 10.10.97 до 25.10.97",
        "беру перерыв с 10.10.97 на 16 дней",
        "прошу перерыв с 10.10.97 по 25.10.97",
        "беру перерыв с 10.10.97 по 25.10.97 по болезни",
    ],
)
def test_other_wordings_rejected(text: str) -> None:
    with pytest.raises(BreakAnnouncementError, match="002 §4.4.3") as raised:
        parse_break_announcement(text)
    assert raised.value.text == text


def test_impossible_or_reversed_dates_rejected() -> None:
    with pytest.raises(BreakAnnouncementError, match="no such day"):
        parse_break_announcement("беру перерыв с 31.09.97 по 10.10.97")
    with pytest.raises(BreakAnnouncementError, match="before the first day"):
        parse_break_announcement("беру перерыв с 25.10.97 по 10.10.97")


def test_announcement_found_inside_a_letter() -> None:
    text = "Уважаемый партнёр! Мой ход: c3-d4. Беру перерыв с 10.10.97 по 25.10.97. С уважением."
    assert find_break_announcements(text) == [BreakAnnouncement(date(1997, 10, 10), date(1997, 10, 25))]
    assert find_break_announcements("Беру отпуск на две недели.") == []


def brk(first: str, last: str, notice: str | None = "2026-01-01", player: Side = B, **extra: bool) -> Break:
    return Break(player, date.fromisoformat(first), date.fromisoformat(last),
                 date.fromisoformat(notice) if notice else None, **extra)


def test_break_of_thirty_days_stands_thirty_one_is_cut() -> None:
    standing, violations = check_break_limits([brk("2026-06-01", "2026-06-30")])
    assert [b.days for b in standing] == [30] and violations == []
    standing, violations = check_break_limits([brk("2026-06-01", "2026-07-01")])
    assert [b.last_day for b in standing] == [date(2026, 6, 30)]
    assert [(v.rule, v.value) for v in violations] == [("002 §4.4.1", "2026-06-01..2026-07-01")]
    assert "31 days" in violations[0].message


def test_second_break_in_a_year_refused_whatever_the_order() -> None:
    first = brk("2026-03-01", "2026-03-10")
    second = brk("2026-09-01", "2026-09-10")
    for order in ([first, second], [second, first]):
        standing, violations = check_break_limits(order)
        assert standing == [first]
        assert [(v.rule, v.value) for v in violations] == [("002 §4.4.1", "2026-09-01..2026-09-10")]
        assert "second break" in violations[0].message


def test_one_break_in_each_calendar_year_is_fine() -> None:
    standing, violations = check_break_limits([brk("2026-12-20", "2027-01-05"), brk("2027-06-01", "2027-06-10")])
    assert len(standing) == 2 and violations == []


def test_referee_granted_break_is_outside_the_limits() -> None:
    # 002 §4.4.5: retroactive or extra break granted by the referee.
    granted = brk("2026-09-01", "2026-10-15", notice=None, granted_by_referee=True)
    standing, violations = check_break_limits([brk("2026-03-01", "2026-03-10"), granted])
    assert granted in standing and violations == []
    intervals, _, notes = game_break_days([granted])
    assert intervals == [(date(2026, 9, 1), date(2026, 10, 15))] and notes == []


def test_late_notice_counts_from_its_postmark() -> None:
    intervals, violations, notes = game_break_days([brk("2026-05-10", "2026-05-25", notice="2026-05-14")])
    assert intervals == [(date(2026, 5, 14), date(2026, 5, 25))]
    assert violations == [] and [n.rule for n in notes] == ["002 §4.4.2"]


def test_notice_after_the_break_or_none_means_no_break_in_this_game() -> None:
    for notice in ("2026-05-26", None):
        intervals, _, notes = game_break_days([brk("2026-05-10", "2026-05-25", notice=notice)])
        assert intervals == [] and [n.rule for n in notes] == ["002 §4.4.2"]


def test_reversed_break_is_an_error() -> None:
    intervals, violations, _ = game_break_days([brk("2026-05-25", "2026-05-10")])
    assert intervals == [] and [(v.rule, v.value) for v in violations] == [("002 §4.4.3", "2026-05-25..2026-05-10")]


def test_same_dates_in_all_games() -> None:
    autumn = brk("2026-10-10", "2026-10-25")
    assert validate_player_breaks({"A1": [autumn], "A2": [autumn], "A3": [autumn]}) == []
    violations = validate_player_breaks({"A1": [autumn], "A2": [brk("2026-10-11", "2026-10-25")], "A3": []})
    messages = [v.message for v in violations]
    assert len(violations) == 2 and all(v.rule == "002 §4.4.1" for v in violations)
    assert "missing in A2, A3" in messages[0] and "missing in A1, A3" in messages[1]


def test_cross_game_check_reports_limits_per_game() -> None:
    violations = validate_player_breaks({"A1": [brk("2026-03-01", "2026-04-15")]})
    assert [v.rule for v in violations] == ["002 §4.4.1"] and "game A1" in violations[0].message


def test_break_counts_for_nobody_and_own_move_does_not_end_it() -> None:
    # Black's break 10.10-25.10.97 notified in time. Black answers during it (002 §4.4.4): 0 days,
    # and white, receiving during black's break, is not charged for the break days either.
    ledger = Ledger(
        start_date=date(1997, 9, 1),
        breaks=(Break(B, date(1997, 10, 10), date(1997, 10, 25), date(1997, 10, 1)),),
        letters=(
            LetterEntry(W, 1, sent=date(1997, 9, 1)),
            LetterEntry(B, 1, received=date(1997, 10, 12), sent=date(1997, 10, 14)),
            LetterEntry(W, 2, received=date(1997, 10, 17), sent=date(1997, 10, 27)),
        ),
    )
    chart = compute_chart(ledger)
    assert [row.days for row in chart.rows] == [0, 0, 2]
    assert chart.errors == ()
