"""The pairing engine's notes and programs in the reader's language.

``scoring.pairing`` is a pure package: it writes its notes in English, with the rules cited (the
command line prints them as they are). The pages read each note by its known form and say it in
the reader's language; a note of an unknown form keeps its English. Its refusals carry codes and
values (``corrmail.rounds.refusals.EngineReason``), worded here with the players' names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from flask import Flask
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from corrmail.rounds.refusals import BYE_CANDIDATES, PAIRING_REASONS, EngineReason
from corrmail.standings.exports import reader_points
from scoring.errors import START_NUMBER_VALUES, ErrorValue
from scoring.pairing.model import PairingSystem

__all__ = [
    "init_pairing_labels",
    "pairing_note",
    "pairing_program",
    "pairing_reason",
    "pairing_refusal",
]


def _points(text: str) -> str:
    """A score the engine writes in its English (``2.5``) as every page reads points (``2½``)."""
    try:
        return reader_points(float(text))
    except ValueError:
        return text


def _colour(word: str) -> str:
    return str(_("white")) if word == "white" else str(_("black"))


_NOTES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"player (\d+) is absent: not paired, scores 0 \(000 §3\.18\.2, 004\)$"),
     lambda m: _("player %(player)s is absent: not paired, scores 0 (000 §3.18.2, 004)",
                 player=m[1])),
    (re.compile(r"score group (\S+) cannot be paired inside with at most one player going down "
                r"without stranding players below; paired against the whole field, "
                r"nobody going down \((.+)\)$"),
     lambda m: _("score group %(points)s cannot be paired inside with at most one player going "
                 "down without stranding players below; paired against the whole field, nobody "
                 "going down (%(rule)s)", points=_points(m[1]), rule=m[2])),
    (re.compile(r"score group (\S+) cannot be paired inside with at most one player going down "
                r"without stranding players below; paired against the whole field, "
                r"\[(.*)\] going down \((.+)\)$"),
     lambda m: _("score group %(points)s cannot be paired inside with at most one player going "
                 "down without stranding players below; paired against the whole field, "
                 "%(players)s going down (%(rule)s)", points=_points(m[1]), players=m[2], rule=m[3])),
    (re.compile(r"lot: the first pair's top player has (white|black) \((.+)\)$"),
     lambda m: _("lot: the first pair's top player has %(colour)s (%(rule)s)",
                 colour=_colour(m[1]), rule=m[2])),
    (re.compile(r"player (\d+) receives the bye \(\+\): odd number, last classified "
                r"\(000 §3\.18\.2\)$"),
     lambda m: _("player %(player)s receives the bye (+): odd number, last classified "
                 "(000 §3.18.2)", player=m[1])),
    (re.compile(r"player (\d+) receives the bye \(\+\): lowest classified who has had no point "
                r"without play \(000 §3\.18\.2, 002 note a\)$"),
     lambda m: _("player %(player)s receives the bye (+): lowest classified who has had no "
                 "point without play (000 §3.18.2, 002 note a)", player=m[1])),
    (re.compile(r"player (\d+) has (white|black) for the third game running: no legal pairing "
                r"spares him \(002: exceptional case; never a fourth, 000 §3\.18\.2\)$"),
     lambda m: _("player %(player)s has %(colour)s for the third game running: no legal "
                 "pairing spares him (002: exceptional case; never a fourth, 000 §3.18.2)",
                 player=m[1], colour=_colour(m[2]))),
    (re.compile(r"player (\d+) \((.+?)\) meets (\d+) \((.+?)\): float down and up, forced: "
                r"not counted \(002\)$"),
     lambda m: _("player %(player)s (%(points)s) meets %(other)s (%(other_points)s): float "
                 "down and up, forced: not counted (002)", player=m[1], points=_points(m[2]),
                 other=m[3], other_points=_points(m[4]))),
    (re.compile(r"player (\d+) \((.+?)\) meets (\d+) \((.+?)\): float down and up \((.+)\)$"),
     lambda m: _("player %(player)s (%(points)s) meets %(other)s (%(other_points)s): float "
                 "down and up (%(rule)s)", player=m[1], points=_points(m[2]), other=m[3],
                 other_points=_points(m[4]), rule=m[5])),
    (re.compile(r"pair (\d+)-(\d+): colours swapped to keep the limits \(000 §3\.18\.2\)$"),
     lambda m: _("pair %(white)s-%(black)s: colours swapped to keep the limits (000 §3.18.2)",
                 white=m[1], black=m[2])),
    (re.compile(r"pair (\d+)-(\d+) breaks an absolute criterion: redrawn \(004\)$"),
     lambda m: _("pair %(white)s-%(black)s breaks an absolute criterion: redrawn (004)",
                 white=m[1], black=m[2])),
    (re.compile(r"redraw touches players \[(.*)\]; every other pair stands \(002, 004\)$"),
     lambda m: _("redraw touches players %(players)s; every other pair stands (002, 004)",
                 players=m[1])),
]

def _listed(text: str) -> tuple[int, ...]:
    """Start numbers as the engine lists them in its English (``[1, 4]``)."""
    return tuple(int(number) for number in text.strip("[]").split(",") if number.strip())


_BYE_CONTEXT = re.compile(r" whoever of (\[.*?\]) takes the bye \(000 §3\.18\.2: never a "
                          r"second point without play\)$")
#: The forms of the engine's English when no legal pairing exists, each read as its code and
#: values: for a refusal that carries the engine's text alone, without its ``reasons``.
_NO_PAIRING: list[tuple[re.Pattern[str], str, Callable[[re.Match[str]], dict[str, ErrorValue]]]] = [
    (re.compile(r"odd number of players and every one has already had a point without play "
                r"\(000 §3\.18\.2\)$"),
     "every_bye_taken", lambda m: {}),
    (re.compile(r"player\(s\) (\[.*?\]) cannot meet anyone: every other player already met "
                r"\(000 §3\.18\.2\) or no colour within the limits \(000 §3\.18\.2, 002\)$"),
     "cannot_meet_anyone", lambda m: {"players": _listed(m[1])}),
    (re.compile(r"players (\[.*?\]) have no legal opponent left \(000 §3\.18\.2, 002\)$"),
     "no_legal_opponent", lambda m: {"players": _listed(m[1])}),
    (re.compile(r"players (\[.*?\]) may meet only one another \(in blocks of odd size\) or the "
                r"(\d+) player\(s\) (\[.*?\]), too few for them, so one is left over \(never "
                r"the same pair twice, colour limits: 000 §3\.18\.2, 002\)$"),
     "odd_blocks",
     lambda m: {"players": _listed(m[1]), "count": int(m[2]), "others": _listed(m[3])}),
    (re.compile(r"the players (\[.*?\]) cannot be paired again without breaking 000 §3\.18\.2$"),
     "redraw_blocked", lambda m: {"players": _listed(m[1])}),
]
_NO_LEGAL_PAIRING = re.compile(r"round (\d+): no legal pairing: (.*)$")


def _read_no_pairing(detail: str) -> EngineReason | None:
    """The engine's English when no legal pairing exists, read back into its code and values."""
    refused = _NO_LEGAL_PAIRING.match(detail)
    if refused is None:
        return None
    reason = refused[2]
    values: dict[str, ErrorValue] = {"round": int(refused[1])}
    context = _BYE_CONTEXT.search(reason)
    if context is not None:
        reason = reason[:context.start()]
        values["bye_candidates"] = _listed(context[1])
    for pattern, code, read in _NO_PAIRING:
        found = pattern.match(reason)
        if found:
            return EngineReason(code, {**values, **read(found)})
    return None


