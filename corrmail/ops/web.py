"""``corrmail serve --gunicorn``: the web app behind gunicorn, configured from the environment.

``CORRMAIL_WEB_WORKERS`` worker processes (default ``2 × cores + 1``, at most 8), each with
``CORRMAIL_WEB_THREADS`` threads (default 1: gunicorn's ``sync`` worker; more: ``gthread``),
``CORRMAIL_WEB_TIMEOUT`` seconds before a stuck worker is replaced (default 30).

One thread per process because the pages are CPU-bound Python: threads of one process share
its interpreter lock, so four requests in one worker run on one core while another worker may
idle, and a ``gthread`` worker keeps each keep-alive connection (and so that client's next
requests) to itself. Sync workers take a request only when free, so the kernel hands each one
to an idle process. They need a buffering proxy in front for slow clients — nginx, as
deployed (docs/operations.md). On the 2-core benchmark host the load mix's p95 fell from 624
to 366 ms with 5 × 1 instead of 5 × 4 (docs/benchmarks/load.md, run 6). Every worker builds its own app — and so
its own database pool — after the fork, because connections must never be shared across processes.
Access and error lines go through :mod:`corrmail.ops.logging` (JSON, secrets masked).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger as GunicornLogger

from corrmail.config import whole_number

__all__ = ["WebSettings", "GunicornFront", "StructuredGunicornLogger", "serve",
           "worker_class"]

MAX_DEFAULT_WORKERS = 8


@dataclass(frozen=True, slots=True)
class WebSettings:
    workers: int
    threads: int = 1
    timeout: int = 30
    #: Requests a worker serves before it is replaced (bounds slow leaks); 0 = never.
    max_requests: int = 2000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebSettings:
        env = os.environ if environ is None else environ
        default_workers = min(2 * (os.cpu_count() or 1) + 1, MAX_DEFAULT_WORKERS)
        return cls(
            workers=whole_number(env, "CORRMAIL_WEB_WORKERS", default_workers),
            threads=whole_number(env, "CORRMAIL_WEB_THREADS", 1),
            timeout=whole_number(env, "CORRMAIL_WEB_TIMEOUT", 30),
            max_requests=whole_number(env, "CORRMAIL_WEB_MAX_REQUESTS", 2000, minimum=0),
        )


class StructuredGunicornLogger(GunicornLogger):
    """gunicorn's logger, but every line goes to the root logger (JSON) with request fields."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in list(log.handlers):
                log.removeHandler(handler)
            log.propagate = True

    def access(self, resp: Any, req: Any, environ: Mapping[str, Any], request_time: Any) -> None:
        status = str(getattr(resp, "status", "") or "").split(" ", 1)[0]
        duration_ms = round(request_time.total_seconds() * 1000, 2)
        # The query string stays out: a password-reset token travels in it.
        self.access_log.info(
            "%s %s %s %.1fms", req.method, req.path, status, duration_ms,
            extra={
                "method": req.method,
                "path": req.path,
                "status": int(status) if status.isdigit() else None,
                "duration_ms": duration_ms,
                "remote": environ.get("REMOTE_ADDR"),
                "bytes": getattr(resp, "sent", None),
            },
        )


class GunicornFront(BaseApplication):
    """gunicorn run from code, so no configuration file is needed on the host."""

    def __init__(self, app_factory: Callable[[], Flask], options: Mapping[str, object]) -> None:
        self.app_factory = app_factory
        self.options = dict(options)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        # gunicorn ≥ 24 opens a control socket in $HOME; the service runs none of its commands.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)

    def load(self) -> Flask:
        return self.app_factory()


def worker_class(web: WebSettings) -> str:
    """gunicorn's ``sync`` worker for one thread, ``gthread`` for more."""
    return "sync" if web.threads == 1 else "gthread"


def gunicorn_options(host: str, port: int, web: WebSettings) -> dict[str, object]:
    return {
        "bind": f"{host}:{port}",
        "workers": web.workers,
        "threads": web.threads,
        "worker_class": worker_class(web),
        "timeout": web.timeout,
        "graceful_timeout": web.timeout,
        "max_requests": web.max_requests,
        "max_requests_jitter": web.max_requests // 10,
        "accesslog": "-",
        "errorlog": "-",
        "logger_class": StructuredGunicornLogger,
        # Behind nginx on the same host: trust X-Forwarded-Proto from loopback only.
        "forwarded_allow_ips": "127.0.0.1,::1",
        "proc_name": "corrmail-web",
    }


def serve(host: str, port: int, environ: Mapping[str, str] | None = None) -> None:
    """Run gunicorn in the foreground until SIGTERM (systemd) or SIGINT; refuse to start with
    an example or short secret key or without ``CORRMAIL_BASE_URL`` (corrmail.ops.production)."""
    from corrmail.app import create_app
    from corrmail.ops.production import check_production_settings

    check_production_settings(os.environ if environ is None else environ)
    web = WebSettings.from_env(environ)
    logging.getLogger(__name__).info(
        "gunicorn on %s:%s with %s workers × %s threads", host, port, web.workers, web.threads,
        extra={"workers": web.workers, "threads": web.threads},
    )
    GunicornFront(create_app, gunicorn_options(host, port, web)).run()
