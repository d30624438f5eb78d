"""create_app(): middleware, routers, error handlers, nothing else."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Match, Route

from cardservice import __version__, runtime
from cardservice.accounts.routes import router as accounts_router
from cardservice.attachments.routes import router as attachments_router
from cardservice.auth import TokenCache
from cardservice.auth.routes import router as auth_router
from cardservice.cards.routes import router as cards_router
from cardservice.clearing.dispute_routes import router as clearing_disputes_router
from cardservice.clearing.routes import router as clearing_router
from cardservice.config import Settings
from cardservice.dashboard import attachment_pages as dashboard_attachments
from cardservice.dashboard import buy_pages as dashboard_buy
from cardservice.dashboard import card_details_pages as dashboard_card_details
from cardservice.dashboard import card_pages as dashboard_cards
from cardservice.dashboard import console as operator_console
from cardservice.dashboard import console_actions as operator_console_actions
from cardservice.dashboard import console_pages as operator_console_pages
from cardservice.dashboard import errors as dashboard_errors
from cardservice.dashboard import pages as dashboard_pages
from cardservice.dashboard import signin as dashboard_signin
from cardservice.dashboard import statement_pages as dashboard_statements
from cardservice.dashboard import team_pages as dashboard_team
from cardservice.dashboard import token_pages as dashboard_tokens
from cardservice.dashboard import topup_pages as dashboard_topups
from cardservice.dashboard import transaction_pages as dashboard_transactions
from cardservice.dashboard import webhook_pages as dashboard_webhooks
from cardservice.dashboard.web import STATIC_DIR as DASHBOARD_STATIC
from cardservice.db.unavailable import HANDLED, is_database_unavailable
from cardservice.decisions.routes import router as decisions_router
from cardservice.dictionaries.routes import router as dictionaries_router
from cardservice.disputes.routes import router as disputes_router
from cardservice.errors import (
    DatabaseUnavailable,
    MethodNotAllowed,
    NotFound,
    ServiceError,
    ValidationFailed,
)
from cardservice.health.routes import router as health_router
from cardservice.http.middleware import middleware_stack
from cardservice.http.openapi import build_openapi
from cardservice.http.ratelimit import RateLimiter
from cardservice.http.route import RouteTable
from cardservice.http.router import JSONResponse
from cardservice.infra.processes import terminated_when_orphaned
from cardservice.mail.routes import router as mail_router
from cardservice.observability import metrics
from cardservice.observability.logs import configure_logging
from cardservice.observability.tracing import tracing_for
from cardservice.operator.acs_routes import router as acs_router
from cardservice.operator.audit_routes import router as operator_audit_router
from cardservice.operator.books_routes import router as operator_books_router
from cardservice.operator.card_routes import router as operator_cards_router
from cardservice.operator.card_testing_routes import router as card_testing_router
from cardservice.operator.catalogue_routes import router as catalogue_router
from cardservice.operator.readback_routes import router as operator_readback_router
from cardservice.operator.routes import router as operator_router
from cardservice.operator.webhook_routes import router as operator_webhooks_router
from cardservice.payments.routes import router as payments_router
from cardservice.programs.routes import router as programs_router
from cardservice.sandbox.routes import router as sandbox_router
from cardservice.statements.routes import router as statements_router
from cardservice.teams.routes import router as teams_router
from cardservice.tokens.routes import router as tokens_router
from cardservice.topups.routes import operator_router as operator_topups_router
from cardservice.topups.routes import router as topups_router
from cardservice.transactions.routes import router as transactions_router
from cardservice.users.routes import router as users_router
from cardservice.webhooks import running_worker
from cardservice.webhooks.event_routes import router as events_router
from cardservice.webhooks.routes import router as webhooks_router

DESCRIPTION = (
    "Virtual cards on accounts, a double-entry ledger, transactions, receipts and 3DS codes. "
    "Authenticate with `Authorization: Bearer cs_…` or an MFA code in `?_code=`."
)


FASTAPI_TELEMETRY_OFF: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


def _error_response(error: ServiceError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status_code, headers=error.headers)


async def _service_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return _error_response(exc)


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    if dashboard_errors.wants_page(request):  # a dashboard address that names nothing
        return dashboard_errors.error_page(request, 404)
    errors: dict[str, list[str]] = {}
    for item in exc.errors():
        loc = [str(part) for part in item.get("loc", ())[1:]] or ["request"]
        errors.setdefault(".".join(loc), []).append(str(item.get("msg", "invalid")))
    return _error_response(ValidationFailed(errors=errors))


def _allowed_methods(request: Request) -> str:
    """Every method of every route on the request's path (a path served by several routes,
    as `/webhook-endpoints/{uuid}`, answers 405 from the first one, which knows only its own)."""
    methods: set[str] = set()
    for route in request.app.state.api_routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


def _not_found_message(request: Request) -> str:
    """An unmatched path under the transaction image says what docs/api.md#errors demands."""
    if request.url.path.startswith("/transaction/jpg/"):
        return "Transaction not found"
    return "No such endpoint or resource."


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if dashboard_errors.wants_page(request):  # HTML for a person, not the API's JSON
        page = dashboard_errors.error_page(request, exc.status_code)
        if exc.status_code == 405:  # an /app path of the API (`POST /app/sign-in`) too
            page.headers["Allow"] = _allowed_methods(request)
        return page
    if exc.status_code == 405:
        return _error_response(MethodNotAllowed(headers={"Allow": _allowed_methods(request)}))
    if exc.status_code == 404:
        return _error_response(NotFound(_not_found_message(request)))
    return _error_response(ServiceError(str(exc.detail), code="http_error"))


