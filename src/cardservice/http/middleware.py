"""The application's middleware stack: request ids, the headers every response carries,
access logs, request metrics, the last-resort 500 (no stack trace leaves the service), and
the registered exception handlers."""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Sequence

from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardservice.db.replica import REQUEST_STATE
from cardservice.encoding import dumps
from cardservice.http.route import RouteTable
from cardservice.observability import metrics
from cardservice.observability.tracing import Tracing

logger = logging.getLogger("cardservice.access")
REQUEST_ID_PATTERN = re.compile(r"^[A-Za-z0-9._-]{8,128}$")
NOSNIFF = (b"x-content-type-options", b"nosniff")


def middleware_stack(app: Starlette, table: RouteTable, cors_origins: Sequence[str]) -> ASGIApp:
    """What serves `app`'s requests: `RequestContextMiddleware`, CORS when `cors_origins`
    are configured, Starlette's `ExceptionMiddleware` with the handlers registered so far
    (`add_exception_handler`), then `table` in front of the router (`in_front_of`: the API
    routes straight from the table, the rest through the router with FastAPI's
    `AsyncExitStackMiddleware`, which FastAPI's own request handler, serving /docs, needs).
    Assigned to `app.middleware_stack`, which Starlette would otherwise build at the first
    request; adding middleware later fails.

    FastAPI's own stack has two layers more, outside `RequestContextMiddleware`, each a
    coroutine frame a request, and neither can act: `ServerErrorMiddleware` (which wraps
    `send` as well) and FastAPI's exception telemetry see only the exceptions that
    `RequestContextMiddleware` lets through, and it answers every one itself. A handler for
    500 or `Exception` (Starlette gives those to `ServerErrorMiddleware`) is refused: the
    last resort is `RequestContextMiddleware`'s, with the docs/api.md#errors body. With the
    route handlers under the one `ExceptionMiddleware` (`route.handler_of`), a read by uuid
    on SQLite spent 3 and 1 µs in Starlette's and FastAPI's layers against 5 and 8 before
    (`python -m bench.profile --budget --databases sqlite --endpoints "GET
    /transaction/{uuid}"`, load 3.8; docs/performance.md, "The read by uuid on SQLite")."""
    handlers = dict(app.exception_handlers)
    if 500 in handlers or Exception in handlers:
        raise TypeError("the last-resort 500 is RequestContextMiddleware's, not a handler's")
    served = table.in_front_of(AsyncExitStackMiddleware(app.router))
    served = ExceptionMiddleware(served, handlers=handlers)
    if cors_origins:
        served = CORSMiddleware(
            served,
            allow_origins=cors_origins,
            allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID", "ETag", "Idempotent-Replayed", "Retry-After"],
        )
    return RequestContextMiddleware(served, app.state.tracing)


class RequestContextMiddleware:
    """Gives every request an `X-Request-ID` (the client's, if well-formed) and logs it;
    every response also says `X-Content-Type-Options: nosniff` (docs/api.md#hardening): no browser
    guesses a type other than the one we declare."""

    def __init__(self, app: ASGIApp, tracing: Tracing | None) -> None:
        self.app, self.tracing = app, tracing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = self._request_id(scope)
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        request_state = REQUEST_STATE.set(state)  # the caller, for the standby's pins
        started = time.perf_counter()
        tracing = self.tracing
        started_ns = time.time_ns() if tracing is not None else 0  # the trace span's clock
        status = 500
        response_started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                response_started = True
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                    NOSNIFF,
                ]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            logger.exception("unhandled error", extra={"request_id": request_id})
            if not response_started:
                await self._internal_error(send_with_id, request_id)
        finally:
            REQUEST_STATE.reset(request_state)
            elapsed = time.perf_counter() - started
            route = metrics.route_template(scope)
            metrics.observe_request(scope["method"], route, status, elapsed)
            if tracing is not None:
                tracing.record_request(scope["method"], route, status, started_ns, time.time_ns())
            if logger.isEnabledFor(logging.INFO):
                logger.info(
                    "request",
                    extra={
                        "request_id": request_id,
                        "method": scope["method"],
                        "path": scope["path"],  # never the query string: it may hold a code
                        "status": status,
                        "ms": round(elapsed * 1000, 2),
                        "user": state.get("user_uuid"),
                    },
                )

    @staticmethod
    def _request_id(scope: Scope) -> str:
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                candidate: str = value.decode("latin-1")
                if REQUEST_ID_PATTERN.match(candidate):
                    return candidate
        return os.urandom(16).hex()  # as random as uuid4().hex, without the UUID object

    @staticmethod
    async def _internal_error(send: Send, request_id: str) -> None:
        body = dumps(
            {
                "success": False,
                "message": "An unexpected error occurred.",
                "code": "internal_error",
                "request_id": request_id,
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 500,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
