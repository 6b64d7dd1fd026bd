"""Composing and sending letters through a real SMTP server on loopback."""

from __future__ import annotations

import asyncio
import socket
import ssl
import subprocess
from datetime import UTC, datetime

import aiosmtplib
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from corrmail.config import SettingsError
from corrmail.mail.compose import Attachment, OutgoingLetter, build_message, new_message_id
from corrmail.mail.errors import (
    ConnectionFailed,
    DeliveryTimeout,
    NotDeliverable,
    PermanentRejection,
    TemporaryRejection,
    classify_smtp_exception,
)
from corrmail.mail.settings import MailSettings, Security, SmtpSettings
from corrmail.mail.tokens import TokenSigner
from corrmail.mail.transport import CaptureTransport, Envelope, SmtpTransport

SIGNER = TokenSigner(b"test-secret", "turnir.example")


def letter(message_id: str = "<l1@turnir.example>") -> OutgoingLetter:
    return OutgoingLetter(
        message_id=message_id,
        from_address="Турнир ЗЧ-2026/3 <turnir@turnir.example>",
        to=["ivan.petrov@mail.example"],
        subject="ЗЧ-2026/3, партия 12: ход 8. c3-d4",
        text="Здравствуйте, Иван Петрович!\n8. c3-d4\n",
        date=datetime(2026, 3, 12, 9, 0, tzinfo=UTC),
        reply_to=SIGNER.reply_address(12, 34),
        references=("<l0@turnir.example>", SIGNER.reply_reference(12, 34)),
        attachments=(Attachment("board.svg", b"<svg/>", "image/svg+xml", inline=True),),
    )


def test_built_message_carries_the_fixed_id_auto_submitted_and_token() -> None:
    message = build_message(letter())
    assert message["Message-ID"] == "<l1@turnir.example>"
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["Reply-To"] == SIGNER.reply_address(12, 34)
    assert SIGNER.reply_reference(12, 34) in str(message["References"])
    body = message.get_body(preferencelist=("plain",))
    assert body is not None and "8. c3-d4" in body.get_content()
    assert [part.get_filename() for part in message.iter_attachments()] == ["board.svg"]


def test_message_without_recipient_is_refused() -> None:
    with pytest.raises(ValueError, match="no recipient"):
        build_message(OutgoingLetter("<x@y>", "a@b", [], "s", "t", datetime.now(UTC)))


def test_new_message_ids_are_unique_and_in_our_domain() -> None:
    ids = {new_message_id("turnir.example") for _ in range(100)}
    assert len(ids) == 100 and all(i.endswith("@turnir.example>") for i in ids)


def test_smtp_transport_delivers_with_the_verp_envelope(smtp_server) -> None:  # type: ignore[no-untyped-def]
    settings = SmtpSettings(smtp_server.host, smtp_server.port, Security.NONE, timeout=5)

    async def run() -> str:
        async with SmtpTransport(settings) as transport:
            return await transport.send(
                build_message(letter()),
                Envelope(SIGNER.bounce_address(7), ["ivan.petrov@mail.example"]),
            )

    answer = asyncio.run(run())
    assert "accepted" in answer
    [received] = smtp_server.handler.received
    assert received.envelope_from == SIGNER.bounce_address(7)
    assert SIGNER.find_bounce_letter([received.envelope_from]) == 7
    assert received.message["Message-ID"] == "<l1@turnir.example>"
    assert received.message["Subject"] == "ЗЧ-2026/3, партия 12: ход 8. c3-d4"


def test_smtp_421_is_transient_and_550_is_permanent(smtp_server) -> None:  # type: ignore[no-untyped-def]
    smtp_server.handler.fail_next = ["421 4.3.2 Service shutting down", "550 5.1.1 No such user"]
    settings = SmtpSettings(smtp_server.host, smtp_server.port, Security.NONE, timeout=5)

    async def attempt(transport: SmtpTransport) -> str:
        return await transport.send(build_message(letter()), Envelope("b@t", ["i@m"]))

    async def run() -> None:
        async with SmtpTransport(settings) as transport:
            with pytest.raises(TemporaryRejection) as first:
                await attempt(transport)
            assert first.value.code == 421 and first.value.transient
            with pytest.raises(PermanentRejection) as second:
                await attempt(transport)
            assert second.value.code == 550 and not second.value.transient
            assert "accepted" in await attempt(transport)

    asyncio.run(run())
    assert len(smtp_server.handler.received) == 1


def test_connection_refused_is_transient() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = SmtpSettings("127.0.0.1", port, Security.NONE, timeout=2)

    async def run() -> None:
        async with SmtpTransport(settings) as transport:
            await transport.send(build_message(letter()), Envelope("b@t", ["i@m"]))

    with pytest.raises(ConnectionFailed) as caught:
        asyncio.run(run())
    assert caught.value.transient


def test_capture_transport_keeps_messages() -> None:
    transport = CaptureTransport()
    asyncio.run(transport.send(build_message(letter()), Envelope("b@t", ["i@m"])))
    assert transport.messages[0].envelope.recipients == ["i@m"]


