"""Swiss rounds, one at a time: pair the next round, preview it, publish it (000 §3.18, 004).

The director pairs round N from the results stored so far with the tournament's pairing program
(`scoring.pairing`), looks at the draw (pairs, colours, the bye ``+``, floats, notes), pairs
again with another lot if he wants, and publishes it: the games are created, the bye and the
known absences recorded, each player's round sheet queued in the outbox and an audit entry
written — all in one transaction. A published round is immutable (004): it is never paired
again. The seed and the absentees are kept with the draw, so anyone can reproduce it, and the
published round must pass `scoring.pairing.check_round`.

A team Swiss (system ``team``, rules ``team_pairing = swiss``) goes through the same steps; its
draw is `scoring.pairing.pair_teams`' (teams by match points then game points, board games
coloured by board one, 000 §3.17.3).

Pairing waits until every game of the previous round is finished (correspondence Swiss pairs on
results); the regulations may allow pairing earlier (`RoundRules.pair_before_finished`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.games.view import game_start_date
from corrmail.letters.recipients import Recipient
from corrmail.letters.write import LetterWriter, letters_env
from corrmail.models import (
    Game,
    GameState,
    PairedRound,
    RoundRules,
    Team,
    TeamPairing,
    TeamSchedule,
    Tournament,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
    User,
)
from corrmail.paths import templates_dir
from corrmail.rounds.refusals import ENGINE, ROUND_REFUSALS, EngineReason, english
from corrmail.standings.results import scoring_tournament, unpaired_entries
from corrmail.tournaments.lock import lock_tournament
from scoring.errors import ScoringError
from scoring.model import Team as ScoringTeam
from scoring.model import Tournament as ScoringTournament
from scoring.model import TournamentSystem as ScoringSystem
from scoring.pairing import (
    Draw,
    PairingError,
    PairingSystem,
    TeamDraw,
    check_round,
    draw_as_round,
    entrants_before,
    pair_round,
    pair_teams,
    parse_system,
)
from scoring.result import Result

__all__ = [
    "PUBLISHED_ROUND_RULE",
    "PlannedGame",
    "PublishedRound",
    "RoundRefused",
    "is_paired_by_rounds",
    "pair_next_round",
    "game_start_date",
    "paired_rounds",
    "publish_round",
    "round_letter_writer",
    "round_rules",
    "scoring_view",
    "set_round_rules",
    "unpaired_entries",
]

PUBLISHED_ROUND_RULE = "004"
"""A published draw is not changed unless it breaks an absolute criterion (004)."""



class RoundRefused(ValueError):
    """The director's request cannot be carried out; ``rule`` is the point that forbids it.
    ``code`` and ``params`` name the reason (``corrmail.rounds.refusals``) so a page can word it
    in its reader's language; ``reason`` is its English text. When the pairing program refuses
    (``ENGINE``), ``reasons`` are its own codes and values."""

    def __init__(
        self,
        tournament_code: str,
        code: str,
        rule: str | None = None,
        *,
        reasons: Sequence[EngineReason] = (),
        **params: object,
    ) -> None:
        reason = english(ROUND_REFUSALS, code, params)
        cited = f" ({rule})" if rule else ""
        super().__init__(f"{tournament_code}: {reason}{cited}")
        self.tournament_code = tournament_code
        self.code = code
        self.params = params
        self.reason = reason
        self.rule = rule
        self.reasons = tuple(reasons)

    @classmethod
    def by_engine(cls, tournament_code: str, rule: str, error: ScoringError) -> RoundRefused:
        """The pairing program's refusal: its English as ``detail``, its code as ``reasons``."""
        return cls(tournament_code, ENGINE, rule, reasons=EngineReason.of_error(error),
                   detail=str(error))


@dataclass(frozen=True)
class PlannedGame:
    """One game of a draw in start numbers; ``board`` for a team match."""

    white: int
    black: int
    board: int | None = None


