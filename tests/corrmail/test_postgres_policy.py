"""An unreachable PostgreSQL fails the PostgreSQL variants in CI and is skipped loudly elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from corrmail.paths import CHECKOUT_DIR

A_DATABASE_TEST = "tests/corrmail/test_schema.py::test_readiness_sees_the_migrated_schema"


def _run_without_postgres(ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER")}
    env["CORRMAIL_TEST_POSTGRES_URL"] = "postgresql+psycopg://postgres@127.0.0.1:1/test"
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "-rfs", A_DATABASE_TEST],
        cwd=CHECKOUT_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_ci_fails_when_postgres_is_unreachable() -> None:
    result = _run_without_postgres(ci=True)
    assert result.returncode == 1, result.stdout
    assert "CI must test PostgreSQL" in result.stdout
    assert "1 passed, 1 error" in result.stdout  # SQLite still ran; the fixture failed


@pytest.mark.slow
def test_outside_ci_the_skip_is_loud() -> None:
    result = _run_without_postgres(ci=False)
    assert result.returncode == 0, result.stdout
    assert "!!! POSTGRESQL VARIANT SKIPPED !!!" in result.stdout
    assert "1 passed, 1 skipped" in result.stdout
