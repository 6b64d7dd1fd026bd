"""The chart's rules one by one (002 §4.2.11, §4.3.1–§4.3.5, §4.3.7) and bad input."""

from __future__ import annotations

from datetime import date

from timekeeping import (
    Break,
    Ledger,
    LetterEntry,
    Overstep,
    Penalty,
    Side,
    TimeControl,
    TimeFraction,
    average_transit_days,
    compute_chart,
)

W, B = Side.WHITE, Side.BLACK
START = date(2026, 2, 1)


def day(month: int, dom: int, year: int = 2026) -> date:
    return date(year, month, dom)


def game(*letters: LetterEntry, **fields: object) -> Ledger:
    return Ledger(start_date=fields.pop("start_date", START), letters=letters, **fields)  # type: ignore[arg-type]


def opening(sent: date = START) -> LetterEntry:
    return LetterEntry(W, 1, sent=sent)


# --- 002 §4.3.2: start and end ------------------------------------------------------------

def test_first_move_on_or_before_the_start_is_free() -> None:
    assert compute_chart(game(opening(day(1, 28)))).rows[0].days == 0
    assert compute_chart(game(opening(START))).rows[0].days == 0


def test_first_move_after_the_start_counts_from_the_start() -> None:
    assert compute_chart(game(opening(day(2, 4)))).rows[0].days == 3


def test_late_start_sheet_starts_the_day_after_receipt() -> None:
    ledger = game(opening(day(2, 6)), start_sheet_received={W: day(2, 3)})
    # White's start is 04.02; 05.02 and 06.02 count.
    assert compute_chart(ledger).rows[0].days == 2
    on_time = game(opening(day(2, 6)), start_sheet_received={W: START})
    assert compute_chart(on_time).rows[0].days == 5


def test_move_received_before_own_late_start_counts_from_the_start() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 12)),
                  start_sheet_received={B: day(2, 9)})
    assert compute_chart(ledger).rows[1].days == 2  # 11.02 and 12.02; black's start is 10.02


def test_no_time_after_the_end_of_play() -> None:
    end = day(6, 1)
    ledger = game(
        opening(),
        LetterEntry(B, 1, received=day(5, 28), sent=day(6, 10)),
        LetterEntry(W, 2, received=day(6, 1), sent=day(6, 20)),
        end_date=end,
    )
    chart = compute_chart(ledger)
    assert [row.days for row in chart.rows] == [0, 4, 0]
    assert ("002 §4.3.2", 3) in [(note.rule, note.letter) for note in chart.notes]


# --- 002 §4.3.1: the three dates ------------------------------------------------------------

def test_postmark_corrects_partner_only_when_the_reply_says_so() -> None:
    def chart_for(corrects: bool) -> tuple[int, int]:
        ledger = game(
            opening(),
            LetterEntry(B, 1, received=day(2, 5), sent=day(2, 7)),
            LetterEntry(W, 2, partner_sent_postmark=day(2, 9), received=day(2, 12), sent=day(2, 12),
                        corrects_partner=corrects),
        )
        chart = compute_chart(ledger)
        return chart.rows[1].days, chart.totals.black
    assert chart_for(True) == (4, 4)
    assert chart_for(False) == (2, 2)


def test_no_postmark_means_the_declared_date() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 5), sent=day(2, 7)),
                  LetterEntry(W, 2, received=day(2, 12), sent=day(2, 13), corrects_partner=True))
    chart = compute_chart(ledger)
    assert chart.totals == TimeFraction(1, 2)
    assert ("002 §4.3.1", 3) in [(note.rule, note.letter) for note in chart.notes]


# --- 002 §4.3.3: missing dates ---------------------------------------------------------------

def test_missing_receipt_estimated_from_average_transit() -> None:
    ledger = game(
        opening(),
        LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),        # transit 3
        LetterEntry(W, 2, received=day(2, 10), sent=day(2, 11)),      # transit 4
        LetterEntry(B, 2, received=None, sent=day(2, 20)),            # 11.02 + round(3.5) = 15.02
    )
    row = compute_chart(ledger).rows[3]
    assert (row.received, row.received_estimated, row.days) == (day(2, 15), True, 5)


