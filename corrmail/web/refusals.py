"""The rounds service's and the play-off's refusals in the reader's language.

The services keep codes and values (``corrmail.rounds.refusals``, ``corrmail.standings.playoff``) and an
English text for the CLI and the logs; a page words them here through the catalog, where each
English text is the message id. A value the pairing program or the scoring engine wrote
(``detail``) is shown as written; an error without a known code is shown as it is.
"""

from __future__ import annotations

from flask_babel import gettext as _

from corrmail.rounds.refusals import ENGINE, ROUND_REFUSALS, TEAM_LINE, TEAM_LINE_REFUSALS
from corrmail.rounds.swiss import RoundRefused
from corrmail.rounds.teams import TeamLineError
from corrmail.standings.playoff import (
    PLAYOFF_REFUSALS,
    UNREADABLE,
    PlayoffRefused,
    PlayoffSyntaxError,
)
from corrmail.web.pairing_notes import pairing_refusal

__all__ = ["refusal_text"]


def _worded(texts: dict[str, str], code: str, params: dict[str, object]) -> str | None:
    text = texts.get(code)
    if text is None:
        return None
    return str(_(text, **{key: str(value) for key, value in params.items()}))


def refusal_text(error: Exception | TeamLineError) -> str:
    """``error`` worded for the reader: a known code in his language, anything else as it is."""
    if isinstance(error, RoundRefused):
        params = error.params
        if error.code == ENGINE and isinstance(params.get("detail"), str):
            params = {**params, "detail": pairing_refusal(str(params["detail"]))}
        reason = _worded(ROUND_REFUSALS, error.code, params)
        if reason is None:
            return str(error)
        cited = f" ({error.rule})" if error.rule else ""
        return f"{error.tournament_code}: {reason}{cited}"
    if isinstance(error, TeamLineError):
        reason = _worded(TEAM_LINE_REFUSALS, error.code, error.params)
        if reason is None:
            return str(error)
        return str(_(TEAM_LINE, line=error.line, reason=reason)) if error.line else reason
    if isinstance(error, PlayoffSyntaxError):
        reason = _worded(PLAYOFF_REFUSALS, error.code, error.params)
        if reason is None:
            return str(error)
        return str(_(UNREADABLE, text=repr(error.text), reason=reason))
    if isinstance(error, PlayoffRefused):
        return _worded(PLAYOFF_REFUSALS, error.code, error.params) or str(error)
    return str(error)
