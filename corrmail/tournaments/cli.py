"""The service's commands of ``corrmail``: ``tournament create|import-players|pair``,
``letter add`` (postal entry), ``letter forwarded`` (the steward posted an e-mail move on) and
``sweep`` (the daily job). ``--today`` (or ``CORRMAIL_TODAY``)
replays any day of a tournament's life."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path
from typing import Any

import click

from corrmail.commands import (
    DATE,
    command_transaction,
    day_by_option,
    letter_writer,
    today_option,
    tournament_by_code,
    user_by_option,
)
from corrmail.games import FORWARDING_CHANNELS, ForwardingRefused, LedgerError, record_forwarding
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Channel,
    Game,
    GameType,
    Role,
    TournamentChannel,
    TournamentSystem,
)
from corrmail.people.accounts import (
    AccountRefused,
    CreatedAccount,
    invite_players,
)
from corrmail.play.phone import telephone_entry
from corrmail.play.postcards import (
    Declaration,
    PostcardCheck,
    PostcardEntry,
    PostcardRejected,
    check_postcard,
    enter_postcard,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.sweep import sweep
from corrmail.tournaments.officials import served_ids
from corrmail.tournaments.player_import import read_player_csv
from corrmail.tournaments.registration import (
    RegistrationError,
    TournamentSpec,
    create_tournament,
    import_participants,
)
from corrmail.tournaments.start_sheets import PairingRefused, pair_round_robin

__all__ = ["register", "spec_from_json"]

TODAY_HELP = "The date to act on (default: CORRMAIL_TODAY, else the tournament's date)."


def register(group: click.Group) -> None:
    group.add_command(tournament)
    group.add_command(letter)
    group.add_command(sweep_command)


# -- tournament ------------------------------------------------------------------------------


@click.group()
def tournament() -> None:
    """Tournaments: create from a JSON file, import players, pair a round robin."""


_ENUMS: dict[str, type[Any]] = {"game_type": GameType, "system": TournamentSystem,
                                "channel": TournamentChannel}


def spec_from_json(data: object) -> TournamentSpec:
    """A :class:`TournamentSpec` from the JSON of ``tournament create --file``: the spec's
    field names as keys, ISO dates, enum values as stored (``"round_robin_double"``)."""
    if not isinstance(data, dict):
        raise ValueError("the file must hold one JSON object")
    known = {f.name for f in dataclasses.fields(TournamentSpec)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown key(s): {', '.join(unknown)}")
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in data.items():
        try:
            if key in _ENUMS:
                values[key] = _ENUMS[key](value)
            elif key in ("start_date", "end_date"):
                values[key] = dt.date.fromisoformat(value)
            elif key == "tiebreak_order":
                values[key] = tuple(value)
            else:
                values[key] = value
        except (ValueError, TypeError) as error:
            problems.append(f"{key}: {error}")
    missing = sorted(f.name for f in dataclasses.fields(TournamentSpec)
                     if f.default is dataclasses.MISSING and f.name not in values)
    problems += [f"{name}: required" for name in missing]
    if problems:
        raise ValueError("; ".join(problems))
    return TournamentSpec(**values)


@tournament.command("create")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help="T.json: the regulations (TournamentSpec fields).")
@click.option("--by", "login", default=None, help="The organizer's login, for the audit log.")
def tournament_create(path: Path, login: str | None) -> None:
    """Create a tournament from its regulations in a JSON file; nothing is stored on error."""
    try:
        spec = spec_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, json.JSONDecodeError) as error:
        raise click.ClickException(f"{path}: {error}") from error
    with command_transaction() as (_settings, session):
        try:
            created = create_tournament(session, spec, user_by_option(session, login))
        except RegistrationError as error:
            raise click.ClickException(
                "; ".join(f"{getattr(e, 'field', '')}: {e.message}" for e in error.errors)
            ) from error
        click.echo(f"tournament {created.code} created")


@tournament.command("import-players")
@click.argument("code")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--by", "login", default=None, help="Who imports, for the audit log.")
@click.option("--invite", is_flag=True,
              help="Give every imported player with an e-mail and no account yet a login and "
                   "mail him a one-time set-password link, as the web's import does.")
def tournament_import_players(code: str, path: Path, login: str | None, invite: bool) -> None:
    """Import players from a CSV file (UTF-8 or Windows-1251): all rows, or none."""
    with command_transaction() as (settings, session):
        found = tournament_by_code(session, code)
        parsed = read_player_csv(path.read_bytes(), found.channel)
        by = user_by_option(session, login)
        try:
            entered = import_participants(
                session, found, parsed, by,
                progress=lambda done, total: click.echo(f"{code}: {done}/{total} players", err=True),
            )
        except RegistrationError as error:
            lines = [str(e) for e in error.errors]
            raise click.ClickException("nothing imported:\n" + "\n".join(lines)) from error
        invited: list[CreatedAccount] = []
        if invite:
            writer = letter_writer(settings)
            try:
                invited = invite_players(session, [p.player for p in entered], by=by,
                                         writer=writer, base_url=settings.base_url,
                                         secret_key=settings.secret_key)
            except AccountRefused as error:
                raise click.ClickException(f"nothing imported: {error}") from error
        click.echo(f"{code}: {len(entered)} player(s) imported ({parsed.encoding})")
        if invite:
            click.echo(f"{code}: {len(invited)} invitation(s) queued")
            if invited and writer.settings.captured:
                # No mail server sends the letters: the operator hands the links over himself.
                click.echo("no mail server (CORRMAIL_SMTP_HOST unset): the invitations are kept "
                           "unsent; give each player his one-time set-password link yourself:")
                for account in invited:
                    assert account.invitation is not None
                    click.echo(f"{account.user.display_name} <{account.user.email}>: "
                               f"{account.invitation.link}")


@tournament.command("pair")
@click.argument("code")
@click.option("--by", "login", default=None, help="Who pairs, for the audit log.")
def tournament_pair(code: str, login: str | None) -> None:
    """Create every game of a round robin from the Berger table."""
    with command_transaction() as (_settings, session):
        try:
            games = pair_round_robin(session, tournament_by_code(session, code), user_by_option(session, login))
        except PairingRefused as error:
            raise click.ClickException(str(error)) from error
        click.echo(f"{code}: {len(games)} game(s) paired")


# -- letter ----------------------------------------------------------------------------------


@click.group()
def letter() -> None:
    """Letters of a game's ledger."""


