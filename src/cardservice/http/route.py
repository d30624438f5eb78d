"""Every route's request handler: FastAPI declares the routes, this calls their endpoints.

A route is declared as FastAPI wants it (`@router.get(...)` on a `web.Router`): its signature
gives the OpenAPI document (and through it `clients/`), its path and query parameters'
types and constraints, its dependencies. FastAPI's own request handler
(`fastapi.routing.get_request_handler` → `solve_dependencies`) is general: bodies, forms,
headers, cookies, generators, dependency overrides, background tasks, response models,
telemetry. Our routes use none of that — every parameter is a path or query parameter, the
`Request`, or an async dependency made of the same; bodies are read by `web.read_json`
after authentication; every endpoint returns its `Response` — so `Route` gives each route
a handler made, once, for exactly its parameters, and FastAPI's validation of each one
(`request_params_to_args`: the same pydantic fields, messages and `RequestValidationError`).

Why (`python -m bench.profile --budget`, docs/performance.md "The HTTP edge's share"):
FastAPI's own request handler, dependency resolution and included routers cost a read by
uuid 67 µs of CPU on SQLite and 120 µs on PostgreSQL, the largest layer of every read; with
`Route` and `RouteTable` FastAPI's share is 15 and 30 µs, this module's own 10 and 25 µs
beside it, and a write saves the 50–81 µs of dependency resolution.

A route whose signature needs more (a header or body parameter, a sync or generator
dependency, `BackgroundTasks`, …) is refused when the application is built, not served
another way: one path."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import request_params_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette._utils import get_route_path
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, NoMatchFound, request_response
from starlette.types import Receive, Scope, Send

Handler = Callable[[Request], Coroutine[Any, Any, Response]]

_UNSUPPORTED = (
    "header_params",
    "cookie_params",
    "body_params",
    "websocket_param_name",
    "http_connection_param_name",
    "response_param_name",
    "background_tasks_param_name",
    "security_scopes_param_name",
)


class UnsupportedRoute(TypeError):
    """A route whose signature asks for what `Route` does not give (raised at start-up)."""


@dataclass(frozen=True, slots=True)
class _Call:
    """One function of a route (the endpoint or a dependency) and what it is called with."""

    call: Callable[..., Awaitable[Any]]
    name: str | None
    path_params: tuple[Any, ...]
    query_params: tuple[Any, ...]
    request_name: str | None
    needs: tuple[_Call, ...]
    cached: bool

    @classmethod
    def of(cls, dependant: Dependant, route: str) -> _Call:
        asks = [kind for kind in _UNSUPPORTED if getattr(dependant, kind)]
        call = dependant.call
        if asks or call is None or not inspect.iscoroutinefunction(call):
            what = ", ".join(asks) or "a function that is not `async def`"
            raise UnsupportedRoute(f"{route}: {getattr(call, '__name__', call)} needs {what}")
        return cls(
            call=call,
            name=dependant.name,
            path_params=tuple(dependant.path_params),
            query_params=tuple(dependant.query_params),
            request_name=dependant.request_param_name,
            needs=tuple(cls.of(need, route) for need in dependant.dependencies),
            cached=dependant.use_cache,
        )

    async def arguments(
        self, request: Request, cache: dict[Any, Any], errors: list[Any]
    ) -> dict[str, Any]:
        """The keyword arguments of `call`, as FastAPI's `solve_dependencies` gives them:
        the dependencies in their order (one whose parameters are invalid is not called; a
        dependency asked twice is called once a request), then the path and query
        parameters; every invalid parameter lands in `errors`."""
        values: dict[str, Any] = {}
        for need in self.needs:
            failed = len(errors)
            given = await need.arguments(request, cache, errors)
            if len(errors) > failed:
                continue
            if need.cached and need.call in cache:
                solved = cache[need.call]
            else:
                solved = cache[need.call] = await need.call(**given)
            if need.name is not None:
                values[need.name] = solved
        if self.path_params:
            found, wrong = request_params_to_args(self.path_params, request.path_params)
            values.update(found)
            errors.extend(wrong)
        if self.query_params:
            found, wrong = request_params_to_args(self.query_params, request.query_params)
            values.update(found)
            errors.extend(wrong)
        if self.request_name is not None:
            values[self.request_name] = request
        return values


def handler_of(dependant: Dependant, route: str) -> Handler:
    """The request handler of a route's endpoint (`UnsupportedRoute` if it cannot be one)."""
    endpoint = _Call.of(dependant, route)

    async def handle(request: Request) -> Response:
        errors: list[Any] = []
        values = await endpoint.arguments(request, {}, errors)
        if errors:
            raise RequestValidationError(errors)
        response = await endpoint.call(**values)
        if not isinstance(response, Response):
            raise TypeError(f"{route} returned {type(response).__name__}, not a Response")
        return response

    return handle


class Route(APIRoute):
    """A FastAPI route (declaration, OpenAPI) served by `handler_of`, wrapped as Starlette
    wraps an endpoint (its exception handlers), without FastAPI's two exit stacks per
    request, which only dependencies with `yield` use (refused here)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)  # FastAPI wraps a handler too: replaced
        self.app = request_response(self.get_route_handler())

    def get_route_handler(self) -> Handler:
        return handler_of(self.dependant, f"{sorted(self.methods or ())} {self.path}")


_CHOSEN = "cardservice.route"


def first_segment(path: str) -> str:
    """`/card/{uuid}/x` → `card`."""
    return path.split("/", 2)[1] if path.startswith("/") else path


class RouteTable(BaseRoute):
    """Every API route, found by the first segment of the request's path, then in declared
    order among that segment's routes (as Starlette's router would find it among them all).

    FastAPI's `include_router` keeps each router as a branch that the application's router
    asks in turn, each asking its routes; that dispatch cost 20–50 µs a request of the
    budget's reads (docs/results/2026-11-25.md, "Round 6") — for a decision a dictionary settles.
    Every route path starts with a literal segment (checked here), so the routes of one
    segment are the only candidates. Starlette's protocol is kept: `matches` answers FULL
    (or PARTIAL: the path with another method, which answers 405), `handle` runs the route
    matched."""

    def __init__(self, routes: list[Route]) -> None:
        self.routes = routes
        self._by_segment: dict[str, list[Route]] = {}
        for route in routes:
            segment = first_segment(route.path)
            if "{" in segment:
                raise ValueError(f"{route.path}: a route path starts with a literal segment")
            self._by_segment.setdefault(segment, []).append(route)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        partial: tuple[Route, Scope] | None = None
        # the path as each route's own `matches` reads it (Starlette's, root path removed)
        for route in self._by_segment.get(first_segment(get_route_path(scope)), ()):
            match, child = route.matches(scope)
            if match is Match.FULL:
                return Match.FULL, {**child, _CHOSEN: route}
            if match is Match.PARTIAL and partial is None:
                partial = route, child
        if partial is not None:
            return Match.PARTIAL, {**partial[1], _CHOSEN: partial[0]}
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await scope[_CHOSEN].handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                pass
        raise NoMatchFound(name, path_params)
