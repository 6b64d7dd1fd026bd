"""Every note of the chart says itself twice: an English message for the command line, and a code
with its values for a reader who words it in his own language (the service's Russian pages)."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    NOTE_TEXTS,
    Break,
    Ledger,
    LetterEntry,
    RuleNote,
    Side,
    chart_to_dict,
    compute_chart,
    rule_note,
)
from timekeeping.breaks import days_in_game

W, B = Side.WHITE, Side.BLACK
START = date(2026, 2, 1)


def _notes(*letters: LetterEntry, **fields: object) -> list[RuleNote]:
    ledger = Ledger(start_date=START, letters=letters, **fields)  # type: ignore[arg-type]
    return list(compute_chart(ledger).notes)


def test_note_carries_its_code_and_dates_as_dates() -> None:
    [estimated] = _notes(LetterEntry(W, 1, sent=START),
                         LetterEntry(B, 1, received=None, sent=date(2026, 2, 6)))[1:]
    assert (estimated.rule, estimated.letter, estimated.code) == ("002 §4.3.3", 2,
                                                                    "receipt_estimated_no_transit")
    assert estimated.values == {"estimate": START}
    assert estimated.message == "receipt date missing, estimated as 2026-02-01 (no transit on record: 0 days)"


def test_first_omission_names_the_side() -> None:
    notes = _notes(LetterEntry(W, 1, sent=START), LetterEntry(B, 1, received=None, sent=date(2026, 2, 6)))
    assert notes[0].code == "first_omission" and notes[0].values == {"side": "black"}
    assert str(notes[0]) == "002 §4.3.3: letter 2: first omission of a date by black: a notice only, no penalty"


def test_postmark_notes() -> None:
    def chart_notes(corrects: bool) -> list[RuleNote]:
        return _notes(
            LetterEntry(W, 1, sent=START),
            LetterEntry(B, 1, received=date(2026, 2, 5), sent=date(2026, 2, 7)),
            LetterEntry(W, 2, partner_sent_postmark=date(2026, 2, 9), received=date(2026, 2, 12),
                        sent=date(2026, 2, 12), corrects_partner=corrects))
    [corrected] = chart_notes(True)
    assert corrected.code == "dispatch_corrected" and corrected.letter == 2
    assert corrected.values == {"side": "black", "declared": date(2026, 2, 7), "postmark": date(2026, 2, 9)}
    [standing] = chart_notes(False)
    assert standing.code == "postmark_not_corrected"
    assert standing.values == {"postmark": date(2026, 2, 9), "declared": date(2026, 2, 7), "reply": 3}


def test_breaks_notes() -> None:
    first, last = date(2026, 3, 1), date(2026, 3, 10)
    _, never = days_in_game(Break(W, first, last, None))
    _, after = days_in_game(Break(W, first, last, date(2026, 3, 12)))
    _, late = days_in_game(Break(B, first, last, date(2026, 3, 4)))
    assert never is not None and after is not None and late is not None
    assert (never.code, never.values) == ("break_not_notified", {"side": "white", "first": first, "last": last})
    assert (after.code, after.values["notified"]) == ("break_notified_after_end", date(2026, 3, 12))
    assert (late.code, late.values) == ("break_notified_late",
                                        {"side": "black", "notified": date(2026, 3, 4), "first": first})
    assert late.message == "break of black notified late: counted from the notice's postmark 2026-03-04, not from 2026-03-01"


def test_json_carries_code_and_params() -> None:
    ledger = Ledger(start_date=START, letters=(
        LetterEntry(W, 1, sent=START), LetterEntry(B, 1, received=None, sent=date(2026, 2, 6))))
    notes = chart_to_dict(compute_chart(ledger))["notes"]
    assert notes[1] == {"rule": "002 §4.3.3", "letter": 2, "code": "receipt_estimated_no_transit",
                        "params": {"estimate": "2026-02-01"},
                        "message": "receipt date missing, estimated as 2026-02-01 (no transit on record: 0 days)"}


def test_unknown_code_or_missing_value_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        rule_note("002 §4.3.3", "no_such_note")
    with pytest.raises(KeyError, match="side"):
        rule_note("002 §4.3.3", "first_omission")


@pytest.mark.parametrize("code", sorted(NOTE_TEXTS))
def test_every_text_is_filled_from_its_params(code: str) -> None:
    text = NOTE_TEXTS[code]
    assert "%" not in text  # translations format with %; the English here with str.format
    fields = {name.split("}")[0] for name in text.split("{")[1:]}
    note = rule_note("002 §4.3.1", code, 1, **{name: date(2026, 1, 2) for name in fields})
    assert "{" not in note.message and note.values.keys() == fields
