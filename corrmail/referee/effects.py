"""Carrying out what a transition asks for, in the transaction that stores the case.

Each effect of :mod:`adjudication.effects` becomes rows: a result on the game, a penalty, a break,
a letter in the outbox, the held move in the ledger — and an audit entry citing the effect's rule,
so every point and every day can be traced to the decision and the rule that caused it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from adjudication import (
    Addressee,
    Adjudication,
    LetterTemplate,
    OverstepClaim,
    Side,
    effect_to_dict,
)
from adjudication import Case as PureCase
from adjudication.effects import (
    ClearResult,
    Effect,
    ForwardHeldMove,
    GenerateGameRecord,
    GrantBreak,
    ImposePenalty,
    LiftSanction,
    OpenAdjudication,
    RecordBan,
    RecordResult,
    RecordSanction,
    ResumeGame,
    RevokeBreak,
    RevokePenalty,
    SendLetter,
    SuspendGame,
    WithholdBulletins,
)
from corrmail import audit, games
from corrmail.games import LetterInput
from corrmail.games.view import UnsupportedGameType
from corrmail.letters.write import LetterWriter
from corrmail.mail.compose import Attachment
from corrmail.models import (
    Case,
    Channel,
    Game,
    TournamentChannel,
    User,
)
from corrmail.referee.case_letters import CaseLetters
from corrmail.referee.endgame import endgame_verdict
from corrmail.referee.evidence import board_diagram, game_record_text
from corrmail.referee.results import columns_for

__all__ = ["EffectRunner", "Carried"]


@dataclass
class Carried:
    """What carrying out one transition's effects produced."""

    letters: list[int] = field(default_factory=list)
    by_post: list[str] = field(default_factory=list)
    adjudications: list[OpenAdjudication] = field(default_factory=list)
    """Games a withdrawal sends to adjudication: the caller opens those cases."""