def test_missing_receipt_without_history_is_the_dispatch_day() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=None, sent=day(2, 6)))
    chart = compute_chart(ledger)
    assert chart.rows[1].received == START and chart.rows[1].days == 5
    assert average_transit_days(ledger) is None


def test_estimate_never_after_the_reply() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 11), sent=day(2, 12)),
                  LetterEntry(W, 2, received=None, sent=day(2, 14)))  # 12.02 + 10 > 14.02
    assert compute_chart(ledger).rows[2].received == day(2, 14)


def omission_game(charge_rule: str, omissions: int) -> Ledger:
    letters = [opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6))]
    sent = day(2, 6)
    for move in range(2, 2 + omissions):
        white_sent = date.fromordinal(sent.toordinal() + 4)
        black_sent = date.fromordinal(white_sent.toordinal() + 4)
        letters.append(LetterEntry(W, move, received=date.fromordinal(sent.toordinal() + 3), sent=white_sent))
        letters.append(LetterEntry(B, move, received=None, sent=black_sent))
        sent = black_sent
    letters.append(LetterEntry(W, 2 + omissions, received=date.fromordinal(sent.toordinal() + 3),
                               sent=date.fromordinal(sent.toordinal() + 3),
                               penalty_days_charged_to_partner=6, penalty_rule=charge_rule))
    return game(*letters)


def test_first_omission_earns_only_a_notice() -> None:
    chart = compute_chart(omission_game("002 §4.3.3", omissions=1))
    assert chart.charges == ()
    assert [(e.rule, e.letter) for e in chart.errors] == [("002 §4.3.3", 5)]
    assert "first omission" in chart.errors[0].message
    assert ("002 §4.3.3", 4) in [(n.rule, n.letter) for n in chart.notes]


def test_repeated_omission_earns_six_days() -> None:
    chart = compute_chart(omission_game("002 §4.3.3", omissions=2))
    assert [(c.player, c.days, c.rule) for c in chart.charges] == [(B, 6, "002 §4.3.3")]
    assert chart.errors == ()


def test_omission_penalty_for_a_letter_that_omitted_nothing_refused() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),
                  LetterEntry(W, 2, received=day(2, 9), sent=day(2, 9),
                              penalty_days_charged_to_partner=6, penalty_rule="002 §4.3.3"))
    chart = compute_chart(ledger)
    assert chart.charges == () and "omitted no date" in chart.errors[0].message


# --- 002 §4.2.11, §4.3.7: penalties ----------------------------------------------------------

def test_penalty_is_six_days_once_per_letter() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),
                  LetterEntry(W, 2, received=day(2, 9), sent=day(2, 9), penalty_days_charged_to_partner=12))
    chart = compute_chart(ledger)
    assert chart.totals == TimeFraction(0, 2 + 6)
    assert [(e.rule, e.value, e.letter) for e in chart.errors] == [("002 §4.2.11", 12, 3)]


def test_penalty_in_the_opening_letter_has_nothing_to_charge() -> None:
    chart = compute_chart(game(LetterEntry(W, 1, sent=START, penalty_days_charged_to_partner=6)))
    assert chart.totals == TimeFraction(0, 0) and chart.errors[0].letter == 1


def test_referee_penalty_after_a_letter() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),
                  penalties=(Penalty(W, 6, after_letter=1), Penalty(B, 6, after_letter=0)))
    chart = compute_chart(ledger)
    assert [(r.white_total, r.black_total) for r in chart.rows] == [(6, 6), (6, 8)]


def test_referee_penalty_after_a_missing_letter_is_an_error() -> None:
    chart = compute_chart(game(opening(), penalties=(Penalty(W, 6, after_letter=5),)))
    assert chart.totals == TimeFraction(0, 0)
    assert [(e.rule, e.value) for e in chart.errors] == [("002 §4.3.7", 5)]


