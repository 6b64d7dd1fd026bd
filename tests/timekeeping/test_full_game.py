"""A complete 25-move game whose chart was worked out by hand from the rules, not by the code.

Control 50 days per 10 moves (002 §4.3.1). Every letter takes 3 days in the post, so the
average transit used for omitted receipt dates is 3 (002 §4.3.3). The events, by letter:

* 1–2: white moves on the start date (0 days, 002 §4.3.2); black got the start sheet on 03.02,
  two days late, so his clock starts on 04.02 (the day after) and 04.02 itself is free.
* 12–13: black declared 08.04, the postmark says 09.04 and white corrects it in his reply:
  black's 12th letter counts 05.04–09.04 = 4 days instead of 3 (002 §4.3.1).
* 15: white's postmark 21.04 differs from black's declared 20.04 but white does not correct
  it: black's time stands (002 §4.3.1).
* 17–19: black's break 10.05–25.05, notified in time, counts for nobody (002 §4.4.2): white's
  letter 17 (07.05 → 12.05) counts 08 and 09 only; black answers during his own break (18,
  15.05 → 18.05): 0 days, and the break goes on (002 §4.4.4); white's 19 (21.05 → 28.05)
  counts 26, 27, 28.
* 20: black omits the receipt date, the first time: a notice only; receipt estimated 28.05 + 3
  = 31.05 (002 §4.3.3).
* 21–23: white's variant is accepted: white's 12th move reaches the board through it, so from
  letter 23 one of white's moves is uncounted (002 §4.3.5).
* 24: black charges white 6 penalty days (002 §4.2.11).
* 26–27: black omits the receipt date again (estimated 01.07 + 3 = 04.07); white charges the
  6 days of 002 §4.3.3 in his very next letter.
* 30–31: white's break 01.08–10.08 was notified only on 05.08: in this game it runs 05.08–10.08
  (002 §4.4.2). Black's letter 30 (02.08 → 04.08) counts 2; white's 31 (07.08 → 12.08) counts
  11 and 12.
* 33: white's letter of 22.08 gets no answer; the repeat was due 30 days later, on 21.09, and
  went on 25.09: 4 days of delay are added to white (002 §4.3.4).
* 36: the referee imposes 6 days on black for a false overstep claim (002 §4.3.7).
* 40: black's second break of 2026 (01.11–05.11) is refused (002 §4.4.1): its days count.
* 47: white thinks from 11.12.2026 to 10.03.2027: 20 + 31 + 28 + 10 = 89 days; 73 + 89 = 162,
  more than the 150 allowed for 24 counted moves: overstep at move 25, letter 47 (002 §4.3.5).
* 48: black's 25th move, sent with his record to the referee (002 §4.3.6).
"""

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
    chart_to_text,
    compute_chart,
)

W, B = Side.WHITE, Side.BLACK


def d(text: str) -> date:
    """``"04.02"`` in 2026, ``"10.03.27"`` in 2027."""
    parts = [int(part) for part in text.split(".")]
    return date(2000 + parts[2] if len(parts) == 3 else 2026, parts[1], parts[0])


def letter(sender: Side, move: int, postmark: str | None, received: str | None, sent: str,
           **extra: object) -> LetterEntry:
    return LetterEntry(
        sender=sender, move=move, sent=d(sent),
        received=d(received) if received else None,
        partner_sent_postmark=d(postmark) if postmark else None,
        **extra,  # type: ignore[arg-type]
    )


