"""Setting up a tournament: its regulations and its entries.

Every function works in the caller's transaction and records what it did in the audit log; a
caller commits once, so a failure leaves nothing half-done.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.clock import FEDERATION_TIME_ZONE
from corrmail.letters.write import DEFAULT_LANGUAGE, LANGUAGES
from corrmail.models import (
    Game,
    GameType,
    Participant,
    Player,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
    User,
)
from corrmail.models.enums import ROUND_ROBIN_SYSTEMS
from corrmail.referee.bans import BAN_RULE, Ban, ban_barring, bans_in_force
from corrmail.tournaments.player_import import PlayerImport, PlayerRow, RowError, check_row
from corrmail.tournaments.rule_options import (
    FIXED_RULE,
    canonical_options,
    effective_options,
    play_has_begun,
    rule_option_errors,
)
from scoring.pairing.model import PairingSystem
from scoring.tiebreaks import TIEBREAKS

# Codes appear in URLs and letter subjects: letters (Cyrillic too), digits, '-', '_', '.'.
_CODE = re.compile(r"^[\w][\w.\-]{0,39}$")
# Taken by the web app's own pages under /tournaments/.
RESERVED_CODES = frozenset({"new"})

#: Why a drawn round robin takes no more entries (docs/rules/entries.md).
FIELD_FIXED_RULE = "002 §4.3.2, 000 §3.14.3"

POINT_SYSTEMS: dict[str, tuple[Decimal, Decimal, Decimal]] = {
    "classical": (Decimal(1), Decimal("0.5"), Decimal(0)),  # 1 / ½ / 0
    "fmjd": (Decimal(2), Decimal(1), Decimal(0)),  # FMJD 2 / 1 / 0
}


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament's regulations as a director enters them. Its status is not among them: a
    tournament is created a draft, publishing its start sheets starts it, the referee's desk and
    closing move it on (corrmail.tournaments.publishing, .closing)."""

    code: str
    title: str
    game_type: GameType
    system: TournamentSystem
    channel: TournamentChannel
    start_date: dt.date
    end_date: dt.date
    pairing_system: str | None = None
    time_control_days: int = 50  # 002 §4.3.1
    time_control_moves: int = 10
    point_system: str = "classical"
    tiebreak_order: tuple[str, ...] = ()
    breaks_per_year: int = 1  # 002 §4.4.1
    break_max_days: int = 30
    time_zone: str = FEDERATION_TIME_ZONE
    # Column draughts' rule options as ``NAME=VALUE`` (`notation.columns.rule_option_choices()`);
    # None leaves a tournament's options as they are (forms without the field), () the defaults.
    rule_options: Sequence[str] | None = None


@dataclass(frozen=True)
class FieldError:
    field: str
    message: str


class RegistrationError(ValueError):
    """Input that cannot be stored; `errors` names every field (or CSV line) at fault."""

    def __init__(self, errors: Sequence[FieldError | RowError]) -> None:
        super().__init__("; ".join(error.message for error in errors))
        self.errors = errors


