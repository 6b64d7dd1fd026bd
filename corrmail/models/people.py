"""Users of the web app and the players they may stand for."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import Role, enum_column

if TYPE_CHECKING:
    from corrmail.models.tournaments import Participant

# werkzeug's current default (scrypt). The test suite swaps in a cheap method to stay fast.
PASSWORD_HASH_METHOD = "scrypt"


_dummy_hashes: dict[str, str] = {}


def check_dummy_password(password: str) -> bool:
    """Hash ``password`` against a throw-away hash of the current method: a login that does
    not exist then costs what a wrong password costs (scrypt), telling nothing by its timing."""
    method = PASSWORD_HASH_METHOD
    if method not in _dummy_hashes:
        _dummy_hashes[method] = generate_password_hash("no such login", method=method)
    check_password_hash(_dummy_hashes[method], password)
    return False


class Player(Base):
    """A person who plays; one row across all tournaments (the entry is a `Participant`)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(320), index=True)
    postal_address: Mapped[str | None] = mapped_column(Text)
    rating: Mapped[int | None]
    club: Mapped[str | None] = mapped_column(String(200))
    #: The language every letter to him is worded in ("ru" or "en"), whoever's action wrote it.
    language: Mapped[str] = mapped_column(String(2), default="ru", server_default="ru")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    entries: Mapped[list[Participant]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


class User(Base):
    """A login. Roles are global; stewards and referees are bound to tournaments by `TournamentOfficial`."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    login: Mapped[str] = mapped_column(String(80), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(320))
    password_hash: Mapped[str] = mapped_column(String(256))
    locale: Mapped[str | None] = mapped_column(String(8))
    #: Where post for an official goes: a steward's is the address a postal player writes his
    #: cards to, printed on that player's start sheet (002 §4.3.2).
    postal_address: Mapped[str | None] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(default=True)
    # Part of every session cookie: raising it (logout, a new password) voids copied cookies.
    session_version: Mapped[int] = mapped_column(default=0, server_default="0")
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    player: Mapped[Player | None] = relationship()
    role_rows: Mapped[list[UserRole]] = relationship(
        back_populates="user", cascade="all, delete-orphan", lazy="selectin"
    )

    @property
    def roles(self) -> frozenset[Role]:
        return frozenset(row.role for row in self.role_rows)

    def has_role(self, *roles: Role) -> bool:
        return not self.roles.isdisjoint(roles)

    def grant(self, role: Role) -> None:
        if role not in self.roles:
            self.role_rows.append(UserRole(role=role))

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password, method=PASSWORD_HASH_METHOD)
        self.end_sessions()

    def end_sessions(self) -> None:
        """Void every session and "remember me" cookie issued so far (they carry the version)."""
        self.session_version = (self.session_version or 0) + 1

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    # Flask-Login's user protocol.
    @property
    def is_active(self) -> bool:
        return self.active

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False

    def get_id(self) -> str:
        # "<id>.<session version>": Flask-Login stores it in the session and the remember
        # cookie, and corrmail.web.auth.load_user refuses a version that is no longer current.
        return f"{self.id}.{self.session_version or 0}"

    def __repr__(self) -> str:
        return f"<User {self.login!r} {sorted(self.roles)}>"


class UserRole(Base):
    __tablename__ = "user_roles"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[Role] = mapped_column(enum_column(Role), primary_key=True)

    user: Mapped[User] = relationship(back_populates="role_rows")


class ApiToken(Base):
    """A bearer token for `/api/v1`; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[dt.datetime | None]
    revoked_at: Mapped[dt.datetime | None]

    user: Mapped[User] = relationship()
