"""Structured logs: one JSON object a line, secrets never written."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from corrmail.config import SettingsError
from corrmail.ops.logging import MASK, JsonFormatter, SecretMask, configure_logging, secret_values
from corrmail.ops.web import WebSettings

ENV = {
    "CORRMAIL_SECRET_KEY": "session-key-0123456789",
    "CORRMAIL_MAIL_SECRET": "reply-token-secret-abcdef",
    "CORRMAIL_SMTP_PASSWORD": "relay-pass-xyz",
    "CORRMAIL_IMAP_PASSWORD": "imap-pass-qrs",
    "CORRMAIL_DATABASE_URL": "postgresql+psycopg://corrmail:db-pass-123@db.example/corrmail",
}


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    configure_logging(fmt="json", level="DEBUG", environ=ENV, stream=stream)
    try:
        yield stream
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])


def _lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_record_is_one_json_object_with_its_extra_fields(captured: io.StringIO) -> None:
    logging.getLogger("corrmail.test").info("sent %d letters", 3, extra={"worker": "m1", "batch": 7})
    (entry,) = _lines(captured)
    assert entry["message"] == "sent 3 letters"
    assert entry["level"] == "INFO" and entry["logger"] == "corrmail.test"
    assert entry["worker"] == "m1" and entry["batch"] == 7
    assert str(entry["ts"]).endswith("+00:00")


def test_no_configured_secret_reaches_the_log(captured: io.StringIO) -> None:
    log = logging.getLogger("corrmail.test")
    for value in secret_values(ENV):
        log.warning("config dump: %s", value)
    log.info("connecting to %s", ENV["CORRMAIL_DATABASE_URL"])
    log.info("login form: login=ivanov password=hunter2hunter2 next=/")
    log.info("Authorization: Bearer abcdefghijklmnop1234")
    try:
        raise RuntimeError(f"SMTP AUTH failed for user turnir with {ENV['CORRMAIL_SMTP_PASSWORD']}")
    except RuntimeError:
        log.exception("mailer pass failed")
    text = captured.getvalue()
    for secret in (*ENV.values(), "db-pass-123", "hunter2hunter2", "abcdefghijklmnop1234"):
        if secret.startswith("postgresql"):
            continue
        assert secret not in text, secret
    assert text.count(MASK) >= 8
    assert "login=ivanov" in text  # what is not secret stays readable


def test_masking_survives_lazy_arguments() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "token=%s for %s", ("s3cr3t-token", "game 4"), None)
    SecretMask(["s3cr3t-token"]).filter(record)
    assert JsonFormatter().format(record).count(MASK) == 1
    assert "s3cr3t" not in JsonFormatter().format(record)


def test_text_format_and_bad_format() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = list(root.handlers)
    try:
        configure_logging(fmt="text", environ={}, stream=stream)
        logging.getLogger("t").warning("plain")
        assert " t WARNING plain" in stream.getvalue()
        with pytest.raises(ValueError, match="CORRMAIL_LOG_FORMAT='xml'"):
            configure_logging(fmt="xml", environ={}, stream=stream)
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)


def test_gunicorn_workers_come_from_the_environment() -> None:
    web = WebSettings.from_env({"CORRMAIL_WEB_WORKERS": "6", "CORRMAIL_WEB_THREADS": "2"})
    assert (web.workers, web.threads) == (6, 2)
    assert 1 <= WebSettings.from_env({}).workers <= 8
    with pytest.raises(SettingsError, match="CORRMAIL_WEB_WORKERS='many'"):
        WebSettings.from_env({"CORRMAIL_WEB_WORKERS": "many"})
    with pytest.raises(SettingsError, match="at least 1"):
        WebSettings.from_env({"CORRMAIL_WEB_WORKERS": "0"})
