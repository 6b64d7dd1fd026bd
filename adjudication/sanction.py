"""Sanctions for breaking the rules (002 §4.1.9–4.1.10).

The steward may warn, reprimand or withhold the current bulletins, and may ask the referee for a
stricter sanction (§4.1.9); the referee may also declare a game lost or ask the organizer to
exclude the player (§4.1.7). Every sanction names the rule points violated (§4.1.10).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.case import CaseState, Instance, PlayerCase, Transition
from adjudication.deadlines import Deadline
from adjudication.effects import (
    Addressee,
    ClearResult,
    Effect,
    LetterTemplate,
    LiftSanction,
    RecordResult,
    RecordSanction,
    SendLetter,
    WithholdBulletins,
)
from adjudication.errors import IllegalTransition, InvalidSanction
from adjudication.outcomes import GameOutcome, Side

STEWARD_RULE = "002 §4.1.9"
CITATION_RULE = "002 §4.1.10"
REFEREE_RULE = "002 §4.1.7"

RULE_CITATION = re.compile(r"\d{3} §\d+(\.\d+)*[а-яa-z]?")
"""A rule point as this project cites it: ``002 §4.2.6``."""


class SanctionKind(StrEnum):
    WARNING = "warning"
    REPRIMAND = "reprimand"
    BULLETINS_WITHHELD = "bulletins_withheld"
    FORFEIT = "forfeit"
    """The game is declared lost: ``−`` for the player, ``+`` for the partner."""
    EXCLUSION_REQUEST = "exclusion_request"
    """The referee asks the organizer to exclude the player."""


STEWARD_SANCTIONS = frozenset(
    {SanctionKind.WARNING, SanctionKind.REPRIMAND, SanctionKind.BULLETINS_WITHHELD}
)
"""What the steward may impose himself (§4.1.9); the rest he asks the referee for."""


class SanctionRuling(StrEnum):
    IMPOSED = "imposed"
    REFUSED = "refused"
    """The referee refused the steward's request, or the higher instance lifted the sanction."""


@dataclass(frozen=True, kw_only=True)
class Sanction(PlayerCase):
    """One sanction against one player."""

    TYPE: ClassVar[str] = "sanction"
    RULINGS: ClassVar[type[StrEnum]] = SanctionRuling
    APPEALS: ClassVar[Mapping[Instance, Instance]] = {
        Instance.STEWARD: Instance.REFEREE,
        Instance.REFEREE: Instance.ORGANIZER,
    }

    sanction: SanctionKind
    rules_violated: tuple[str, ...]
    requested_by: Instance
    game: str | None = None
    side: Side | None = None
    """The player's colour in ``game``, for a forfeit."""

    @classmethod
    def impose(
        cls,
        case_id: str,
        *,
        player: str,
        sanction: SanctionKind,
        by: Instance,
        on: date,
        rules_violated: tuple[str, ...],
        game: str | None = None,
        side: Side | None = None,
        reasons: str = "",
    ) -> Transition[Sanction]:
        """Impose a sanction, or, for a steward asking more than he may impose, request it."""
        if not rules_violated:
            raise InvalidSanction("a sanction must name the rule points violated", CITATION_RULE)
        for citation in rules_violated:
            if not RULE_CITATION.fullmatch(citation):
                raise InvalidSanction(
                    f"{citation!r} is not a rule point such as '002 §4.2.6'", CITATION_RULE
                )
        if sanction is SanctionKind.FORFEIT and (game is None or side is None):
            raise InvalidSanction("a forfeit names the game and the player's colour", REFEREE_RULE)
        case = cls(
            case_id=case_id,
            opened_on=on,
            state=CaseState.AWAITING_DECISION,
            player=player,
            sanction=sanction,
            rules_violated=rules_violated,
            requested_by=by,
            game=game,
            side=side,
        )
        if by is Instance.STEWARD and sanction not in STEWARD_SANCTIONS:
            request = SendLetter(Addressee.REFEREE, LetterTemplate.SANCTION_REQUESTED, STEWARD_RULE)
            return Transition(case, (request,))
        return case._impose(by, on, reasons)

    def decide_request(
        self, ruling: SanctionRuling | str, on: date, *, revision: int, reasons: str = ""
    ) -> Transition[Sanction]:
        """The referee grants or refuses the steward's request for a stricter sanction."""
        self._check_revision(revision, "decide the request")
        if self.decisions:
            raise IllegalTransition(self.case_id, self.state.value, "decide twice", STEWARD_RULE)
        ruling = SanctionRuling(self._check_ruling(ruling))
        if ruling is SanctionRuling.IMPOSED:
            return self._impose(Instance.REFEREE, on, reasons)
        letters = tuple(
            SendLetter(to, LetterTemplate.SANCTION_REFUSED, STEWARD_RULE)
            for to in (Addressee.STEWARD,)
        )
        return self._decide(
            Instance.REFEREE,
            ruling,
            on,
            rules=(STEWARD_RULE,),
            reasons=reasons,
            extra_effects=letters,
        )

    def _impose(self, by: Instance, on: date, reasons: str) -> Transition[Sanction]:
        letters = tuple(
            SendLetter(to, LetterTemplate.SANCTION_IMPOSED, CITATION_RULE)
            for to in (Addressee.PLAYER, Addressee.STEWARD)
        )
        rule = STEWARD_RULE if self.sanction in STEWARD_SANCTIONS else REFEREE_RULE
        return self._decide(
            by,
            SanctionRuling.IMPOSED,
            on,
            rules=(rule, *self.rules_violated),
            reasons=reasons,
            extra_effects=letters,
        )

    def _letter_game(self) -> str | None:
        return self.game

    def _pending_deadlines(self) -> tuple[Deadline, ...]:
        return ()

    def _ruling_effects(self, ruling: str, previous: str | None, on: date) -> tuple[Effect, ...]:
        imposed = SanctionRuling.IMPOSED.value
        if (ruling == imposed) == (previous == imposed):
            return ()
        rule = STEWARD_RULE if self.sanction in STEWARD_SANCTIONS else REFEREE_RULE
        if ruling == imposed:
            return self._sanction_effects(rule)
        return self._lifting_effects()

    def _sanction_effects(self, rule: str) -> tuple[Effect, ...]:
        effects: list[Effect] = [
            RecordSanction(self.player, self.sanction.value, self.rules_violated, rule)
        ]
        if self.sanction is SanctionKind.BULLETINS_WITHHELD:
            effects.append(WithholdBulletins(self.player, rule))
        elif self.sanction is SanctionKind.FORFEIT and self.game and self.side:
            effects.append(RecordResult(self.game, GameOutcome.forfeit_loss_for(self.side), rule))
        elif self.sanction is SanctionKind.EXCLUSION_REQUEST:
            effects.append(SendLetter(Addressee.ORGANIZER, LetterTemplate.EXCLUSION_REQUEST, rule))
        return tuple(effects)

    def _lifting_effects(self) -> tuple[Effect, ...]:
        effects: list[Effect] = [LiftSanction(self.player, self.sanction.value, self.HEARING_RULE)]
        if self.sanction is SanctionKind.FORFEIT and self.game:
            effects.append(ClearResult(self.game, self.HEARING_RULE))
        return tuple(effects)
