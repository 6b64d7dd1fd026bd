"""Recognising messages no person wrote: bounces, auto-replies, vacation responders.

Such messages are recorded (a bounce marks its outbox letter) but never read for moves: a
vacation notice that quotes our letter would otherwise "repeat" the partner's move. The signals,
strongest first:

* ``Content-Type: multipart/report`` — a delivery-status notification (RFC 3464) or a read
  receipt (RFC 8098);
* an empty envelope sender / ``Return-Path: <>`` or a ``MAILER-DAEMON``/``postmaster`` From —
  only bounces are sent that way (RFC 5321 §4.5.5);
* ``Auto-Submitted`` other than ``no`` (RFC 3834);
* ``Precedence: bulk | junk | list | auto_reply`` and the de-facto ``X-Autoreply``,
  ``X-Autorespond``, ``X-Auto-Response-Suppress: OOF`` headers;
* the subject prefixes Outlook and Exchange put on out-of-office answers when they set no header
  ("Automatic reply:", «Автоматический ответ:», "Out of Office:").
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from email.message import EmailMessage

from corrmail.mail.addresses import addresses_in

__all__ = ["Automation", "AutomationVerdict", "detect_automation"]


class Automation(enum.Enum):
    BOUNCE = "bounce"
    AUTO_REPLY = "auto_reply"
    READ_RECEIPT = "read_receipt"


@dataclass(frozen=True, slots=True)
class AutomationVerdict:
    kind: Automation
    #: Which signal decided, e.g. ``"Auto-Submitted: auto-replied"``; shown to the director.
    reason: str


_BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|mail-daemon)@", re.IGNORECASE)
_AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
_AUTO_SUBJECT = re.compile(
    r"^\s*(automatic\s+reply|auto(matic)?[\s-]*(reply|response)|out\s+of\s+(the\s+)?office|"
    r"автоматический\s+ответ|автоответ|нет\s+на\s+месте|в\s+отпуске)\s*[:\-]",
    re.IGNORECASE,
)
_BOUNCE_SUBJECT = re.compile(
    r"^\s*(undeliver(ed|able)|delivery\s+status\s+notification|returned\s+mail|"
    r"mail\s+delivery\s+(failed|failure)|недоставленное\s+сообщение|"
    r"не\s*удалось\s+доставить)",
    re.IGNORECASE,
)


def detect_automation(
    message: EmailMessage, envelope_sender: str | None = None
) -> AutomationVerdict | None:
    """Why ``message`` was written by a machine, or ``None`` when a person wrote it.

    ``envelope_sender`` is the SMTP ``MAIL FROM`` when the message came through our own
    listener (``""`` for the null sender); for piped or polled mail ``Return-Path`` stands in.
    """
    if message.get_content_type() == "multipart/report":
        report_type = str(message.get_param("report-type") or "").lower()
        if report_type == "disposition-notification":
            return AutomationVerdict(Automation.READ_RECEIPT, "multipart/report; " + report_type)
        return AutomationVerdict(Automation.BOUNCE, f"multipart/report; {report_type}".strip())

    return_path = envelope_sender if envelope_sender is not None else message.get("Return-Path")
    if return_path is not None and str(return_path).strip() in ("", "<>"):
        return AutomationVerdict(Automation.BOUNCE, "empty return path")

    senders = [address for _, address in addresses_in([str(message.get("From", ""))])]
    if any(_BOUNCE_SENDERS.match(address) for address in senders):
        return AutomationVerdict(Automation.BOUNCE, f"From: {senders[0]}")

    auto_submitted = str(message.get("Auto-Submitted", "")).strip().lower()
    if auto_submitted and not auto_submitted.startswith("no"):
        return AutomationVerdict(Automation.AUTO_REPLY, f"Auto-Submitted: {auto_submitted}")

    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in _AUTO_PRECEDENCE:
        return AutomationVerdict(Automation.AUTO_REPLY, f"Precedence: {precedence}")

    for header in ("X-Autoreply", "X-Autorespond"):
        if message.get(header) is not None:
            return AutomationVerdict(Automation.AUTO_REPLY, f"{header}: {message[header]}")
    suppress = str(message.get("X-Auto-Response-Suppress", "")).lower()
    if "oof" in suppress:
        return AutomationVerdict(Automation.AUTO_REPLY, "X-Auto-Response-Suppress: OOF")

    subject = str(message.get("Subject", ""))
    if _BOUNCE_SUBJECT.match(subject):
        return AutomationVerdict(Automation.BOUNCE, f"Subject: {subject}")
    if _AUTO_SUBJECT.match(subject):
        return AutomationVerdict(Automation.AUTO_REPLY, f"Subject: {subject}")
    return None
