"""Every rule error of the chart says itself twice, like a note: an English message for the
command line, and a code with its values for a reader who words it in his own language."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    VIOLATION_TEXTS,
    Break,
    DateFormatError,
    Ledger,
    LetterEntry,
    Penalty,
    RuleViolation,
    Side,
    chart_to_dict,
    check_break_limits,
    compute_chart,
    parse_player_date,
    rule_violation,
    validate_player_breaks,
)

W, B = Side.WHITE, Side.BLACK
START = date(2026, 2, 1)


def _errors(*letters: LetterEntry, **fields: object) -> list[RuleViolation]:
    ledger = Ledger(start_date=START, letters=letters, **fields)  # type: ignore[arg-type]
    return list(compute_chart(ledger).errors)


def test_two_letters_in_a_row_name_the_side() -> None:
    """002 §4.3.1: each letter answers the partner's; white wrote twice."""
    errors = _errors(LetterEntry(W, 1, sent=START),
                     LetterEntry(W, 2, received=START, sent=date(2026, 2, 4)))
    [in_a_row] = errors
    assert (in_a_row.rule, in_a_row.letter, in_a_row.code, in_a_row.value) == (
        "002 §4.3.1", 2, "letters_in_a_row", 2)
    assert in_a_row.values == {"side": "white"}
    assert str(in_a_row) == ("002 §4.3.1: letter 2: two letters in a row from white: each letter "
                             "answers the partner's (2)")


def test_dates_are_dates_in_params_and_iso_in_the_message() -> None:
    """002 §4.3.1: a reply sent before the letter it answers was received."""
    [early] = _errors(LetterEntry(W, 1, sent=START),
                      LetterEntry(B, 1, received=date(2026, 2, 5), sent=date(2026, 2, 3)))
    assert early.code == "sent_before_received" and early.letter == 2
    assert early.values == {"sent": date(2026, 2, 3), "received": date(2026, 2, 5)}
    assert early.message == "sent 2026-02-03 before the letter it answers was received on 2026-02-05"
    assert early.value == "2026-02-03"


def test_move_numbering_and_penalty_errors_carry_their_numbers() -> None:
    errors = _errors(
        LetterEntry(W, 1, sent=START),
        LetterEntry(B, 1, received=date(2026, 2, 3), sent=date(2026, 2, 4)),
        LetterEntry(W, 1, received=date(2026, 2, 6), sent=date(2026, 2, 7),
                    penalty_days_charged_to_partner=9, penalty_rule="002 §4.2.11"),
        penalties=(Penalty(B, 6, after_letter=7, rule="002 §4.2.11"),))
    by_code = {error.code: error for error in errors}
    assert by_code["move_backwards"].values == {"side": "white", "move": 1, "last": 1}
    assert by_code["move_backwards"].message == "move number goes backwards: white's move 1 after move 1"
    assert by_code["penalty_amount"].values == {"penalty": 6, "charged": 9}
    assert by_code["penalty_after_last_letter"].values == {"after": 7, "letters": 3}
    assert by_code["penalty_after_last_letter"].message == (
        "penalty after letter 7, but the ledger has 3 letters; not applied")


def test_break_violations() -> None:
    """002 §4.4.1: one break a calendar year, at most 30 days; 002 §4.4.3: first day first."""
    _, refused = check_break_limits([
        Break(W, date(2026, 3, 1), date(2026, 4, 14), date(2026, 2, 20)),
        Break(W, date(2026, 6, 1), date(2026, 6, 5), date(2026, 5, 20)),
        Break(W, date(2026, 8, 9), date(2026, 8, 1), date(2026, 7, 20)),
    ])
    assert [(v.code, v.values) for v in refused] == [
        ("break_too_long", {"side": "white", "days": 45, "most": 30}),
        ("second_break_in_year", {"side": "white", "year": 2026}),
        ("break_ends_before_start", {"side": "white"}),
    ]
    assert refused[0].message == "break of white lasts 45 days, at most 30; counted for its first 30"


def test_break_ending_before_it_begins() -> None:
    _, [backwards] = check_break_limits([Break(B, date(2026, 8, 9), date(2026, 8, 1), None)])
    assert (backwards.rule, backwards.code, backwards.values) == (
        "002 §4.4.3", "break_ends_before_start", {"side": "black"})
    assert backwards.value == "2026-08-09..2026-08-01"


def test_player_breaks_across_games_carry_the_game() -> None:
    """002 §4.4.1: a break is taken at the same time in all of the player's games."""
    first, last = date(2026, 3, 1), date(2026, 3, 10)
    violations = validate_player_breaks({
        "A": [Break(W, first, last, first), Break(W, date(2026, 5, 1), date(2026, 5, 3), first)],
        "B": [],
    })
    second, missing_a, missing_b = violations
    assert second.code == "second_break_in_year"
    assert second.values == {"side": "white", "year": 2026, "game": "A"}
    assert second.message.startswith("game A: second break of white in 2026")
    assert (missing_a.code, missing_a.values) == (
        "break_not_in_every_game", {"first": first, "last": last, "missing": "B"})
    assert missing_a.message == ("break 2026-03-01..2026-03-10 must be taken on the same dates in "
                                 "all games; missing in B")
    assert missing_b.values["missing"] == "B"


def test_json_carries_code_and_params() -> None:
    ledger = Ledger(start_date=START, letters=(
        LetterEntry(W, 1, sent=START), LetterEntry(B, 1, received=date(2026, 2, 5), sent=date(2026, 2, 3))))
    [error] = chart_to_dict(compute_chart(ledger))["errors"]
    assert error == {"rule": "002 §4.3.1", "letter": 2, "value": "2026-02-03",
                     "code": "sent_before_received",
                     "params": {"sent": "2026-02-03", "received": "2026-02-05"},
                     "message": "sent 2026-02-03 before the letter it answers was received on 2026-02-05"}


def test_unknown_code_or_missing_value_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        rule_violation("002 §4.3.1", "no_such_violation")
    with pytest.raises(KeyError, match="side"):
        rule_violation("002 §4.3.1", "letters_in_a_row")


@pytest.mark.parametrize("code", sorted(VIOLATION_TEXTS))
def test_every_text_is_filled_from_its_params(code: str) -> None:
    text = VIOLATION_TEXTS[code]
    assert "%" not in text  # translations format with %; the English here with str.format
    fields = {name.split("}")[0] for name in text.split("{")[1:]}
    violation = rule_violation("002 §4.3.1", code, None, 1, **{name: date(2026, 1, 2) for name in fields})
    assert "{" not in violation.message and violation.values.keys() == fields


@pytest.mark.parametrize(("text", "reference", "code", "params"), [
    ("2026/02/01", None, "day_first", ()),
    ("10.10", None, "year_missing", ()),
    ("29.02", date(2028, 9, 1), "too_far", (("reference", date(2028, 9, 1)),)),
    ("31.02.2026", None, "no_such_day", ()),
])
def test_unreadable_dates_carry_a_code(text: str, reference: date | None, code: str,
                                       params: tuple[tuple[str, object], ...]) -> None:
    """A date a player wrote that cannot be read (002 §4.3.1) says why as a code too."""
    with pytest.raises(DateFormatError) as raised:
        parse_player_date(text, reference=reference)
    assert (raised.value.code, raised.value.params) == (code, params)
    assert str(raised.value).startswith(f"cannot read the date {text!r}: ")
