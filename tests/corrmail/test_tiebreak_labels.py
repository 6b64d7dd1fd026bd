"""Every tiebreak `scoring` knows has a column label and a title, in English and in Russian."""

from __future__ import annotations

import pytest

from corrmail.bulletins.render import _translations
from corrmail.standings.tiebreak_labels import TEAM_TIEBREAK_LABELS, TIEBREAK_LABELS, TiebreakLabel
from scoring.teams import TEAM_TIEBREAKS
from scoring.tiebreaks import TIEBREAKS

LABELS = [*TIEBREAK_LABELS.values(), *TEAM_TIEBREAK_LABELS.values()]


def test_every_tiebreak_has_a_label_citing_its_rule() -> None:
    assert set(TIEBREAK_LABELS) == set(TIEBREAKS)
    assert set(TEAM_TIEBREAK_LABELS) == set(TEAM_TIEBREAKS)
    for name, label in TIEBREAK_LABELS.items():
        assert label.rule == TIEBREAKS[name].rule
    for name, label in TEAM_TIEBREAK_LABELS.items():
        assert label.rule == TEAM_TIEBREAKS[name].rule


def test_column_labels_tell_the_tiebreaks_of_one_table_apart() -> None:
    for labels in (TIEBREAK_LABELS, TEAM_TIEBREAK_LABELS):
        shorts = [label.short for label in labels.values()]
        assert len(shorts) == len(set(shorts))
        russian = [_translations("ru").gettext(short) for short in shorts]
        assert len(russian) == len(set(russian))


@pytest.mark.parametrize("label", LABELS, ids=lambda label: label.name)
def test_label_is_words_not_a_code_name_and_is_translated(label: TiebreakLabel) -> None:
    for text in (label.short, label.title):
        assert "_" not in text
        assert "%" not in text  # Jinja's gettext formats every translation with %
        russian = _translations("ru").gettext(text)
        assert russian != text, f"no Russian for {text!r}"
        assert "_" not in russian and "%" not in russian
        # Jinja marks a translation safe, and the title goes into a title="…" attribute.
        for written in (text, russian):
            assert not set(written) & set('"<>&'), written
