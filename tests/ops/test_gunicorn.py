"""`corrmail serve --gunicorn`: workers from the environment, health and readiness, JSON access log."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_gunicorn_serves_health_and_logs_json(sqlite_template: Path, tmp_path: Path) -> None:
    database = tmp_path / "web.sqlite"
    shutil.copyfile(sqlite_template, database)
    port = _free_port()
    env = {
        **os.environ,
        "CORRMAIL_DATABASE_URL": f"sqlite:///{database}",
        "CORRMAIL_SECRET_KEY": "gunicorn-test-secret-key-0123456789",
        "CORRMAIL_BASE_URL": "https://turnir.example",
        "CORRMAIL_WEB_WORKERS": "2",
        "CORRMAIL_WEB_THREADS": "2",
        "CORRMAIL_LOG_FORMAT": "json",
    }
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "corrmail"), "serve", "--gunicorn",
             "--port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=stderr,
        )
        try:
            ready = None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            assert ready is not None and ready.status_code == 200, ready
            assert ready.json()["status"] == "ok"
            assert httpx.get(f"http://127.0.0.1:{port}/healthz").json() == {"status": "ok"}
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
    entries = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert any("2 workers" in str(e["message"]) for e in entries)
    booted = {e["process"] for e in entries if "Booting worker" in str(e["message"])}
    assert len(booted) == 2
    access = [e for e in entries if e["logger"] == "gunicorn.access"]
    assert {(e["path"], e["status"]) for e in access} >= {("/readyz", 200), ("/healthz", 200)}
    assert all(isinstance(e["duration_ms"], float) for e in access)
    assert "gunicorn-test-secret-key-0123456789" not in log.read_text()
