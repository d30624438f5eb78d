"""A measuring prototype, not a second path: the budget's four routes on Starlette alone.

`python -m bench.profile --budget --starlette` drives this app as it drives the service: the
same middleware, error handlers, state (database, limiter, cipher), authentication and the
very endpoint functions of the FastAPI routes, called with what FastAPI's dependency
resolution would have passed them. What it saves against the service is FastAPI's share:
its request handler, dependency resolution and the included routers' matching.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardservice.app import _service_error
from cardservice.auth.dependencies import bearer_or_mfa
from cardservice.cards.routes import buy_cards
from cardservice.db.paging import MAX_PAGE, Page
from cardservice.errors import ServiceError, ValidationFailed
from cardservice.http.middleware import RequestContextMiddleware
from cardservice.sandbox.routes import create_sandbox_authorization
from cardservice.transactions.routes import get_transaction, list_transactions


def _page(request: Request) -> Page:
    """`page` and `per_page` as `web.standard_page` checks them (422 otherwise)."""
    try:
        number = int(request.query_params.get("page", 1))
        size = int(request.query_params.get("per_page", 20))
    except ValueError:
        raise ValidationFailed(errors={"page": ["not an integer"]}) from None
    if not (1 <= number <= MAX_PAGE and 1 <= size <= 100):
        raise ValidationFailed(errors={"page": ["out of range"]})
    return Page(number=number, size=size)


async def _one(request: Request) -> Response:
    caller = await bearer_or_mfa(request)
    uuid = request.path_params["transactionUuid"]
    return await get_transaction(caller, request.app.state.db, uuid)


async def _report(request: Request) -> Response:
    caller = await bearer_or_mfa(request)
    starting_after = request.query_params.get("starting_after")
    return await list_transactions(
        request, caller, request.app.state.db, _page(request), starting_after
    )


async def _authorize(request: Request) -> Response:
    caller = await bearer_or_mfa(request)
    return await create_sandbox_authorization(request, caller, request.app.state.db)


async def _buy(request: Request) -> Response:
    caller = await bearer_or_mfa(request)
    return await buy_cards(request, caller, request.app.state.db)


def starlette_app(service: FastAPI) -> Any:
    """The four routes on Starlette, sharing `service`'s state (run its lifespan)."""
    app = Starlette(
        routes=[
            Route("/transaction/report", _report),
            Route("/transaction/{transactionUuid:uuid36}", _one),
            Route("/sandbox/authorizations", _authorize, methods=["POST"]),
            Route("/card/buy", _buy, methods=["POST"]),
        ],
        exception_handlers={ServiceError: _service_error},
    )
    app.state = service.state
    app.add_middleware(RequestContextMiddleware)
    return app