@dataclass(frozen=True)
class PublishedRound:
    round: PairedRound
    games: tuple[Game, ...]
    unpaired: tuple[UnpairedEntry, ...]
    letters: int


def round_rules(session: Session, tournament: Tournament) -> RoundRules:
    """The tournament's round rules; the defaults (not stored) when none were set."""
    rules = session.get(RoundRules, tournament.id)
    if rules is None:
        rules = RoundRules(
            tournament_id=tournament.id,
            pair_before_finished=False,
            team_pairing=TeamPairing.ROUND_ROBIN,
            team_pairing_system=None,
            team_schedule=TeamSchedule.BOARDS,
        )
    return rules


def set_round_rules(
    session: Session,
    tournament: Tournament,
    user: User | None,
    *,
    pair_before_finished: bool,
    team_pairing: TeamPairing = TeamPairing.ROUND_ROBIN,
    team_pairing_system: str | None = None,
    team_schedule: TeamSchedule = TeamSchedule.BOARDS,
) -> RoundRules:
    """Store the regulations' choices. A team Swiss needs its program (000 §3.18.3); the
    Scheveningen schedule is a match schedule, not a Swiss one (004); how teams are paired is
    fixed once games exist."""
    if team_pairing is TeamPairing.SWISS:
        try:
            team_pairing_system = parse_system(team_pairing_system or "").value
        except PairingError as error:
            # The form offers the programs by name; the engine's own text lists their codes.
            raise RoundRefused(tournament.code, "team_swiss_program", "000 §3.18.3") from error
        if team_schedule is not TeamSchedule.BOARDS:
            raise RoundRefused(
                tournament.code, "scheveningen_not_swiss", "004"
            )
    else:
        team_pairing_system = None
    rules = round_rules(session, tournament)
    changes_pairing = (rules.team_pairing, rules.team_schedule) != (team_pairing, team_schedule)
    has_games = session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    )
    if changes_pairing and has_games:
        raise RoundRefused(
            tournament.code, "team_pairing_fixed"
        )
    rules.pair_before_finished = pair_before_finished
    rules.team_pairing = team_pairing
    rules.team_pairing_system = team_pairing_system
    rules.team_schedule = team_schedule
    session.add(rules)
    session.flush()
    record(
        session, user=user, action="tournament.round_rules", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id, rule="000 §3.18",
        summary=(f"pair before the round is finished: {pair_before_finished}; teams: "
                 f"{team_pairing.value} {team_pairing_system or ''} {team_schedule.value}"),
    )  # fmt: skip
    return rules


def is_paired_by_rounds(session: Session, tournament: Tournament) -> bool:
    """A Swiss, or a team event paired as a Swiss: paired one round at a time."""
    if tournament.system is TournamentSystem.SWISS:
        return True
    return (
        tournament.system is TournamentSystem.TEAM
        and round_rules(session, tournament).team_pairing is TeamPairing.SWISS
    )


def paired_rounds(session: Session, tournament: Tournament) -> list[PairedRound]:
    return list(
        session.scalars(
            select(PairedRound)
            .where(PairedRound.tournament_id == tournament.id)
            .order_by(PairedRound.number)
        )
    )


def scoring_view(
    session: Session, tournament: Tournament, results: ScoringTournament | None = None
) -> ScoringTournament:
    """The tournament as `scoring` reads it for pairing and team standings.

    Results, byes and known absences of published rounds, and every withdrawn player, decided or
    not (so he is not paired again, 000 §3.18.2), come from the one adapter,
    `corrmail.standings.results.scoring_tournament`; this adds the teams in board order (000 §3.17.2).
    ``results``: the adapter's reading to add the teams to instead (a bulletin's as of a date).
    """
    number_of = {p.id: p.start_number for p in tournament.participants}
    if results is None:
        # Every withdrawal, decided or not, after the last round he took part in
        # (docs/rules/standings.md, reading 7): a player who left is not paired again.
        results = scoring_tournament(
            tournament, unpaired=unpaired_entries(session, tournament), undecided_withdrawals=True
        )
    teams = tuple(
        ScoringTeam(
            team.name,
            tuple(
                member
                for board in team.boards
                if (member := number_of.get(board.participant_id)) is not None
            ),
        )
        for team in session.scalars(
            select(Team).where(Team.tournament_id == tournament.id).order_by(Team.number)
        )
    )
    system = ScoringSystem.SWISS if is_paired_by_rounds(session, tournament) else results.system
    return dataclasses.replace(results, teams=teams, system=system)


