"""The outbox viewer: every outgoing letter, and with no SMTP relay the captured ones to read."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

from flask import Blueprint, abort, render_template, request
from sqlalchemy import select

from corrmail.models import OutboxMessage, OutboxStatus, Role
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session

blueprint = Blueprint("admin", __name__, url_prefix="/admin")

PAGE_SIZE = 100


@blueprint.get("/outbox")
@roles_required(Role.ORGANIZER, Role.REFEREE)
def outbox() -> str:
    query = select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(PAGE_SIZE)
    status = request.args.get("status")
    if status in {member.value for member in OutboxStatus}:
        query = query.where(OutboxMessage.status == OutboxStatus(status))
    return render_template(
        "admin/outbox.html",
        messages=list(db_session().scalars(query)),
        statuses=list(OutboxStatus),
        current_status=status,
    )


@blueprint.get("/outbox/<int:message_id>")
@roles_required(Role.ORGANIZER, Role.REFEREE)
def outbox_message(message_id: int) -> str:
    message = db_session().get(OutboxMessage, message_id)
    if message is None:
        abort(404)
    parsed = BytesParser(policy=policy.default).parsebytes(message.raw)
    return render_template(
        "admin/outbox_message.html", message=message, headers=list(parsed.items())
    )