def check_spec(
    session: Session, spec: TournamentSpec, editing: Tournament | None = None
) -> list[FieldError]:
    errors: list[FieldError] = []
    if not _CODE.match(spec.code):
        errors.append(FieldError("code", _("use letters, digits, '-', '_' or '.', at most 40")))
    elif spec.code.lower() in RESERVED_CODES:
        errors.append(FieldError("code", _("code %(code)s is taken", code=spec.code)))
    else:
        clash = session.scalar(select(Tournament.id).where(Tournament.code == spec.code))
        if clash is not None and (editing is None or clash != editing.id):
            errors.append(FieldError("code", _("code %(code)s is taken", code=spec.code)))
    if not spec.title.strip():
        errors.append(FieldError("title", _("the title is empty")))
    if spec.end_date <= spec.start_date:
        errors.append(FieldError("end_date", _("the end of play must come after the start")))
    if spec.system is TournamentSystem.SWISS:
        if spec.pairing_system not in {system.value for system in PairingSystem}:
            errors.append(
                FieldError(
                    "pairing_system", _("a Swiss tournament needs its pairing system (000 §3.18)")
                )
            )
    elif spec.pairing_system:
        errors.append(
            FieldError("pairing_system", _("only a Swiss tournament has a pairing system"))
        )
    if spec.time_control_days < 1 or spec.time_control_moves < 1:
        errors.append(
            FieldError("time_control_days", _("days and moves must be at least 1 (002 §4.3.1)"))
        )
    if spec.point_system not in POINT_SYSTEMS:
        errors.append(
            FieldError("point_system", _("unknown point system %(name)s", name=spec.point_system))
        )
    round_robin = spec.system in ROUND_ROBIN_SYSTEMS
    for name in spec.tiebreak_order:
        known = TIEBREAKS.get(name)
        if known is None:
            errors.append(FieldError("tiebreak_order", _("unknown tiebreak %(name)s", name=name)))
        elif known.round_robin_only and not round_robin:
            errors.append(
                FieldError(
                    "tiebreak_order",
                    _(
                        "%(name)s applies to round robins only (%(rule)s)",
                        name=name,
                        rule=known.rule,
                    ),
                )
            )
    if len(set(spec.tiebreak_order)) != len(spec.tiebreak_order):
        errors.append(FieldError("tiebreak_order", _("a tiebreak is listed twice")))
    if spec.breaks_per_year < 0 or not 0 <= spec.break_max_days <= 366:
        errors.append(
            FieldError("break_max_days", _("break limits must be 0 or more days (002 §4.4.1)"))
        )
    try:
        ZoneInfo(spec.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        errors.append(FieldError("time_zone", _("unknown time zone %(name)s", name=spec.time_zone)))
    # A form without the options keeps the stored ones, which must still suit the game type.
    options = spec.rule_options if spec.rule_options is not None else _written(
        editing.rule_options if editing is not None else None)
    errors.extend(FieldError("rule_options", message)
                  for message in rule_option_errors(spec.game_type, options))
    return errors


def _columns(spec: TournamentSpec) -> dict[str, object]:
    values = {f.name: getattr(spec, f.name) for f in fields(spec) if f.name != "point_system"}
    values["tiebreak_order"] = list(spec.tiebreak_order)
    if spec.rule_options is None:
        del values["rule_options"]
    else:
        values["rule_options"] = canonical_options(spec.rule_options) or None
    values["pairing_system"] = spec.pairing_system or None
    values["points_win"], values["points_draw"], values["points_loss"] = POINT_SYSTEMS[
        spec.point_system
    ]
    return values


def _written(options: dict[str, str] | None) -> tuple[str, ...]:
    return tuple(f"{name}={value}" for name, value in sorted((options or {}).items()))


def spec_of(tournament: Tournament) -> TournamentSpec:
    points = (tournament.points_win, tournament.points_draw, tournament.points_loss)
    point_system = next(
        (name for name, triple in POINT_SYSTEMS.items() if triple == points), "classical"
    )
    return TournamentSpec(
        code=tournament.code,
        title=tournament.title,
        game_type=tournament.game_type,
        system=tournament.system,
        channel=tournament.channel,
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        pairing_system=tournament.pairing_system,
        time_control_days=tournament.time_control_days,
        time_control_moves=tournament.time_control_moves,
        point_system=point_system,
        tiebreak_order=tuple(tournament.tiebreak_order),
        breaks_per_year=tournament.breaks_per_year,
        break_max_days=tournament.break_max_days,
        time_zone=tournament.time_zone,
        rule_options=_written(tournament.rule_options),
    )


def create_tournament(session: Session, spec: TournamentSpec, user: User | None) -> Tournament:
    errors = check_spec(session, spec)
    if errors:
        raise RegistrationError(errors)
    tournament = Tournament(**_columns(spec))
    session.add(tournament)
    session.flush()
    record(
        session, user=user, action="tournament.create", entity="tournament", entity_id=tournament.id,
        tournament_id=tournament.id, summary=f"{spec.code}: {spec.title}",
    )  # fmt: skip
    return tournament


def update_tournament(
    session: Session, tournament: Tournament, spec: TournamentSpec, user: User | None
) -> dict[str, tuple[str, str]]:
    """Apply `spec`; returns (old, new) of each changed field, as the audit log keeps it."""
    errors = check_spec(session, spec, editing=tournament)
    if tournament.status is not TournamentStatus.DRAFT:
        errors.extend(_published_changes(tournament, spec))
    if not errors and _changes_rule_options(tournament, spec):
        begun = play_has_begun(session, tournament)
        if begun:
            errors.append(FieldError("rule_options", _(
                "the rule options cannot be changed: %(count)s game(s) have begun, and every "
                "move already in their ledgers was judged under the options announced; a letter "
                "once judged is not judged again (%(rule)s)", count=begun, rule=FIXED_RULE)))
    if errors:
        raise RegistrationError(errors)
    changes: dict[str, tuple[str, str]] = {}
    for column, value in _columns(spec).items():
        old = getattr(tournament, column)
        if old != value:
            changes[column] = (str(old), str(value))
            setattr(tournament, column, value)
    if changes:
        session.flush()
        record(
            session, user=user, action="tournament.update", entity="tournament",
            entity_id=tournament.id, tournament_id=tournament.id,
            summary=", ".join(sorted(changes)), detail={k: list(v) for k, v in changes.items()},
        )  # fmt: skip
    return changes


#: The regulations the start sheets announce (002 §4.3.2) and every time chart, pairing and table
#: is computed under: fixed once the tournament is published. Only the title stays editable.
PUBLISHED_FIXED = (
    "code", "game_type", "system", "channel", "start_date", "end_date", "pairing_system",
    "time_control_days", "time_control_moves", "point_system", "tiebreak_order",
    "breaks_per_year", "break_max_days", "time_zone",
)


def _published_changes(tournament: Tournament, spec: TournamentSpec) -> list[FieldError]:
    """A published tournament's regulations were sent to its players with their start sheets:
    a director changing the time control afterwards moved every reply-by date without a word
    to anyone (docs/rules/entries.md)."""
    before = spec_of(tournament)
    errors = []
    for name in PUBLISHED_FIXED:
        old, new = getattr(before, name), getattr(spec, name)
        if (old or None) == (new or None):
            continue
        if isinstance(old, enum.Enum) or name == "point_system":
            # The field's own choices name it; its stored code would read as jargon here.
            errors.append(FieldError(name, _(
                "fixed since the tournament was published: its players were sent it with their "
                "start sheets (002 §4.3.2)")))
            continue
        shown = (f"{old:%d.%m.%Y}" if isinstance(old, dt.date)
                 else ", ".join(old) if isinstance(old, tuple) else old)
        errors.append(FieldError(name, _(
            "fixed since the tournament was published: its players were sent «%(value)s» with "
            "their start sheets (002 §4.3.2)", value=shown if shown not in (None, "") else "—")))
    return errors


def _changes_rule_options(tournament: Tournament, spec: TournamentSpec) -> bool:
    """Whether ``spec`` plays ``tournament``'s games under other rules than before: another
    game type, or options that differ in effect (not merely in spelling)."""
    if spec.rule_options is None and spec.game_type is tournament.game_type:
        return False
    new = (tournament.rule_options if spec.rule_options is None
           else canonical_options(spec.rule_options))
    return (effective_options(spec.game_type, new)
            != effective_options(tournament.game_type, tournament.rule_options))


def _entered_emails(session: Session, tournament: Tournament) -> set[str]:
    rows = session.scalars(
        select(Player.email)
        .join(Participant, Participant.player_id == Player.id)
        .where(Participant.tournament_id == tournament.id, Player.email.is_not(None))
    )
    return {email.lower() for email in rows if email}


def _player_of(session: Session, row: PlayerRow, known: Player | None) -> Player:
    """The player ``row`` enters: ``known`` brought up to date with the row (a blank field keeps
    what is on record, the name is always the row's), or a new one added to the session."""
    if known is None:
        player = Player(name=row.name, email=row.email, postal_address=row.postal_address,
                        rating=row.rating, club=row.club,
                        language=row.language or DEFAULT_LANGUAGE)
        session.add(player)
        return player
    known.name = row.name
    known.language = row.language or known.language
    known.postal_address = row.postal_address or known.postal_address
    known.rating = row.rating if row.rating is not None else known.rating
    known.club = row.club or known.club
    return known


def _enter(
    session: Session, tournament: Tournament, row: PlayerRow, start_number: int
) -> Participant:
    known = None
    if row.email:
        # The same person across tournaments keeps one Player row, found by e-mail.
        known = session.scalar(select(Player).where(func.lower(Player.email) == row.email.lower()))
    player = _player_of(session, row, known)
    session.flush()
    participant = Participant(
        tournament_id=tournament.id,
        player_id=player.id,
        start_number=start_number,
        rating=row.rating,
        channel=row.channel,
    )
    session.add(participant)
    session.flush()
    return participant


def _enter_chunk(
    session: Session, tournament: Tournament, rows: Sequence[PlayerRow], first: int
) -> list[Participant]:
    """:func:`_enter` for many rows at once (the file has no e-mail twice)."""
    emails = [row.email.lower() for row in rows if row.email]
    known = {
        (player.email or "").lower(): player
        for player in session.scalars(select(Player).where(func.lower(Player.email).in_(emails)))
    } if emails else {}
    players = []
    for row in rows:
        players.append(_player_of(session, row, known.get(row.email.lower()) if row.email else None))
    session.flush()
    participants = [
        Participant(tournament_id=tournament.id, player_id=player.id, start_number=first + index,
                    rating=row.rating, channel=row.channel)
        for index, (player, row) in enumerate(zip(players, rows, strict=True))
    ]
    session.add_all(participants)
    session.flush()
    return participants


def _next_start_number(session: Session, tournament: Tournament) -> int:
    last = session.scalar(
        select(func.max(Participant.start_number)).where(Participant.tournament_id == tournament.id)
    )
    return (last or 0) + 1


def _banned(bans: Sequence[Ban], line: int, row: PlayerRow) -> list[RowError]:
    """002 §4.1.14: a player the organizer banned may not enter a tournament starting before
    his ban ends."""
    ban = ban_barring(bans, name=row.name, email=row.email)
    if ban is None:
        return []
    return [RowError(line, "email" if row.email else "name", _(
        "%(rule)s: %(name)s is banned from the federation's tournaments until %(until)s "
        "(case %(case)s); a tournament starting before then cannot enter him",
        rule=BAN_RULE, name=row.name, until=ban.until.strftime("%d.%m.%Y"), case=ban.case_id,
    ))]


def refuse_entries_after_draw(session: Session, tournament: Tournament) -> None:
    """A round robin's field is fixed at its draw (docs/rules/entries.md): every player's start
    sheet already lists all his partners (002 §4.3.2) and results are weighed against the games
    drawn (000 §3.14.3); a player entered after it would have no games in the Berger table. A
    Swiss is drawn round by round from the field as it stands (000 §3.18.1): it takes entries."""
    if tournament.system not in ROUND_ROBIN_SYSTEMS:
        return
    drawn = session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    )
    if drawn:
        raise RegistrationError([RowError(0, None, _(
            "the round robin is already drawn from the Berger table (%(games)s games): its field "
            "is fixed at the draw, and a player entered now would have no games in it (%(rule)s)",
            games=drawn, rule=FIELD_FIXED_RULE))])