def _published_count(session: Session, tournament: Tournament) -> int:
    return session.scalar(
        select(func.count())
        .select_from(PairedRound)
        .where(PairedRound.tournament_id == tournament.id, PairedRound.published_at.is_not(None))
    ) or 0


def _system(session: Session, tournament: Tournament) -> PairingSystem:
    name = (
        tournament.pairing_system
        if tournament.system is TournamentSystem.SWISS
        else round_rules(session, tournament).team_pairing_system
    )
    if not name:
        raise RoundRefused(
            tournament.code, "no_pairing_system", "000 §3.18.3"
        )
    try:
        return parse_system(name)
    except PairingError as error:
        raise RoundRefused.by_engine(tournament.code, "000 §3.18.3", error) from error


def _check_can_pair(session: Session, tournament: Tournament, number: int) -> None:
    if not is_paired_by_rounds(session, tournament):
        raise RoundRefused(
            tournament.code, "not_by_rounds", "000 §3.18",
        )
    published = _published_count(session, tournament)
    if number <= published:
        raise RoundRefused(
            tournament.code, "round_published", PUBLISHED_ROUND_RULE, number=number,
        )
    if number != published + 1:
        raise RoundRefused(
            tournament.code, "next_round", next=published + 1, number=number
        )
    if published and not round_rules(session, tournament).pair_before_finished:
        unfinished = session.scalar(
            select(func.count())
            .select_from(Game)
            .where(
                Game.tournament_id == tournament.id,
                Game.round == published,
                Game.result.is_(None),
            )
        )
        if unfinished:
            raise RoundRefused(
                tournament.code, "previous_unfinished", "000 §3.18.2", round=published,
                count=unfinished,
            )


def _compute(
    session: Session,
    tournament: Tournament,
    number: int,
    seed: int,
    absent: Collection[int],
) -> tuple[PairingSystem, Draw | TeamDraw]:
    system = _system(session, tournament)
    view = scoring_view(session, tournament)
    known = {player.start_no for player in view.players}
    unknown = sorted(set(absent) - known)
    if unknown:
        raise RoundRefused(
            tournament.code, "unknown_absent", numbers=str(unknown)
        )
    try:
        if tournament.system is TournamentSystem.TEAM:
            if absent:
                raise RoundRefused(
                    tournament.code, "team_absences", "000 §3.17.4",
                )
            if not view.teams:
                raise RoundRefused(tournament.code, "enter_teams", "000 §3.17.1")
            return system, pair_teams(view, number, system, seed)
        return system, pair_round(entrants_before(view, number, absent=absent), number, system, seed)
    except PairingError as error:
        raise RoundRefused.by_engine(tournament.code, "000 §3.18.2", error) from error


