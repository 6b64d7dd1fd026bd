"""Login, logout, and the role checks every view uses."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import LoginManager, current_user, login_required, login_user, logout_user
from sqlalchemy import select
from sqlalchemy.orm import joinedload
from werkzeug.wrappers.response import Response

from corrmail.models import Role, User
from corrmail.models.people import check_dummy_password
from corrmail.ops.origin import client_address
from corrmail.ops.password_reset import LOGIN_HINT_KEY
from corrmail.ops.security import login_throttle
from corrmail.web.database import db_session, mail_settings
from corrmail.web.forms import LoginForm, LogoutForm

P = ParamSpec("P")
R = TypeVar("R")

blueprint = Blueprint("auth", __name__)
login_manager = LoginManager()


def init_login(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = ""

    @app.context_processor
    def logout_form() -> dict[str, object]:
        # With no mail server every letter stays in the outbox: officials are told on every
        # page, so no «sent» on a page is taken for a letter that went out.
        return {"logout_form": LogoutForm(), "Role": Role,
                "mail_captured": mail_settings().captured}


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    """The user of a session or "remember me" cookie (``<id>.<session version>``), checked on
    every request: a cookie from before a logout or a new password names an old version."""
    number, _, version = user_id.partition(".")
    if not number.isdigit() or not version.isdigit():
        return None  # a cookie from before session versions: log in again
    # Every page asks the user's roles: read them in the user's own query, not a second one.
    user = db_session().get(User, int(number), options=[joinedload(User.role_rows)])
    if user is None or not user.active or user.session_version != int(version):
        return None
    return user


def roles_required(*roles: Role) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Let through a logged-in user holding any of `roles`; others get 403 (anonymous: login)."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @wraps(view)
        @login_required
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            if not current_user.has_role(*roles):
                abort(403)
            return view(*args, **kwargs)

        return guarded

    return decorate


def _safe_next(target: str | None) -> str:
    # Only same-site paths: an absolute URL in ?next= would make the login page an open redirect.
    if (
        target
        and not urlsplit(target).netloc
        and target.startswith("/")
        and not target.startswith("//")
    ):
        return target
    return landing_page()


def landing_page() -> str:
    """Where a user lands: a player on his games, an official on the tournaments."""
    if current_user.is_authenticated and current_user.player_id is not None:
        return url_for("play.home")
    return url_for("tournaments.index")


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> str | Response:
    form = LoginForm()
    hint = session.pop(LOGIN_HINT_KEY, None)
    if not form.is_submitted() and isinstance(hint, str):
        # Come from setting a password: the login it belongs to is already typed.
        form.login.data = hint
    if form.validate_on_submit():
        throttle, name, address = login_throttle(), form.login.data.strip(), client_address()
        if throttle.refused(db_session(), name, address):
            flash(_("Too many failed logins. Try again in 15 minutes."), "error")
            return render_template("auth/login.html", form=form), 429  # type: ignore[return-value]
        user = db_session().scalar(select(User).where(User.login == name))
        if user is None or not user.active:
            # As slow as checking a real password, so timing does not tell which logins exist.
            check_dummy_password(form.password.data)
        elif user.check_password(form.password.data):
            login_user(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        throttle.record_failure(db_session(), name, user, address)
        db_session().commit()
        flash(_("Wrong login or password."), "error")
    status = 401 if form.is_submitted() else 200
    return render_template("auth/login.html", form=form), status  # type: ignore[return-value]


@blueprint.post("/logout")
def logout() -> Response:
    if LogoutForm().validate_on_submit():
        if current_user.is_authenticated:
            # Every copy of this user's session cookies (and remember cookies) ends here too.
            current_user.end_sessions()
            db_session().commit()
        logout_user()
    return redirect(url_for("auth.login"))
