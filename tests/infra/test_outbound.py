"""The HTTP client for users' URLs (`outbound.Outbound`), against real servers on loopback
that answer byte for byte as each test scripts: keep-alive, a connection the peer closed
while idle, answers too long, chunked or closing, redirects, calls cut short, TLS with the
host's name, and what is not HTTP at all."""

from __future__ import annotations

import asyncio
import datetime
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cardservice.infra.outbound import CallFailed, Outbound, UrlNotAllowed, resolve

OK = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"
# Answers the request on a connection (0, 1, …): bytes to send, or None to close unanswered.
Script = Callable[[int, bytes], Awaitable[bytes | None]]


class Peer:
    """A server that reads each request whole and sends what the script says."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.connections = 0
        self.requests: list[bytes] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            for number in range(1000):
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer = await self.script(number, request)
                if answer is None:
                    return
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # the client went away, or the test ended
        finally:
            writer.close()


@asynccontextmanager
async def serving(
    script: Script, host: str = "127.0.0.1", tls: ssl.SSLContext | None = None
) -> AsyncIterator[tuple[Peer, int]]:
    peer = Peer(script)
    server = await asyncio.start_server(peer.serve, host, 0, ssl=tls)
    try:
        yield peer, server.sockets[0].getsockname()[1]
    finally:
        server.close()


def always(answer: bytes | None) -> Script:
    async def script(_number: int, _request: bytes) -> bytes | None:
        return answer

    return script


async def post(client: Outbound, url: str, limit: int = 1024, body: bytes = b"{}") -> object:
    return await client.post(
        url, body, {"content-type": "application/json"}, allow_private=True, limit=limit
    )


async def test_a_connection_is_kept_alive_and_the_request_is_as_asked() -> None:
    async with serving(always(OK)) as (peer, port), Outbound() as client:
        for _ in range(3):
            answer = await client.post(
                f"http://127.0.0.1:{port}/in?x=1",
                b'{"a": 1}',
                {"webhook-id": "msg_1"},
                allow_private=True,
                limit=10,
            )
            assert (answer.status, answer.body) == (200, b"ok")
    assert peer.connections == 1 and len(peer.requests) == 3
    head, _, body = peer.requests[0].partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /in?x=1 HTTP/1.1" and body == b'{"a": 1}'
    assert f"host: 127.0.0.1:{port}".encode() in lines and b"webhook-id: msg_1" in lines


async def test_a_connection_the_peer_dropped_while_idle_is_replaced() -> None:
    """The second request on a kept connection finds it closed without an answer: the call
    is made again, once, on a new connection."""

    async def first_only(number: int, _request: bytes) -> bytes | None:
        return OK if number == 0 else None

    async with serving(first_only) as (peer, port), Outbound() as client:
        for _ in range(3):
            answer = await post(client, f"http://127.0.0.1:{port}/")
            assert answer.status == 200  # type: ignore[attr-defined]
    assert peer.connections == 3 and len(peer.requests) == 5  # 2 met a dropped connection


async def test_a_new_connection_closed_without_an_answer_fails() -> None:
    async with serving(always(None)) as (peer, port), Outbound() as client:
        with pytest.raises(CallFailed):
            await post(client, f"http://127.0.0.1:{port}/")
    assert peer.connections == 1  # not tried again: it was not a kept connection


async def test_nobody_listening_fails() -> None:
    async with serving(always(OK)) as (_peer, port):
        pass  # closed: the port is free again
    async with Outbound() as client:
        with pytest.raises(CallFailed):
            await post(client, f"http://127.0.0.1:{port}/")


async def test_an_answer_longer_than_the_limit_has_no_body_and_its_connection_is_closed() -> None:
    long = b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n" + b"x" * 100
    async with serving(always(long)) as (peer, port), Outbound() as client:
        for _ in range(2):
            answer = await post(client, f"http://127.0.0.1:{port}/", limit=10)
            assert (answer.status, answer.body) == (200, None)  # type: ignore[attr-defined]
    assert peer.connections == 2


async def test_a_chunked_answer_that_closes_is_read_whole_and_not_reused() -> None:
    chunked = (
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n"
        b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
    )
    async with serving(always(chunked)) as (peer, port), Outbound() as client:
        for _ in range(2):
            answer = await post(client, f"http://127.0.0.1:{port}/")
            assert answer.body == b"abcde"  # type: ignore[attr-defined]
    assert peer.connections == 2


async def test_a_redirect_is_an_answer_not_followed() -> None:
    moved = b"HTTP/1.1 302 Found\r\nlocation: http://10.0.0.1/\r\ncontent-length: 0\r\n\r\n"
    async with serving(always(moved)) as (peer, port), Outbound() as client:
        answer = await post(client, f"http://127.0.0.1:{port}/")
    assert answer.status == 302 and len(peer.requests) == 1  # type: ignore[attr-defined]


async def test_a_call_cut_short_does_not_leave_its_answer_to_the_next() -> None:
    """The first answer comes after the caller gave up; the next call must not read it."""

    async def slow_first(_number: int, _request: bytes) -> bytes | None:
        if len(peer.requests) == 1:
            await asyncio.sleep(0.5)
            return b"HTTP/1.1 500 Late\r\ncontent-length: 0\r\n\r\n"
        return OK

    async with serving(slow_first) as (peer, port), Outbound() as client:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.1):
                await post(client, f"http://127.0.0.1:{port}/")
        answer = await post(client, f"http://127.0.0.1:{port}/")
    assert answer.status == 200 and peer.connections == 2  # type: ignore[attr-defined]


async def test_what_is_not_http_fails() -> None:
    async with serving(always(b"SSH-2.0-OpenSSH\r\n\r\n")) as (_peer, port), Outbound() as client:
        with pytest.raises(CallFailed):
            await post(client, f"http://127.0.0.1:{port}/")


async def test_a_name_that_resolves_to_loopback_is_refused_unless_private_is_allowed() -> None:
    with pytest.raises(UrlNotAllowed):
        await resolve("http://localhost:9/", allow_private=False)
    with pytest.raises(UrlNotAllowed):
        await resolve("http://[::ffff:127.0.0.1]:9/", allow_private=False)
    assert (await resolve("http://localhost:9/x", allow_private=True)).path == "/x"


def _certificate(tmp_path: Path, name: str) -> tuple[Path, Path, bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(pem)
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path, pem


async def test_tls_names_the_host_and_verifies_its_certificate(tmp_path: Path) -> None:
    """The connection goes to the address checked; SNI and the certificate check use the
    URL's host name. A certificate for another name is refused."""
    cert, key, pem = _certificate(tmp_path, "localhost")
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    names: list[str | None] = []
    server_tls.sni_callback = lambda _sock, name, _ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    address = (await resolve("https://localhost:1/", allow_private=True)).address
    trusting = ssl.create_default_context(cadata=pem.decode())
    async with serving(always(OK), address, server_tls) as (peer, port):
        async with Outbound(trusting) as client:
            answer = await post(client, f"https://localhost:{port}/secure")
            assert (answer.status, answer.body) == (200, b"ok")  # type: ignore[attr-defined]
            literal = f"https://{address}:{port}/" if ":" not in address else None
            if literal:  # the certificate names localhost, not the address
                with pytest.raises(CallFailed):
                    await post(client, literal)
        async with Outbound() as untrusting:  # the system's authorities do not know it
            with pytest.raises(CallFailed):
                await post(untrusting, f"https://localhost:{port}/")
    assert names[0] == "localhost" and peer.requests[0].startswith(b"POST /secure HTTP/1.1")


async def test_a_header_that_cannot_be_sent_fails_before_connecting() -> None:
    async with serving(always(OK)) as (peer, port), Outbound() as client:
        with pytest.raises(CallFailed):
            await client.post(
                f"http://127.0.0.1:{port}/",
                b"{}",
                {"x-broken": "a\r\nb"},
                allow_private=True,
                limit=10,
            )
    assert peer.connections == 0