@letter.command("add")
@click.argument("game_id", type=int)
@click.option("--from", "sender", type=click.Choice(["white", "black"]), required=True)
@click.option("--moves", default="", help="Moves as written: '7. c3-d4 f6-g5 8. g3-h4'.")
@click.option("--variants", default="", help="Conditional variants as written (002 §4.2.7).")
@click.option("--partner-sent", default="", help="First date: the postmark on the letter answered.")
@click.option("--received", default="", help="Second date: when it arrived.")
@click.option("--sent", default="", help="Third date: this card's dispatch.")
@click.option("--postmark", default="", help="The postmark on this card.")
@click.option("--registered", is_flag=True, help="Sent by registered mail.")
@click.option("--time", "declared", default=None, help="Time declared, white/black: '12/9'.")
@click.option("--declares", type=click.Choice([d.value for d in Declaration]), default="none")
@click.option("--text", "raw_text", default="", help="The text of the card.")
@click.option("--corrects", type=int, default=None, help="The letter id this card replaces.")
@click.option("--entry-error", is_flag=True,
              help="With --corrects: the letter replaced was this same card entered wrongly; "
                   "what the wrong entry caused (a penalty) is undone. Without it the card is the "
                   "sender's new card replacing a faulty move (002 §4.2.10).")
@click.option("--channel", type=click.Choice(["post", "phone"]), default="post", show_default=True,
              help="phone: a move given by telephone; the call's date is --sent and --postmark.")
@click.option("--check", "check_only", is_flag=True, help="Only show the verdict; store nothing.")
@today_option(TODAY_HELP)
@click.option("--by", "login", default=None, help="The steward's login, for the audit log.")
def letter_add(game_id: int, sender: str, moves: str, variants: str, partner_sent: str,
               received: str, sent: str, postmark: str, registered: bool, declared: str | None,
               declares: str, raw_text: str, corrects: int | None, entry_error: bool,
               channel: str, check_only: bool,
               day: dt.datetime | None, login: str | None) -> None:
    """Postal entry: judge a received postcard and add it to GAME_ID's ledger.

    Exits 1, storing nothing, when the card cannot be entered."""
    white_days, black_days = _declared(declared)
    with command_transaction() as (settings, session):
        game = session.get(Game, game_id)
        if game is None:
            raise click.ClickException(f"no game {game_id}")
        entry = PostcardEntry(
            sender_id=game.white_id if sender == "white" else game.black_id,
            moves_text=moves, variants_text=variants, partner_sent=partner_sent,
            received=received, sent=sent, postmark=postmark, registered=registered,
            declared_white_days=white_days, declared_black_days=black_days, raw_text=raw_text,
            declaration=Declaration(declares), corrects_letter_id=corrects,
            entry_error=entry_error,
        )
        if entry_error and corrects is None:
            raise click.UsageError("--entry-error names the letter it re-enters: give --corrects")
        if channel == "phone":
            entry = telephone_entry(entry)
        on = day_by_option(settings, game.tournament, day)
        if check_only:
            checked = check_postcard(game, entry, today=on)
            _echo_check(checked)
            if not checked.accepted:
                raise click.ClickException("postcard would not be entered")
            return
        try:
            check, stored = enter_postcard(session, game, entry, user_by_option(session, login),
                                           today=on, writer=letter_writer(settings))
        except PostcardRejected as error:
            _echo_check(PostcardCheck(entry, errors=list(error.errors)))
            raise click.ClickException("postcard not entered; nothing stored") from error
        except LedgerError as error:
            raise click.ClickException(str(error)) from error
        _echo_check(check)
        click.echo(f"game {game_id}: letter {stored.sequence} entered")


