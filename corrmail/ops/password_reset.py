"""Password reset by e-mail token.

``/password/forgot`` takes a login or an e-mail address and, when an active account matches,
puts a letter with a reset link into the outbox (in the same transaction; the mailers send it).
The answer is the same whether or not an account matched, so the form cannot be used to find
out who has an account.

The link carries a token signed with the service's secret key (itsdangerous, salted for this
purpose only): the user's id and a fingerprint of the *current* password hash, valid for
:data:`TOKEN_HOURS`. Setting a new password changes the hash, so a token works once; rotating
``CORRMAIL_SECRET_KEY`` voids every open link. Nothing is stored for a pending reset.

The token never travels in a URL the server sees, so no access log (gunicorn's, nginx's) keeps
it: the link is ``<CORRMAIL_BASE_URL>/password/reset#<token>`` (a fragment stays in the
browser), the page's script posts it to ``/password/reset/claim`` — or the user pastes it into
the form when scripts are off — and the claim keeps it in the session and redirects to the
token-less ``/password/reset``, where the new password is set. The link's address comes from
``CORRMAIL_BASE_URL``, never from the request's ``Host`` header (:mod:`corrmail.ops.origin`).

Letters are limited (:data:`LETTERS_PER_HOUR`) per account and per e-mail address, and requests
per client address, so the form cannot flood anyone's mailbox; the answer stays the same.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from email.message import EmailMessage
from email.utils import formataddr

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask import session as browser_session
from flask_babel import force_locale, refresh
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, or_, select
from werkzeug.wrappers.response import Response
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from corrmail import audit
from corrmail.letters.outbox import enqueue
from corrmail.mail.compose import new_message_id
from corrmail.models import AuditEntry, OutboxMessage, User, utcnow
from corrmail.ops.login_throttle import AddressRate
from corrmail.ops.origin import client_address, external_url
from corrmail.people.accounts import letter_language
from corrmail.web.database import db_session, mail_settings

__all__ = ["blueprint", "TOKEN_HOURS", "INVITATION_DAYS", "MIN_PASSWORD_LENGTH", "reset_token",
           "user_for_token", "LETTERS_PER_HOUR", "REQUESTS_PER_ADDRESS_HOUR"]

TOKEN_HOURS = 2
#: An invitation's set-password link waits for its reader longer than a reset he asked for.
INVITATION_DAYS = 14
MIN_PASSWORD_LENGTH = 10
#: Reset letters one account, or one e-mail address, gets in an hour.
LETTERS_PER_HOUR = 3
#: Reset requests one client address may make in an hour (in this worker's memory).
REQUESTS_PER_ADDRESS_HOUR = 10
_SALT = "corrmail.password-reset"
_SESSION_KEY = "password_reset_token"
#: The login whose password was just set: the login form shows it typed, once.
LOGIN_HINT_KEY = "login_hint"
_SESSION_HOURS_KEY = "password_reset_hours"
_REQUESTS_EXTENSION = "corrmail.password_reset.requests"


def _requests_by_address() -> AddressRate:
    """This app's count of reset requests per client address (in the worker's memory)."""
    rate: AddressRate | None = current_app.extensions.get(_REQUESTS_EXTENSION)
    if rate is None:
        rate = current_app.extensions[_REQUESTS_EXTENSION] = AddressRate(
            REQUESTS_PER_ADDRESS_HOUR, window_seconds=3600)
    return rate

blueprint = Blueprint("password_reset", __name__, url_prefix="/password")


class ForgotForm(FlaskForm):
    login = StringField(_l("Login or e-mail"), validators=[DataRequired(), Length(max=320)])


class ClaimForm(FlaskForm):
    token = StringField(_l("Code from the letter"), validators=[DataRequired(), Length(max=400)])


class ResetForm(FlaskForm):
    password = PasswordField(
        _l("New password"), validators=[DataRequired(), Length(min=MIN_PASSWORD_LENGTH, max=200)]
    )
    again = PasswordField(
        _l("New password again"),
        validators=[DataRequired(), EqualTo("password", message=_l("The passwords differ."))],
    )


def _serializer(secret_key: str | None = None) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key or current_app.config["SECRET_KEY"], salt=_SALT)


def _fingerprint(user: User) -> str:
    return hashlib.sha256(user.password_hash.encode()).hexdigest()[:20]


def reset_token(user: User, secret_key: str | None = None) -> str:
    """The link's token; ``secret_key`` when made outside a request (an invitation from the CLI)."""
    return _serializer(secret_key).dumps([user.id, _fingerprint(user)])


def user_for_token(token: str, max_age_hours: int = TOKEN_HOURS) -> User | None:
    """The active user the token was made for, if it is genuine, unexpired and still unused."""
    try:
        user_id, fingerprint = _serializer().loads(token, max_age=max_age_hours * 3600)
    except (SignatureExpired, BadSignature, ValueError, TypeError):
        return None
    user = db_session().get(User, user_id) if isinstance(user_id, int) else None
    if user is None or not user.active or _fingerprint(user) != fingerprint:
        return None
    return user


