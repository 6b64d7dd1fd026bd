"""The `corrmail` command: `db upgrade`, `demo`, `serve`."""

from __future__ import annotations

import dataclasses
import logging
import threading

import click

from corrmail.bulletins.cli import register as register_bulletin_commands
from corrmail.commands import command_settings, command_transaction
from corrmail.demo.tournament import DEMO_CODE, demo_logins, load_demo
from corrmail.games.cli import register as register_game_commands
from corrmail.games.pdn_import_cli import register as register_game_import_commands
from corrmail.mail.cli import register as register_mail_commands
from corrmail.mail.service import MailerThread
from corrmail.mail.settings import MailSettings
from corrmail.migrate import alembic_config, head_revision, is_up_to_date, upgrade
from corrmail.ops.cli import register as register_ops_commands
from corrmail.ops.logging import configure_logging
from corrmail.people.api_cli import register as register_api_commands
from corrmail.referee.cli import register as register_case_commands
from corrmail.rounds.cli import register as register_round_commands
from corrmail.standings.cli import register as register_standings_commands
from corrmail.tournaments.cli import register as register_service_commands
from corrmail.tournaments.life_cli import register as register_life_commands


@click.group()
def main() -> None:
    """corrmail: correspondence draughts tournaments by post and e-mail."""
    configure_logging()


@main.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True)
def db_upgrade(revision: str) -> None:
    """Apply migrations up to REVISION (CORRMAIL_DATABASE_URL, default var/corrmail.sqlite)."""
    settings = command_settings()
    upgrade(settings.database_url, revision)
    click.echo(f"database at {revision}: {_safe_url(settings.database_url)}")


@db.command("revision")
@click.option("-m", "--message", required=True, help="Why the schema changes.")
def db_revision(message: str) -> None:
    """Autogenerate a migration from the models' difference to the (up-to-date) database."""
    from alembic import command

    command.revision(alembic_config(command_settings().database_url), message, autogenerate=True)


@db.command("current")
def db_current() -> None:
    """Print the database's revision and whether it is the newest."""
    url = command_settings().database_url
    state = "up to date" if is_up_to_date(url) else f"behind {head_revision()}"
    click.echo(f"{_safe_url(url)}: {state}")


@main.command()
def demo() -> None:
    """Load the demo tournament (once; running it again changes nothing) and print its logins."""
    with command_transaction() as (settings, session):
        load_demo(session, MailSettings.from_env(secret_fallback=settings.secret_key))
    click.echo(f"Demo tournament {DEMO_CODE} is loaded. Logins (password for all shown):")
    for login, password, what in demo_logins():
        click.echo(f"  {login:<10} {password}   {what}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--with-mailer", is_flag=True, help="Run the mailer loop in the same process.")
@click.option("--gunicorn", "use_gunicorn", is_flag=True,
              help="Production: gunicorn, CORRMAIL_WEB_WORKERS processes (docs/operations.md).")
def serve(host: str, port: int, with_mailer: bool, use_gunicorn: bool) -> None:
    """Serve the web app with the development server (or gunicorn)."""
    from corrmail.app import create_app

    if use_gunicorn:
        if with_mailer:
            raise click.UsageError("run mailers as their own processes next to gunicorn")
        from corrmail.config import SettingsError
        from corrmail.ops.web import serve as serve_with_gunicorn

        try:
            return serve_with_gunicorn(host, port)
        except SettingsError as error:
            raise click.ClickException(f"not starting: {error}") from error

    settings = command_settings()
    if settings.base_url is None:  # links in letters point to this server, not to a Host header
        shown = "localhost" if host in ("0.0.0.0", "::", "") else host
        settings = dataclasses.replace(settings, base_url=f"http://{shown}:{port}")
    app = create_app(settings)
    # /readyz asks Alembic for the revision on every probe; its INFO lines would drown the log.
    logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)
    stop = threading.Event()
    if with_mailer:
        loop = MailerThread.from_settings(settings)
        threading.Thread(target=loop.run, args=(stop,), name="mailer", daemon=True).start()
    click.echo(f"corrmail on http://{host}:{port}/  (demo logins: `corrmail demo`)")
    try:
        app.run(host=host, port=port, debug=False, use_reloader=False, threaded=True)
    finally:
        stop.set()


register_mail_commands(main)
register_case_commands(main)
register_service_commands(main)
register_bulletin_commands(main)
register_ops_commands(main)
register_standings_commands(main)
register_api_commands(main)
register_round_commands(main)
register_life_commands(main)
register_game_import_commands(main)
register_game_commands(main)


def _safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
