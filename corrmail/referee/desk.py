"""The referee's desk: every action on a case, checked for who may take it, applied through the
`adjudication` package, stored with its revision check, its effects carried out and audited —
all in the caller's transaction (the caller commits; on any error it rolls back and nothing of
the action remains).

Who may do what (002 §4.1.5–4.1.12): players file claims, analyses, disputes, break requests and
protests for their own games only; the steward imposes his sanctions and decides disputes; the
referee decides the cases and records withdrawals; the organizer hears protests against the
referee's decisions and records bans. Officials act for one tournament (`TournamentOfficial`);
an organizer acts in all of them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudication import (
    Adjudication,
    Assessment,
    BreakKind,
    CaseState,
    Channel,
    DecisionAgainstChart,
    Disposition,
    Dispute,
    Evidence,
    GameRecordCase,
    GameStatus,
    IllegalTransition,
    Instance,
    OverstepClaim,
    Sanction,
    SanctionKind,
    Side,
    SpecialBreakRequest,
    TournamentSystem,
    Transition,
    Withdrawal,
    WithdrawnGame,
)
from adjudication import Case as PureCase
from corrmail import audit, games
from corrmail.games.page import game_clock
from corrmail.games.view import GameView, HeldMoveRefused, UnsupportedGameType, side_of
from corrmail.letters.recipients import plays_by_email
from corrmail.letters.write import LetterWriter
from corrmail.models import (
    Case,
    CaseType,
    Game,
    GameState,
    Participant,
    ProtestLetter,
    ResultKind,
    Role,
    Tournament,
    TournamentChannel,
    TournamentOfficial,
    TournamentStatus,
    User,
)
from corrmail.models import Channel as StoredChannel
from corrmail.models import TournamentSystem as StoredSystem
from corrmail.referee.effects import Carried, EffectRunner
from corrmail.referee.evidence import server_held_evidence
from corrmail.referee.results import outcome_of
from corrmail.referee.store import StoredCase, insert_case, load_case, store_transition
from notation.game_position import position_fen
from timekeeping import NotToMoveError, days_left
from timekeeping import Side as TimeSide

__all__ = [
    "Actor",
    "ActionRefused",
    "DecisionAgainstFigures",
    "OverstepFigures",
    "Desk",
    "Done",
    "NotEntitled",
    "actor_for",
    "deciding_instance",
]

OPEN_STATES = (GameState.NOT_STARTED, GameState.IN_PLAY, GameState.SUSPENDED)


def _sides_playing_the_steward(tournament: Tournament, finished: Game) -> frozenset[Side]:
    """The sides of ``finished`` who still have a game in progress with a playing steward: their
    record goes "при очередном ответе" to him rather than within 15 days (002 §4.5.1)."""
    stewards = {official.user.player_id for official in tournament.officials
                if official.role is Role.STEWARD and official.user.player_id is not None}
    steward_entries = {entry.id for entry in tournament.participants if entry.player_id in stewards}
    sides: set[Side] = set()
    for side, entry in ((Side.WHITE, finished.white_id), (Side.BLACK, finished.black_id)):
        if entry in steward_entries:
            continue
        for game in tournament.games:
            if game.id == finished.id or game.state not in OPEN_STATES:
                continue
            if entry == game.white_id and game.black_id in steward_entries or (
                    entry == game.black_id and game.white_id in steward_entries):
                sides.add(side)
    return frozenset(sides)


RECORDED_KINDS = (ResultKind.PLAYED, ResultKind.OVERSTEP)
"""Results reached over the board, whose record the steward needs (002 §4.5.1)."""


class NotEntitled(PermissionError):
    """The user may not take this action on this case (002 §4.1.5–4.1.12)."""

    def __init__(self, action: str, who: str, rule: str = "002 §4.1.12") -> None:
        super().__init__(f"{action}: only {who} may do this ({rule})")
        self.action = action
        self.who = who
        self.rule = rule


class ActionRefused(ValueError):
    """The action contradicts the state of the game or tournament, not the case's rules.

    ``code`` and ``params`` say what is wrong as data, so a page words it in its reader's
    language (:mod:`corrmail.referee.wording`); the English text is for the CLI and the logs."""

    def __init__(self, action: str, reason: str, rule: str, *, code: str = "",
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(f"{action}: {reason} ({rule})")
        self.action = action
        self.reason = reason
        self.rule = rule
        self.code = code
        self.params: dict[str, object] = dict(params or {})


@dataclass(frozen=True)
class OverstepFigures:
    """The accused's time on the day of a claim as the time chart reads it (002 §4.3.5): the
    days he had used of the ``limit`` of his period, the days left (negative: an overstep),
    and whether that is an overstep. Shown on the case page and in a refusal that cites them."""

    on: dt.date
    offender: TimeSide
    used: int
    limit: int | None
    left: int | None
    shows: bool


class DecisionAgainstFigures(ActionRefused):
    """An overstep claim decided against the chart's figures without reasons (002 §4.3.7)."""

    def __init__(self, ruling: str, figures: OverstepFigures) -> None:
        super().__init__(
            "decide the claim",
            f"the time chart of {figures.on.isoformat()} "
            f"{'shows' if figures.shows else 'shows no'} overstep by {figures.offender.value} "
            f"({figures.used} of {figures.limit} days used, {figures.left} left): "
            f"a {ruling} claim needs the referee's reasons",
            "002 §4.3.7",
            code="overstep_shown" if figures.shows else "overstep_not_shown",
            params={"ruling": ruling, "side": figures.offender.value,
                    "on": figures.on, "used": figures.used,
                    "limit": "—" if figures.limit is None else figures.limit,
                    "left": "—" if figures.left is None else figures.left},
        )
        self.figures = figures