@letter.command("forwarded")
@click.argument("game_id", type=int)
@click.option("--on", "day_forwarded", type=DATE, required=True,
              help="The day posted (its postmark) or telephoned, YYYY-MM-DD.")
@click.option("--channel", type=click.Choice([c.value for c in FORWARDING_CHANNELS]),
              default="post", show_default=True, help="How the move was passed on.")
@click.option("--letter", "letter_id", type=int, default=None,
              help="The letter forwarded (default: the move waiting for the steward).")
@today_option(TODAY_HELP)
@click.option("--by", "login", required=True,
              help="Who forwarded it: a steward or referee of the tournament, or an organizer.")
def letter_forwarded(game_id: int, day_forwarded: dt.datetime, channel: str,
                     letter_id: int | None, day: dt.datetime | None, login: str) -> None:
    """Record that the steward posted (or telephoned) GAME_ID's e-mail or web move to the
    partner who plays by post or telephone (002 §4.1.1); run again to correct the day.

    Exits 1, storing nothing, when the rules refuse it."""
    with command_transaction() as (settings, session):
        game = session.get(Game, game_id)
        if game is None:
            raise click.ClickException(f"no game {game_id}")
        user = user_by_option(session, login)
        assert user is not None
        if not user.has_role(Role.ORGANIZER) and game.tournament_id not in served_ids(session,
                                                                                     user):
            raise click.BadParameter(f"{login} serves no office in {game.tournament.code}",
                                     param_hint="--by")
        try:
            row = record_forwarding(
                session, game, letter_id=letter_id, on=day_forwarded.date(),
                channel=Channel(channel),
                today=day_by_option(settings, game.tournament, day), user=user)
        except ForwardingRefused as error:
            session.rollback()
            raise click.ClickException(f"{error.rule}: {error.message}; nothing stored") from error
        click.echo(f"game {game_id}: letter {row.letter.sequence} forwarded by {channel} on "
                   f"{row.forwarded_on:%d.%m.%Y} (002 §4.1.1)")


def _declared(text: str | None) -> tuple[int | None, int | None]:
    if text is None:
        return None, None
    try:
        white, black = (int(part) for part in text.split("/"))
    except ValueError as error:
        raise click.BadParameter("write white/black days, e.g. 12/9", param_hint="--time") from error
    return white, black


def _echo_check(check: PostcardCheck) -> None:
    """The card as it will be stored: what it repeats, its moves in full notation, the three
    dates, think time before and with it, every finding with its rule, penalties, a stop."""
    for error in check.errors:
        click.echo(f"error {error.rule}: {error.problem}", err=True)
    if check.repeats:
        click.echo(f"repeats (002 §4.2.9): {check.repeats}")
    if check.entry.moves_text.strip():
        click.echo(f"moves as written: {check.entry.moves_text.strip()}")
    if check.own_moves:
        click.echo(f"moves that stand: {check.own_moves}")

    def day(value: dt.date | None) -> str:
        return f"{value:%d.%m.%Y}" if value is not None else "-"

    click.echo(f"dates (002 §4.3.1): {day(check.partner_sent)} / {day(check.received)} / "
               f"{day(check.sent)}" + (f"; postmark {day(check.postmark)}" if check.postmark else ""))
    if check.time_before is not None and check.time_after is not None:
        click.echo(f"think time white/black: before {check.time_before.white}/"
                   f"{check.time_before.black}, with the card {check.time_after.white}/"
                   f"{check.time_after.black}")
    for finding in check.findings:
        click.echo(f"{finding.rule}: {finding.problem} -> {finding.consequence}")
    if check.stops_play:
        click.echo(f"play stops: {check.penalty_days} penalty days to the sender (002 §4.2.11); "
                   f"notice by {day(check.notice_due)} (002 §4.2.9)")
    elif check.accepted:
        click.echo("penalty days: none")
    if check.result is not None:
        click.echo(f"result: {check.result}")


# -- sweep -----------------------------------------------------------------------------------


@click.command("sweep")
@today_option(TODAY_HELP)
def sweep_command(day: dt.datetime | None) -> None:
    """The daily job: clocks, oversteps, repeats (002 §4.3.4), adjudication at the end date
    (002 §4.5.2). Idempotent: safe to run twice."""
    with command_transaction() as (settings, session):
        mail = MailSettings.from_env(secret_fallback=settings.secret_key)
        report = sweep(session, case_writer=case_letter_writer(mail),
                       mail_writer=LetterWriter(mail),
                       today=day.date() if day is not None else settings.today)
        for line in report.lines():
            click.echo(line)