def add_participant(
    session: Session, tournament: Tournament, row: PlayerRow, user: User | None
) -> Participant:
    refuse_entries_after_draw(session, tournament)
    errors = check_row(row, tournament.channel)
    if row.email and row.email.lower() in _entered_emails(session, tournament):
        errors.append(RowError(0, "email", _("%(email)s is already entered", email=row.email)))
    errors.extend(_banned(bans_in_force(session, tournament.start_date), 0, row))
    if errors:
        raise RegistrationError(errors)
    participant = _enter(session, tournament, row, _next_start_number(session, tournament))
    record(
        session, user=user, action="participant.add", entity="participant", entity_id=participant.id,
        tournament_id=tournament.id, summary=f"#{participant.start_number} {row.name}",
    )  # fmt: skip
    return participant


#: The details :func:`update_participant` corrects, by the form's field names.
DETAILS = ("name", "email", "postal_address", "club", "rating", "channel", "language")


def _drawn_games(session: Session, tournament: Tournament) -> int:
    return session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    ) or 0


def participant_update_errors(session: Session, tournament: Tournament,
                              participant: Participant, row: PlayerRow) -> list[RowError]:
    """Every reason :func:`update_participant` refuses ``row``, at once."""
    player = participant.player
    errors = check_row(row, tournament.channel)
    if row.email and row.email.lower() != (player.email or "").lower():
        other = session.scalar(select(Player).where(func.lower(Player.email) == row.email.lower(),
                                                    Player.id != player.id))
        if other is not None:
            entered = session.scalar(select(Participant.id).where(
                Participant.tournament_id == tournament.id, Participant.player_id == other.id))
            errors.append(RowError(0, "email", _("%(email)s is already entered", email=row.email)
                                   if entered is not None else _(
                "%(email)s is the address of another player, %(name)s: one address is one "
                "person across the service's tournaments", email=row.email, name=other.name)))
    if row.language is not None and row.language not in LANGUAGES:
        errors.append(RowError(0, "language", _(
            "Letters are written in Russian (ru) or English (en), not «%(value)s».",
            value=row.language)))
    errors.extend(_banned(bans_in_force(session, tournament.start_date), 0, row))
    return errors