@dataclass(frozen=True)
class Actor:
    """A user as one tournament sees him: his instances there and his own entries."""

    user: User | None
    instances: frozenset[Instance]
    participant_ids: frozenset[int]

    @classmethod
    def system(cls) -> Actor:
        """The server itself (the daily sweep): acts as the referee's clerk, decides nothing."""
        return cls(None, frozenset({Instance.REFEREE}), frozenset())

    def acts_as(self, instance: Instance) -> bool:
        return instance in self.instances

    def plays(self, participant_id: int) -> bool:
        return participant_id in self.participant_ids


def actor_for(session: Session, user: User, tournament_id: int) -> Actor:
    instances: set[Instance] = set()
    if user.has_role(Role.ORGANIZER):
        instances.add(Instance.ORGANIZER)
    roles = session.scalars(
        select(TournamentOfficial.role).where(
            TournamentOfficial.user_id == user.id,
            TournamentOfficial.tournament_id == tournament_id,
        )
    ).all()
    if Role.REFEREE in roles:
        instances.add(Instance.REFEREE)
    if Role.STEWARD in roles:
        instances.add(Instance.STEWARD)
    entries: frozenset[int] = frozenset()
    if user.player_id is not None:
        entries = frozenset(
            session.scalars(
                select(Participant.id).where(
                    Participant.tournament_id == tournament_id,
                    Participant.player_id == user.player_id,
                )
            ).all()
        )
    return Actor(user, frozenset(instances), entries)


def deciding_instance(case: PureCase) -> Instance:
    """Who takes the case's next decision: the instance a protest went to, else the first one."""
    if case.state is CaseState.UNDER_PROTEST:
        return case.protests[-1].to
    if isinstance(case, Dispute | GameRecordCase):
        return Instance.STEWARD
    return Instance.REFEREE


@dataclass(frozen=True)
class Done:
    """An action's outcome: the stored case and what its effects produced."""

    stored: StoredCase
    carried: Carried
    opened: tuple[StoredCase, ...] = ()


