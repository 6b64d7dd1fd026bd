"""``corrmail round pair|publish``: the director's round commands (docs/rounds.md)."""

from __future__ import annotations

import datetime as dt
import json

import click

from corrmail.commands import (
    command_transaction,
    day_by_option,
    letter_writer,
    today_option,
    tournament_by_code,
    user_by_option,
)
from corrmail.models import PairedRound, TeamPairing, TournamentSystem
from corrmail.rounds.redraw import RedrawPlan, apply_redraw, plan_redraw
from corrmail.rounds.swiss import (
    RoundRefused,
    is_paired_by_rounds,
    pair_next_round,
    publish_round,
    round_rules,
)
from corrmail.rounds.teams import pair_team_round_robin

__all__ = ["register", "round_group"]



def register(group: click.Group) -> None:
    group.add_command(round_group)


def _absent(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError as error:
        raise click.BadParameter(f"start numbers separated by commas, not {text!r}",
                                 param_hint="--absent") from error


def draw_text(paired: PairedRound) -> str:
    """The draw as printed for the notice board: boards, bye, absentees, floats, notes."""
    draw = paired.draw
    lines = [f"Round {paired.number} ({paired.system}, seed {paired.seed})"
             + ("" if paired.published else " — preview, not published")]
    for board, pair in enumerate(draw["pairs"], start=1):
        lines.append(f"{board:>3}. {pair['white']} - {pair['black']}")
        lines += [f"       {game['white']} - {game['black']}" for game in pair.get("games", [])]
    if draw.get("bye") is not None:
        lines.append(f"bye (+): {draw['bye']}")
    if draw.get("absent"):
        lines.append(f"absent (0): {', '.join(map(str, draw['absent']))}")
    lines += [f"float: {f['player']} {f['direction']}{' (forced)' if f['forced'] else ''}"
              for f in draw.get("floats", [])]
    lines += [f"note: {note}" for note in draw.get("notes", [])]
    return "\n".join(lines)


@click.group("round")
def round_group() -> None:
    """Rounds of a Swiss or team Swiss: pair (preview), then publish; redraw a broken one."""


@round_group.command("pair")
@click.argument("code")
@click.option("--seed", type=int, default=None, help="The lot's seed (recorded; random if omitted).")
@click.option("--absent", default="", help="Start numbers known not to play this round: 3,17.")
@click.option("--by", "login", default=None, help="The director's login, for the audit log.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text")
def round_pair(code: str, seed: int | None, absent: str, login: str | None, output: str) -> None:
    """Pair the next round of CODE and keep it as a preview (a team round robin: every game)."""
    try:
        with command_transaction() as (_settings, session):
            tournament = tournament_by_code(session, code)
            user = user_by_option(session, login)
            if (tournament.system is TournamentSystem.TEAM
                    and not is_paired_by_rounds(session, tournament)
                    and round_rules(session, tournament).team_pairing is TeamPairing.ROUND_ROBIN):
                games = pair_team_round_robin(session, tournament, user)
                click.echo(f"{code}: {len(games)} board games paired (team round robin)")
                return
            paired = pair_next_round(session, tournament, user, seed=seed, absent=_absent(absent))
            click.echo(json.dumps(paired.draw, ensure_ascii=False, indent=2)
                       if output == "json" else draw_text(paired))
    except RoundRefused as error:
        raise click.ClickException(str(error)) from error


@round_group.command("publish")
@click.argument("code")
@today_option("The publication date (default: CORRMAIL_TODAY, else today).")
@click.option("--by", "login", default=None, help="The director's login, for the audit log.")
def round_publish(code: str, day: dt.datetime | None, login: str | None) -> None:
    """Publish the previewed round of CODE: games, bye and absences, round sheets, audit."""
    try:
        with command_transaction() as (settings, session):
            writer = letter_writer(settings)
            tournament = tournament_by_code(session, code)
            on = day_by_option(settings, tournament, day)
            published = publish_round(session, tournament, user_by_option(session, login),
                                      writer=writer, today=on)
            click.echo(
                f"{code}: round {published.round.number} published — {len(published.games)} "
                f"games, {len(published.unpaired)} without a game, {published.letters} letters "
                f"queued"
            )
    except RoundRefused as error:
        raise click.ClickException(str(error)) from error


def redraw_text(plan: RedrawPlan) -> str:
    """What a redraw changes, for the director to check before applying it."""
    lines = [f"Round {plan.round.number}: redraw (002, 004); {len(plan.kept)} game(s) stand"]
    lines += [f"cancel: {g.white.start_number} - {g.black.start_number} (game {g.id})"
              for g in plan.cancelled]
    lines += [f"pair:   {p.white} - {p.black}" for p in plan.added]
    if plan.bye_after != plan.bye_before:
        lines.append(f"bye (+): {plan.bye_before or '-'} -> {plan.bye_after or '-'}")
    lines += [f"note: {note}" for note in plan.after.notes]
    lines.append(f"fingerprint: {plan.fingerprint}")
    return "\n".join(lines)


@round_group.command("redraw")
@click.argument("code")
@click.argument("number", type=int)
@click.option("--apply", "fingerprint", default=None,
              help="Apply the plan with this fingerprint (shown when run without --apply).")
@today_option("The date of the redraw (default: CORRMAIL_TODAY, else today).")
@click.option("--by", "login", default=None, help="The director's login, for the audit log.")
def round_redraw(code: str, number: int, fingerprint: str | None, day: dt.datetime | None,
                 login: str | None) -> None:
    """Show, then apply, the redraw of published round NUMBER of CODE that breaks an absolute
    criterion: as few players touched as possible (002, 004)."""
    try:
        with command_transaction() as (settings, session):
            writer = letter_writer(settings)
            tournament = tournament_by_code(session, code)
            if fingerprint is None:
                click.echo(redraw_text(plan_redraw(session, tournament, number)))
                click.echo(f"apply with: corrmail round redraw {code} {number} --apply FINGERPRINT")
                return
            on = day_by_option(settings, tournament, day)
            done = apply_redraw(session, tournament, user_by_option(session, login), number,
                                fingerprint=fingerprint, writer=writer, today=on)
            click.echo(redraw_text(done.plan))
            click.echo(f"{code}: round {number} redrawn — {len(done.plan.cancelled)} cancelled, "
                       f"{len(done.plan.added)} paired, {done.letters} letters queued")
    except RoundRefused as error:
        raise click.ClickException(str(error)) from error
