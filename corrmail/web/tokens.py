"""The user's own API tokens (docs/api.md): list, create — the secret shown once — and revoke.

Only the SHA-256 of a token is stored, so the page can show a new token exactly once, in the
answer to the form that created it (pages are ``Cache-Control: no-store``). A user sees and
revokes only their own tokens; the API grants a token what its user may see.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from werkzeug.wrappers.response import Response
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from corrmail import audit
from corrmail.people.api_tokens import issue_token, revoke_token, user_tokens
from corrmail.web.database import db_session, settings

blueprint = Blueprint("tokens", __name__, url_prefix="/account/tokens")


class NewTokenForm(FlaskForm):
    name = StringField(_l("What the token is for"), validators=[DataRequired(), Length(max=200)])


class RevokeForm(FlaskForm):
    """Revoking changes state: a POST with a CSRF token."""


def _page(form: NewTokenForm, new_token: str | None = None, status: int = 200) -> tuple[str, int]:
    return render_template(
        "account/tokens.html", form=form, revoke_form=RevokeForm(), new_token=new_token,
        tokens=user_tokens(db_session(), current_user),
        # A user's own moments, like the outbox's, on the federation's clock with the zone named:
        # a token serves no one tournament whose zone could be meant.
        zone=settings().time_zone,
    ), status


@blueprint.get("")
@login_required
def index() -> tuple[str, int]:
    return _page(NewTokenForm())


@blueprint.post("")
@login_required
def create() -> tuple[str, int]:
    form = NewTokenForm()
    if not form.validate_on_submit():
        return _page(form, status=422)
    session = db_session()
    name = form.name.data.strip()
    token = issue_token(session, current_user, name)
    audit.record(session, user=current_user, action="api_token.issued", entity="user",
                 entity_id=current_user.id, summary=name)
    session.commit()
    return _page(NewTokenForm(formdata=None), new_token=token)


@blueprint.post("/<int:token_id>/revoke")
@login_required
def revoke(token_id: int) -> Response:
    if not RevokeForm().validate_on_submit():
        abort(400)
    session = db_session()
    if not revoke_token(session, current_user, token_id):
        abort(404)
    audit.record(session, user=current_user, action="api_token.revoked", entity="user",
                 entity_id=current_user.id, summary=str(token_id))
    session.commit()
    flash(_("The token is revoked: requests with it are refused from now on."), "info")
    return redirect(url_for("tokens.index"))
