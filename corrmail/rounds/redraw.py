"""Repairing a published Swiss round that breaks an absolute criterion (002, 004).

A published round is immutable (004: "Официально обнародованная жеребьёвка не может быть
изменена, если она не нарушает абсолютные критерии"), and corrections affect only rounds not yet
paired. The one exception is a round that now breaks an absolute criterion — typically a player
who withdrew (000 §3.14, 002 §4.1.14) or is known absent after the draw was published, leaving
his partner paired against nobody who plays. Then the redraw "touches as few players as possible"
(002): `scoring.pairing.redraw` keeps every pair that is still legal and re-pairs only the
players left without a partner.

The director first sees the plan (`plan_redraw`: which games are cancelled, which are paired
instead, who gets the bye) and then applies exactly that plan (`apply_redraw`, checked against
the plan's fingerprint): the cancelled games are removed, the new ones created, the bye moved,
the draw stored, each affected player's new round sheet queued and an audit entry written — in
one transaction. A game that has begun (a letter in its ledger, or a state past "not started")
is never cancelled: a redraw is refused then, because its moves stand (004); a player who left
a game in play is a withdrawal (000 §3.14), not a redraw.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.letters.recipients import Recipient
from corrmail.letters.write import LetterWriter
from corrmail.models import (
    Case,
    Game,
    GameState,
    Letter,
    OutboxMessage,
    PairedRound,
    Participant,
    Tournament,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
    User,
)
from corrmail.rounds.swiss import (
    PUBLISHED_ROUND_RULE,
    RoundRefused,
    round_letter_writer,
    scoring_view,
)
from corrmail.tournaments.lock import lock_tournament
from scoring.pairing import Draw, Pair, PairingError, entrants_before, parse_system, redraw

__all__ = ["REDRAW_RULE", "RedrawDone", "RedrawPlan", "apply_redraw", "plan_redraw"]

REDRAW_RULE = "002; 004"
"""004: a published draw changes only where it breaks an absolute criterion; 002: the redraw
touches as few players as possible."""


@dataclass(frozen=True)
class RedrawPlan:
    """What a redraw of one published round changes, in start numbers."""

    tournament: Tournament
    round: PairedRound
    before: Draw
    after: Draw
    kept: tuple[Pair, ...]
    cancelled: tuple[Game, ...]
    added: tuple[Pair, ...]
    bye_before: int | None
    bye_after: int | None

    @property
    def touched(self) -> tuple[int, ...]:
        """Start numbers of the players whose game (or bye) changes and who still play."""
        numbers = {n for pair in self.added for n in (pair.white, pair.black)}
        if self.bye_after != self.bye_before and self.bye_after is not None:
            numbers.add(self.bye_after)
        return tuple(sorted(numbers))

    @property
    def fingerprint(self) -> str:
        """Names this exact plan: applying is refused if the round changed since it was shown."""
        text = json.dumps(
            {"round": self.round.number, "cancelled": sorted(g.id for g in self.cancelled),
             "draw": self.after.as_dict()},
            sort_keys=True,
        )  # fmt: skip
        return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class RedrawDone:
    plan: RedrawPlan
    games: tuple[Game, ...]
    letters: int


def _number(participant: Participant) -> int:
    # A Swiss is paired by start numbers, so every player of its games has one.
    if participant.start_number is None:
        raise ValueError(f"participant {participant.id} has no start number")
    return participant.start_number


def _pair(game: Game) -> Pair:
    return Pair(_number(game.white), _number(game.black))


def _published_draw(session: Session, paired: PairedRound, games: Sequence[Game]) -> Draw:
    """The round as it stands: its games and its bye (not the stored preview)."""
    bye = session.scalar(
        select(Participant.start_number)
        .join(UnpairedEntry, UnpairedEntry.participant_id == Participant.id)
        .where(UnpairedEntry.tournament_id == paired.tournament_id,
               UnpairedEntry.round == paired.number, UnpairedEntry.kind == UnpairedKind.BYE)
    )  # fmt: skip
    pairs = tuple(_pair(g) for g in games)
    return Draw(paired.number, parse_system(paired.system), pairs, bye, tuple(paired.absent))


def _begun(session: Session, game: Game) -> bool:
    if game.state is not GameState.NOT_STARTED or game.result is not None:
        return True
    return bool(session.scalar(select(
        exists(select(Letter.id).where(Letter.game_id == game.id))
        | exists(select(Case.id).where(Case.game_id == game.id))
    )))  # fmt: skip


def plan_redraw(session: Session, tournament: Tournament, number: int) -> RedrawPlan:
    """The redraw of published round ``number``; :class:`RoundRefused` (citing the rule) when
    there is nothing to redraw or it may not be redrawn."""
    if tournament.system is not TournamentSystem.SWISS:
        raise RoundRefused(
            tournament.code, "redraw_only_swiss", PUBLISHED_ROUND_RULE,
        )  # fmt: skip
    paired = session.scalar(
        select(PairedRound).where(PairedRound.tournament_id == tournament.id,
                                  PairedRound.number == number)
    )  # fmt: skip
    if paired is None or not paired.published:
        raise RoundRefused(
            tournament.code, "redraw_not_published", PUBLISHED_ROUND_RULE, number=number,
        )
    later = session.scalar(
        select(PairedRound.number).where(PairedRound.tournament_id == tournament.id,
                                         PairedRound.number > number)
        .order_by(PairedRound.number).limit(1)
    )  # fmt: skip
    if later is not None:
        raise RoundRefused(
            tournament.code, "redraw_later_paired", PUBLISHED_ROUND_RULE, later=later,
            number=number,
        )  # fmt: skip
    games = list(session.scalars(
        select(Game).where(Game.tournament_id == tournament.id, Game.round == number)
        .order_by(Game.id)
    ))  # fmt: skip
    before = _published_draw(session, paired, games)
    entrants = entrants_before(scoring_view(session, tournament), number, absent=paired.absent)
    try:
        after = redraw(entrants, before)
    except PairingError as error:
        raise RoundRefused.by_engine(tournament.code, "000 §3.18.2", error) from error
    new_pairs = set(after.pairs)
    kept = tuple(p for p in before.pairs if p in new_pairs)
    cancelled = tuple(g for g in games if _pair(g) not in new_pairs)
    added = tuple(p for p in after.pairs if p not in set(before.pairs))
    if not cancelled and not added and after.bye == before.bye:
        raise RoundRefused(
            tournament.code, "redraw_nothing_broken", PUBLISHED_ROUND_RULE, number=number,
        )
    begun = [g for g in cancelled if _begun(session, g)]
    if begun:
        names = ", ".join(f"{g.white.start_number}-{g.black.start_number}" for g in begun)
        raise RoundRefused(
            tournament.code, "redraw_games_begun", PUBLISHED_ROUND_RULE, number=number,
            games=names,
        )
    return RedrawPlan(tournament, paired, before, after, kept, cancelled, added, before.bye,
                      after.bye)  # fmt: skip


def apply_redraw(
    session: Session,
    tournament: Tournament,
    user: User | None,
    number: int,
    *,
    fingerprint: str,
    writer: LetterWriter | None,
    today: dt.date,
) -> RedrawDone:
    """Carry out the plan the director saw (``fingerprint``), in the caller's transaction."""
    # Two directors at once: the second waits for the row lock, then finds another plan.
    lock_tournament(session, tournament.id)
    session.scalar(
        select(PairedRound).where(PairedRound.tournament_id == tournament.id,
                                  PairedRound.number == number).with_for_update()
    )  # fmt: skip
    plan = plan_redraw(session, tournament, number)
    if plan.fingerprint != fingerprint:
        raise RoundRefused(
            tournament.code, "redraw_changed", number=number,
        )
    by_number = {p.start_number: p for p in tournament.participants}
    cancelled = [
        {"game": g.id, "white": g.white.start_number, "black": g.black.start_number}
        for g in plan.cancelled
    ]
    cancelled_ids = [g.id for g in plan.cancelled]
    if cancelled_ids:
        # The round sheets already sent stay in the outbox as sent; only their link to the
        # removed game goes (the audit entry keeps the game's number and players).
        session.execute(
            update(OutboxMessage).where(OutboxMessage.game_id.in_(cancelled_ids))
            .values(game_id=None)
        )  # fmt: skip
    for game in plan.cancelled:
        session.delete(game)
    session.flush()
    games = [
        Game(tournament_id=tournament.id, round=number, white_id=by_number[p.white].id,
             black_id=by_number[p.black].id, state=GameState.NOT_STARTED)
        for p in plan.added
    ]  # fmt: skip
    session.add_all(games)
    if plan.bye_after != plan.bye_before:
        if plan.bye_before is not None:
            old = session.scalar(select(UnpairedEntry).where(
                UnpairedEntry.tournament_id == tournament.id, UnpairedEntry.round == number,
                UnpairedEntry.kind == UnpairedKind.BYE))  # fmt: skip
            if old is not None:
                session.delete(old)
        if plan.bye_after is not None:
            session.add(UnpairedEntry(tournament_id=tournament.id, round=number,
                                      participant_id=by_number[plan.bye_after].id,
                                      kind=UnpairedKind.BYE))  # fmt: skip
    before_draw = dict(plan.round.draw)
    plan.round.draw = plan.after.as_dict()
    session.flush()
    session.refresh(tournament, ["games"])
    letters = 0
    if writer is not None:
        letters = _post_new_sheets(session, writer, tournament, plan, games, today)
    record(
        session, user=user, action="round.redraw", entity="paired_round",
        entity_id=plan.round.id, tournament_id=tournament.id, rule=REDRAW_RULE,
        summary=(f"round {number} redrawn: cancelled "
                 + (", ".join(f"{c['white']}-{c['black']}" for c in cancelled) or "none")
                 + "; paired " + (", ".join(f"{p.white}-{p.black}" for p in plan.added) or "none")
                 + (f"; bye {plan.bye_before} -> {plan.bye_after}"
                    if plan.bye_after != plan.bye_before else "")),
        detail={"round": number, "cancelled": cancelled,
                "added": [p.as_dict() for p in plan.added],
                "bye": [plan.bye_before, plan.bye_after], "touched": list(plan.touched),
                "before": before_draw, "after": plan.round.draw, "letters": letters},
    )  # fmt: skip
    return RedrawDone(plan, tuple(games), letters)


