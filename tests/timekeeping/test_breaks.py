"""Breaks (002 §4.4): the announcement phrase, the limits, notices, and all games alike."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    Break,
    BreakAnnouncement,
    BreakAnnouncementError,
    Ledger,
    LedgerFormatError,
    LetterEntry,
    RefereeGrant,
    Side,
    check_break_limits,
    compute_chart,
    find_break_announcements,
    game_break_days,
    judge_announcement,
    ledger_from_dict,
    ledger_to_dict,
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


def brk(first: str, last: str, notice: str | None = "2026-01-01", player: Side = B,
        **extra: RefereeGrant | None) -> Break:
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


def test_extra_break_granted_by_the_referee_is_outside_the_limits() -> None:
    # 002 §4.4.5: "дополнительный перерыв сверх норм, указанных в пункте 4.4.1".
    extra = brk("2026-09-01", "2026-10-15", notice=None, referee_grant=RefereeGrant.EXTRA)
    standing, violations = check_break_limits([brk("2026-03-01", "2026-03-10"), extra])
    assert extra in standing and violations == []
    intervals, _, notes = game_break_days([extra])
    assert intervals == [(date(2026, 9, 1), date(2026, 10, 15))]
    assert [(n.rule, n.code) for n in notes] == [("002 §4.4.5", "break_extra_granted")]


def test_late_notice_break_counted_by_the_referee_is_still_the_break_of_the_year() -> None:
    # The defect: a late-announced break the referee counted (002 §4.4.5) was outside 002 §4.4.1,
    # so the player had it and another break the same year. Now the earlier break of the year
    # stands and the second is refused, whichever of the two the referee counted.
    ordinary = brk("2026-03-01", "2026-03-10")
    late = brk("2026-09-01", "2026-09-20", notice=None, referee_grant=RefereeGrant.LATE_NOTICE)
    standing, violations = check_break_limits([ordinary, late])
    assert standing == [ordinary]
    assert [(v.rule, v.code, v.value) for v in violations] == [
        ("002 §4.4.1", "second_break_in_year", "2026-09-01..2026-09-20")]
    # Alone in its year it counts in full from its first day although the notice came late.
    intervals, violations, notes = game_break_days([late])
    assert intervals == [(date(2026, 9, 1), date(2026, 9, 20))] and violations == []
    assert [(n.rule, n.code) for n in notes] == [("002 §4.4.5", "break_late_notice_counted")]
    # And the 30 days of 002 §4.4.1 hold for it too.
    long_late = brk("2026-09-01", "2026-10-15", notice="2026-09-05", referee_grant=RefereeGrant.LATE_NOTICE)
    standing, violations = check_break_limits([long_late])
    assert [b.days for b in standing] == [30] and [v.code for v in violations] == ["break_too_long"]


def test_late_notice_break_in_a_ledger_does_not_free_the_player_from_the_yearly_rule() -> None:
    # The ledger that showed the defect: black took 1-10 March 2026, then the referee counted a
    # break of 1-20 September announced on 10 September. Black received white's move on
    # 31 August and replied on 25 September: 25 days, of which a counted break would free 20.
    data = {
        "start_date": "2026-08-25",
        "breaks": [
            {"player": "black", "first_day": "2026-03-01", "last_day": "2026-03-10",
             "notice_postmark": "2026-02-20"},
            {"player": "black", "first_day": "2026-09-01", "last_day": "2026-09-20",
             "notice_postmark": "2026-09-10", "referee_grant": "late_notice"},
        ],
        "letters": [
            {"from": "white", "move": 1, "sent": "2026-08-28"},
            {"from": "black", "move": 1, "sent": "2026-09-25", "received": "2026-08-31"},
        ],
    }
    chart = compute_chart(ledger_from_dict(data))
    assert chart.rows[1].days == 25
    assert [(e.rule, e.code) for e in chart.errors] == [("002 §4.4.1", "second_break_in_year")]
    # The same break granted as an extra one is beyond the norms: 5 days.
    data["breaks"][1]["referee_grant"] = "extra"
    chart = compute_chart(ledger_from_dict(data))
    assert chart.rows[1].days == 5 and list(chart.errors) == []
    assert [n.code for n in chart.notes] == ["break_extra_granted"]


def test_old_granted_by_referee_reads_as_late_notice() -> None:
    data = {"start_date": "2026-01-10", "breaks": [
        {"player": "white", "first_day": "2026-05-01", "last_day": "2026-05-10",
         "granted_by_referee": True}]}
    ledger = ledger_from_dict(data)
    assert ledger.breaks[0].referee_grant is RefereeGrant.LATE_NOTICE
    written = ledger_to_dict(ledger)["breaks"][0]
    assert written["referee_grant"] == "late_notice" and "granted_by_referee" not in written
    assert ledger_from_dict(ledger_to_dict(ledger)) == ledger


def test_unknown_or_contradictory_referee_grant_is_refused() -> None:
    for fields, path in (({"referee_grant": "yes"}, "breaks[0].referee_grant"),
                         ({"referee_grant": "extra", "granted_by_referee": False},
                          "breaks[0].granted_by_referee")):
        data = {"start_date": "2026-01-10", "breaks": [
            {"player": "white", "first_day": "2026-05-01", "last_day": "2026-05-10", **fields}]}
        with pytest.raises(LedgerFormatError) as error:
            ledger_from_dict(data)
        assert [problem.path for problem in error.value.problems] == [path]


def test_late_notice_break_is_compared_across_games_extra_is_not() -> None:
    late = brk("2026-09-01", "2026-09-20", referee_grant=RefereeGrant.LATE_NOTICE)
    extra = brk("2026-11-01", "2026-11-05", referee_grant=RefereeGrant.EXTRA)
    violations = validate_player_breaks({"g1": [late, extra], "g2": []})
    assert [(v.code, v.values["missing"]) for v in violations] == [("break_not_in_every_game", "g2")]


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


def test_a_break_joining_another_is_refused_across_the_new_year() -> None:
    # 002 §4.4.1: one break of at most 30 days. December's break cut to 30 days (20.12–18.01)
    # and a January break from 15.01 (overlapping) or 19.01 (the day after) would be one break
    # of 37 days without a day of play between.
    december = brk("2026-12-20", "2027-01-31")
    for first in ("2027-01-15", "2027-01-19"):
        january = brk(first, "2027-01-25")
        standing, violations = check_break_limits([january, december])
        assert standing == [brk("2026-12-20", "2027-01-18")]
        assert [(v.rule, v.code) for v in violations] == [
            ("002 §4.4.1", "break_too_long"), ("002 §4.4.1", "break_joins_another")]
        assert violations[1].values["other_last"] == date(2027, 1, 18)
    # A day of play between them: one break in each calendar year, as the rule allows.
    standing, violations = check_break_limits([december, brk("2027-01-20", "2027-01-25")])
    assert len(standing) == 2 and [v.code for v in violations] == ["break_too_long"]


def test_an_announcement_is_judged_against_the_breaks_already_taken() -> None:
    taken = [brk("2026-12-20", "2027-01-18")]
    # Overlapping or continuing the break taken: refused, whatever its year.
    stands, violations = judge_announcement(taken, brk("2027-01-15", "2027-01-25"),
                                            announced_on=date(2026, 12, 12))
    assert stands is None and [v.code for v in violations] == ["break_joins_another"]
    # A second break in 2026, earlier in the calendar than the one taken: the break taken stands.
    stands, violations = judge_announcement(taken, brk("2026-06-01", "2026-06-05"),
                                            announced_on=date(2026, 5, 1))
    assert stands is None and [v.code for v in violations] == ["second_break_in_year"]
    # The same break again: it holds already.
    stands, violations = judge_announcement(taken, brk("2026-12-20", "2027-01-31"),
                                            announced_on=date(2026, 12, 12))
    assert stands is None and [(v.rule, v.code) for v in violations] == [
        ("002 §4.4.2", "break_already_announced")]
    # Over 30 days: its first 30 stand, reported.
    stands, violations = judge_announcement([], brk("2026-12-20", "2027-01-31"),
                                            announced_on=date(2026, 12, 11))
    assert stands == brk("2026-12-20", "2027-01-18") and [v.code for v in violations] == [
        "break_too_long"]


def test_an_announcement_after_the_break_ended_is_refused_one_after_it_began_stands() -> None:
    # 002 §4.4.2: the notice comes «до его начала»; after its end it counts in no game, so it is
    # no break at all and does not use up the break of the year.
    past = brk("2026-12-01", "2026-12-05")
    stands, violations = judge_announcement([], past, announced_on=date(2026, 12, 12))
    assert stands is None
    assert [(v.rule, v.code, v.values["announced"]) for v in violations] == [
        ("002 §4.4.2", "break_announced_after_end", date(2026, 12, 12))]
    for announced in (date(2026, 12, 1), date(2026, 12, 5)):  # on its first or last day: late
        stands, violations = judge_announcement([], past, announced_on=announced)
        assert stands == past and violations == []
