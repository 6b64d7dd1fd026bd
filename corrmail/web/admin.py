"""The outbox viewer: every outgoing letter, and with no SMTP relay the captured ones to read.

What an official may read here is what they could learn in their own work, nothing more:

* password-reset and invitation letters are never shown — their link sets the password of
  whoever it was for (the list names them by kind, neither subject link nor page opens them,
  for anyone);
* a referee or steward sees the letters of the tournaments they serve; letters of no tournament
  (refusals, other notices) and of other tournaments only the organizer sees;
* the reply addresses in players' letters (a signed token that answers for the player) are shown
  only to the organizer; officials see them masked.
"""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser

from flask import Blueprint, abort, render_template, request
from flask_login import current_user
from sqlalchemy import Select, select

from corrmail.models import OutboxMessage, OutboxStatus, Role, TournamentOfficial
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session, settings
from corrmail.web.outbox_labels import outbox_kind

blueprint = Blueprint("admin", __name__, url_prefix="/admin")
blueprint.add_app_template_filter(outbox_kind, "outbox_kind")

PAGE_SIZE = 100

#: Letters that carry a credential; never shown in the viewer.
SECRET_KINDS = frozenset({"password_reset", "invitation"})
"""Letters that carry a set-password link: whoever reads one can take the account over."""

# A reply token as corrmail.mail.tokens writes it (g<game>-p<player>-<signature>).
_REPLY_TOKEN = re.compile(r"\b(g\d{1,18}-p\d{1,18}-)[a-z2-7]{16}\b", re.I)
MASK = "…"


def _visible(query: Select[tuple[OutboxMessage]]) -> Select[tuple[OutboxMessage]]:
    if current_user.has_role(Role.ORGANIZER):
        return query
    served = select(TournamentOfficial.tournament_id).where(
        TournamentOfficial.user_id == current_user.id)
    return query.where(OutboxMessage.tournament_id.in_(served))


def mask_reply_tokens(text: str) -> str:
    """The text with every reply token's signature replaced by an ellipsis."""
    return _REPLY_TOKEN.sub(lambda match: match[1] + MASK, text)


#: Who reads the outbox: the organizer all of it, a tournament's referee and steward its letters
#: (a steward checks the letters his postcard entries sent, 002 §4.1.8).
READERS = (Role.ORGANIZER, Role.REFEREE, Role.STEWARD)


@blueprint.get("/outbox")
@roles_required(*READERS)
def outbox() -> str:
    query = _visible(select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(PAGE_SIZE))
    status = request.args.get("status")
    if status in {member.value for member in OutboxStatus}:
        query = query.where(OutboxMessage.status == OutboxStatus(status))
    messages = list(db_session().scalars(query))
    return render_template(
        "admin/outbox.html",
        messages=messages,
        zone=settings().time_zone,
        statuses=list(OutboxStatus),
        current_status=status,
        secret_kinds=SECRET_KINDS,
    )


@blueprint.get("/outbox/<int:message_id>")
@roles_required(*READERS)
def outbox_message(message_id: int) -> str:
    message = db_session().scalar(_visible(select(OutboxMessage).where(OutboxMessage.id == message_id)))
    if message is None or message.kind in SECRET_KINDS:
        abort(404)
    parsed = BytesParser(policy=policy.default).parsebytes(message.raw)
    headers = [(name, str(value)) for name, value in parsed.items()]
    body = message.body_text
    if not current_user.has_role(Role.ORGANIZER):
        headers = [(name, mask_reply_tokens(value)) for name, value in headers]
        body = mask_reply_tokens(body)
    return render_template(
        "admin/outbox_message.html", message=message, headers=headers, body=body,
        zone=settings().time_zone,
    )