class Desk:
    """Case actions for one tournament day; ``on`` is the date in the tournament's time zone."""

    def __init__(self, session: Session, writer: LetterWriter, *, on: dt.date) -> None:
        self.session = session
        self.writer = writer
        self.on = on

    # -- opening cases -----------------------------------------------------------------------

    def open_overstep_claim(
        self,
        actor: Actor,
        game: Game,
        *,
        claimant: Side | None = None,
        held_move: str = "",
        evidence: frozenset[Evidence] = frozenset(),
        notice_received_on: dt.date | None = None,
        letter_text: str = "",
    ) -> Done:
        """A player claims his partner overstepped (002 §4.3.6), from the web or entered by an
        official from a postal file. The game is suspended; the claim waits for the referee.

        A player claims for himself against his partner: his side is the one he plays
        (``claimant`` may be left out, and any other side is refused); an official files for
        the side he names."""
        action = "claim an overstep"
        claimant = self._own_side(actor, game, claimant, action=action, rule="002 §4.3.6",
                                  who="the claimant himself, on his own side",
                                  missing="claim_side_missing")
        claimant_id = game.white_id if claimant is Side.WHITE else game.black_id
        # A game not yet begun is claimable too: White's clock runs from the start (002 §4.3.2),
        # so a first move never sent oversteps like any other (docs/rules/referee.md).
        if game.state not in (GameState.IN_PLAY, GameState.NOT_STARTED):
            raise ActionRefused(action, f"the game is {game.state.value}, not in play",
                                "002 §4.3.6", code="game_not_in_play",
                                params={"state": game.state.value})
        if self._open_case(CaseType.OVERSTEP_CLAIM, game_id=game.id) is not None:
            raise ActionRefused(action, "a claim in this game already waits for the referee",
                                "002 §4.3.6", code="claim_waiting")
        view = GameView(game)
        held = self._checked_held_move(view, claimant, held_move)
        shows = overstep_shown(view, TimeSide(claimant.other.value), self.on)
        email = game.tournament.channel is TournamentChannel.EMAIL
        # The claimant who files it himself, on the web or by e-mail, sends no registered notice
        # through the service's back: the service tells the accused, with the letter an e-mail
        # game's claim sends (002 §4.3.6). An official entering a postal file does not: the
        # claimant has posted the notice, whose receipt the official gives.
        notify = email or actor.plays(claimant_id)
        # The server's letters and the time chart are the materials it holds (002 §4.3.6): they
        # count as present; only paper it never received is ticked by the referee. An offender
        # whose letters reach the claimant through the server sends no registered mail, so his
        # claim is read as an e-mail game's (docs/rules/referee.md).
        offender = game.partner_of(claimant_id)
        by_server = email or plays_by_email(offender)
        transition = OverstepClaim.open(
            f"{game.tournament.code}/overstep/{game.id}/{self.on.isoformat()}",
            game=str(game.id),
            claimant=claimant,
            claimed_on=self.on,
            channel=Channel.EMAIL if by_server else Channel.POST,
            held_move=held,
            evidence=evidence | server_held_evidence(game, claimant, notice_sent=notify),
            notice_received_on=notice_received_on,
            chart_shows_overstep=shows,
            notify_offender=notify,
        )
        return self._open(actor, transition, game.tournament, game_id=game.id,
                          participant_id=claimant_id, letter_text=letter_text,
                          action="overstep_claim.opened")

    def detect_oversteps(self, tournament: Tournament, actor: Actor | None = None) -> list[Done]:
        """In e-mail games the server holds every letter with its stamps, so it sees an overstep
        itself (002 §4.3.5–4.3.6): when the player to move can no longer reply within
        his limit, it opens the claim for his partner. The referee still decides. Idempotent."""
        actor = actor or Actor.system()
        if not actor.acts_as(Instance.REFEREE):
            raise NotEntitled("open an overstep claim", "the referee", "002 §4.3.6")
        done = []
        for game in tournament.games:
            if game.state is not GameState.IN_PLAY or not _email_game(game):
                continue
            if self._open_case(CaseType.OVERSTEP_CLAIM, game_id=game.id) is not None:
                continue
            view = GameView(game)
            movers = [letter for letter in view.letters if letter.moves_text.strip()]
            if not movers:
                # A game never begun is the first-move query's business (002 §4.3.4), not a
                # claim the server files on nobody's behalf (docs/rules/referee.md).
                continue
            try:
                offender = view.side_to_move
                # Received the day the server relayed it (002 §4.3.1); a letter stored
                # without that day was relayed the day it arrived — unless the steward posts it
                # on to a player who plays by post: then it is estimated from his posting, as
                # every clock of the game is (docs/rules/mail.md 21).
                received = view.relayed_to_mover()
                if received is None and view.move_to_forward() is None:
                    received = movers[-1].sent
                left = days_left(view.ledger(), offender, self.on, received)
            except (UnsupportedGameType, NotToMoveError, ValueError):
                continue
            if left >= 0:
                continue
            claimant = Side.BLACK if offender.value == Side.WHITE.value else Side.WHITE
            transition = OverstepClaim.open(
                f"{tournament.code}/overstep/{game.id}/{self.on.isoformat()}",
                game=str(game.id),
                claimant=claimant,
                claimed_on=self.on,
                channel=Channel.EMAIL,
                held_move="",
                detected_by_server=True,
                chart_shows_overstep=True,
            )
            done.append(self._open(
                actor, transition, tournament, game_id=game.id,
                participant_id=game.white_id if claimant is Side.WHITE else game.black_id,
                letter_text=f"002 §4.3.5: {-left} day(s) over the limit on {self.on.isoformat()}",
                action="overstep_claim.detected",
            ))
        return done

    def open_adjudications(self, tournament: Tournament, actor: Actor | None = None) -> list[Done]:
        """At the end-of-play date every unfinished game gets an adjudication case (002 §4.5.2).

        Idempotent: games that already have one are skipped; the tournament moves to its
        adjudication stage.
        """
        actor = actor or Actor.system()
        if not actor.acts_as(Instance.REFEREE):
            raise NotEntitled("open adjudications", "the referee", "002 §4.5.2")
        if self.on < tournament.end_date:
            raise ActionRefused("open adjudications",
                                f"play ends on {tournament.end_date.isoformat()}", "002 §4.5.2",
                                code="play_not_ended", params={"end": tournament.end_date})
        done = []
        for game in tournament.games:
            if game.result is not None or game.state not in OPEN_STATES:
                continue
            if self._open_case(CaseType.ADJUDICATION, game_id=game.id) is not None:
                continue
            if not _a_move_was_made(game):
                # No position to adjudicate: §4.5.2 asks for the diagram "after his last move",
                # and White's clock ran from the start (002 §4.3.2), so the game is an overstep
                # (or unplayed, 000 §3.15.2) for the referee to decide, not a board to judge
                # (docs/rules/referee.md). It stays in the report's unfinished games and oversteps.
                continue
            done.append(self._open_adjudication(actor, game, tournament.end_date))
        if tournament.status is TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.ADJUDICATION
        return done

    def _open_adjudication(self, actor: Actor, game: Game, end_date: dt.date) -> Done:
        try:
            diagram = position_fen(GameView(game).position)
        except (UnsupportedGameType, ValueError):
            diagram = ""
        transition = Adjudication.open(
            f"{game.tournament.code}/adjudication/{game.id}",
            game=str(game.id),
            end_date=end_date,
            diagram=diagram,
        )
        return self._open(actor, transition, game.tournament, game_id=game.id,
                          action="adjudication.opened")

    def open_game_records(self, tournament: Tournament, actor: Actor | None = None) -> list[Done]:
        """Every game finished over the board gets its record case (002 §4.5.1): an e-mail
        game's record is written by the server at once; a postal one is due in 15 days, and
        without any record both players get a minus (002 §4.5.8). Idempotent."""
        actor = actor or Actor.system()
        if not _official(actor):
            raise NotEntitled("open game records", "an official of the tournament", "002 §4.5.1")
        done = []
        for game in tournament.games:
            outcome = outcome_of(game)
            if (outcome is None or game.result_on is None
                    or game.result_kind not in RECORDED_KINDS):
                continue
            known = self.session.scalar(select(Case.id).where(
                Case.case_type == CaseType.GAME_RECORD, Case.game_id == game.id))
            if known is not None:
                continue
            email = any(letter.channel is StoredChannel.EMAIL for letter in game.letters)
            transition = GameRecordCase.open(
                f"{tournament.code}/game_record/{game.id}",
                game=str(game.id),
                finished_on=game.result_on,
                channel=Channel.EMAIL if email else Channel.POST,
                result=outcome,
                with_next_reply=_sides_playing_the_steward(tournament, game),
            )
            done.append(self._open(actor, transition, tournament, game_id=game.id,
                                   action="game_record.opened"))
        return done

    def register_game_record(
        self, actor: Actor, case_id: int, *, revision: int, side: Side, received_on: dt.date
    ) -> Done:
        """The steward registers a player's record as received (002 §4.5.1)."""
        stored = load_case(self.session, case_id)
        case = _expect(stored, GameRecordCase)
        if not _official(actor):
            raise NotEntitled("register a game record", "the steward", "002 §4.5.1")
        return self._apply(actor, stored, case.record_received(side, received_on,
                                                               revision=revision),
                           "game_record.received", "002 §4.5.1")

    def record_withdrawal(
        self,
        actor: Actor,
        participant: Participant,
        *,
        withdrew_on: dt.date,
        without_good_reason: bool = False,
        reason: str = "",
    ) -> Done:
        """The referee records that a player left (002 §4.1.14, 000 §3.14.3)."""
        if not actor.acts_as(Instance.REFEREE):
            raise NotEntitled("record a withdrawal", "the referee", "002 §4.5.3")
        if participant.withdrawn_on is not None:
            raise ActionRefused("record a withdrawal",
                                f"withdrawn on {participant.withdrawn_on.isoformat()}",
                                "000 §3.14.3", code="withdrawn_already",
                                params={"player": participant.player.name,
                                        "date": participant.withdrawn_on})
        tournament = participant.tournament
        games = tuple(self._withdrawn_game(game, participant)
                      for game in tournament.games
                      if participant.id in (game.white_id, game.black_id))
        swiss = tournament.system is StoredSystem.SWISS
        transition = Withdrawal.open(
            f"{tournament.code}/withdrawal/{participant.id}",
            player=str(participant.id),
            withdrew_on=withdrew_on,
            system=TournamentSystem.SWISS if swiss else TournamentSystem.ROUND_ROBIN,
            games=games,
            without_good_reason=without_good_reason,
        )
        participant.withdrawn_on = withdrew_on
        participant.withdrawal_reason = reason or None
        return self._open(actor, transition, tournament, participant_id=participant.id,
                          letter_text=reason, action="withdrawal.recorded")

    @staticmethod
    def _withdrawn_game(game: Game, participant: Participant) -> WithdrawnGame:
        outcome = outcome_of(game)
        if outcome is not None:
            status = GameStatus.FINISHED
        elif any(letter.moves_text.strip() for letter in game.letters):
            status = GameStatus.UNFINISHED
        else:
            status = GameStatus.NOT_STARTED
        side = Side.WHITE if game.white_id == participant.id else Side.BLACK
        return WithdrawnGame(str(game.id), str(game.partner_of(participant.id).id), side,
                             status, outcome)

    def impose_sanction(
        self,
        actor: Actor,
        participant: Participant,
        *,
        sanction: SanctionKind,
        rules_violated: tuple[str, ...],
        game: Game | None = None,
        reasons: str = "",
    ) -> Done:
        """A sanction (002 §4.1.9–4.1.10) by the steward, or the referee; a steward asking for
        more than he may impose opens a request to the referee."""
        if actor.acts_as(Instance.REFEREE):
            by = Instance.REFEREE
        elif actor.acts_as(Instance.STEWARD):
            by = Instance.STEWARD
        else:
            raise NotEntitled("impose a sanction", "the steward or the referee", "002 §4.1.9")
        if game is not None and participant.id not in (game.white_id, game.black_id):
            raise ActionRefused("impose a sanction", f"{participant.player.name} does not play "
                                f"game {game.id}", "002 §4.1.10", code="not_his_game",
                                params={"player": participant.player.name, "game": game.id})
        side = side_of(game, participant.id) if game is not None else None
        tournament = participant.tournament
        earlier = self.session.scalar(
            select(func.count(Case.id)).where(Case.case_type == CaseType.SANCTION,
                                              Case.participant_id == participant.id)
        ) or 0
        transition = Sanction.impose(
            f"{tournament.code}/sanction/{participant.id}/{earlier + 1}",
            player=str(participant.id),
            sanction=sanction,
            by=by,
            on=self.on,
            rules_violated=rules_violated,
            game=str(game.id) if game is not None else None,
            side=Side(side.value) if side is not None else None,
            reasons=reasons,
        )
        return self._open(actor, transition, tournament, participant_id=participant.id,
                          game_id=game.id if game is not None else None, letter_text=reasons,
                          action="sanction.opened")

    def request_special_break(
        self,
        actor: Actor,
        participant: Participant,
        *,
        break_kind: BreakKind,
        start: dt.date,
        end: dt.date,
        reason: str,
    ) -> Done:
        """A player asks for a retroactive or extra break (002 §4.4.5); the steward may enter a
        postal request for him."""
        if not (actor.plays(participant.id) or _official(actor)):
            raise NotEntitled("request a special break", "the player himself or an official",
                              "002 §4.4.5")
        tournament = participant.tournament
        transition = SpecialBreakRequest.request(
            f"{tournament.code}/break/{participant.id}/{start.isoformat()}",
            player=str(participant.id),
            break_kind=break_kind,
            start=start,
            end=end,
            reason=reason,
            filed_on=self.on,
        )
        return self._open(actor, transition, tournament, participant_id=participant.id,
                          letter_text=reason, action="special_break.requested")

    def open_dispute(
        self, actor: Actor, game: Game, *, complainant: Side | None = None, subject: str
    ) -> Done:
        """A player disagrees with something in his game (002 §4.1.12); the steward decides.

        A player is the complainant himself, on his own side (``complainant`` may be left out);
        an official files for the side he names."""
        complainant = self._own_side(actor, game, complainant, action="open a dispute",
                                     rule="002 §4.1.12",
                                     who="the complainant himself, on his own side",
                                     missing="dispute_side_missing")
        complainant_id = game.white_id if complainant is Side.WHITE else game.black_id
        transition = Dispute.open(
            f"{game.tournament.code}/dispute/{game.id}/{self.on.isoformat()}",
            game=str(game.id),
            complainant=complainant,
            subject=subject,
            filed_on=self.on,
        )
        return self._open(actor, transition, game.tournament, game_id=game.id,
                          participant_id=complainant_id, letter_text=subject,
                          action="dispute.opened")

    # -- acting on a case ------------------------------------------------------------------

    def submit_analysis(
        self,
        actor: Actor,
        case_id: int,
        *,
        revision: int,
        side: Side,
        assessment: Assessment,
        analysis: str,
        sent_on: dt.date | None = None,
        received_on: dt.date | None = None,
    ) -> Done:
        """A player's assessment and analysis (002 §4.5.2). On the web the player sends it
        today; an official entering a postal one gives its postmark and receipt dates."""
        stored = load_case(self.session, case_id)
        case = _expect(stored, Adjudication)
        self._require_party_or_official(actor, stored, side.value, "send an analysis")
        if not _official(actor):
            sent_on, received_on = self.on, self.on
        return self._apply(actor, stored, case.submit(
            side, assessment, analysis, sent_on=sent_on or self.on, revision=revision,
            received_on=received_on or sent_on or self.on,
        ), "adjudication.analysis", "002 §4.5.2")

    def decide(
        self,
        actor: Actor,
        case_id: int,
        *,
        revision: int,
        ruling: str,
        reasons: str = "",
        sharply_contradicting: bool = False,
        plan: Mapping[str, Disposition] | None = None,
        start: dt.date | None = None,
        end: dt.date | None = None,
    ) -> Done:
        """The first decision on the merits, by the instance the case's type names."""
        stored = load_case(self.session, case_id)
        case = stored.case
        if case.state is CaseState.UNDER_PROTEST:
            return self.decide_protest(actor, case_id, revision=revision, ruling=ruling,
                                       reasons=reasons)
        self._require_instance(actor, deciding_instance(case), "decide the case")
        transition: Transition[PureCase]
        if isinstance(case, OverstepClaim):
            transition = self._decide_claim(stored, case, ruling, revision, reasons)
        elif isinstance(case, Dispute):
            transition = case.decide(ruling, self.on, revision=revision, reasons=reasons)
        elif isinstance(case, Adjudication):
            # 002 §4.5.5: the referee justifies a result on the merits; the players' agreed one
            # (002 §4.5.4) is its own reason (docs/rules/referee.md).
            transition = case.decide(ruling, self.on, revision=revision,
                                     sharply_contradicting=sharply_contradicting,
                                     reasons=reasons, reasons_required=True)
        elif isinstance(case, Withdrawal):
            transition = case.decide(self.on, revision=revision, plan=plan, reasons=reasons)
        elif isinstance(case, SpecialBreakRequest):
            transition = case.decide(ruling, self.on, revision=revision, start=start, end=end,
                                     reasons=reasons)
        elif isinstance(case, Sanction):
            transition = case.decide_request(ruling, self.on, revision=revision, reasons=reasons)
        elif isinstance(case, GameRecordCase):
            transition = case.settle(self.on, revision=revision)
        else:  # pragma: no cover - every case type is listed above
            raise TypeError(f"no decision for {type(case).__name__}")
        return self._apply(actor, stored, transition, "case.decided", "")

    def claim_figures(self, stored: StoredCase) -> OverstepFigures | None:
        """The accused's time on the day of the claim, read again now (a letter corrected since
        changes it): the game stands suspended where the claim stopped it (002 §4.3.6)."""
        case = stored.case
        game = stored.row.game
        if not isinstance(case, OverstepClaim) or game is None:
            return None
        return overstep_figures(GameView(game), TimeSide(case.offender.value), case.opened_on)

    def _decide_claim(self, stored: StoredCase, case: OverstepClaim, ruling: str,
                      revision: int, reasons: str) -> Transition[PureCase]:
        """002 §4.3.7 against the chart as it reads today: deciding against its figures needs
        the referee's reasons, and the refusal shows the figures."""
        figures = self.claim_figures(stored) if not case.decisions else None
        try:
            return case.decide(ruling, self.on, revision=revision, reasons=reasons,
                               chart_shows_overstep=figures.shows if figures else None)
        except DecisionAgainstChart:
            if figures is None:
                raise
            raise DecisionAgainstFigures(str(ruling), figures) from None

    def fix_agreed_result(self, actor: Actor, case_id: int, *, revision: int) -> Done:
        stored = load_case(self.session, case_id)
        case = _expect(stored, Adjudication)
        self._require_instance(actor, Instance.REFEREE, "fix the agreed result")
        return self._apply(actor, stored, case.fix_agreed_result(self.on, revision=revision),
                           "case.decided", "002 §4.5.4")

    def protest(
        self,
        actor: Actor,
        case_id: int,
        *,
        revision: int,
        party: str,
        grounds: str = "",
        filed_on: dt.date | None = None,
        received_on: dt.date | None = None,
        materials: frozenset[Evidence] = frozenset(),
    ) -> Done:
        """A party protests the decision in force to the next instance (002 §4.1.12); the
        accused in an overstep claim protests the claim itself, with grounds and the materials
        of 002 §4.3.6 (002 §4.3.8)."""
        stored = load_case(self.session, case_id)
        case = stored.case
        self._require_party_or_official(actor, stored, party, "protest")
        on = filed_on if filed_on is not None and _official(actor) else self.on
        received = received_on if _official(actor) else None
        if isinstance(case, OverstepClaim) and not case.decisions:
            if party != case.offender.value:
                raise NotEntitled("protest the claim", "the accused player", "002 §4.3.8")
            transition: Transition[PureCase] = case.protest_claim(on, revision=revision,
                                                                  grounds=grounds,
                                                                  materials=materials)
        else:
            transition = case.protest(party, on, revision=revision, received_on=received,
                                      grounds=grounds)
        return self._apply(actor, stored, transition, "case.protested", case.PROTEST_RULE)

    def acknowledge_receipt(
        self, actor: Actor, case_id: int, *, revision: int, party: str, received_on: dt.date
    ) -> Done:
        """An official records the day a party received the decision by post: his ten days to
        protest run from the next day (002 §4.1.12)."""
        stored = load_case(self.session, case_id)
        if not _official(actor):
            raise NotEntitled("record a receipt", "an official of the tournament")
        return self._apply(actor, stored, stored.case.acknowledge_receipt(
            party, received_on, revision=revision), "case.receipt", stored.case.PROTEST_RULE)

    def close_settled(self, tournament: Tournament, actor: Actor | None = None) -> list[Done]:
        """Close every decided case of the tournament whose protest windows have all passed:
        the decision in force becomes final (002 §4.1.12)."""
        actor = actor or Actor.system()
        self._require_instance(actor, Instance.REFEREE, "close the case")
        done = []
        rows = self.session.scalars(
            select(Case.id).where(Case.tournament_id == tournament.id,
                                  Case.closed_at.is_(None),
                                  Case.state == CaseState.DECIDED.value)
            .order_by(Case.id)
        ).all()
        for case_id in rows:
            stored = load_case(self.session, case_id)
            try:
                # The package refuses before anything is written while a window is open.
                done.append(self.close(actor, case_id, revision=stored.case.revision))
            except IllegalTransition:
                continue
        return done

    def decide_protest(
        self, actor: Actor, case_id: int, *, revision: int, ruling: str, reasons: str = ""
    ) -> Done:
        stored = load_case(self.session, case_id)
        case = stored.case
        self._require_instance(actor, deciding_instance(case), "decide the protest")
        return self._apply(actor, stored, case.decide_protest(
            ruling, self.on, revision=revision, reasons=reasons,
        ), "case.protest_decided", case.HEARING_RULE)

    def close(self, actor: Actor, case_id: int, *, revision: int) -> Done:
        stored = load_case(self.session, case_id)
        self._require_instance(actor, Instance.REFEREE, "close the case")
        return self._apply(actor, stored, stored.case.close(self.on, revision=revision),
                           "case.closed", stored.case.PROTEST_RULE)

    def record_ban(self, actor: Actor, case_id: int, *, revision: int, until: dt.date) -> Done:
        stored = load_case(self.session, case_id)
        case = _expect(stored, Withdrawal)
        self._require_instance(actor, Instance.ORGANIZER, "record a ban")
        return self._apply(actor, stored, case.record_ban(until, self.on, revision=revision),
                           "withdrawal.ban", "002 §4.1.14")

    def add_evidence(
        self, actor: Actor, case_id: int, *, revision: int, items: frozenset[Evidence]
    ) -> Done:
        stored = load_case(self.session, case_id)
        case = _expect(stored, OverstepClaim)
        if not _official(actor):
            raise NotEntitled("add evidence", "an official of the tournament", "002 §4.3.6")
        return self._apply(actor, stored, case.add_evidence(items, revision=revision),
                           "overstep_claim.evidence", "002 §4.3.6")

    def file_protest_letter(
        self, actor: Actor, letter_id: int, *, case_id: int, revision: int, party: str
    ) -> Done:
        """File a protest that came by e-mail (a letter the mail layer kept) into the case it
        contests, dated the day it arrived."""
        letter = self.session.get(ProtestLetter, letter_id)
        if letter is None:
            raise ActionRefused("file a protest letter", f"{letter_id} is no protest letter",
                                "002 §4.1.12", code="no_protest_letter",
                                params={"letter": letter_id})
        self._require_instance(actor, Instance.REFEREE, "file a protest letter")
        if letter.filed_at is not None:
            raise ActionRefused("file a protest letter", "it was filed already", "002 §4.1.12",
                                code="protest_letter_filed")
        done = self.protest(actor, case_id, revision=revision, party=party,
                            grounds=letter.protest, filed_on=letter.received)
        games.file_protest_letter_row(letter, done.stored.row)
        return done

    # -- the machinery -----------------------------------------------------------------------

    def _open(
        self,
        actor: Actor,
        transition: Transition[PureCase],
        tournament: Tournament,
        *,
        action: str,
        game_id: int | None = None,
        participant_id: int | None = None,
        letter_text: str = "",
    ) -> Done:
        row = insert_case(
            self.session,
            transition,
            tournament_id=tournament.id,
            today=self.on,
            game_id=game_id,
            participant_id=participant_id,
            opened_by_id=actor.user.id if actor.user is not None else None,
            letter_text=letter_text,
        )
        stored = StoredCase(row, transition.case)
        carried = self._carry_out(actor, stored, transition)
        self._audit(actor, stored, action, _opening_rule(transition.case))
        return Done(stored, carried)

    def _apply(
        self,
        actor: Actor,
        stored: StoredCase,
        transition: Transition[PureCase],
        action: str,
        rule: str,
    ) -> Done:
        updated = store_transition(self.session, stored, transition, self.on)
        carried = self._carry_out(actor, updated, transition)
        decision = transition.case.last_decision
        if action in ("case.decided", "case.protest_decided") and decision is not None:
            rule = ", ".join(decision.rules)
        self._audit(actor, updated, action, rule or None)
        opened = tuple(
            self._open_adjudication(actor, self._game(effect.game), self.on).stored
            for effect in carried.adjudications
            if self._open_case(CaseType.ADJUDICATION, game_id=int(effect.game)) is None
        )
        return Done(updated, carried, opened)

    def _carry_out(
        self, actor: Actor, stored: StoredCase, transition: Transition[PureCase]
    ) -> Carried:
        runner = EffectRunner(self.session, self.writer, row=stored.row, case=transition.case,
                              actor=actor.user, on=self.on)
        return runner.carry_out(transition.effects)

    def _audit(self, actor: Actor, stored: StoredCase, action: str, rule: str | None) -> None:
        case = stored.case
        detail: dict[str, Any] = {"case": case.case_id, "revision": case.revision,
                                  "state": case.state.value}
        decision = case.last_decision
        if decision is not None:
            detail["ruling"] = decision.ruling
            detail["instance"] = decision.instance.value
            # The page words the entry from these codes in its reader's language.
            detail["rules"] = list(decision.rules)
        audit.record(
            self.session,
            user=actor.user,
            action=action,
            entity="case",
            entity_id=stored.row.id,
            tournament_id=stored.row.tournament_id,
            rule=(rule or "")[:40] or None,
            summary=f"{case.TYPE} {case.case_id}: {case.state.value}"
            + (f", {decision.ruling} ({', '.join(decision.rules)})" if decision else ""),
            detail=detail,
        )

    def _open_case(self, case_type: CaseType, *, game_id: int) -> Case | None:
        return self.session.scalar(
            select(Case).where(Case.case_type == case_type, Case.game_id == game_id,
                               Case.closed_at.is_(None))
        )

    def _game(self, game_id: str) -> Game:
        game = self.session.get(Game, int(game_id))
        if game is None:
            raise LookupError(f"no game {game_id}")
        return game

    @staticmethod
    def _own_side(actor: Actor, game: Game, posted: Side | None, *, action: str, rule: str,
                  who: str, missing: str) -> Side:
        """The side a claim or a dispute is filed for. A player files only for himself: his
        side is the one he plays, whatever a form posted — a posted other side is refused
        (``who`` may file it). An official files for a player and names the side
        (``missing``: the refusal's code)."""
        if not _official(actor):
            own = [side for side, pid in ((Side.WHITE, game.white_id), (Side.BLACK, game.black_id))
                   if actor.plays(pid)]
            if not own:
                raise NotEntitled(action, "a player of the game", rule)
            if posted is not None and posted is not own[0]:
                raise NotEntitled(action, who, rule)
            return own[0]
        if posted is None:
            raise ActionRefused(action, "an official names the side it is filed for", rule,
                                code=missing)
        return posted

    def _require_instance(self, actor: Actor, instance: Instance, action: str) -> None:
        if not actor.acts_as(instance):
            raise NotEntitled(action, f"the {instance.value}")

    def _require_party_or_official(
        self, actor: Actor, stored: StoredCase, party: str, action: str
    ) -> None:
        if _official(actor):
            return
        if party not in stored.case.parties or _participant_of_party(stored, party) is None:
            raise NotEntitled(action, "a party to the case")
        if not actor.plays(_participant_of_party(stored, party) or -1):
            raise NotEntitled(action, "the player himself, for his own games")

    def _checked_held_move(self, view: GameView, claimant: Side, held_move: str) -> str:
        """The held reply in full notation, checked as the partner would check it (002 §4.2.10)."""
        try:
            return view.held_reply(TimeSide(claimant.value), held_move)
        except HeldMoveRefused as refused:
            raise ActionRefused("hold a reply", refused.reason, refused.rule,
                                code=f"held_{refused.code}",
                                params={"move": refused.text}) from None