class EffectRunner:
    """One transition's effects for one case row, carried out by one user (``None``: the system)."""

    def __init__(
        self,
        session: Session,
        writer: LetterWriter,
        *,
        row: Case,
        case: PureCase,
        actor: User | None,
        on: dt.date,
    ) -> None:
        self.session = session
        self.letters = CaseLetters(session, writer)
        self.row = row
        self.case = case
        self.actor = actor
        self.on = on
        self.carried = Carried()

    def carry_out(self, effects: tuple[Effect, ...]) -> Carried:
        for effect in effects:
            letters_before = len(self.carried.letters)
            post_before = len(self.carried.by_post)
            self._one(effect)
            detail: dict[str, Any] = {"effect": effect_to_dict(effect), "case": self.case.case_id}
            if len(self.carried.letters) > letters_before:
                detail["outbox"] = self.carried.letters[letters_before:]
            if len(self.carried.by_post) > post_before:
                detail["by_post"] = self.carried.by_post[post_before:]
            audit.record(
                self.session,
                user=self.actor,
                action=f"case.{effect.kind}",
                entity="case",
                entity_id=self.row.id,
                tournament_id=self.row.tournament_id,
                rule=effect.rule,
                summary=_summary(effect),
                detail=detail,
            )
        return self.carried

    # -- one effect each ---------------------------------------------------------------------

    def _one(self, effect: Effect) -> None:
        if isinstance(effect, SendLetter):
            self._letter(effect)
        elif isinstance(effect, RecordResult):
            result, kind = columns_for(effect.outcome, effect.rule)
            # Audited below with the effect, citing the decision's rule.
            games.record_result(self.session, self._game(effect.game), result, kind,
                                on=self.on, user=self.actor, rule=effect.rule, audited=False)
        elif isinstance(effect, ClearResult):
            games.clear_result(self._game(effect.game))
        elif isinstance(effect, SuspendGame):
            games.suspend_play(self._game(effect.game),
                               for_adjudication=isinstance(self.case, Adjudication))
        elif isinstance(effect, ResumeGame):
            games.resume_play(self._game(effect.game))
        elif isinstance(effect, ForwardHeldMove):
            self._forward_held_move(effect)
        elif isinstance(effect, ImposePenalty):
            game = self._game(effect.game)
            games.charge_penalty(
                self.session, game, _participant_id(game, effect.side), effect.days,
                rule=effect.rule, reason=f"{self.case.TYPE} {self.case.case_id}: {self.case.ruling}",
                on=self.on, user=self.actor, case_id=self.row.id,
            )
        elif isinstance(effect, RevokePenalty):
            game = self._game(effect.game)
            games.revoke_penalties(self.session, case_id=self.row.id,
                                   participant_id=_participant_id(game, effect.side))
        elif isinstance(effect, OpenAdjudication):
            self.carried.adjudications.append(effect)
        elif isinstance(effect, GrantBreak):
            games.grant_special_break(self.session, int(effect.player), effect.start, effect.end,
                                      requested_on=self.case.opened_on, user=self.actor,
                                      referee_grant=effect.grant)
        elif isinstance(effect, RevokeBreak):
            games.revoke_special_break(self.session, int(effect.player), effect.start, effect.end)
        elif isinstance(effect, GenerateGameRecord):
            # The steward's copy of the record of an e-mail game (002 §4.5.1), kept on the case.
            try:
                text = game_record_text(self._game(effect.game))
            except (UnsupportedGameType, ValueError) as error:
                text = f"{effect.rule}: {error}"
            games.attach_case_text(self.row, text)
        elif isinstance(effect, RecordSanction | LiftSanction | WithholdBulletins | RecordBan):
            # The case row is the player's file entry (sanctions, bans, withheld bulletins);
            # the audit entry written for every effect records it with its rule.
            pass
        else:  # pragma: no cover - the union above is exhaustive
            raise TypeError(f"unknown effect {effect!r}")

    def _letter(self, effect: SendLetter) -> None:
        attachments: tuple[Attachment, ...] = ()
        game = self._game(effect.game) if effect.game else self.row.game
        if isinstance(self.case, Adjudication) and game is not None:
            svg = board_diagram(game)
            if svg is not None:
                attachments = (Attachment(f"game-{game.id}-final.svg", svg.encode(),
                                          "image/svg+xml", inline=True),)
        rows, by_post = self.letters.send(effect, self.row, self.case, self.context(),
                                          attachments)
        self.carried.letters.extend(row.id for row in rows)
        self.carried.by_post.extend(f"{effect.template.value} → {r.name}" for r in by_post)

    def context(self) -> dict[str, Any]:
        decision = self.case.last_decision
        protest = self.case.protests[-1] if self.case.protests else None
        return {
            "tournament": self.row.tournament,
            "row": self.row,
            "case": self.case,
            "decision": decision,
            "protest": protest,
            "endgame": endgame_verdict(self.row.game, limit=0)
            if isinstance(self.case, Adjudication) and self.row.game is not None else None,
            "on": self.on,
            # Who may protest is decided once, by the case (002 §4.1.12, §4.5.6); every letter
            # of the decision, to a player or an official, reads it from here.
            "protest_windows": self.case.protest_windows,
        }

    def _forward_held_move(self, effect: ForwardHeldMove) -> None:
        """002 §4.3.7: the claimant's reply, held since the claim, goes into the ledger dated
        the day he wrote it (his clock stopped with the claim) and to the accused."""
        game = self._game(effect.game)
        claim = self.case
        if isinstance(claim, OverstepClaim) and claim.held_move.strip():
            claimant = game.white if claim.claimant is Side.WHITE else game.black
            offender_letters = [
                letter for letter in game.letters
                if letter.sender_id == game.partner_of(claimant.id).id and letter.sent
            ]
            email = game.tournament.channel is TournamentChannel.EMAIL
            games.append_letter(
                self.session,
                game,
                LetterInput(
                    sender_id=claimant.id,
                    channel=Channel.EMAIL if email else Channel.POST,
                    raw_text=f"{effect.rule}: held reply forwarded by the referee",
                    moves_text=claim.held_move.strip(),
                    partner_sent=offender_letters[-1].sent if offender_letters else None,
                    received=offender_letters[-1].sent if offender_letters and email else None,
                    sent=claim.opened_on,
                    postmark_date=claim.opened_on,
                ),
                entered_by=self.actor,
            )
        self._letter(SendLetter(Addressee.of(effect.to), LetterTemplate.OVERSTEP_HELD_MOVE,
                                effect.rule, effect.game))

    def _game(self, game_id: str) -> Game:
        game = self.session.get(Game, int(game_id))
        if game is None:
            raise LookupError(f"case {self.row.id}: no game {game_id}")
        return game


def _participant_id(game: Game, side: Side) -> int:
    return game.white_id if side is Side.WHITE else game.black_id


def _summary(effect: Effect) -> str:
    data = effect_to_dict(effect)
    fields = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("kind", "rule"))
    return f"{effect.kind}: {fields} ({effect.rule})"
