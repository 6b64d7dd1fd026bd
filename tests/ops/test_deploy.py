"""deploy/: every unit and Procfile line runs a corrmail command that exists with those options."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import click
import pytest

from corrmail.cli import main

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNITS = sorted((DEPLOY / "systemd").glob("corrmail*"))


def _unit(path: Path) -> configparser.RawConfigParser:
    # systemd allows repeated keys (several ExecStart= in a oneshot): keep them all, one a line.
    parser = configparser.RawConfigParser(strict=False, dict_type=_MultiDict, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser


class _MultiDict(dict[str, object]):
    def __setitem__(self, key: str, value: object) -> None:
        if isinstance(value, list) and key in self and isinstance(self[key], list):
            self[key].extend(value)  # type: ignore[union-attr]
        else:
            super().__setitem__(key, value)


def _corrmail_argv(command: str) -> list[str] | None:
    """The arguments after `corrmail` in a command line, or None when it runs no corrmail."""
    words = shlex.split(command.replace("%%", "%"))
    if words[:2] == ["/bin/sh", "-c"]:
        words = shlex.split(words[2].replace('"$(date -u +%Y%m%dT%H%M%SZ)"', "DIR"))
    for index, word in enumerate(words):
        if word == "corrmail" or word.endswith("/bin/corrmail"):
            return [w.replace("${PORT:-5000}", "5000").replace("${CORRMAIL_RECEIVE_PORT:-2525}", "2525").rstrip(";")
                    for w in words[index + 1:] if w not in ("exec",)]
    return None


def _parse(argv: list[str]) -> None:
    """Parse ``corrmail ARGV`` down to the leaf command without running anything."""
    command: click.Command = main
    context = command.make_context("corrmail", [], resilient_parsing=True)
    rest = list(argv)
    while isinstance(command, click.Group):
        name = rest.pop(0)
        sub = command.get_command(context, name)
        assert sub is not None, f"corrmail has no command {name!r} ({argv})"
        command = sub
        if isinstance(command, click.Group):
            context = command.make_context(name, [], parent=context, resilient_parsing=True)
    leaf_args = [a.replace("/var/backups/corrmail/DIR", "/tmp/backup") for a in rest]
    command.make_context(command.name or "", leaf_args, parent=context)


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_every_unit_runs_an_existing_corrmail_command(path: Path) -> None:
    unit = _unit(path)
    assert unit.has_section("Unit")
    if path.suffix == ".service":
        service = unit["Service"]
        assert service.get("User") == "corrmail", "services never run as root"
        assert service.get("EnvironmentFile") == "/etc/corrmail/corrmail.env"
        for command in service["ExecStart"].splitlines():
            argv = _corrmail_argv(command)
            assert argv is not None, command
            _parse(argv)
    if path.suffix == ".timer":
        assert (DEPLOY / "systemd" / path.name.replace(".timer", ".service")).is_file()
        assert unit.has_section("Timer")


def test_long_running_services_restart_and_wait_for_migrations() -> None:
    for name in ("corrmail-web.service", "corrmail-mailer@.service", "corrmail-receive.service"):
        unit = _unit(DEPLOY / "systemd" / name)
        assert unit["Service"]["Restart"] in ("always", "on-failure")
        assert "corrmail-migrate.service" in unit["Unit"]["Requires"]


def test_the_target_starts_the_web_mailers_listener_and_timers() -> None:
    for name in _unit(DEPLOY / "systemd" / "corrmail.target")["Unit"]["Wants"].split():
        template = name.split("@")[0] + "@.service" if "@" in name else name
        assert (DEPLOY / "systemd" / template).is_file(), name


def test_every_procfile_line_runs_an_existing_corrmail_command() -> None:
    lines = [line for line in (DEPLOY / "Procfile").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    names = [line.split(":", 1)[0] for line in lines]
    assert {"web", "mailer1", "mailer2", "receive", "calendar"} <= set(names)
    for line in lines:
        command = line.split(":", 1)[1]
        if command.strip().startswith("while"):
            command = command.split("do", 1)[1].split(";", 1)[0]
        argv = _corrmail_argv(command)
        assert argv is not None, line
        _parse(argv)


def test_local_stack_script_is_executable() -> None:
    script = DEPLOY / "local-stack"
    assert script.stat().st_mode & 0o111
    assert "deploy/Procfile" in script.read_text()


def _install_paths() -> tuple[str, str]:
    """The venv's corrmail and the environment file, as docs/operations.md installs them."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    assert "cd /srv/corrmail && python3 -m venv .venv && .venv/bin/pip install ." in text
    assert "install -m 0640 -g corrmail deploy/corrmail.env.example /etc/corrmail/corrmail.env" in text
    return "/srv/corrmail/.venv/bin/corrmail", "/etc/corrmail/corrmail.env"


def _leaf(argv: list[str]) -> click.Command:
    command: click.Command = main
    context = command.make_context("corrmail", [], resilient_parsing=True)
    rest = list(argv)
    while isinstance(command, click.Group):
        sub = command.get_command(context, rest.pop(0))
        assert sub is not None, argv
        command = sub
    return command


def test_the_daily_sweep_unit_runs_corrmail_sweep_as_the_cli_defines_it() -> None:
    """corrmail-sweep.service runs the daily job itself (corrmail/sweep.py: clocks, oversteps,
    repeats 002 §4.3.4, adjudications 002 §4.5.2, game records 002 §4.5.1), not a few of the
    referee's commands that leave the clocks and the calendar's letters out; then the bulletins."""
    from corrmail.tournaments.cli import sweep_command

    executable, environment = _install_paths()
    service = _unit(DEPLOY / "systemd" / "corrmail-sweep.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["EnvironmentFile"] == environment
    lines = service["ExecStart"].splitlines()
    assert [shlex.split(line)[0] for line in lines] == [executable] * len(lines)
    commands = [_leaf(_corrmail_argv(line) or []) for line in lines]
    assert commands[0] is sweep_command, lines[0]
    assert [command.name for command in commands] == ["sweep", "bulletins-due"]
    _parse(_corrmail_argv(lines[0]) or [])
    timer = _unit(DEPLOY / "systemd" / "corrmail-sweep.timer")["Timer"]
    assert timer["OnCalendar"] == "*-*-* 00:30:00" and timer["Persistent"] == "true"


def test_a_command_the_cli_does_not_define_is_caught() -> None:
    """The check above would catch a unit naming a command corrmail lacks, or one that is not
    the sweep."""
    with pytest.raises(AssertionError, match="no command 'swep'"):
        _parse(["swep"])
    with pytest.raises(click.NoSuchOption):
        _parse(["sweep", "--day", "2026-03-01"])
    assert _leaf(["cases", "open-adjudications"]).name != "sweep"