# --- 002 §4.3.4: repeats ----------------------------------------------------------------------

def test_late_repeat_adds_the_delay() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6), repeat_sent=day(3, 12)))
    chart = compute_chart(ledger)
    # Due 06.02 + 30 = 08.03; 09.03 to 12.03 are 4 days of delay.
    assert chart.totals == TimeFraction(0, 2 + 4)
    assert chart.charges[0].rule == "002 §4.3.4" and "2026-03-08" in chart.charges[0].reason


def test_repeat_on_time_adds_nothing_and_repeat_postmark_is_no_discrepancy() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6), repeat_sent=day(3, 8)),
                  LetterEntry(W, 2, partner_sent_postmark=day(3, 8), received=day(3, 11), sent=day(3, 12)))
    chart = compute_chart(ledger)
    assert chart.totals == TimeFraction(1, 2) and chart.charges == () and chart.notes == ()


def test_repeat_due_does_not_run_during_breaks() -> None:
    ledger = game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6), repeat_sent=day(3, 12)),
                  breaks=(Break(W, day(2, 20), day(2, 24), notice_postmark=day(2, 10)),))
    assert compute_chart(ledger).totals == TimeFraction(0, 2 + 0)  # due 13.03, repeat on time


# --- 002 §4.3.5: overstep ---------------------------------------------------------------------

def white_line(white: list[tuple[int, int, int]], black_penalty_at: int | None = None) -> list[LetterEntry]:
    """White's opening, then per ``(move, think days, uncounted moves)`` a black reply taking one
    day and white's letter; letters arrive the day they are sent."""
    letters = [opening()]
    current = START
    for index, (move, days, uncounted) in enumerate(white, start=1):
        received, current = current, date.fromordinal(current.toordinal() + 1)
        penalty = 6 if index == black_penalty_at else 0
        letters.append(LetterEntry(B, index, received=received, sent=current,
                                   penalty_days_charged_to_partner=penalty))
        received, current = current, date.fromordinal(current.toordinal() + days)
        letters.append(LetterEntry(W, move, received=received, sent=current, uncounted_moves=uncounted))
    return letters


def test_fifty_days_on_ten_moves_is_not_an_overstep_fifty_one_is() -> None:
    exact = compute_chart(game(*white_line([(move, 5, 0) for move in range(2, 10)] + [(10, 10, 0)])))
    assert exact.totals.white == 50 and exact.overstep is None
    over = compute_chart(game(*white_line([(move, 5, 0) for move in range(2, 10)] + [(10, 11, 0)])))
    assert over.overstep == Overstep(W, move=10, letter=19, total=51, limit=50)


def test_limits_accumulate() -> None:
    # 45 days on moves 2-10, then 55 on move 11: 100 days on 11 moves is within 100.
    chart = compute_chart(game(*white_line([(move, 5, 0) for move in range(2, 11)] + [(11, 55, 0)])))
    assert chart.totals.white == 100 and chart.overstep is None
    chart = compute_chart(game(*white_line([(move, 5, 0) for move in range(2, 11)] + [(11, 56, 0)])))
    assert chart.overstep == Overstep(W, move=11, letter=21, total=101, limit=100)


def test_variant_moves_do_not_count() -> None:
    # White's 5th move reached the board through his own accepted variant (no letter of his
    # carries it). At move 11 he has 10 counted moves: 51 days is an overstep (002 §4.3.5).
    moves = [2, 3, 4, 6, 7, 8, 9, 10, 11]
    white = [(move, 11 if move == 11 else 5, 1 if move > 5 else 0) for move in moves]
    assert compute_chart(game(*white_line(white))).overstep == Overstep(W, move=11, letter=19, total=51, limit=50)
    all_counted = [(move, days, 0) for move, days, _ in white]
    assert compute_chart(game(*white_line(all_counted))).overstep is None


def test_period_is_a_parameter() -> None:
    chart = compute_chart(game(*white_line([(move, 4, 0) for move in range(2, 10)]),
                               control=TimeControl(days=30, moves=10)))
    assert chart.overstep == Overstep(W, move=9, letter=17, total=32, limit=30)


