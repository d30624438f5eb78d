"""The 3 s network deadline with a slow decision endpoint, a decline by the endpoint, and
mutual TLS with a client certificate required (docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

import asyncio
import datetime as dt
import ssl
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi import FastAPI
from starlette.responses import JSONResponse, Response

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient
from cardservice.config import Settings
from cardservice.db import deadlines
from cardservice.network.host import ANSWER_WITHIN
from cardservice.network.listener import running_listener
from tests.decisions.conftest import Receiver, use_receiver
from tests.factories import assert_ledger_consistent, stored_transactions
from tests.network.conftest import Network, free_port, issue_card


async def test_a_slow_decision_endpoint_is_answered_within_3_seconds(
    app: FastAPI,
    client: httpx.AsyncClient,
    network: Network,
    receiver: Receiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An endpoint allowed 3 s (its `timeout_ms`) that never answers in time is given the
    network's 2 s (`ANSWER_WITHIN`) alone, so that the answer leaves within the network's
    3 s: what the wait for it was bounded by is read where it is granted
    (`deadlines.allow`, which the same bound cuts), not from a clock."""
    granted: list[float] = []
    allow = deadlines.allow

    def granting(seconds: float) -> None:
        granted.append(seconds)
        allow(seconds)

    monkeypatch.setattr(deadlines, "allow", granting)

    async def slow(_event: dict[str, Any]) -> Response:
        await asyncio.sleep(4)
        return JSONResponse({"approved": False})

    user, card = await issue_card(app, client)
    receiver.handler = slow
    await use_receiver(client, user, receiver, timeout_ms=3000, on_timeout="approve")
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "00"  # the endpoint's `on_timeout`
    assert granted == [ANSWER_WITHIN] and ANSWER_WITHIN < 3.0
    [purchase] = await stored_transactions(app, "card_purchase")
    assert purchase.decision == "timeout"
    await assert_ledger_consistent(app)


async def test_a_decline_by_the_endpoint_is_05(
    app: FastAPI, client: httpx.AsyncClient, network: Network, receiver: Receiver
) -> None:
    async def decline(_event: dict[str, Any]) -> Response:
        return JSONResponse({"approved": False, "reason": "not today"})

    user, card = await issue_card(app, client)
    receiver.handler = decline
    await use_receiver(client, user, receiver)
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "05" and 38 not in answer.fields


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _certificate(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: tuple[str, ec.EllipticCurvePrivateKey] | None,
) -> x509.Certificate:
    now = dt.datetime.now(dt.UTC)
    issuer_name, signer = (subject, key) if issuer is None else issuer
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer_name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=1))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=issuer is None, path_length=None), critical=True)
    )
    if issuer is not None:
        builder = builder.add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(__import__("ipaddress").ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
    return builder.sign(signer, hashes.SHA256())


def _write(
    directory: Path, name: str, certificate: x509.Certificate, key: ec.EllipticCurvePrivateKey
) -> tuple[Path, Path]:
    cert_path, key_path = directory / f"{name}.pem", directory / f"{name}.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
async def tls_network(app: FastAPI, tmp_path: Path) -> AsyncIterator[tuple[int, Path]]:
    """A listener requiring client certificates of a CA made here; yields (port, directory)."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("test acquirer CA", ca_key, None)
    _write(tmp_path, "ca", ca, ca_key)
    for name in ("server", "client"):
        key = ec.generate_private_key(ec.SECP256R1())
        _write(tmp_path, name, _certificate(f"{name}.test", key, ("test acquirer CA", ca_key)), key)
    settings: Settings = app.state.settings.model_copy(
        update={
            "iso8583_port": free_port(),
            "iso8583_tls_cert": tmp_path / "server.pem",
            "iso8583_tls_key": tmp_path / "server.key",
            "iso8583_tls_client_ca": tmp_path / "ca.pem",
        }
    )
    state = app.state
    async with running_listener(settings, state.db, state.cipher, state.outbound):
        assert settings.iso8583_port is not None
        yield settings.iso8583_port, tmp_path


def _client_context(directory: Path, with_certificate: bool) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=directory / "ca.pem")
    if with_certificate:
        context.load_cert_chain(directory / "client.pem", directory / "client.key")
    return context


async def test_mutual_tls_requires_a_client_certificate(tls_network: tuple[int, Path]) -> None:
    port, directory = tls_network
    trusted = await NetworkClient.connect("127.0.0.1", port, _client_context(directory, True))
    answer = await trusted.request("0800", messages.echo("000001", "1124120000"))
    assert answer.fields[39] == "00"
    await trusted.close()
    with pytest.raises((ssl.SSLError, ConnectionError, TimeoutError)):
        anonymous = await NetworkClient.connect(
            "127.0.0.1", port, _client_context(directory, False)
        )
        try:
            await anonymous.request("0800", messages.echo("000002", "1124120000"), wait=3)
        finally:
            await anonymous.close()
