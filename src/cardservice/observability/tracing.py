"""Optional OpenTelemetry traces: one span per request, exported by OTLP/HTTP.

On when `CARDSERVICE_OTEL_ENDPOINT` is set (the collector's base URL, e.g.
`http://otel-collector:4318`; spans go to `<endpoint>/v1/traces`), with the optional extra
`pip install 'cardservice[otel]'` (`opentelemetry-sdk`, `opentelemetry-exporter-otlp-proto-http`);
set without it, the service refuses to start.

The request middleware records each span when the response has ended, from what the metrics
already hold: the name `METHOD /route/{template}` and the attributes `http.request.method`,
`http.route` and `http.response.status_code` (an error status from 500). Nothing else: no URL,
path, query string, header or body, so no token, MFA code, card number, email or id can reach a
collector. Spans leave in batches on the SDK's own thread; the provider is this app's (never the
process-global one) and is flushed when the app stops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Tracer

SERVICE_NAME = "cardservice"


class MissingTracingPackages(RuntimeError):
    """`OTEL_ENDPOINT` is set and the `otel` extra is not installed."""


class Tracing:
    """The app's tracer provider and its tracer."""

    def __init__(self, endpoint: str) -> None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
        except ImportError as missing:
            raise MissingTracingPackages(
                "CARDSERVICE_OTEL_ENDPOINT is set but OpenTelemetry is not installed: "
                "pip install 'cardservice[otel]'"
            ) from missing
        self.provider: TracerProvider = TracerProvider(
            resource=Resource.create({"service.name": SERVICE_NAME}), shutdown_on_exit=False
        )
        exporter = OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces")
        self.provider.add_span_processor(BatchSpanProcessor(exporter))
        self.tracer: Tracer = self.provider.get_tracer("cardservice")

    def record_request(
        self, method: str, route: str, status: int, started_ns: int, ended_ns: int
    ) -> None:
        """One server span for an answered request (its route template, never its path)."""
        from opentelemetry.trace import SpanKind, Status, StatusCode

        span = self.tracer.start_span(
            f"{method} {route}",
            kind=SpanKind.SERVER,
            start_time=started_ns,
            attributes={
                "http.request.method": method,
                "http.route": route,
                "http.response.status_code": status,
            },
        )
        if status >= 500:
            span.set_status(Status(StatusCode.ERROR))
        span.end(end_time=ended_ns)

    def flush(self) -> None:
        self.provider.force_flush()

    def shutdown(self) -> None:
        self.provider.shutdown()


def tracing_for(endpoint: str) -> Tracing | None:
    """The app's tracing when an endpoint is configured."""
    return Tracing(endpoint) if endpoint else None
