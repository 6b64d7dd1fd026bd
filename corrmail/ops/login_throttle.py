"""Login rate limiting and lockout.

Three limits, because they stop different attacks:

* **lockout per account and address** — after ``max_failures`` wrong passwords for one login
  from one client address within ``window``, that login is refused *from that address* for
  ``lockout`` from the last failure, whatever the password (guessing one referee's password).
  The failures are audit entries (``auth.login_failed``), so every gunicorn worker sees the same
  count and the director can read who tried. The address is the client's, not the proxy's
  (:func:`corrmail.ops.origin.client_address`): one attacker's failures do not lock the real
  user out from elsewhere.
* **back-off per account** — when many addresses fail for one login (a spread-out guess), the
  login waits between attempts: ``2 ** (failures - account_failures)`` seconds since the last
  failure, at most ``account_backoff_cap``. A slowdown, never a permanent denial: the right
  password always gets through once the short wait is over.
* **rate per address** — at most ``per_address`` failed logins a minute from one client address
  (spraying many logins from one machine). Kept in the worker's memory: a cheap first gate
  before any database work, approximate across workers by design. Successful logins do not
  count, so a club sharing one address is not locked out by its members.

Refusals never say whether the login exists.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.models import AuditEntry, User, utcnow

__all__ = ["ThrottlePolicy", "LoginThrottle", "AddressRate", "FAILED"]

FAILED = "auth.login_failed"


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    max_failures: int = 5
    window: dt.timedelta = dt.timedelta(minutes=15)
    lockout: dt.timedelta = dt.timedelta(minutes=15)
    per_address: int = 20  # failed attempts a minute
    #: Failures of one login from every address within `window` before it backs off.
    account_failures: int = 20
    account_backoff_cap: dt.timedelta = dt.timedelta(minutes=1)


class AddressRate:
    """A sliding window (a minute unless told) of attempts per client address, in this process."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic, *,
                 window_seconds: float = 60) -> None:
        self.limit = limit
        self.clock = clock
        self.window = window_seconds
        self._attempts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str, now: float) -> deque[float]:
        recent = self._attempts.setdefault(address, deque())
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        return recent

    def blocked(self, address: str) -> bool:
        with self._lock:
            return len(self._recent(address, self.clock())) >= self.limit

    def add(self, address: str) -> None:
        with self._lock:
            self._recent(address, self.clock()).append(self.clock())
            if len(self._attempts) > 10_000:  # forget idle addresses; memory stays bounded
                now = self.clock()
                for key in [k for k in self._attempts if not self._recent(k, now)]:
                    del self._attempts[key]


class LoginThrottle:
    def __init__(self, policy: ThrottlePolicy | None = None, *,
                 clock: Callable[[], dt.datetime] = utcnow) -> None:
        self.policy = policy or ThrottlePolicy()
        self.clock = clock
        self.addresses = AddressRate(self.policy.per_address)

    @staticmethod
    def key(login: str) -> str:
        return login.strip().lower()[:200]

    def refused(self, session: Session, login: str, address: str | None) -> bool:
        """True when this attempt must be refused before the password is even checked."""
        return (self.addresses.blocked(address or "")
                or self.locked_until(session, login, address) is not None)

    def locked_until(self, session: Session, login: str,
                     address: str | None = None) -> dt.datetime | None:
        """When the login may try again from ``address``, or None when it may now."""
        now = self.clock()
        policy = self.policy
        failures = session.execute(
            select(AuditEntry.at, AuditEntry.detail).where(
                AuditEntry.action == FAILED, AuditEntry.summary == self.key(login),
                AuditEntry.at > now - policy.window)
            .order_by(AuditEntry.at.desc()).limit(1000)
        ).all()
        if not failures:
            return None
        here = [at for at, detail in failures
                if (detail or {}).get("address", "") == (address or "")]
        waits: list[dt.datetime] = []
        if len(here) >= policy.max_failures:
            waits.append(max(here) + policy.lockout)
        beyond = len(failures) - policy.account_failures
        if beyond >= 0:
            backoff = min(dt.timedelta(seconds=2 ** min(beyond, 20)), policy.account_backoff_cap)
            waits.append(max(at for at, _ in failures) + backoff)
        until = max(waits, default=None)
        if until is not None and until.tzinfo is None:
            until = until.replace(tzinfo=dt.UTC)
        return until if until is not None and until > now else None

    def record_failure(self, session: Session, login: str, user: User | None,
                       address: str | None) -> None:
        """Audit the failed attempt (the caller commits) and count it against the address."""
        self.addresses.add(address or "")
        entry = audit.record(session, user=None, action=FAILED, entity="user",
                             entity_id=user.id if user is not None else None,
                             summary=self.key(login), detail={"address": address or ""})
        entry.at = self.clock()