@pytest.mark.parametrize(
    ("exc", "expected", "transient"),
    [
        (aiosmtplib.SMTPResponseException(451, "try later"), TemporaryRejection, True),
        (aiosmtplib.SMTPDataError(552, "too big"), PermanentRejection, False),
        (aiosmtplib.SMTPConnectTimeoutError("slow"), DeliveryTimeout, True),
        (aiosmtplib.SMTPServerDisconnected("gone"), ConnectionFailed, True),
        (ConnectionRefusedError(111, "refused"), ConnectionFailed, True),
        (aiosmtplib.SMTPAuthenticationError(535, "bad password"), NotDeliverable, False),
        (
            aiosmtplib.SMTPRecipientsRefused(
                [aiosmtplib.SMTPRecipientRefused(550, "no", "a@b"),
                 aiosmtplib.SMTPRecipientRefused(450, "busy", "c@d")]
            ),
            TemporaryRejection,
            True,
        ),
    ],
)
def test_classification(exc: BaseException, expected: type, transient: bool) -> None:
    classified = classify_smtp_exception(exc)
    assert type(classified) is expected
    assert classified.transient is transient


def test_classification_refuses_unrelated_exceptions() -> None:
    with pytest.raises(TypeError):
        classify_smtp_exception(KeyError("x"))


def test_settings_from_env() -> None:
    assert SmtpSettings.from_env({}) is None
    smtp = SmtpSettings.from_env(
        {"CORRMAIL_SMTP_HOST": "smtp.example", "CORRMAIL_SMTP_SECURITY": "tls",
         "CORRMAIL_SMTP_USER": "u", "CORRMAIL_SMTP_PASSWORD": "p"}
    )
    assert smtp == SmtpSettings("smtp.example", 465, Security.TLS, "u", "p", 30.0, None)
    with pytest.raises(SettingsError, match="CORRMAIL_SMTP_SECURITY"):
        SmtpSettings.from_env({"CORRMAIL_SMTP_HOST": "h", "CORRMAIL_SMTP_SECURITY": "ssl3"})
    with pytest.raises(SettingsError, match="CORRMAIL_SMTP_PORT"):
        SmtpSettings.from_env({"CORRMAIL_SMTP_HOST": "h", "CORRMAIL_SMTP_PORT": "x"})
    mail = MailSettings.from_env({"CORRMAIL_MAIL_SECRET": "s"})
    assert mail.captured and mail.from_address == "turnir@corrmail.local"
    with pytest.raises(SettingsError):
        MailSettings.from_env({})


# --- TLS and AUTH against a real aiosmtpd ---------------------------------------------------------


class Sink:
    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.received.append(bytes(envelope.content))
        return "250 Message accepted for delivery"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 (openssl), used as its own CA."""
    directory = tmp_path_factory.mktemp("tls")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return str(cert), str(key)


def _server(handler: Sink, certificate: tuple[str, str], *, implicit: bool) -> Controller:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)

    def authenticator(server, session, envelope, mechanism, auth_data):  # type: ignore[no-untyped-def]
        ok = (auth_data.login, auth_data.password) == (b"turnir", b"secret")
        # handled=False: let aiosmtpd answer the refusal itself (535).
        return AuthResult(success=ok, handled=False)

    port = _free_port()
    auth = {"authenticator": authenticator, "auth_required": True}
    if implicit:
        # aiosmtpd only knows about STARTTLS; on an implicit-TLS socket AUTH must be allowed.
        controller = Controller(handler, hostname="127.0.0.1", port=port, ssl_context=context,
                                auth_require_tls=False, **auth)
    else:
        controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=context,
                                require_starttls=True, **auth)
    controller.start()
    return controller


# The implicit-TLS server must allow AUTH "without TLS" as aiosmtpd sees it (see _server).
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("security", [Security.STARTTLS, Security.TLS])
def test_tls_and_auth(security: Security, certificate: tuple[str, str]) -> None:
    handler = Sink()
    controller = _server(handler, certificate, implicit=security is Security.TLS)
    try:
        settings = SmtpSettings("127.0.0.1", controller.port, security, "turnir", "secret",
                                timeout=10, ca_file=certificate[0])

        async def run() -> str:
            async with SmtpTransport(settings) as transport:
                return await transport.send(build_message(letter()), Envelope("b@t", ["i@m"]))

        assert "accepted" in asyncio.run(run())
        wrong = SmtpSettings("127.0.0.1", controller.port, security, "turnir", "guess",
                             timeout=10, ca_file=certificate[0])

        async def rejected() -> None:
            async with SmtpTransport(wrong) as transport:
                await transport.send(build_message(letter()), Envelope("b@t", ["i@m"]))

        with pytest.raises(NotDeliverable) as caught:
            asyncio.run(rejected())
        assert caught.value.code == 535 and not caught.value.transient
    finally:
        controller.stop()
    assert len(handler.received) == 1


def test_an_untrusted_certificate_is_not_accepted(certificate: tuple[str, str]) -> None:
    handler = Sink()
    controller = _server(handler, certificate, implicit=False)
    try:
        settings = SmtpSettings("127.0.0.1", controller.port, Security.STARTTLS, "turnir",
                                "secret", timeout=10)

        async def run() -> None:
            async with SmtpTransport(settings) as transport:
                await transport.send(build_message(letter()), Envelope("b@t", ["i@m"]))

        with pytest.raises(ConnectionFailed):
            asyncio.run(run())
    finally:
        controller.stop()
    assert handler.received == []


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