def _post_new_sheets(
    session: Session, writer: LetterWriter, tournament: Tournament, plan: RedrawPlan,
    games: Sequence[Game], today: dt.date,
) -> int:
    """A new round sheet to each player whose game or bye changed (002 §4.3.2)."""
    writer = round_letter_writer(writer)
    starts_on = plan.round.starts_on or today
    posted = 0
    common: dict[str, Any] = {
        "tournament": tournament, "round": plan.round.number, "redrawn_on": today,
        "starts_on": starts_on, "rule": REDRAW_RULE,
    }  # fmt: skip
    for game in games:
        for participant, colour in ((game.white, "white"), (game.black, "black")):
            if not participant.player.email:
                continue
            writer.post(
                session, kind="round_sheet", to=participant.player.email, template="round_redraw",
                language=Recipient.player(session, participant).language,
                context={**common, "recipient": participant.player, "colour": colour,
                         "partner": game.partner_of(participant.id).player, "bye": False},
                reply_for=(game.id, participant.id), tournament_id=tournament.id, game_id=game.id,
            )  # fmt: skip
            posted += 1
    if plan.bye_after is not None and plan.bye_after != plan.bye_before:
        participant = next(p for p in tournament.participants
                           if p.start_number == plan.bye_after)
        if participant.player.email:
            writer.post(
                session, kind="round_sheet", to=participant.player.email, template="round_redraw",
                language=Recipient.player(session, participant).language,
                context={**common, "recipient": participant.player, "colour": None,
                         "partner": None, "bye": True},
                tournament_id=tournament.id,
            )  # fmt: skip
            posted += 1
    return posted