def overstep_figures(view: GameView, offender: TimeSide, on: dt.date) -> OverstepFigures | None:
    """``offender``'s figures on ``on`` as :func:`overstep_shown` reads them (a suspended game's
    clock as it stood, 002 §4.3.6); None when the game's time cannot be charted."""
    try:
        clock = game_clock(view, on, as_it_stood=True)
    except (UnsupportedGameType, ValueError):
        return None
    overstep = clock.chart.overstep
    if overstep is not None and overstep.player.value == offender.value:
        return OverstepFigures(on, offender, overstep.total, overstep.limit,
                               overstep.limit - overstep.total, True)
    if (clock.to_move is not None and clock.to_move.value == offender.value
            and clock.days_left is not None):
        return OverstepFigures(on, offender, clock.days_used_in_period or 0, clock.limit,
                               clock.days_left, clock.days_left < 0)
    rows = [row for row in clock.chart.rows if row.sender.value == offender.value]
    used = clock.chart.total(offender)
    limit = rows[-1].limit if rows else None
    return OverstepFigures(on, offender, used, limit,
                           None if limit is None else limit - used, False)


def overstep_shown(view: GameView, offender: TimeSide, on: dt.date) -> bool:
    """Whether the game shows ``offender``'s overstep on ``on`` as every page shows it (002
    §4.3.5): in a letter of the time chart, or — his move awaited — by the days his clock has
    run since he received the partner's move (:func:`corrmail.games.page.game_clock`, the
    clock of the game page, the dashboard and the player's home). A claim against a partner who
    is silent is the common case; the chart of sent letters alone never shows it."""
    figures = overstep_figures(view, offender, on)
    return figures is not None and figures.shows