LETTERS = (
    letter(W, 1, None, None, "01.02", moves_text="c3-d4"),
    letter(B, 1, "01.02", "04.02", "06.02", moves_text="f6-g5"),
    letter(W, 2, "06.02", "09.02", "11.02", moves_text="b2-c3"),
    letter(B, 2, "11.02", "14.02", "17.02"),
    letter(W, 3, "17.02", "20.02", "20.02"),
    letter(B, 3, "20.02", "23.02", "27.02"),
    letter(W, 4, "27.02", "02.03", "06.03"),
    letter(B, 4, "06.03", "09.03", "10.03"),
    letter(W, 5, "10.03", "13.03", "20.03"),
    letter(B, 5, "20.03", "23.03", "25.03"),
    letter(W, 6, "25.03", "28.03", "02.04"),
    letter(B, 6, "02.04", "05.04", "08.04"),
    letter(W, 7, "09.04", "12.04", "14.04", corrects_partner=True),
    letter(B, 7, "14.04", "17.04", "20.04"),
    letter(W, 8, "21.04", "24.04", "27.04"),
    letter(B, 8, "27.04", "30.04", "04.05"),
    letter(W, 9, "04.05", "07.05", "12.05"),
    letter(B, 9, "12.05", "15.05", "18.05"),
    letter(W, 10, "18.05", "21.05", "28.05"),
    letter(B, 10, "28.05", None, "03.06"),
    letter(W, 11, "03.06", "06.06", "08.06"),
    letter(B, 12, "08.06", "11.06", "15.06"),
    letter(W, 13, "15.06", "18.06", "21.06", uncounted_moves=1),
    letter(B, 13, "21.06", "24.06", "26.06", penalty_days_charged_to_partner=6),
    letter(W, 14, "26.06", "29.06", "01.07", uncounted_moves=1),
    letter(B, 14, "01.07", None, "08.07"),
    letter(W, 15, "08.07", "11.07", "13.07", uncounted_moves=1,
           penalty_days_charged_to_partner=6, penalty_rule="002 §4.3.3"),
    letter(B, 15, "13.07", "16.07", "20.07"),
    letter(W, 16, "20.07", "23.07", "30.07", uncounted_moves=1),
    letter(B, 16, "30.07", "02.08", "04.08"),
    letter(W, 17, "04.08", "07.08", "12.08", uncounted_moves=1),
    letter(B, 17, "12.08", "15.08", "18.08"),
    letter(W, 18, "18.08", "21.08", "22.08", uncounted_moves=1, repeat_sent=d("25.09")),
    letter(B, 18, "25.09", "28.09", "30.09"),
    letter(W, 19, "30.09", "03.10", "05.10", uncounted_moves=1),
    letter(B, 19, "05.10", "08.10", "10.10"),
    letter(W, 20, "10.10", "13.10", "16.10", uncounted_moves=1),
    letter(B, 20, "16.10", "19.10", "20.10"),
    letter(W, 21, "20.10", "23.10", "27.10", uncounted_moves=1),
    letter(B, 21, "27.10", "30.10", "03.11"),
    letter(W, 22, "03.11", "06.11", "09.11", uncounted_moves=1),
    letter(B, 22, "09.11", "12.11", "16.11"),
    letter(W, 23, "16.11", "19.11", "20.11", uncounted_moves=1),
    letter(B, 23, "20.11", "23.11", "27.11"),
    letter(W, 24, "27.11", "30.11", "03.12", uncounted_moves=1),
    letter(B, 24, "03.12", "06.12", "08.12"),
    letter(W, 25, "08.12", "11.12", "10.03.27", uncounted_moves=1),
    letter(B, 25, "10.03.27", "13.03.27", "15.03.27"),
)

LEDGER = Ledger(
    start_date=d("01.02"),
    end_date=d("01.08.27"),
    control=TimeControl(days=50, moves=10),
    start_sheet_received={W: date(2026, 1, 25), B: d("03.02")},
    breaks=(
        Break(B, d("10.05"), d("25.05"), notice_postmark=d("01.05")),
        Break(W, d("01.08"), d("10.08"), notice_postmark=d("05.08")),
        Break(B, d("01.11"), d("05.11"), notice_postmark=d("20.10")),
    ),
    letters=LETTERS,
    penalties=(Penalty(B, 6, after_letter=36, rule="002 §4.3.7", reason="false overstep claim"),),
    players={W: "Петров", B: "Седов"},
)

