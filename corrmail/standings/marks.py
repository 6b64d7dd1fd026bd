"""How a crosstable's results and marks are printed for people, on every page and paper.

The standings page, the printable crosstable, the bulletins and the referee's final report
write each cell through :func:`marked_cells` and explain the marks with :data:`MARK_MEANINGS`
(English msgids, translated when rendered) in one legend (:func:`marks_legend`), so a referee reads ``½*`` and ``1†`` alike
wherever he looks (docs/rules/standings.md, "One reading of points and marks").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from markupsafe import Markup, escape

from corrmail.standings.results import (
    ADJUDICATED_MARK,
    DECIDED_MARK,
    OVERSTEP_MARK,
    MarkedResult,
)
from corrmail.standings.tiebreak_labels import N_

__all__ = ["ANNULLED_MEANING", "MARK_MEANINGS", "UNPLAYED_MEANING", "mark_titles", "marked_cells",
           "marks_legend"]

MARK_MEANINGS: Mapping[str, str] = {
    ADJUDICATED_MARK: N_("adjudicated: an unfinished game decided by the referee "
                         "(000 §3.14.4, 002 §4.5.5)"),
    OVERSTEP_MARK: N_("overstep: the game lost on time by the referee's decision (002 §4.3.7)"),
    DECIDED_MARK: N_("referee's decision without adjudication, e.g. a withdrawn player's "
                     "unfinished game (002 §4.5.3)"),
}
"""Each mark after a result and what it means, in the rulebook's words and rules."""

UNPLAYED_MEANING = N_("+ and − unplayed games, counted as 1 and 0: a forfeit (000 §3.15.2) or a "
                      "withdrawn player's games never begun (000 §3.14.3); − and − when neither "
                      "player sent the record (002 §4.5.8)")
ANNULLED_MEANING = N_("in parentheses and struck through: annulled, kept in the table but not "
                      "counted (002 §4.5.3, 000 §3.14.3)")


def mark_titles(gettext: Callable[[str], str]) -> dict[str, str]:
    """:data:`MARK_MEANINGS` in the reader's language (``gettext`` of the page or paper): the
    titles of the marks in the cells."""
    return {sign: gettext(meaning) for sign, meaning in MARK_MEANINGS.items()}


def marks_legend(gettext: Callable[[str], str]) -> str:
    """The legend under every crosstable — each mark, the unplayed and the annulled results —
    in the reader's language (``gettext``; the English text export passes ``str``)."""
    marks = "; ".join(f"{sign} {meaning}" for sign, meaning in mark_titles(gettext).items())
    return f"{marks}; {gettext(UNPLAYED_MEANING)}; {gettext(ANNULLED_MEANING)}."


def _result(result: MarkedResult | Mapping[str, Any]) -> MarkedResult:
    """A result as computed, or as an archived bulletin keeps it (its JSON)."""
    if isinstance(result, MarkedResult):
        return result
    return MarkedResult(str(result.get("symbol", "")), str(result.get("mark", "")),
                        bool(result.get("annulled")), bool(result.get("adjudicated")))


def marked_cells(results: Iterable[MarkedResult | Mapping[str, Any]],
                 meanings: Mapping[str, str]) -> Markup:
    """A crosstable cell's results (``1``, ``½``, ``+``…), each with its mark (``*``, ``†``,
    ``‡``) as a superscript titled with its meaning (``meanings``: mark → translated text), an
    annulled one in parentheses and struck through (so it reads on a black-and-white print
    too), annulled and adjudicated ones classed. Plain string building rather than a template
    macro: a 23-player table has 500 cells, and a macro call for each was most of the
    standings page's rendering."""
    parts = []
    for result in map(_result, results):
        if not result.symbol:
            continue
        classes = ("result" + (" annulled" if result.annulled else "")
                   + (" adjudicated" if result.adjudicated else ""))
        sign = result.mark
        title = f' title="{escape(meanings.get(sign, sign))}"' if sign else ""
        sup = f"<sup>{escape(sign)}</sup>" if sign else ""
        text = f"{escape(result.symbol)}{sup}"
        if result.annulled:
            text = f"({text})"
        parts.append(f'<span class="{classes}"{title}>{text}</span>')
    return Markup(" ".join(parts))
