"""The letters a referee's case sends: who `white`, `steward`, `partners` … are, and the texts.

Texts live in ``templates/cases/letters/<language>/<template key>.txt`` (first line
``Subject: …``), one per :class:`adjudication.LetterTemplate`. They are rendered and queued by the
mail layer's :class:`~corrmail.letters.write.LetterWriter`, so a case letter leaves through the
same outbox, with the same headers and reply tokens, as every other letter of the server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import Addressee, Adjudication, Side, Withdrawal
from adjudication import Case as PureCase
from adjudication.effects import SendLetter
from corrmail.letters.recipients import Recipient, game_letter_addressees
from corrmail.letters.write import LetterWriter, letters_env
from corrmail.mail.compose import Attachment
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Case,
    Game,
    GameState,
    OutboxMessage,
    Participant,
    Role,
    TournamentOfficial,
    User,
)
from corrmail.paths import templates_dir

__all__ = ["CaseLetters", "case_letter_writer"]

UNFINISHED = (GameState.NOT_STARTED, GameState.IN_PLAY, GameState.SUSPENDED,
              GameState.ADJUDICATION)


def case_letter_writer(mail: MailSettings) -> LetterWriter:
    """A letter writer reading the case templates (and the mail layer's shared parts)."""
    env = letters_env(templates_dir() / "cases" / "letters")
    return LetterWriter(mail, env=env)


class CaseLetters:
    """Resolves a :class:`SendLetter` effect of one case into outbox rows."""

    def __init__(self, session: Session, writer: LetterWriter) -> None:
        self.session = session
        self.writer = writer

    def send(
        self,
        effect: SendLetter,
        row: Case,
        case: PureCase,
        context: dict[str, Any],
        attachments: Sequence[Attachment] = (),
    ) -> tuple[list[OutboxMessage], list[Recipient]]:
        """Queue the letter to every recipient with an address; return the rows and the
        recipients without one (postal players: the steward forwards by post)."""
        game = self._game(effect.game) or row.game
        sent: list[OutboxMessage] = []
        by_post: list[Recipient] = []
        for recipient in self.recipients(effect.to, row, case, game):
            if not recipient.email:
                by_post.append(recipient)
                continue
            reply_for = None
            if game is not None and recipient.participant is not None and recipient.participant.id in (
                game.white_id, game.black_id
            ):
                reply_for = (game.id, recipient.participant.id)
            sent.append(
                self.writer.post(
                    self.session,
                    kind=f"case.{effect.template.value}",
                    to=recipient.email,
                    template=effect.template.value,
                    language=self.language(recipient.language, effect.template.value),
                    context={**context, "recipient": recipient, "game": game,
                             "player": recipient.participant or recipient.posts_to,
                             "assessment_sent": self.assessment_sent(case, game, recipient),
                             "addressee": effect.to.value, "rule": effect.rule},
                    reply_for=reply_for,
                    attachments=attachments,
                    tournament_id=row.tournament_id,
                    game_id=game.id if game is not None else None,
                    case_id=row.id,
                )
            )
        return sent, by_post

    @staticmethod
    def assessment_sent(case: PureCase, game: Game | None, recipient: Recipient) -> bool:
        """Whether the player this letter is for sent his assessment of the adjudicated
        position (002 §4.5.2), so that his letter does not speak of one he never sent."""
        player = recipient.participant or recipient.posts_to
        if not isinstance(case, Adjudication) or game is None or player is None:
            return False
        if player.id not in (game.white_id, game.black_id):
            return False
        side = Side.WHITE if player.id == game.white_id else Side.BLACK
        return case.submission(side) is not None

    @staticmethod
    def language(wanted: str, template: str) -> str:
        """The recipient's language if the letter is written in it, else Russian."""
        if (templates_dir() / "cases" / "letters" / wanted / f"{template}.txt").is_file():
            return wanted
        return "ru"

    # -- who is who ------------------------------------------------------------------------

    def recipients(
        self, to: Addressee, row: Case, case: PureCase, game: Game | None
    ) -> list[Recipient]:
        if to in (Addressee.WHITE, Addressee.BLACK):
            if game is None:
                raise ValueError(f"case {row.id}: a letter to {to.value} needs the game")
            return self.to_player(game.white if to is Addressee.WHITE else game.black)
        if to is Addressee.PLAYER:
            participant = self._participant(row.participant_id)
            return self.to_player(participant) if participant is not None else []
        if to is Addressee.PARTNERS:
            return [recipient for partner in self.partners(row, case)
                    for recipient in self.to_player(partner)]
        if to is Addressee.ORGANIZER:
            users = self.session.scalars(select(User).where(User.active.is_(True))).all()
            return [Recipient.official(u) for u in users if u.has_role(Role.ORGANIZER)]
        role = Role.STEWARD if to is Addressee.STEWARD else Role.REFEREE
        officials = self.session.scalars(
            select(User)
            .join(TournamentOfficial, TournamentOfficial.user_id == User.id)
            .where(TournamentOfficial.tournament_id == row.tournament_id,
                   TournamentOfficial.role == role)
            .order_by(User.id)
        ).all()
        return [Recipient.official(user) for user in officials]

    def to_player(self, participant: Participant) -> list[Recipient]:
        """Every case letter for a player — a claim's notice and decision, a dispute's, a
        withdrawal's, a protest's, an adjudication's — goes where his game letters go
        (:func:`game_letter_addressees`): to him by e-mail or on the web, else to the stewards,
        who post it to him (002 §4.1.1); with no steward who can be written to, it is listed as
        to be posted (``email`` ``None``)."""
        player = Recipient.player(self.session, participant)
        addressees = game_letter_addressees(self.session, participant)
        if not addressees:
            return [dataclasses.replace(player, email=None)]
        # The steward posts the letter on to the player: it is written in the player's language.
        return [dataclasses.replace(r, language=player.language) if r.posts_to else r
                for r in addressees]

    def partners(self, row: Case, case: PureCase) -> list[Participant]:
        """A withdrawal's partners are those of its games; otherwise every partner with an
        unfinished game (002 §4.4.2)."""
        if isinstance(case, Withdrawal):
            ids = dict.fromkeys(int(g.partner) for g in case.games)
            return [p for p in (self._participant(i) for i in ids) if p is not None]
        if row.participant_id is None:
            return []
        games = self.session.scalars(
            select(Game).where(
                (Game.white_id == row.participant_id) | (Game.black_id == row.participant_id),
                Game.state.in_(UNFINISHED),
            ).order_by(Game.id)
        ).all()
        return [game.partner_of(row.participant_id) for game in games]

    def _game(self, game: str | None) -> Game | None:
        return self.session.get(Game, int(game)) if game else None

    def _participant(self, participant_id: int | None) -> Participant | None:
        return self.session.get(Participant, participant_id) if participant_id else None
