"""Settings from the environment."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from corrmail.config import Settings, SettingsError
from corrmail.paths import var_dir


def test_defaults_use_sqlite_under_var() -> None:
    settings = Settings.from_env({"CORRMAIL_SECRET_KEY": "k"})
    assert settings.database_url == f"sqlite:///{var_dir() / 'corrmail.sqlite'}"
    assert settings.default_locale == "ru"
    assert settings.smtp_host is None and settings.today is None


def test_environment_overrides() -> None:
    settings = Settings.from_env(
        {
            "CORRMAIL_DATABASE_URL": "postgresql+psycopg://u@h/db",
            "CORRMAIL_SECRET_KEY": "k",
            "CORRMAIL_SMTP_HOST": " smtp.example.org ",
            "CORRMAIL_TODAY": "2027-03-08",
            "CORRMAIL_LOCALE": "en",
        }
    )
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert settings.smtp_host == "smtp.example.org"
    assert settings.today == dt.date(2027, 3, 8)
    assert settings.default_locale == "en"


def test_bad_today_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="CORRMAIL_TODAY='08.03.2027': expected an ISO date"):
        Settings.from_env({"CORRMAIL_SECRET_KEY": "k", "CORRMAIL_TODAY": "08.03.2027"})


def test_development_secret_key_persists(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("corrmail.config.var_dir", lambda: tmp_path / "var")
    first = Settings.from_env({}).secret_key
    assert first == Settings.from_env({}).secret_key
    assert len(first) > 30
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0


def test_unknown_locale_is_refused(tmp_path: Path) -> None:
    from corrmail.app import create_app

    with pytest.raises(ValueError, match="CORRMAIL_LOCALE='de'"):
        create_app(Settings(database_url="sqlite://", secret_key="k", default_locale="de"))


def test_today_is_the_override_or_the_date_in_the_time_zone() -> None:
    import time_machine

    from corrmail.clock import today

    assert today(dt.date(2027, 3, 8), "Europe/Moscow") == dt.date(2027, 3, 8)
    # 22:30 UTC on 31 December is already 1 January in Moscow (calendar days are local).
    with time_machine.travel(dt.datetime(2026, 12, 31, 22, 30, tzinfo=dt.UTC), tick=False):
        assert today(None, "Europe/Moscow") == dt.date(2027, 1, 1)
        assert today(None, "UTC") == dt.date(2026, 12, 31)