async def _database_error(_request: Request, exc: Exception) -> JSONResponse:
    """503 + Retry-After while the database cannot be reached; any other error stays a 500."""
    if not is_database_unavailable(exc):
        raise exc
    metrics.count_database_unavailable()
    return _error_response(DatabaseUnavailable())


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build one service instance: its database, rate limiter and card-number cipher."""
    settings = settings or Settings()
    configure_logging(settings.log_level, settings.log_format)
    routers = [
        health_router,
        auth_router,
        dictionaries_router,
        accounts_router,
        statements_router,
        cards_router,
        tokens_router,
        decisions_router,
        transactions_router,
        disputes_router,
        teams_router,
        users_router,
        mail_router,
        attachments_router,
        payments_router,
        events_router,
        webhooks_router,
        operator_router,
        operator_audit_router,
        operator_books_router,
        card_testing_router,
        operator_readback_router,
        operator_cards_router,
        operator_webhooks_router,
        clearing_router,
        clearing_disputes_router,
        programs_router,
        catalogue_router,
        acs_router,
        operator_topups_router,
        topups_router,
        dashboard_signin.router,
        dashboard_pages.router,
        dashboard_buy.router,  # /app/cards/new before /app/cards/{cardUuid}
        dashboard_cards.router,
        dashboard_card_details.router,
        dashboard_tokens.router,
        dashboard_webhooks.router,
        dashboard_attachments.router,
        dashboard_transactions.router,
        dashboard_team.router,
        dashboard_statements.router,
        dashboard_topups.router,
        operator_console.router,
        operator_console_pages.router,
        operator_console_actions.router,
        dashboard_errors.router,
    ]
    if settings.sandbox_enabled:
        routers.append(sandbox_router)
    api_routes = [route for router in routers for route in router.routes]
    table = RouteTable(api_routes)  # refuses at start-up what its handlers do not implement
    app = FastAPIOffline(  # /docs with Swagger UI's assets from the installed package
        title="cardservice",
        version=__version__,
        description=DESCRIPTION,
        docs_url="/docs",
        redoc_url=None,
        static_url="/static/docs",
        favicon_url="/static/docs/favicon.png",
        routes=[table],
        lifespan=_lifespan,
        redirect_slashes=False,  # its 307 named whatever host the request's Host header said
        # FastAPI's own OpenTelemetry follows the process-global providers: off, so that no
        # span of it carries a request's path (our spans: tracing.py), and so that a request
        # does not ask the providers whether they are configured (3 µs each, measured)
        telemetry=FASTAPI_TELEMETRY_OFF,
    )
    app.state.settings = settings
    app.state.api_routes = api_routes  # the declarations: the OpenAPI document, 405s
    parts = runtime.build(settings)  # the database with its hooks, cipher, client, jobs
    app.state.runtime = parts
    app.state.db = parts.db
    app.state.rate_limiter = RateLimiter(settings.redis_url, settings.workers)
    app.state.tokens = TokenCache(settings.auth_cache_seconds)
    app.state.cipher = parts.cipher
    app.state.outbound = parts.outbound
    app.state.tracing = tracing_for(settings.otel_endpoint)
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    for database_error in HANDLED:
        app.add_exception_handler(database_error, _database_error)
    app.mount("/app/static", StaticFiles(directory=DASHBOARD_STATIC), name="dashboard-static")
    app.middleware_stack = middleware_stack(app, table, settings.cors_origin_list)

    def openapi() -> dict[str, Any]:
        return build_openapi(app)

    app.openapi = openapi  # type: ignore[method-assign]

    return app


def _freeze_startup_objects() -> None:
    """Move everything alive after start-up (modules, routes, schemas, the catalogue: ~180,000
    objects) out of the garbage collector's reach. A full collection walked them all and
    stopped the worker for ~110 ms, every request in flight with it — the p99 of every
    endpoint. Frozen, a full collection walks only what requests left behind. Once per
    process: what is frozen is never collected, so a process that starts several apps (the
    tests) keeps only the first one's start-up for good."""
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    state = app.state
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(terminated_when_orphaned())
        await stack.enter_async_context(metrics.flushing(state.db.connections_in_use))
        if state.settings.embedded_worker:
            await stack.enter_async_context(
                running_worker(
                    state.db, state.settings, state.cipher, state.outbound, state.runtime.jobs
                )
            )
        _freeze_startup_objects()
        yield
    await app.state.runtime.aclose()
    await app.state.rate_limiter.close()
    if app.state.tracing is not None:
        app.state.tracing.shutdown()  # flushes the spans still queued