def pair_next_round(
    session: Session,
    tournament: Tournament,
    user: User | None,
    *,
    seed: int | None = None,
    absent: Collection[int] = (),
    number: int | None = None,
) -> PairedRound:
    """Pair (or pair again) the next round and keep it as a preview until it is published.

    ``seed`` fixes the lot (a fresh one is drawn and recorded when omitted); ``absent`` are start
    numbers known not to play this round (not paired, 0, 004). Refused for a published round
    (004), while the previous round has unfinished games (unless the regulations allow it) and
    when no legal pairing exists (the reason names the players and the rule).
    """
    number = number if number is not None else _published_count(session, tournament) + 1
    _check_can_pair(session, tournament, number)
    if seed is None:
        seed = secrets.randbelow(2**31)
    absent = sorted(set(absent))
    system, draw = _compute(session, tournament, number, seed, absent)
    session.execute(
        delete(PairedRound).where(
            PairedRound.tournament_id == tournament.id, PairedRound.number == number
        )
    )
    paired = PairedRound(
        tournament_id=tournament.id,
        number=number,
        system=system.value,
        seed=seed,
        absent=absent,
        draw=draw.as_dict(),
        paired_by_id=user.id if user is not None else None,
    )
    try:
        with session.begin_nested():
            session.add(paired)
    except IntegrityError as error:
        raise RoundRefused(
            tournament.code, "paired_meanwhile", number=number
        ) from error
    record(
        session, user=user, action="round.pair", entity="paired_round", entity_id=paired.id,
        tournament_id=tournament.id, rule=system.rule,
        summary=f"round {number} previewed ({system.value}, seed {seed})",
        detail={"round": number, "seed": seed, "absent": absent},
    )  # fmt: skip
    return paired


def _planned(draw: Draw | TeamDraw, view: ScoringTournament) -> tuple[
    list[PlannedGame], list[tuple[int, UnpairedKind]]
]:
    if isinstance(draw, TeamDraw):
        board_of = {number: board for team in view.teams
                    for board, number in enumerate(team.members, start=1)}
        games = [
            PlannedGame(game.white, game.black, board_of.get(game.white))
            for pair in draw.pairs
            for game in pair.games
        ]
        team = next((t for t in view.teams if t.name == draw.bye), None)
        byes = [(member, UnpairedKind.BYE) for member in team.members] if team else []
        return games, byes
    model_games, unpaired = draw_as_round(draw)
    return (
        [PlannedGame(game.white, game.black) for game in model_games],
        [
            (entry.player, UnpairedKind.BYE if entry.result is Result.BYE else UnpairedKind.ABSENT)
            for entry in unpaired
        ],
    )


