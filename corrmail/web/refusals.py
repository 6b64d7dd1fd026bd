"""The rounds service's and the play-off's refusals in the reader's language.

The services keep codes and values (``corrmail.rounds.refusals``, ``corrmail.standings.playoff``) and an
English text for the CLI and the logs; a page words them here through the catalog, where each
English text is the message id. The pairing program's refusal is worded from its own codes and
values (``RoundRefused.reasons``), its start numbers with the entrants' names; one that carries
only the program's text (``detail``) is read by its form or shown as written, and an error
without a known code is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.models import Team, Tournament, TournamentSystem
from corrmail.rounds.refusals import ENGINE, ROUND_REFUSALS, TEAM_LINE, TEAM_LINE_REFUSALS
from corrmail.rounds.swiss import RoundRefused
from corrmail.rounds.teams import TeamLineError
from corrmail.standings.playoff import (
    PLAYOFF_REFUSALS,
    UNREADABLE,
    PlayoffRefused,
    PlayoffSyntaxError,
)
from corrmail.web.pairing_notes import pairing_reason, pairing_refusal

__all__ = ["entrant_labels", "refusal_text"]


def _worded(texts: dict[str, str], code: str, params: dict[str, object]) -> str | None:
    text = texts.get(code)
    if text is None:
        return None
    return str(_(text, **{key: str(value) for key, value in params.items()}))


def entrant_labels(session: Session, tournament: Tournament) -> dict[int, str]:
    """The entrants the pairing program numbers, as a page names them: a player by his start
    number and name (``№3 Иванов``); in a team event a team by its name, the program numbering
    the teams in their order (``corrmail.rounds.swiss.scoring_view``, 000 §3.17)."""
    if tournament.system is TournamentSystem.TEAM:
        names = session.scalars(
            select(Team.name).where(Team.tournament_id == tournament.id).order_by(Team.number)
        )
        return dict(enumerate(names, start=1))
    return {p.start_number: f"№{p.start_number} {p.player.name}"
            for p in tournament.participants if p.start_number is not None}


def _engine_detail(error: RoundRefused, entrants: Mapping[int, str] | None) -> str:
    """What the pairing program says, in the reader's language where its codes are known."""
    worded = [pairing_reason(reason, entrants) for reason in error.reasons]
    known = [text for text in worded if text is not None]
    if known and len(known) == len(worded):
        return "; ".join(known)
    return pairing_refusal(str(error.params["detail"]))


def refusal_text(
    error: Exception | TeamLineError, entrants: Mapping[int, str] | None = None
) -> str:
    """``error`` worded for the reader: a known code in his language, anything else as it is.
    ``entrants`` (:func:`entrant_labels`) names the start numbers the pairing program gives."""
    if isinstance(error, RoundRefused):
        params = error.params
        if error.code == ENGINE and isinstance(params.get("detail"), str):
            params = {**params, "detail": _engine_detail(error, entrants)}
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