def update_participant(
    session: Session, tournament: Tournament, participant: Participant, row: PlayerRow,
    user: User | None,
) -> dict[str, tuple[object, object]]:
    """Correct an entered player's details (``DETAILS``), before the draw or after it: his
    name, e-mail, postal address and club are the person's (`Player`, one row across
    tournaments, found by his e-mail, as is the language of his letters), his rating and
    channel this entry's. Refused whole, with
    every problem at once, when the entry could not have been made so (``check_row``: the
    addresses the tournament's and his own channel need, 002 §4.1.1, §4.3.2), when the e-mail
    is another entrant's or another player's, or the corrected player is banned (002 §4.1.14).
    Returns what changed, ``{field: (before, after)}``, recorded in the audit log; nothing
    when nothing did."""
    errors = participant_update_errors(session, tournament, participant, row)
    if errors:
        raise RegistrationError(errors)
    player = participant.player
    before: dict[str, object] = {"name": player.name, "email": player.email, "postal_address": player.postal_address,
              "club": player.club, "rating": participant.rating, "channel": participant.channel,
              "language": player.language}
    language = row.language or player.language
    player.name, player.email = row.name, row.email
    player.postal_address, player.club = row.postal_address, row.club
    participant.rating, participant.channel = row.rating, row.channel
    player.language = language
    after: dict[str, object] = {"name": row.name, "email": row.email, "postal_address": row.postal_address,
             "club": row.club, "rating": row.rating, "channel": row.channel, "language": language}
    changes: dict[str, tuple[object, object]] = {
        name: (before[name], after[name]) for name in DETAILS if before[name] != after[name]}
    if changes:
        drawn = _drawn_games(session, tournament)
        record(
            session, user=user, action="participant.update", entity="participant",
            entity_id=participant.id, tournament_id=tournament.id,
            summary=f"#{participant.start_number} {row.name}: {', '.join(changes)}"
                    + (" (after the draw)" if drawn else ""),
            detail={"changes": {name: [None if v is None else str(v) for v in values]
                                for name, values in changes.items()},
                    "after_draw": bool(drawn)},
        )  # fmt: skip
    session.flush()
    return changes