def publish_round(
    session: Session,
    tournament: Tournament,
    user: User | None,
    *,
    writer: LetterWriter | None,
    today: dt.date,
) -> PublishedRound:
    """Publish the previewed next round: games, bye ``+`` and absences, round sheets, audit.

    The draw is computed again from the stored seed and absentees: if a result changed since
    the preview the draw may differ, and publishing is refused until the round is paired again.
    ``writer`` queues a round sheet to every player with an e-mail address (002 §4.3.2); the
    officials print the others from the start sheets page.
    """
    number = _published_count(session, tournament) + 1
    # The round asked for is the one this director saw to publish: a second click that waited
    # for the first is told that round is published, not that the next is unpaired.
    lock_tournament(session, tournament.id)
    # Two directors publishing at once: the second waits for the first's row lock, then finds
    # the round published and is refused, instead of creating the games twice.
    paired = session.scalar(
        select(PairedRound)
        .where(PairedRound.tournament_id == tournament.id, PairedRound.number == number)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if paired is None:
        raise RoundRefused(tournament.code, "not_paired_yet", number=number)
    if paired.published:
        raise RoundRefused(
            tournament.code, "already_published", PUBLISHED_ROUND_RULE, number=number
        )
    _check_can_pair(session, tournament, number)
    _, draw = _compute(session, tournament, number, paired.seed, paired.absent)
    if draw.as_dict() != paired.draw:
        raise RoundRefused(
            tournament.code, "results_changed", PUBLISHED_ROUND_RULE, number=number,
        )
    view = scoring_view(session, tournament)
    planned, unpaired = _planned(draw, view)
    by_number = {p.start_number: p for p in tournament.participants}
    games = tuple(
        Game(
            tournament_id=tournament.id,
            round=number,
            board=game.board,
            white_id=by_number[game.white].id,
            black_id=by_number[game.black].id,
            state=GameState.NOT_STARTED,
        )
        for game in planned
    )
    entries = tuple(
        UnpairedEntry(
            tournament_id=tournament.id, round=number, participant_id=by_number[start].id, kind=kind
        )
        for start, kind in unpaired
    )
    session.add_all(games)
    session.add_all(entries)
    paired.published_at = dt.datetime.now(dt.UTC)
    paired.published_by_id = user.id if user is not None else None
    paired.starts_on = max(today, tournament.start_date)
    session.flush()
    session.refresh(tournament, ["games"])
    if tournament.system is TournamentSystem.SWISS:
        violations = check_round(scoring_view(session, tournament), number)
        if violations:  # the engine never produces one; refuse rather than publish a bad draw
            raise RoundRefused(
                tournament.code, ENGINE, PUBLISHED_ROUND_RULE,
                reasons=[EngineReason.of_violation(v) for v in violations],
                detail="; ".join(str(v) for v in violations),
            )
    letters = 0
    if writer is not None:
        letters = _post_round_sheets(
            session, writer, tournament, number, games, entries, today, paired.starts_on
        )
    record(
        session, user=user, action="round.publish", entity="paired_round", entity_id=paired.id,
        tournament_id=tournament.id, rule=f"{parse_system(paired.system).rule}; 004",
        summary=(f"round {number} published: {len(games)} games"
                 + "".join(f", {kind.value} {start}" for start, kind in unpaired)),
        detail={"round": number, "seed": paired.seed, "absent": paired.absent,
                "draw": paired.draw, "letters": letters},
    )  # fmt: skip
    return PublishedRound(paired, games, entries, letters)


# -- round sheets ------------------------------------------------------------------------------


def round_letter_writer(writer: LetterWriter) -> LetterWriter:
    """A writer reading the round sheet templates (templates/tournaments/letters) and the mail
    layer's shared parts (the footer)."""
    env = letters_env(templates_dir() / "tournaments" / "letters")
    env.loader = jinja2.ChoiceLoader(
        [jinja2.FileSystemLoader(str(templates_dir() / "tournaments" / "letters")),
         jinja2.FileSystemLoader(str(templates_dir() / "letters"))]
    )  # fmt: skip
    return LetterWriter(writer.settings, env=env, clock=writer.clock)


def _post_round_sheets(
    session: Session,
    writer: LetterWriter,
    tournament: Tournament,
    number: int,
    games: Sequence[Game],
    entries: Sequence[UnpairedEntry],
    today: dt.date,
    starts_on: dt.date,
) -> int:
    writer = round_letter_writer(writer)
    posted = 0
    for game in games:
        for participant, colour in ((game.white, "white"), (game.black, "black")):
            email = participant.player.email
            if not email:
                continue
            partner = game.partner_of(participant.id)
            context: dict[str, Any] = {
                "tournament": tournament, "round": number, "recipient": participant.player,
                "colour": colour, "partner": partner.player, "board": game.board,
                "published_on": today, "starts_on": starts_on,
                "bye": False, "rule": "002 §4.3.2",
                "address": writer.signer.reply_address(game.id, participant.id),
            }  # fmt: skip
            writer.post(
                session, kind="round_sheet", to=email, template="round_sheet",
                language=Recipient.player(session, participant).language, context=context,
                reply_for=(game.id, participant.id), tournament_id=tournament.id, game_id=game.id,
            )  # fmt: skip
            posted += 1
    for entry in entries:
        email = entry.participant.player.email
        if entry.kind is not UnpairedKind.BYE or not email:
            continue
        context = {
            "tournament": tournament, "round": number, "recipient": entry.participant.player,
            "colour": None, "partner": None, "board": None, "published_on": today, "starts_on": starts_on, "bye": True,
            "rule": "000 §3.18.2",
        }  # fmt: skip
        writer.post(
            session, kind="round_sheet", to=email, template="round_sheet",
            language=Recipient.player(session, entry.participant).language, context=context,
            tournament_id=tournament.id,
        )  # fmt: skip
        posted += 1
    return posted