# letter: (think days of the reply, white total, black total), worked out by hand as above.
EXPECTED = {
    1: (0, 0, 0), 2: (2, 0, 2), 3: (2, 2, 2), 4: (3, 2, 5), 5: (0, 2, 5), 6: (4, 2, 9),
    7: (4, 6, 9), 8: (1, 6, 10), 9: (7, 13, 10), 10: (2, 13, 12), 11: (5, 18, 12),
    12: (4, 18, 16), 13: (2, 20, 16), 14: (3, 20, 19), 15: (3, 23, 19), 16: (4, 23, 23),
    17: (2, 25, 23), 18: (0, 25, 23), 19: (3, 28, 23), 20: (3, 28, 26), 21: (2, 30, 26),
    22: (4, 30, 30), 23: (3, 33, 30), 24: (2, 39, 32), 25: (2, 41, 32), 26: (4, 41, 36),
    27: (2, 43, 42), 28: (4, 43, 46), 29: (7, 50, 46), 30: (2, 50, 48), 31: (2, 52, 48),
    32: (3, 52, 51), 33: (1, 57, 51), 34: (2, 57, 53), 35: (2, 59, 53), 36: (2, 59, 61),
    37: (3, 62, 61), 38: (1, 62, 62), 39: (4, 66, 62), 40: (4, 66, 66), 41: (3, 69, 66),
    42: (4, 69, 70), 43: (1, 70, 70), 44: (4, 70, 74), 45: (3, 73, 74), 46: (2, 73, 76),
    47: (89, 162, 76), 48: (2, 162, 78),
}


def test_every_row_matches_the_hand_computation() -> None:
    chart = compute_chart(LEDGER)
    computed = {row.letter: (row.days, row.white_total, row.black_total) for row in chart.rows}
    assert computed == EXPECTED


def test_totals_and_overstep() -> None:
    chart = compute_chart(LEDGER)
    assert chart.totals == TimeFraction(162, 78)
    assert chart.overstep == Overstep(W, move=25, letter=47, total=162, limit=150)


def test_corrected_and_estimated_dates() -> None:
    rows = compute_chart(LEDGER).rows
    assert (rows[11].sent, rows[11].declared_sent) == (d("09.04"), d("08.04"))
    assert rows[13].sent == rows[13].declared_sent == d("20.04")  # not corrected in letter 15
    assert (rows[19].received, rows[19].received_estimated) == (d("31.05"), True)
    assert (rows[25].received, rows[25].received_estimated) == (d("04.07"), True)
    assert [row.counted_moves for row in rows if row.sender is W][10:13] == [11, 12, 13]


def test_charges_name_their_rules() -> None:
    chart = compute_chart(LEDGER)
    assert [(c.player, c.days, c.rule, c.after_letter) for c in chart.charges] == [
        (W, 6, "002 §4.2.11", 24),
        (B, 6, "002 §4.3.3", 27),
        (W, 4, "002 §4.3.4", 33),
        (B, 6, "002 §4.3.7", 36),
    ]


def test_only_error_is_the_second_break() -> None:
    chart = compute_chart(LEDGER)
    assert [(error.rule, error.value) for error in chart.errors] == [
        ("002 §4.4.1", "2026-11-01..2026-11-05"),
    ]
    rules = [(note.rule, note.letter) for note in chart.notes]
    assert ("002 §4.4.2", None) in rules  # white's late notice
    assert ("002 §4.3.3", 20) in rules  # first omission: notice only
    assert ("002 §4.3.1", 12) in rules  # corrected dispatch
    assert ("002 §4.3.1", 14) in rules  # uncorrected postmark stands


def test_text_chart_follows_the_sample_columns() -> None:
    text = chart_to_text(compute_chart(LEDGER), LEDGER.players)
    lines = text.splitlines()
    assert lines[0].split("\t")[:1] == ["Белые: Петров"]
    assert lines[1].split("\t") == ["Получ", "Отпр.", "На ход", "Общее", "", "", "",
                                    "Получ", "Отпр.", "На ход", "Общее"]
    assert lines[2].split("\t") == ["", "01.02", "0", "0", "c3-d4", "1", "f6-g5", "04.02", "06.02", "2", "2"]
    assert lines[3].split("\t") == ["09.02", "11.02", "2", "2", "b2-c3", "2", "", "14.02", "17.02", "3", "5"]
    move_10 = next(line for line in lines if line.split("\t")[5:6] == ["10"])
    assert move_10.split("\t") == ["21.05", "28.05", "3", "28", "", "10", "", "31.05*", "03.06", "3", "26"]
    assert "Итого (белые/черные): 162/78" in lines
