"""Accounts: who may log in and in which roles, made without the demo and without SQL.

The first organizer of a fresh install is made with ``corrmail user add … --role organizer
--password-stdin``; everyone else by him on the users page or by the same command. An account made
without a password gets an invitation: a letter with a one-time link to set it (the password-reset
token of :mod:`corrmail.ops.password_reset`, valid :data:`INVITATION_DAYS` days, void once used).
With no mail server (captured mode) the letter is kept unsent, so the caller shows the link to the
organizer who made the invitation, for him to hand over (:class:`Invitation`). Every refusal names
what is wrong and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.letters.write import DEFAULT_LANGUAGE, LANGUAGES, LetterWriter
from corrmail.models import OutboxMessage, Player, Role, User

__all__ = [
    "AccountRefused", "CreatedAccount", "Invitation", "NewAccount", "add_user", "invite", "list_users", "deactivate",
    "set_roles", "parse_roles", "user_by_login", "account_row",
    "reactivate", "player_account", "invite_players",
]

#: Where the development server (``./run``) answers: invitation links of a command run with no
#: ``CORRMAIL_BASE_URL`` point there.
LOCAL_BASE_URL = "http://localhost:5000"


class AccountRefused(ValueError):
    """A refused account change; ``code`` and ``values`` for the reader's language."""

    def __init__(self, code: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


@dataclass(frozen=True)
class NewAccount:
    login: str
    name: str
    email: str | None
    roles: tuple[Role, ...]
    password: str | None = None
    locale: str | None = None
    player_id: int | None = None
    #: A steward's is printed on his postal players' start sheets (002 §4.3.2).
    postal_address: str | None = None


@dataclass(frozen=True)
class Invitation:
    """A queued invitation: its letter, and the one-time set-password link the letter carries.

    The link is in no page, log or outbox view (the outbox viewer never opens invitations);
    only the organizer who made the invitation is shown it, and only when no mail server will
    send the letter, so that the person can still set his own password."""

    letter: OutboxMessage
    link: str


@dataclass(frozen=True)
class CreatedAccount:
    """A new account, with its invitation when it was made without a password."""

    user: User
    invitation: Invitation | None = None


def parse_roles(names: Iterable[str]) -> tuple[Role, ...]:
    """Role names as typed; an unknown one is refused with the list of those that exist."""
    roles: list[Role] = []
    for name in names:
        wanted = name.strip().lower()
        try:
            role = Role(wanted)
        except ValueError:
            known = ", ".join(member.value for member in Role)
            raise AccountRefused("unknown_role", f"no role {name!r}; roles are: {known}",
                                 role=name, known=known) from None
        if role not in roles:
            roles.append(role)
    return tuple(roles)


def user_by_login(session: Session, login: str) -> User | None:
    return session.scalar(select(User).where(func.lower(User.login) == login.strip().lower()))


def _check_new(session: Session, account: NewAccount) -> None:
    login = account.login.strip()
    if not login or len(login) > 80 or any(char.isspace() for char in login):
        raise AccountRefused("bad_login", f"login {account.login!r}: 1–80 characters, no spaces",
                             login=account.login)
    if not account.name.strip():
        raise AccountRefused("no_name", "a name is required")
    if not account.roles:
        raise AccountRefused("no_role", "at least one role is required")
    email = (account.email or "").strip()
    if email and ("@" not in email or any(char.isspace() for char in email)):
        raise AccountRefused("bad_email", f"{email!r} is not an e-mail address", email=email)
    if user_by_login(session, login) is not None:
        raise AccountRefused("duplicate_login", f"the login {login!r} is taken", login=login)
    if email and session.scalar(select(User.id).where(func.lower(User.email) == email.lower())):
        raise AccountRefused("duplicate_email", f"the e-mail {email!r} belongs to another account",
                             email=email)
    if account.password is None and not email:
        raise AccountRefused("no_email_to_invite",
                             "without a password the account needs an e-mail for its invitation")


def add_user(session: Session, account: NewAccount, *, by: User | None,
             writer: LetterWriter | None = None, base_url: str | None = None,
             secret_key: str = "", min_password_length: int = 10) -> CreatedAccount:
    """Create the account; without a password, queue its invitation (``writer`` required).

    Refused (:class:`AccountRefused`, nothing stored) on a taken login or e-mail, no role, or a
    short password.
    """
    _check_new(session, account)
    if account.password is not None and len(account.password) < min_password_length:
        raise AccountRefused("short_password",
                             f"a password has at least {min_password_length} characters",
                             length=min_password_length)
    if account.password is None and writer is None:
        raise AccountRefused("no_mailer", "an invitation needs the mail settings")
    user = User(login=account.login.strip(), display_name=account.name.strip(),
                email=(account.email or "").strip() or None, locale=account.locale,
                player_id=account.player_id,
                postal_address=(account.postal_address or "").strip() or None)
    # An invited account has a password no one knows until the link sets one.
    user.set_password(account.password if account.password is not None
                      else secrets.token_urlsafe(32))
    for role in account.roles:
        user.grant(role)
    session.add(user)
    session.flush()
    audit.record(session, user=by, action="user.created", entity="user", entity_id=user.id,
                 summary=f"{user.login}: {', '.join(sorted(r.value for r in account.roles))}")
    if account.password is None:
        assert writer is not None
        return CreatedAccount(user, invite(session, user, writer=writer, base_url=base_url,
                                           secret_key=secret_key, by=by))
    return CreatedAccount(user)


def _link_base(configured: str | None) -> str:
    """Where the links of letters written outside a request point: ``CORRMAIL_BASE_URL`` as the
    settings read it at start-up (checked there, :class:`corrmail.config.Settings`), else the
    development server's address."""
    return (configured or LOCAL_BASE_URL).rstrip("/")


def invite(session: Session, user: User, *, writer: LetterWriter, base_url: str | None,
           secret_key: str, by: User | None) -> Invitation:
    """Queue the letter with the one-time set-password link (in the caller's transaction).

    ``secret_key`` is the web app's ``SECRET_KEY``: the link is checked there.
    """
    from corrmail.ops.password_reset import INVITATION_DAYS, reset_token

    if not user.email:
        raise AccountRefused("no_email_to_invite",
                             "without a password the account needs an e-mail for its invitation")
    token = reset_token(user, secret_key=secret_key)
    # The token travels in the fragment, which no server or access log sees (as a reset's).
    link = f"{_link_base(base_url)}/password/welcome#{token}"
    row = writer.post(session, kind="invitation", to=user.email, template="invitation",
                      language=letter_language(user),
                      context={"user": user, "link": link, "days": INVITATION_DAYS,
                               "roles": sorted(role.value for role in user.roles)})
    audit.record(session, user=by, action="user.invited", entity="user", entity_id=user.id,
                 summary=f"{user.login} <{user.email}>")
    return Invitation(row, link)


def letter_language(user: User) -> str:
    """The language a letter to ``user`` is written in: a player's own letter language (the
    one his start sheet and moves come in), an official's account's."""
    if user.player is not None:
        return user.player.language or DEFAULT_LANGUAGE
    return user.locale or DEFAULT_LANGUAGE


def set_letter_language(session: Session, player: Player, language: str, *,
                        by: User | None) -> None:
    """Every letter to ``player`` from now on is worded in ``language``; his own login's pages
    follow it. Refused (:class:`AccountRefused`) for a language letters are not written in."""
    if language not in LANGUAGES:
        raise AccountRefused("bad_language", f"letters are written in ru or en, not {language!r}",
                             language=language)
    player.language = language
    account = session.scalar(select(User).where(User.player_id == player.id))
    if account is not None:
        account.locale = language
    audit.record(session, user=by, action="player.language", entity="player",
                 entity_id=player.id, summary=f"{player.name}: letters in {language}")


def set_contact(session: Session, login: str, address: str, language: str, *,
                by: User | None) -> User:
    """Where post for the official goes (empty: none on record) and the language his letters are
    written in; a login that plays has one language for both his kinds of letters."""
    if language not in LANGUAGES:
        raise AccountRefused("bad_language", f"letters are written in ru or en, not {language!r}",
                             language=language)
    user = _existing(session, login)
    user.postal_address = address.strip() or None
    user.locale = language
    if user.player is not None:
        user.player.language = language
    audit.record(session, user=by, action="user.contact", entity="user", entity_id=user.id,
                 summary=f"{user.login}: letters in {language}, postal address "
                         f"{'set' if user.postal_address else 'cleared'}")
    return user


def list_users(session: Session) -> Sequence[User]:
    return session.scalars(select(User).order_by(func.lower(User.login))).all()


def account_row(user: User) -> dict[str, object]:
    return {"login": user.login, "name": user.display_name, "email": user.email,
            "roles": sorted(role.value for role in user.roles), "active": user.active}


def _existing(session: Session, login: str) -> User:
    user = user_by_login(session, login)
    if user is None:
        raise AccountRefused("unknown_login", f"no account with the login {login!r}", login=login)
    return user


def deactivate(session: Session, login: str, *, by: User | None) -> User:
    """The account can no longer log in; its history (letters entered, decisions) stays."""
    user = _existing(session, login)
    if by is not None and by.id == user.id:
        raise AccountRefused("self_deactivation", "you cannot deactivate your own account")
    if user.has_role(Role.ORGANIZER) and user.active and _active_organizers(session) <= 1:
        raise AccountRefused("last_organizer",
                             f"{user.login} is the last active organizer", login=user.login)
    if user.active:
        user.active = False
        audit.record(session, user=by, action="user.deactivated", entity="user",
                     entity_id=user.id, summary=user.login)
    return user


def reactivate(session: Session, login: str, *, by: User | None) -> User:
    user = _existing(session, login)
    if not user.active:
        user.active = True
        audit.record(session, user=by, action="user.reactivated", entity="user",
                     entity_id=user.id, summary=user.login)
    return user


def set_roles(session: Session, login: str, roles: Sequence[Role], *, by: User | None) -> User:
    user = _existing(session, login)
    if not roles:
        raise AccountRefused("no_role", "at least one role is required")
    if (user.has_role(Role.ORGANIZER) and Role.ORGANIZER not in roles and user.active
            and _active_organizers(session) <= 1):
        raise AccountRefused("last_organizer",
                             f"{user.login} is the last active organizer", login=user.login)
    before = sorted(role.value for role in user.roles)
    user.role_rows[:] = [row for row in user.role_rows if row.role in roles]
    for role in roles:
        user.grant(role)
    after = sorted(role.value for role in roles)
    if before != after:
        audit.record(session, user=by, action="user.roles", entity="user", entity_id=user.id,
                     summary=f"{user.login}: {', '.join(before)} → {', '.join(after)}")
    return user


def _active_organizers(session: Session) -> int:
    return len([user for user in session.scalars(select(User).where(User.active.is_(True)))
                if user.has_role(Role.ORGANIZER)])


def player_account(session: Session, player: Player, *, by: User | None,
                   writer: LetterWriter, base_url: str | None, secret_key: str
                   ) -> CreatedAccount | None:
    """A registered player's login, invited by e-mail; None when he has no e-mail or already one.

    The login is the part of his e-mail before ``@`` (made unique with a number).
    """
    if not player.email:
        return None
    existing = session.scalar(select(User).where(or_(
        User.player_id == player.id, func.lower(User.email) == player.email.lower())))
    if existing is not None:
        return None
    base = player.email.split("@")[0].lower() or "player"
    login, number = base, 1
    while user_by_login(session, login) is not None:
        number += 1
        login = f"{base}{number}"
    # His pages open in the language his letters are written in.
    return add_user(session, NewAccount(login=login, name=player.name, email=player.email,
                                        roles=(Role.PLAYER,), player_id=player.id,
                                        locale=player.language),
                    by=by, writer=writer, base_url=base_url, secret_key=secret_key)


def invite_players(session: Session, players: Iterable[Player], *, by: User | None,
                   writer: LetterWriter, base_url: str | None, secret_key: str
                   ) -> list[CreatedAccount]:
    """Accounts for newly entered players, each invited by e-mail; a player with no e-mail or an
    account already is passed over. The web's registration and import and ``corrmail tournament
    import-players --invite`` both invite this way, so a player gets the same letter from either."""
    created = []
    for player in players:
        try:
            account = player_account(session, player, by=by, writer=writer, base_url=base_url,
                                     secret_key=secret_key)
        except AccountRefused as error:  # which of the players it was, for the importer
            raise AccountRefused(error.code, f"{player.name}: {error}", player=player.name,
                                 **error.values) from error
        if account is not None:
            created.append(account)
    return created