def test_penalty_counts_against_the_next_move() -> None:
    # White used 48 days on 10 moves; black charges 6 in his 10th letter; white's 11th move is
    # judged against 100 days, not 50 (docs/rules/timekeeping.md).
    white = [(move, 5, 0) for move in range(2, 10)] + [(10, 8, 0), (11, 0, 0)]
    chart = compute_chart(game(*white_line(white, black_penalty_at=10)))
    assert chart.totals.white == 54 and chart.overstep is None


# --- bad input --------------------------------------------------------------------------------

def test_sent_before_received() -> None:
    chart = compute_chart(game(opening(), LetterEntry(B, 1, received=day(2, 8), sent=day(2, 6))))
    assert [(e.rule, e.value, e.letter) for e in chart.errors] == [("002 §4.3.1", "2026-02-06", 2)]
    assert "before the letter it answers was received" in chart.errors[0].message
    assert chart.rows[1].days == 0


def test_received_before_the_partner_sent() -> None:
    chart = compute_chart(game(opening(day(2, 5)), LetterEntry(B, 1, received=day(2, 3), sent=day(2, 6))))
    assert [(e.rule, e.value) for e in chart.errors] == [("002 §4.3.1", "2026-02-03")]
    assert "before the partner's dispatch" in chart.errors[0].message


def test_move_number_going_backwards() -> None:
    chart = compute_chart(game(
        opening(),
        LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),
        LetterEntry(W, 3, received=day(2, 9), sent=day(2, 9)),
        LetterEntry(B, 2, received=day(2, 12), sent=day(2, 12)),
        LetterEntry(W, 2, received=day(2, 15), sent=day(2, 15)),
    ))
    assert [(e.rule, e.value, e.letter) for e in chart.errors] == [("002 §4.2.14", 2, 5)]
    assert "goes backwards" in chart.errors[0].message


def test_two_letters_in_a_row_from_one_player() -> None:
    chart = compute_chart(game(opening(), LetterEntry(W, 2, received=day(2, 4), sent=day(2, 6))))
    assert [(e.rule, e.letter) for e in chart.errors] == [("002 §4.3.1", 2)]
    assert chart.rows[1].days == 2


def test_uncounted_moves_must_not_decrease() -> None:
    chart = compute_chart(game(
        opening(),
        LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6)),
        LetterEntry(W, 3, received=day(2, 9), sent=day(2, 9), uncounted_moves=1),
        LetterEntry(B, 3, received=day(2, 12), sent=day(2, 12)),
        LetterEntry(W, 4, received=day(2, 15), sent=day(2, 15), uncounted_moves=0),
    ))
    assert [(e.rule, e.value) for e in chart.errors] == [("002 §4.3.5", 0)]
    assert chart.rows[4].counted_moves == 3


def test_second_break_and_long_break_are_errors_and_the_rest_is_computed() -> None:
    ledger = game(
        opening(),
        LetterEntry(B, 1, received=day(2, 4), sent=day(4, 15)),
        breaks=(
            Break(B, day(2, 10), day(3, 12), notice_postmark=day(2, 1)),   # 31 days: first 30 stand
            Break(B, day(4, 1), day(4, 5), notice_postmark=day(2, 1)),     # second in 2026: refused
        ),
    )
    chart = compute_chart(ledger)
    assert [e.rule for e in chart.errors] == ["002 §4.4.1", "002 §4.4.1"]
    # 04.02 -> 15.04 is 70 days; 30 break days (10.02-11.03) do not count.
    assert chart.rows[1].days == 40


def test_result_is_reported_per_row_with_limits() -> None:
    chart = compute_chart(game(opening(), LetterEntry(B, 1, received=day(2, 4), sent=day(2, 6))))
    assert [(r.letter, r.sender, r.move, r.limit, r.sender_total) for r in chart.rows] == [
        (1, W, 1, 50, 0), (2, B, 1, 50, 2)]
    assert chart.rows[1].totals == TimeFraction(0, 2)
