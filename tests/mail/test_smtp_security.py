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
import logging
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
from prometheus_client import REGISTRY

from cardservice.cli.doctor import CheckFailed
from cardservice.cli.doctor import _mail as doctor_mail
from cardservice.config import Settings
from cardservice.db.sql import Tx, as_datetime
from cardservice.mail.service import prune_mails, request_sign_in
from cardservice.mail.transport import MailFailed, MailRefused, SmtpServer, deliver
from cardservice.models.base import utcnow
from cardservice.webhooks.worker import DeliveryWorker, running_worker
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
    """The test's one login. A refusal says `handled=False`: aiosmtpd then answers it `535`
    (its default `handled=True` means the authenticator answered itself, and nothing is sent)."""
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
        USER.encode(),
        PASSWORD.encode(),
    )
    return AuthResult(success=ok, handled=ok, auth_data=data if ok else None)


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


async def test_a_wrong_password_keeps_the_mail_queued_and_tried_again_later(
    app: FastAPI, starttls: Inbox, certificates: Certificates, caplog: pytest.LogCaptureFixture
) -> None:
    """The server answers the login `535`: the operator's to fix, not the mail's fault — the
    mail stays `pending` with the server's answer as its error, tried again on the retry
    schedule (docs/mail.md#delivery), counted `retrying`, logged without the password; the
    loop goes on."""
    state, user = app.state, await make_user(app)
    wrong = state.settings.model_copy(
        update={"smtp_url": starttls.url.replace("s3cret%3Apass", "wr0ng"),
                "smtp_ca_file": certificates.ca_file}
    )  # fmt: skip
    retrying = ("cardservice_mails_total", {"kind": "sign_in", "outcome": "retrying"})
    before = REGISTRY.get_sample_value(*retrying) or 0
    asked = utcnow()
    assert await request_sign_in(state.db, user.email, asked)
    with caplog.at_level(logging.INFO, logger="cardservice.mail"):
        async with running_worker(state.db, wrong, state.cipher, state.outbound, ()):
            first = (asked, *await _attempted(app, 1, asked))
            due = utcnow()

            async def due_now(tx: Tx) -> None:  # the first retry's 5 s, passed
                await tx.execute("UPDATE mails SET next_attempt_at = $1", due)

            await state.db.transact(due_now)
            second = (due, *await _attempted(app, 2, due))
    for (start, error, next_at, seen), retry in ((first, 5), (second, 60)):
        assert "SMTPAuthenticationError" in error and "535" in error
        # attempted between `start` and `seen`: the schedule's step (± its 10 %) from then
        assert next_at - start >= timedelta(seconds=retry * 0.9)
        assert next_at - seen <= timedelta(seconds=retry * 1.1)
    assert starttls.messages == [] and starttls.logins == []
    assert REGISTRY.get_sample_value(*retrying) == before + 2
    logged = [r for r in caplog.records if r.getMessage() == "mail attempt"]
    assert [getattr(r, "outcome") for r in logged] == ["retrying", "retrying"]
    assert all("wr0ng" not in str(r.__dict__) for r in caplog.records)


async def _attempted(app: FastAPI, attempt: int, due: datetime) -> tuple[str, datetime, datetime]:
    """(last_error, next_attempt_at, a time after it was recorded) once attempt `attempt`
    of the mail due at `due` is recorded (due again later), the mail still pending."""
    sql = "SELECT status, attempts, last_error, next_attempt_at FROM mails"
    for _ in range(600):
        [(status, attempts, error, next_at)] = await rows(app, sql)
        if (status, attempts) == ("pending", attempt) and as_datetime(next_at) > due:
            return error, as_datetime(next_at), utcnow()
        await asyncio.sleep(0.05)
    raise AssertionError(await rows(app, sql))


async def test_the_doctor_logs_in_to_the_smtp_server_and_names_a_refused_login(
    settings: Settings, starttls: Inbox
) -> None:
    """`cardservice doctor`'s mail line (docs/operations.md): the service's own login, then
    QUIT; a wrong password fails with the server's answer, never the password."""
    assert await doctor_mail(settings) == f"127.0.0.1:{starttls.port} answers (logged in as {USER})"
    wrong = settings.model_copy(update={"smtp_url": starttls.url.replace("s3cret%3Apass", "wr0ng")})
    with pytest.raises(CheckFailed) as refused:
        await doctor_mail(wrong)
    assert "SMTPAuthenticationError" in str(refused.value) and "535" in str(refused.value)
    assert "wr0ng" not in str(refused.value) and starttls.messages == []
