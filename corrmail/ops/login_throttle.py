"""Login rate limiting and lockout.

Two limits, because they stop different attacks:

* **lockout per account** — after ``max_failures`` wrong passwords for one login within
  ``window``, that login is refused for ``lockout`` from the last failure, whatever the password
  (guessing one referee's password). The failures are audit entries (``auth.login_failed``), so
  every gunicorn worker sees the same count and the director can read who tried.
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

from sqlalchemy import func, select
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


class AddressRate:
    """A sliding one-minute window of failed attempts per client address, in this process."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self._attempts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str, now: float) -> deque[float]:
        recent = self._attempts.setdefault(address, deque())
        while recent and recent[0] <= now - 60:
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
        return self.addresses.blocked(address or "") or self.locked_until(session, login) is not None

    def locked_until(self, session: Session, login: str) -> dt.datetime | None:
        """When the login may try again, or None when it may now."""
        now = self.clock()
        count, last_failure = session.execute(
            select(func.count(), func.max(AuditEntry.at)).where(
                AuditEntry.action == FAILED, AuditEntry.summary == self.key(login),
                AuditEntry.at > now - self.policy.window)
        ).one()
        if count < self.policy.max_failures or last_failure is None:
            return None
        until: dt.datetime = last_failure + self.policy.lockout
        return until if until > now else None

    def record_failure(self, session: Session, login: str, user: User | None,
                       address: str | None) -> None:
        """Audit the failed attempt (the caller commits) and count it against the address."""
        self.addresses.add(address or "")
        entry = audit.record(session, user=None, action=FAILED, entity="user",
                             entity_id=user.id if user is not None else None,
                             summary=self.key(login), detail={"address": address or ""})
        entry.at = self.clock()
