"""Mail over TLS with a login (docs/mail.md#configuration), against a real aiosmtpd on 127.0.0.1
whose certificate this test makes (a CA and a server certificate for 127.0.0.1, with
`cryptography`): STARTTLS, required by the server before AUTH, and TLS from the connection's
start (`smtps://`); the certificate verified against `CARDSERVICE_SMTP_CA_FILE` (the system's
CAs do not know it: refused, tried again later). And the `mails` table's pruning
(docs/mail.md#delivery): what was sent or given up longer than the retention ago goes, a
pending mail never."""

from __future__ import annotations

import asyncio
import ipaddress
import ssl
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.mail.service import prune_mails, request_sign_in
from cardservice.mail.transport import MailFailed, MailRefused, SmtpServer, deliver
from cardservice.models.base import utcnow
from cardservice.webhooks.worker import DeliveryWorker
from tests.factories import make_user
from tests.mail.conftest import MAIL_FROM
from tests.mail.inbox import Inbox
from tests.teams.team import rows

USER, PASSWORD = "cards@relay", "s3cret:pass"
ENCODED = "cards%40relay:s3cret%3Apass"  # as the URL carries them


@dataclass(frozen=True)
class Certificates:
    ca_file: Path
    server: ssl.SSLContext


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    """A CA of the test's own and the SMTP server's certificate for 127.0.0.1, signed by it."""
    folder = tmp_path_factory.mktemp("smtp-tls")
    now = datetime.now(UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("Test mail CA"))
        .issuer_name(_name("Test mail CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .sign(ca_key, hashes.SHA256())
    )
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "server.pem").write_bytes(server.public_bytes(pem))
    (folder / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "server.pem", folder / "server.key")
    return Certificates(folder / "ca.pem", context)


def _authenticator(
    _server: Any, _session: Any, _envelope: Any, _mechanism: str, data: Any
) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(),
        PASSWORD.encode(),
    )
    return AuthResult(success=ok, auth_data=data if ok else None)


def _guarded(certificates: Certificates, implicit: bool, credentials: str = ENCODED) -> Inbox:
    """An SMTP server that takes mail only over TLS and only after AUTH."""
    tls: dict[str, Any] = (
        {"ssl_context": certificates.server}
        if implicit
        else {"tls_context": certificates.server, "require_starttls": True}
    )
    return Inbox(
        "smtps" if implicit else "smtp",
        credentials,
        authenticator=_authenticator,
        auth_require_tls=not implicit,  # aiosmtpd knows only STARTTLS's TLS for this check
        auth_required=True,
        **tls,
    )


@pytest.fixture
def starttls(certificates: Certificates) -> Iterator[Inbox]:
    inbox = _guarded(certificates, implicit=False)
    inbox.start()
    yield inbox
    inbox.stop()


def _message(to: str = "ada@example.com") -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = MAIL_FROM, to, "Over TLS"
    message.set_content("Hello.")
    return message


async def test_starttls_then_auth_and_the_certificate_is_verified(
    starttls: Inbox, certificates: Certificates
) -> None:
    ca_file = str(certificates.ca_file)
    await deliver(SmtpServer.from_url(starttls.url, ca_file), _message(), 10)
    [arrived] = await starttls.wait_for(1)
    assert (arrived["Subject"], arrived["X-Over-TLS"]) == ("Over TLS", "yes")
    assert starttls.logins == [USER]
    with pytest.raises(MailFailed) as unknown_ca:  # the system's CAs: not this certificate
        await deliver(SmtpServer.from_url(starttls.url), _message(), 10)
    assert not isinstance(unknown_ca.value, MailRefused)  # tried again, not given up
    assert len(starttls.messages) == 1


async def test_tls_from_the_start_with_auth(certificates: Certificates) -> None:
    inbox = _guarded(certificates, implicit=True)
    inbox.start()
    try:
        server = SmtpServer.from_url(inbox.url, str(certificates.ca_file))
        assert server.implicit_tls
        await deliver(server, _message(), 10)
        [arrived] = await inbox.wait_for(1)
        assert arrived["X-Over-TLS"] == "yes" and inbox.logins == [USER]
    finally:
        inbox.stop()


@pytest.fixture
def settings(settings: Settings, starttls: Inbox, certificates: Certificates) -> Settings:
    """The service mailing through the guarded server (STARTTLS, AUTH), its CA named."""
    return settings.model_copy(
        update={"smtp_url": starttls.url, "smtp_ca_file": certificates.ca_file}
    )


async def test_the_service_mails_over_starttls_with_its_login(
    app: FastAPI, client: httpx.AsyncClient, starttls: Inbox, worker: DeliveryWorker
) -> None:
    user = await make_user(app)
    answer = await client.post("/app/sign-in", json={"email": user.email})
    assert answer.status_code == 202
    [mail] = await starttls.wait_for(1)
    assert (mail["To"], mail["X-Over-TLS"]) == (user.email, "yes")
    assert starttls.logins == [USER]
    for _ in range(200):  # the outcome is written after the server's answer
        if await rows(app, "SELECT status FROM mails") == [("sent",)]:
            break
        await asyncio.sleep(0.05)
    assert await rows(app, "SELECT status FROM mails") == [("sent",)]


async def test_mails_past_their_retention_are_pruned_and_pending_ones_kept(
    app: FastAPI,
) -> None:
    db, now = app.state.db, utcnow()
    users = [await make_user(app) for _ in range(4)]
    ages = (100, 100, 100, 10)  # days since each was queued
    for user, age in zip(users, ages, strict=True):
        assert await request_sign_in(db, user.email, now - timedelta(days=age))
    statuses = ("sent", "failed", "pending", "sent")

    async def settle(tx: Tx) -> None:
        for user, status in zip(users, statuses, strict=True):
            await tx.execute("UPDATE mails SET status = $1 WHERE user_uuid = $2", status, user.uuid)

    await db.transact(settle)
    assert await prune_mails(db, now, timedelta(days=90)) == 2
    kept = await rows(app, "SELECT user_uuid, status FROM mails ORDER BY id")
    assert [(uuid.UUID(str(u)), s) for u, s in kept] == [
        (users[2].uuid, "pending"),  # never, however old
        (users[3].uuid, "sent"),  # within the retention
    ]
    assert await prune_mails(db, now, timedelta(days=90)) == 0
