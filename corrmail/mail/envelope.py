"""Whether a letter's envelope sender may differ from the player's address.

A reply token and the ``From`` header are both in the letter's text, which whoever sends it
writes. The envelope sender (SMTP ``MAIL FROM``) is what the receiving MTA checked: SPF
authorises the sending host for its domain, DKIM signs the letter for a domain. A letter whose
envelope sender is the player's address on record is taken as before. One whose envelope sender
is anything else is applied only when the receiving MTA's ``Authentication-Results`` report
``dkim=pass`` (``header.d``) or ``spf=pass`` (``smtp.mailfrom``) for the player's own domain
(forwarding services and mailing lists re-sign or re-send that way); otherwise it is refused and
the player is told.

Only the topmost ``Authentication-Results`` is read, and only when its authserv-id is the
receiving MTA's (``CORRMAIL_MAIL_AUTHSERV_ID``, default the mail domain and its hosts): the MTA
adds its own on top, so anything below it came with the letter and may be forged (RFC 8601 §5).
When no envelope sender is known (a message read from a file), there is nothing to compare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesParser

__all__ = ["EnvelopeVerdict", "authentication_results_of", "topmost_authentication_results",
           "judge_envelope",
           "passes_for_domain"]


@dataclass(frozen=True, slots=True)
class EnvelopeVerdict:
    accepted: bool
    #: "same_address", "no_envelope", "dkim_pass", "spf_pass" or "unauthenticated".
    reason: str


def topmost_authentication_results(raw: bytes) -> str | None:
    """The first (topmost) ``Authentication-Results`` header of ``raw``, unfolded."""
    try:
        headers = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)
        value = headers.get("Authentication-Results")
    except (ValueError, TypeError, IndexError):
        return None
    if value is None:
        return None
    return " ".join(str(value).split())[:4000]


def authentication_results_of(message: Message) -> str | None:
    """:func:`topmost_authentication_results` of the bytes ``message`` was parsed from, read
    off that parse (the intake parses a received letter once) rather than parsing them again.

    The header is fetched as the ``compat32`` parse fetches it (non-ASCII bytes read as
    U+FFFD). Its raw text may differ from that parse's only in the whitespace and line breaks
    leading it (``compat32`` keeps the line break after an empty first line, the other policies
    strip it), which the unfolding below removes either way.
    """
    try:
        for name, value in message.raw_items():
            if name.lower() == "authentication-results":
                fetched = policy.compat32.header_fetch_parse(name, value)
                return " ".join(str(fetched).split())[:4000]
    except (ValueError, TypeError, IndexError):
        return None
    return None


_COMMENT = re.compile(r"\([^()]*\)")
_RESULT = re.compile(r"^\s*([a-z0-9_-]+)\s*=\s*([a-z]+)\b(.*)$", re.I | re.S)
_PROPERTY = re.compile(r"([a-z0-9_-]+\.[a-z0-9_-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)", re.I)


def _results(value: str, authserv_ids: tuple[str, ...], domain: str) -> list[tuple[str, str, dict[str, str]]]:
    text = value
    for _ in range(3):  # nested comments
        text = _COMMENT.sub(" ", text)
    parts = [part.strip() for part in text.split(";")]
    server = parts[0].split()[0].lower() if parts and parts[0].split() else ""
    trusted = authserv_ids or (domain.lower(),)
    if not any(server == ident or (not authserv_ids and server.endswith("." + ident))
               for ident in trusted):
        return []
    found = []
    for part in parts[1:]:
        match = _RESULT.match(part)
        if match is None:
            continue
        properties = {key.lower(): raw.strip('"').lower() for key, raw in _PROPERTY.findall(match[3])}
        found.append((match[1].lower(), match[2].lower(), properties))
    return found


def _domain_of(value: str) -> str:
    return value.rsplit("@", 1)[-1].strip().strip("<>").lower()


def passes_for_domain(value: str | None, player_domain: str, *, authserv_ids: tuple[str, ...],
                      mail_domain: str) -> str | None:
    """``"dkim_pass"`` or ``"spf_pass"`` when ``value`` (trusted) vouches for ``player_domain``."""
    if not value or not player_domain:
        return None
    for method, result, properties in _results(value, authserv_ids, mail_domain):
        if result != "pass":
            continue
        if method == "dkim" and _domain_of(properties.get("header.d", "")) == player_domain:
            return "dkim_pass"
        if method == "spf" and _domain_of(properties.get("smtp.mailfrom", "")) == player_domain:
            return "spf_pass"
    return None


def judge_envelope(envelope_sender: str | None, registered: str, auth_results: str | None, *,
                   authserv_ids: tuple[str, ...], mail_domain: str) -> EnvelopeVerdict:
    """May a letter from the player's ``registered`` address (``From``) be applied, given its
    envelope sender and the MTA's report? See the module docstring."""
    if envelope_sender is None:
        return EnvelopeVerdict(True, "no_envelope")
    if envelope_sender.strip().strip("<>").lower() == registered.lower():
        return EnvelopeVerdict(True, "same_address")
    vouched = passes_for_domain(auth_results, _domain_of(registered),
                                authserv_ids=authserv_ids, mail_domain=mail_domain)
    if vouched is not None:
        return EnvelopeVerdict(True, vouched)
    return EnvelopeVerdict(False, "unauthenticated")