@blueprint.route("/forgot", methods=["GET", "POST"])
def forgot() -> str | Response:
    form = ForgotForm()
    if form.validate_on_submit():
        wanted = form.login.data.strip().lower()
        session = db_session()
        user = session.scalar(select(User).where(
            User.active.is_(True),
            or_(func.lower(User.login) == wanted, func.lower(User.email) == wanted),
        ).limit(1))
        address = client_address()
        if _requests_by_address().blocked(address):
            user = None  # the same answer, no letter
        else:
            _requests_by_address().add(address)
        if user is not None and user.email and not _too_many_letters(user):
            _send_link(user)
            audit.record(session, user=user, action="auth.password_reset_requested",
                         entity="user", entity_id=user.id, detail={"address": address})
            session.commit()
        flash(_("If an account matches, a letter with a link to set a new password is on its way."),
              "info")
        return redirect(url_for("auth.login"))
    return render_template("auth/password_forgot.html", form=form)


def _too_many_letters(user: User) -> bool:
    """Whether this account or its e-mail address had its hour's reset letters already."""
    since = utcnow() - dt.timedelta(hours=1)
    session = db_session()
    for_account = session.scalar(select(func.count()).select_from(AuditEntry).where(
        AuditEntry.action == "auth.password_reset_requested", AuditEntry.entity == "user",
        AuditEntry.entity_id == user.id, AuditEntry.at > since))
    to_address = session.scalar(select(func.count()).select_from(OutboxMessage).where(
        OutboxMessage.kind == "password_reset", OutboxMessage.created_at > since,
        func.lower(OutboxMessage.recipient).contains((user.email or "").lower(), autoescape=True)))
    return (for_account or 0) >= LETTERS_PER_HOUR or (to_address or 0) >= LETTERS_PER_HOUR


def _send_link(user: User) -> None:
    """The reset letter, in the language of the account's letters (as its invitation is), not
    in that of the page it was asked from: «forgot password» is often the first page a new
    player opens, before he has chosen a language on it."""
    with force_locale(letter_language(user)):
        mail = mail_settings()
        link = external_url("password_reset.reset", _anchor=reset_token(user))
        message = EmailMessage()
        message["From"] = mail.from_address
        message["To"] = formataddr((user.display_name, user.email or ""))
        message["Subject"] = _("Setting a new password")
        message["Message-ID"] = new_message_id(mail.domain, tag="password-reset")
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(_(
            "Someone (hopefully you) asked to set a new password for the login %(login)s.\n\n"
            "Open this link within %(hours)s hours to choose it:\n%(link)s\n\n"
            "If it was not you, ignore this letter: your password stays as it is.\n",
            login=user.login, hours=TOKEN_HOURS, link=link,
        ))
        enqueue(db_session(), message, kind="password_reset")


@blueprint.post("/reset/claim")
def claim() -> Response:
    """The token from the link's fragment (posted by the page's script, or pasted), exchanged
    for a place in the session; then on to the token-less page."""
    return _claim(TOKEN_HOURS)


@blueprint.get("/welcome")
def welcome() -> str:
    """An invitation's link (corrmail.people.accounts): the token in its fragment, as a reset's."""
    return render_template("auth/password_claim.html", form=ClaimForm(),
                           action=url_for("password_reset.welcome_claim"))


@blueprint.post("/welcome/claim")
def welcome_claim() -> Response:
    """An invitation's token: the same one-time token, valid for longer."""
    return _claim(INVITATION_DAYS * 24)


def _claim(max_age_hours: int) -> Response:
    form = ClaimForm()
    token = (form.token.data or "").strip().lstrip("#") if form.validate_on_submit() else ""
    if not token or user_for_token(token, max_age_hours) is None:
        flash(_("This link is invalid, already used or expired. Ask for a new one."), "error")
        return redirect(url_for("password_reset.forgot"))
    browser_session[_SESSION_KEY] = token
    browser_session[_SESSION_HOURS_KEY] = max_age_hours
    return redirect(url_for("password_reset.reset"))


@blueprint.route("/reset", methods=["GET", "POST"])
def reset() -> str | Response:
    token = browser_session.get(_SESSION_KEY)
    hours = browser_session.get(_SESSION_HOURS_KEY, TOKEN_HOURS)
    user = (user_for_token(token, hours if isinstance(hours, int) else TOKEN_HOURS)
            if isinstance(token, str) else None)
    if user is None:
        browser_session.pop(_SESSION_KEY, None)
        if request.method == "POST":
            flash(_("This link is invalid, already used or expired. Ask for a new one."), "error")
            return redirect(url_for("password_reset.forgot"))
        # Opened from the letter: the script posts the fragment's token to the claim.
        return render_template("auth/password_claim.html", form=ClaimForm())
    if browser_session.get("locale") is None:
        # A new user's first pages (this one, then the login) are in the language of his
        # letters, as his invitation was: a player who reads English is not met in Russian.
        # The page's language switch still overrides it.
        browser_session["locale"] = letter_language(user)
        refresh()
    form = ResetForm()
    if form.validate_on_submit():
        user.set_password(form.password.data)  # also ends every session of the user
        audit.record(db_session(), user=user, action="auth.password_reset", entity="user",
                     entity_id=user.id, detail={"address": client_address()})
        db_session().commit()
        browser_session.pop(_SESSION_KEY, None)
        browser_session.pop(_SESSION_HOURS_KEY, None)
        flash(_("Your password is set. Log in as %(login)s with it.", login=user.login), "info")
        browser_session[LOGIN_HINT_KEY] = user.login
        return redirect(url_for("auth.login"))
    if form.is_submitted() and form.errors:
        return render_template("auth/password_reset.html", form=form,  # type: ignore[return-value]
                               login=user.login), 422
    return render_template("auth/password_reset.html", form=form, login=user.login)