def _email_game(game: Game) -> bool:
    """A game whose letters the server relays (002 §4.1.1): every letter came by e-mail."""
    if game.tournament.channel is TournamentChannel.EMAIL:
        return True
    return bool(game.letters) and all(letter.channel is StoredChannel.EMAIL
                                      for letter in game.letters)


def _a_move_was_made(game: Game) -> bool:
    """Whether the game has begun: the game core keeps a game ``not_started`` until its first
    move is sent (``games.changes``), and returns it there when play resumes without one."""
    return game.state is not GameState.NOT_STARTED


def _official(actor: Actor) -> bool:
    return bool(actor.instances)


def _participant_of_party(stored: StoredCase, party: str) -> int | None:
    """The participant a party name stands for: a side of the case's game, or a player id."""
    if party in (Side.WHITE.value, Side.BLACK.value):
        game = stored.row.game
        if game is None:
            return None
        return game.white_id if party == Side.WHITE.value else game.black_id
    return int(party) if party.isdigit() else None


def _opening_rule(case: PureCase) -> str:
    return {
        "overstep_claim": "002 §4.3.6",
        "adjudication": "002 §4.5.2",
        "withdrawal": "002 §4.5.3",
        "sanction": "002 §4.1.10",
        "special_break": "002 §4.4.5",
        "dispute": "002 §4.1.12",
        "game_record": "002 §4.5.1",
    }[case.TYPE]


def _expect(stored: StoredCase, kind: type[Any]) -> Any:
    if not isinstance(stored.case, kind):
        raise ActionRefused(f"act on case {stored.row.id}",
                            f"it is a {stored.case.TYPE} case, not {kind.TYPE}", "002 §4.1.12",
                            code="wrong_case_type",
                            params={"case": stored.row.id, "type": stored.case.TYPE,
                                    "wanted": kind.TYPE})
    return stored.case

