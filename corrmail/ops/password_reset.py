"""Password reset by e-mail token.

``/password/forgot`` takes a login or an e-mail address and, when an active account matches,
puts a letter with a reset link into the outbox (in the same transaction; the mailers send it).
The answer is the same whether or not an account matched, so the form cannot be used to find
out who has an account.

The link carries a token signed with the service's secret key (itsdangerous, salted for this
purpose only): the user's id and a fingerprint of the *current* password hash, valid for
:data:`TOKEN_HOURS`. Setting a new password changes the hash, so a token works once; rotating
``CORRMAIL_SECRET_KEY`` voids every open link. Nothing is stored for a pending reset.
"""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.utils import formataddr

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, or_, select
from werkzeug.wrappers.response import Response
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from corrmail import audit
from corrmail.mail.compose import new_message_id
from corrmail.mail.settings import MailSettings
from corrmail.models import User
from corrmail.outbox import enqueue
from corrmail.web.database import db_session

__all__ = ["blueprint", "TOKEN_HOURS", "INVITATION_DAYS", "MIN_PASSWORD_LENGTH", "reset_token",
           "user_for_token"]

TOKEN_HOURS = 2
#: An invitation's set-password link waits for its reader longer than a reset he asked for.
INVITATION_DAYS = 14
MIN_PASSWORD_LENGTH = 10
_SALT = "corrmail.password-reset"

blueprint = Blueprint("password_reset", __name__, url_prefix="/password")


class ForgotForm(FlaskForm):
    login = StringField(_l("Login or e-mail"), validators=[DataRequired(), Length(max=320)])


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
        if user is not None and user.email:
            _send_link(user)
            audit.record(session, user=user, action="auth.password_reset_requested",
                         entity="user", entity_id=user.id)
            session.commit()
        flash(_("If an account matches, a letter with a link to set a new password is on its way."),
              "info")
        return redirect(url_for("auth.login"))
    return render_template("auth/password_forgot.html", form=form)


def _send_link(user: User) -> None:
    mail = MailSettings.from_env(secret_fallback=current_app.config["SECRET_KEY"])
    link = url_for("password_reset.reset", token=reset_token(user), _external=True)
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


@blueprint.route("/reset/<token>", methods=["GET", "POST"])
def reset(token: str) -> str | Response:
    return _set_password(token, TOKEN_HOURS)


@blueprint.route("/welcome/<token>", methods=["GET", "POST"])
def welcome(token: str) -> str | Response:
    """An invitation's link (corrmail.accounts): the same one-time token, valid for longer."""
    return _set_password(token, INVITATION_DAYS * 24)


def _set_password(token: str, max_age_hours: int) -> str | Response:
    user = user_for_token(token, max_age_hours)
    if user is None:
        flash(_("This link is invalid, already used or expired. Ask for a new one."), "error")
        return redirect(url_for("password_reset.forgot"))
    form = ResetForm()
    if form.validate_on_submit():
        user.set_password(form.password.data)
        audit.record(db_session(), user=user, action="auth.password_reset", entity="user",
                     entity_id=user.id, detail={"address": request.remote_addr or ""})
        db_session().commit()
        flash(_("Your password is set. Log in with it."), "info")
        return redirect(url_for("auth.login"))
    if form.is_submitted() and form.errors:
        return render_template("auth/password_reset.html", form=form), 422  # type: ignore[return-value]
    return render_template("auth/password_reset.html", form=form)