#: Rows entered per database round trip: a large list holds the write lock for seconds, not
#: minutes (one SELECT and two INSERT batches per chunk instead of three statements per row).
IMPORT_CHUNK = 250


def import_participants(
    session: Session, tournament: Tournament, parsed: PlayerImport, user: User | None,
    *, progress: Callable[[int, int], None] | None = None,
) -> list[Participant]:
    """Enter every row, or none: any error in the file or against the entries refuses it all.

    Rows go in by chunks of :data:`IMPORT_CHUNK`, in the caller's one transaction (all or
    none); ``progress(done, total)`` is called after each chunk."""
    refuse_entries_after_draw(session, tournament)
    errors = list(parsed.errors)
    entered = _entered_emails(session, tournament)
    bans = bans_in_force(session, tournament.start_date)
    for line, row in parsed.rows:
        if row.email and row.email.lower() in entered:
            errors.append(
                RowError(line, "email", _("%(email)s is already entered", email=row.email))
            )
        errors.extend(_banned(bans, line, row))
    if errors:
        errors.sort(key=lambda error: error.line)
        raise RegistrationError([parsed.headed(error) for error in errors])
    first = _next_start_number(session, tournament)
    rows = [row for _line, row in parsed.rows]
    participants: list[Participant] = []
    for start in range(0, len(rows), IMPORT_CHUNK):
        participants += _enter_chunk(session, tournament, rows[start:start + IMPORT_CHUNK],
                                     first + start)
        if progress is not None:
            progress(len(participants), len(rows))
    record(
        session, user=user, action="participant.import", entity="tournament", entity_id=tournament.id,
        tournament_id=tournament.id, summary=f"{len(participants)} players ({parsed.encoding})",
    )  # fmt: skip
    return participants
