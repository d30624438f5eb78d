"""OpenTelemetry (`CARDSERVICE_OTEL_ENDPOINT`): the spans of real requests reach a real OTLP/HTTP
receiver on the loopback (a tiny HTTP server recording what is POSTed to it), named by route
template, and carry no credential, id, email or card number."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from cardservice.app import create_app
from cardservice.config import Settings
from tests.factories import make_card, make_mfa_code, make_user
from tests.log_scan import secrets_in


@dataclass
class Receiver:
    url: str
    posts: list[tuple[str, bytes]] = field(default_factory=list)  # (path, body)

    def spans(self) -> list[Any]:
        found = []
        for _path, body in self.posts:
            request = ExportTraceServiceRequest.FromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    found += list(scope.spans)
        return found


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    recorded = Receiver("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            recorded.posts.append((self.path, body))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    recorded.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield recorded
    server.shutdown()
    server.server_close()


def _attributes(span: Any) -> dict[str, object]:
    return {
        item.key: getattr(item.value, item.value.WhichOneof("value")) for item in span.attributes
    }


async def test_a_request_span_arrives_with_its_route_template_and_nothing_secret(
    settings: Settings, receiver: Receiver
) -> None:
    app = create_app(settings.model_copy(update={"otel_endpoint": receiver.url}))
    try:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            user = await make_user(app)
            _account, card = await make_card(app, client, user)
            code = await make_mfa_code(app, user)
            shown = await client.get(f"/card/{card}", params={"_code": code})
            assert shown.status_code == 200, shown.text
            missing = await client.get("/no/such/path", headers=user.headers)
            assert missing.status_code == 404
        app.state.tracing.flush()
    finally:
        app.state.tracing.shutdown()
        await app.state.db.dispose()
        await app.state.rate_limiter.close()
    assert {path for path, _body in receiver.posts} == {"/v1/traces"}
    spans = {span.name: span for span in receiver.spans()}
    assert {"POST /card/buy", "GET /card/{cardUuid}", "GET unmatched"} <= set(spans)
    assert _attributes(spans["GET /card/{cardUuid}"]) == {
        "http.request.method": "GET",
        "http.route": "/card/{cardUuid}",
        "http.response.status_code": 200,
    }
    assert _attributes(spans["POST /card/buy"])["http.response.status_code"] == 201
    exported = b"".join(body for _path, body in receiver.posts)
    for secret in (user.token, code, card, str(user.uuid), user.email):
        assert secret.encode() not in exported
    assert not secrets_in(exported.decode("latin-1"))


def test_tracing_without_its_packages_is_refused_at_start(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `otel` extra missing: a clear start-up error, never a service silently untraced."""
    import sys

    from cardservice.observability.tracing import MissingTracingPackages

    monkeypatch.setitem(sys.modules, "opentelemetry.exporter.otlp.proto.http.trace_exporter", None)
    with pytest.raises(MissingTracingPackages, match="cardservice\\[otel\\]"):
        create_app(settings.model_copy(update={"otel_endpoint": "http://127.0.0.1:4318"}))
