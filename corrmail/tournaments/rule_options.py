"""Column draughts' rule options as a tournament's regulations announce them (002 §4.1.4).

Which options exist and which values they take is `notation.columns`' (every **[R]** reading of
the column-draughts digest is an option there, docs/rules/columns.md). This module adds what the
service needs around them: the point of the digest each option comes from, so every refusal
cites it; the check of a director's choice with one clear message per bad option; and the rule
that fixes the options once play has begun (docs/rules/columns.md, reading 11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask_babel import gettext as _
from sqlalchemy import exists, func, or_, select
from sqlalchemy.orm import Session

from corrmail.models import Game, GameState, GameType, Letter, Tournament
from notation.columns import ColumnRules, RuleOptionError, rule_option_choices
from notation.rules import GameType as BoardType

__all__ = [
    "FIXED_RULE",
    "canonical_options",
    "OPTION_RULES",
    "QUIET_LIMITS",
    "effective_options",
    "is_column",
    "play_has_begun",
    "rule_option_errors",
]

OPTIONS_RULE = "002 §4.1.4; docs/rules/columns.md"
"""Where the list of options is: the games of 002 §4.1.4 and the readings chosen for them."""

FIXED_RULE = "docs/rules/columns.md, reading 11; 002 §4.2.5"
"""Options are fixed once a move has been judged under them."""

OPTION_RULES: dict[str, str] = {
    "moves": "column-draughts digest §4, §9 Q3",
    "rejump": "column-draughts digest §2, §9 Q1",
    "placement": "column-draughts digest §2, §9 Q2",
    "king-landing": "column-draughts digest §2",
    "numbering": "column-draughts digest §4, §9 Q4",
    "quiet-limit": "column-draughts digest §2 (Result), §9 Q5",
}
"""Each option's point of the digest (`shared/rules/column-draughts.md`)."""

QUIET_LIMITS = (10, 15, 20, 25, 30, 40, 50)
"""Values of ``quiet-limit`` the form offers besides ``off``; 15 is Russian draughts' limit of
king moves without a capture. Any whole number N of 1 or more is accepted (as by the CLI)."""

_LASCA = frozenset({GameType.COLUMN_INTERNATIONAL, GameType.COLUMN_INTERNATIONAL_GIVEAWAY})


def is_column(game_type: GameType) -> bool:
    return BoardType[game_type.name].is_column


def _canonical(name: str) -> str:
    # notation reads names this leniently too: "King_Landing" is king-landing.
    return name.strip().lower().replace("_", "-")


def canonical_options(texts: Sequence[str]) -> dict[str, str]:
    """``["King_Landing=Free"]`` as stored: ``{"king-landing": "free"}`` (checked texts only)."""
    return {_canonical(name): value.strip().lower()
            for name, _sep, value in (text.partition("=") for text in texts)}


def rule_option_errors(game_type: GameType, texts: Sequence[str]) -> list[str]:
    """One message per option of ``texts`` (``NAME=VALUE``) that ``game_type`` cannot take,
    each citing the rule; an empty list when they are all good."""
    if not texts:
        return []
    if not is_column(game_type):
        return [_("%(type)s has no rule options: only column draughts (Bashni, Lasca) have them "
                  "(%(rule)s)", type=game_type.value, rule=OPTIONS_RULE)]
    choices = rule_option_choices()
    errors: list[str] = []
    options: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name, value = _canonical(name), value.strip().lower()
        if not sep or not name or not value:
            errors.append(_("a rule option is written NAME=VALUE, not %(text)s (%(rule)s)",
                            text=text, rule=OPTIONS_RULE))
        elif name not in choices:
            errors.append(_("unknown rule option %(name)s: column draughts have %(names)s "
                            "(%(rule)s)", name=name, names=", ".join(choices), rule=OPTIONS_RULE))
        elif name in options:
            errors.append(_("rule option %(name)s is given twice (%(rule)s)", name=name,
                            rule=OPTION_RULES[name]))
        elif name == "numbering" and game_type not in _LASCA:
            errors.append(_("rule option numbering applies to Lasca's squares 1-25 only; Bashni "
                            "is written algebraically (%(rule)s)", rule=OPTION_RULES[name]))
        else:
            try:
                ColumnRules.of(BoardType[game_type.name], {name: value})
            except RuleOptionError:
                errors.append(_("rule option %(name)s takes %(values)s, not %(value)s "
                                "(%(rule)s)", name=name, values=choices[name].replace("|", ", "),
                                value=value, rule=OPTION_RULES[name]))
            else:
                options[name] = value
    return errors


def effective_options(game_type: GameType, options: Mapping[str, str] | None) -> dict[str, str]:
    """The options that differ from ``game_type``'s defaults: two spellings of the same rules
    compare equal (``{"rejump": "forbidden"}`` is no option at all)."""
    if not options or not is_column(game_type):
        return {}
    return ColumnRules.of(BoardType[game_type.name], options).changed_options()


def play_has_begun(session: Session, tournament: Tournament) -> int:
    """How many of ``tournament``'s games have begun: a letter in the ledger, or a state past
    "not started". Their moves were judged under the options, so the options are fixed."""
    has_letter = exists(select(Letter.id).where(Letter.game_id == Game.id))
    return session.scalar(
        select(func.count()).select_from(Game).where(
            Game.tournament_id == tournament.id,
            or_(Game.state != GameState.NOT_STARTED, has_letter),
        )
    ) or 0