def pairing_refusal(detail: str) -> str:
    """The engine's refusal to pair (``NoLegalPairingError``), known only by its English text, in
    the reader's language; any other text of the engine keeps its English."""
    reason = _read_no_pairing(detail)
    worded = pairing_reason(reason) if reason is not None else None
    return worded if worded is not None else detail


def _value(key: str, value: ErrorValue, entrants: Mapping[int, str]) -> str:
    """One value of an engine reason as a page shows it: start numbers by ``entrants`` (a
    player's number and name), a colour and the programs in words, lists without brackets."""
    items: tuple[int | str, ...] = value if isinstance(value, tuple) else (value,)
    if key in START_NUMBER_VALUES:
        return ", ".join(entrants.get(n, str(n)) if isinstance(n, int) else n for n in items)
    if key == "colour":
        return _colour(str(value))
    if key == "known":
        return "; ".join(str(PROGRAM_NAMES.get(str(code), code)) for code in items)
    return ", ".join(str(item) for item in items)


def pairing_reason(reason: EngineReason, entrants: Mapping[int, str] | None = None) -> str | None:
    """One reason of the pairing program (its code and values) in the reader's language, with the
    rules it cites; ``entrants`` names the start numbers. ``None`` for a code it has no words for."""
    known = PAIRING_REASONS.get(reason.code)
    if known is None:
        return None
    frame, text = known
    shown = {key: _value(key, value, entrants or {}) for key, value in reason.values.items()}
    worded = str(_(text, **shown))
    if "bye_candidates" in shown:
        worded = str(_(BYE_CANDIDATES, reason=worded, players=shown["bye_candidates"]))
    return str(_(frame, **{**shown, "reason": worded})) if frame else worded


PROGRAM_NAMES = {
    PairingSystem.RANDOM.value: _l("«blind lot» (random numbers)"),
    PairingSystem.COEFFICIENTS.value: _l("by the players' individual coefficients"),
    PairingSystem.SOLKOFF.value: _l("by the cut Solkoff coefficient"),
    PairingSystem.BUCHHOLZ.value: _l("by the current Buchholz coefficient"),
}


def pairing_note(note: str) -> str:
    """One engine note in the reader's language (its English when its form is unknown)."""
    for pattern, say in _NOTES:
        found = pattern.match(note)
        if found:
            return say(found)
    return note


def pairing_program(code: str | None) -> str:
    """A pairing program's code (``buchholz``) as the rulebook names it, with its rule."""
    if not code:
        return "—"
    name = PROGRAM_NAMES.get(code)
    if name is None:
        return code
    return f"{name} ({PairingSystem(code).rule})"


def init_pairing_labels(app: Flask) -> None:
    app.add_template_filter(pairing_note)
    app.add_template_filter(pairing_program)
