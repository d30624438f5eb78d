"""Every route's request handler, made once at start-up from its endpoint's signature, on
the public APIs of FastAPI, Starlette and Pydantic only.

A route is declared as FastAPI wants it (`@router.get(...)` on a `router.Router`): FastAPI
keeps the declaration (an `APIRoute`) and builds the OpenAPI document from it (and through
it `clients/`). FastAPI does not serve it: its request handler (`solve_dependencies`) is
general — bodies, forms, headers, cookies, generator and sync dependencies, overrides,
background tasks, concurrency limits, response models — and serving our routes with it
costs a read by uuid several times the framework CPU of this handler and table
(`python -m bench.profile --budget`, with `include_router` in place of `RouteTable`). Our
routes use none of that: every parameter is a path or query parameter, the `Request`, or
an async dependency made of the same; bodies are read by `router.read_json` after
authentication; every endpoint returns its `Response`.

So `handler_of` reads the endpoint's signature and each dependency's (`inspect`, `typing`),
once, and makes:
- per function, one Pydantic model of its path and query parameters, each field the
  parameter's own type and `Query`/`Path` constraints, aliased by its name in the request:
  one validation a call, FastAPI's messages (the same Pydantic errors, located
  `("path" | "query", name)`, raised as `RequestValidationError`);
- the dependencies called by our code, in their order, each once a request.

Whatever else a signature declares is refused when the route table is built
(`UnsupportedRoute`, at start-up), never served another way or ignored: a header, cookie,
body, form or file parameter, a type that is not a scalar, a marker in a default instead of
`Annotated`, a sync, generator or class dependency, a `Security` dependency, `Depends` with
any option (`use_cache=False`, `scope`, `max_concurrency`, or one FastAPI adds later: a
`Depends` must equal `Depends(function)`), `BackgroundTasks`, `Response`, `WebSocket`,
route or router dependencies, a route that is not an `APIRoute`. `CHECKED_AGAINST` names
the FastAPI and Starlette versions this list was checked against (a test fails when either
changes). `app.dependency_overrides` is not consulted: tests build their data through the
services, never by overriding a dependency."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import inspect
import types
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from fastapi import Depends
from fastapi import params as fastapi_params
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field, TypeAdapter, ValidationError, create_model
from pydantic.fields import FieldInfo
from starlette.convertors import Convertor
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import ASGIApp, Receive, Scope, Send

CHECKED_AGAINST = {"fastapi": "0.163.2", "starlette": "1.10.0"}

# What a path or query parameter may be: what one string converts to.
_SCALARS = (str, int, float, bool, Decimal, uuid.UUID, datetime.date, datetime.datetime)


_MARKERS = (FieldInfo, fastapi_params.Depends)


class UnsupportedRoute(TypeError):
    """A route that declares what `handler_of` does not implement (raised at start-up)."""


def _is_scalar(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_scalar(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return all(_is_scalar(arg) for arg in get_args(annotation))
    if origin is Literal:
        return True
    if annotation is type(None):
        return True
    return isinstance(annotation, type) and issubclass(annotation, (*_SCALARS, enum.Enum))


def _text_regex(convertor: Convertor[Any]) -> str | None:
    """The regex of a path convertor that gives the text it matched (`str`), else None."""
    gives = get_type_hints(type(convertor).convert).get("return")
    return convertor.regex if gives is str else None


def _matched_by_route(annotation: Any, regex: str | None) -> bool:
    """A path parameter that is a `str` whose only constraint, if any, is the pattern of its
    route's convertor (one that gives text, `_text_regex`): the route matched no other
    value, so its model could refuse none.
    Decided from the core schema Pydantic would validate it with (a validator, a length, a
    choice of values, strictness: anything but the pattern, and the model checks it). The
    uuids of the `uuid36` convertor are such; their model's `model_validate` was ~5 µs of a
    read by uuid in place (in process through uvicorn's protocol, the peer's CPU ÷ the
    service's 0.46–0.47 with it, 0.48–0.49 without, in turn)."""
    if regex is None:
        return False
    schema = dict(TypeAdapter(annotation).core_schema)
    schema.pop("metadata", None)  # the description, examples: documentation only
    return schema in ({"type": "str"}, {"type": "str", "pattern": f"^{regex}$"})


def _depends_options(marker: fastapi_params.Depends) -> list[str]:
    """The options of a `Depends(...)` that differ from a plain `Depends(function)`."""
    plain = Depends(marker.dependency)
    return [
        field.name
        for field in dataclasses.fields(marker)
        if getattr(marker, field.name) != getattr(plain, field.name)
    ]


@dataclass(frozen=True, slots=True)
class _Parameter:
    """A path or query parameter: the argument `name` is the request's `key`, the field
    `field` of its function's model."""

    name: str
    key: str
    where: Literal["path", "query"]
    field: str = ""


@dataclass(frozen=True, slots=True)
class _Call:
    """One function of a route (the endpoint or a dependency) and what it is called with."""

    call: Callable[..., Awaitable[Any]]
    needs: tuple[tuple[str, _Call], ...]  # (argument, dependency), in the signature's order
    request_name: str | None
    matched: tuple[tuple[str, str], ...]  # (argument, path key): the route's match checked it
    parameters: tuple[_Parameter, ...]
    model: type[BaseModel] | None  # of `parameters`, None when there are none

    @classmethod
    @functools.cache  # a dependency is shared by many routes, each app is built of the same
    def of(cls, function: Any, path: frozenset[tuple[str, str | None]]) -> _Call:
        """The call of `function` in a route whose path has the keys of `path`, each with
        its convertor's `_text_regex`."""
        path_keys = {key for key, _regex in path}
        what = getattr(function, "__qualname__", repr(function))

        def refuse(reason: str) -> UnsupportedRoute:
            return UnsupportedRoute(f"{what} {reason}")

        if not inspect.iscoroutinefunction(function):
            raise refuse("is not an `async def` function")
        try:
            hints = get_type_hints(function, include_extras=True)
        except (NameError, TypeError) as error:
            raise refuse(f"has an annotation that does not resolve: {error}") from error
        needs: list[tuple[str, _Call]] = []
        request_name: str | None = None
        matched: list[tuple[str, str]] = []
        parameters: list[_Parameter] = []
        fields: dict[str, Any] = {}
        for name, parameter in inspect.signature(function).parameters.items():
            if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                raise refuse(f"takes `{name}` as {parameter.kind.description}")
            if name not in hints:
                raise refuse(f"has no type for `{name}`")
            annotation, default = hints[name], parameter.default
            metadata = get_args(annotation)[1:] if get_origin(annotation) is Annotated else ()
            if isinstance(default, _MARKERS):
                raise refuse(f"declares `{name}` in its default: declare it in Annotated[...]")
            markers = [m for m in metadata if isinstance(m, _MARKERS)]
            if len(markers) > 1:
                raise refuse(f"declares `{name}` {len(markers)} times")
            marker = markers[0] if markers else None
            if isinstance(marker, fastapi_params.Depends):
                if type(marker) is not fastapi_params.Depends:
                    raise refuse(f"declares `{name}` as {type(marker).__name__}, with scopes")
                if marker.dependency is None:
                    raise refuse(f"declares `{name}` as Depends() without its function")
                if options := _depends_options(marker):
                    raise refuse(f"declares `{name}` with Depends options {options}")
                needs.append((name, cls.of(marker.dependency, path)))
                continue
            if marker is None and annotation is Request:
                request_name = name
                continue
            if marker is not None and type(marker) not in (
                fastapi_params.Query,
                fastapi_params.Path,
            ):
                raise refuse(f"declares `{name}` as {type(marker).__name__}")
            if not _is_scalar(annotation):
                raise refuse(
                    f"declares `{name}` of type {annotation!r}, not a path or query scalar"
                )
            key = marker.alias if marker is not None and marker.alias else name
            if marker is not None and marker.validation_alias not in (None, marker.alias):
                raise refuse(f"declares `{name}` with a validation_alias")
            if isinstance(marker, fastapi_params.Path) or (marker is None and key in path_keys):
                if key not in path_keys:
                    raise refuse(f"declares the path parameter `{key}` not in the route's path")
                where: Literal["path", "query"] = "path"
                if _matched_by_route(annotation, dict(path)[key]):
                    matched.append((name, key))
                    continue
            else:
                where = "query"
            # the request's key as the field's alias: Python's names may be BaseModel's own
            required = default is parameter.empty or default is Ellipsis
            fields[key] = (annotation, Field(... if required else default, alias=key))
            parameters.append(_Parameter(name, key, where))
        parameters.sort(key=lambda p: p.where != "path")  # FastAPI reports path errors first
        parameters = [dataclasses.replace(p, field=f"p{i}") for i, p in enumerate(parameters)]
        model = None
        if parameters:
            model = create_model(
                f"{what}.parameters", **{p.field: fields[p.key] for p in parameters}
            )
        return cls(function, tuple(needs), request_name, tuple(matched), tuple(parameters), model)

    def _validate(self, request: Request, values: dict[str, Any], errors: list[Any]) -> None:
        raw: dict[str, Any] = {}
        path = request.path_params
        for parameter in self.parameters:
            given = (
                path.get(parameter.key)
                if parameter.where == "path"
                else request.query_params.get(parameter.key)  # parsed at the first one
            )
            if given is not None:
                raw[parameter.key] = given
        assert self.model is not None
        try:
            valid = self.model.model_validate(raw)
        except ValidationError as invalid:
            errors.extend(self._located(invalid))
            return
        for parameter in self.parameters:
            values[parameter.name] = getattr(valid, parameter.field)

    def _located(self, invalid: ValidationError) -> Iterable[dict[str, Any]]:
        """Pydantic's errors as FastAPI reports them: `("path" | "query", key, …)`."""
        where = {p.key: p.where for p in self.parameters}
        for error in invalid.errors(include_url=False):
            loc = error["loc"]
            located = {**error, "loc": (where.get(str(loc[0]), "query"), *loc)}
            if error["type"] == "missing":
                located["input"] = None
            yield located

    async def arguments(
        self, request: Request, cache: dict[Any, Any], errors: list[Any]
    ) -> dict[str, Any]:
        """The keyword arguments of `call`, as FastAPI gives them: the dependencies in their
        order (one whose parameters are invalid is not called; a dependency asked twice is
        called once a request), then the path and query parameters; every invalid parameter
        lands in `errors`."""
        values: dict[str, Any] = {}
        for name, need in self.needs:
            failed = len(errors)
            # a coroutine only where there are dependencies to await (`own_arguments` alone)
            if need.needs:
                given = await need.arguments(request, cache, errors)
            else:
                given = need.own_arguments(request, {}, errors)
            if len(errors) > failed:
                continue
            if need.call in cache:
                values[name] = cache[need.call]
            else:
                values[name] = cache[need.call] = await need.call(**given)
        return self.own_arguments(request, values, errors)

    def own_arguments(
        self, request: Request, values: dict[str, Any], errors: list[Any]
    ) -> dict[str, Any]:
        """`values` with the path and query parameters of `call` and its request."""
        if self.matched:
            path = request.path_params
            for name, key in self.matched:
                values[name] = path[key]
        if self.model is not None:
            self._validate(request, values, errors)
        if self.request_name is not None:
            values[self.request_name] = request
        return values


def _described(route: APIRoute) -> str:
    return f"{sorted(route.methods or ())} {route.path}"


def handler_of(route: BaseRoute) -> ASGIApp:
    """The request handler of a declared route, an ASGI app (`UnsupportedRoute` if it cannot
    be one). An exception it raises goes up to the application's exception handlers
    (Starlette's `ExceptionMiddleware`), as one raised before the route was found does:
    Starlette's `request_response` wrapped each route in the same handlers once more (a
    `Request`, two closures, a wrapper of `send`: with the routing below, 16 → 5–8 µs of
    our handler's layer and 8–9 → 3 of routing in a read by uuid, `python -m bench.profile
    --budget`; docs/performance.md, "The read by uuid on SQLite")."""
    if type(route) is not APIRoute:
        raise UnsupportedRoute(f"{route!r}: not a FastAPI APIRoute (a mount, a websocket, …)")
    described = _described(route)
    if route.dependencies:
        raise UnsupportedRoute(
            f"{described}: route or router dependencies: declare them per endpoint"
        )
    try:
        path = frozenset((key, _text_regex(c)) for key, c in route.param_convertors.items())
        endpoint = _Call.of(route.endpoint, path)
    except UnsupportedRoute as refused:
        raise UnsupportedRoute(f"{described}: {refused}") from None

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        errors: list[Any] = []
        values = await endpoint.arguments(request, {}, errors)
        if errors:
            raise RequestValidationError(errors)
        response = await endpoint.call(**values)
        if not isinstance(response, Response):
            raise TypeError(f"{described} returned {type(response).__name__}, not a Response")
        await response(scope, receive, send)

    return handle


_CHOSEN = "cardservice.route"


def first_segment(path: str) -> str:
    """`/card/{uuid}/x` → `card`."""
    return path.split("/", 2)[1] if path.startswith("/") else path


def route_path(scope: Scope) -> str:
    """The request's path below the application's root path (ASGI's `root_path`), as each
    route's own `matches` reads it: the root path is removed only where it ends a segment."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and (len(path) == len(root) or path[len(root)] == "/"):
        return path[len(root) :]
    return path


@dataclass(frozen=True, slots=True)
class _Served:
    declared: APIRoute  # matches the request (path, methods) and answers 405 as Starlette does
    app: ASGIApp  # our handler


class RouteTable(BaseRoute):
    """Every API route, found by the first segment of the request's path, then in declared
    order among that segment's routes (as Starlette's router would find it among them all),
    and served by its `handler_of`.

    Starlette's router asks every route in turn; with FastAPI's included routers each is a
    branch asked in turn, twice a request (to match, to handle; what that cost a read:
    docs/performance.md#the-http-edges-share) — for a decision a dictionary settles. Every
    route path starts with a literal segment (checked here), so the routes of one segment
    are the only candidates. Starlette's protocol is kept: `matches` answers FULL (or
    PARTIAL: the path with another method, which the declared route answers 405), `handle`
    runs what was matched. The child scope is the one the declared route's `matches` would
    give (Starlette's `Route.matches`, with FastAPI's `route`: the versions of
    `CHECKED_AGAINST`), made from the one regex match that found the route; asking each
    candidate's `matches` ran the regex again, with FastAPI's and Starlette's frames."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        self.routes: list[APIRoute] = []
        self._by_segment: dict[str, list[_Served]] = {}
        for route in routes:
            served = _Served(route, handler_of(route))  # type: ignore[arg-type]
            segment = first_segment(served.declared.path)
            if "{" in segment:
                raise UnsupportedRoute(
                    f"{served.declared.path}: a route path starts with a literal segment"
                )
            self.routes.append(served.declared)
            self._by_segment.setdefault(segment, []).append(served)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        partial: Scope | None = None
        path = route_path(scope)
        for served in self._by_segment.get(first_segment(path), ()):
            declared = served.declared
            found = declared.path_regex.match(path)
            if found is None:
                continue
            # the child scope of the declared route's own `matches` (Starlette's, with
            # FastAPI's `route`), from the regex's match already made
            convertors = declared.param_convertors
            params = {
                key: convertors[key].convert(value) for key, value in found.groupdict().items()
            }
            child = {
                "endpoint": declared.endpoint,
                "path_params": {**scope.get("path_params", {}), **params},
                "route": declared,
            }
            if not declared.methods or scope["method"] in declared.methods:
                return Match.FULL, {**child, _CHOSEN: served.app}
            if partial is None:
                partial = {**child, _CHOSEN: declared.handle}
        if partial is not None:
            return Match.PARTIAL, partial
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await scope[_CHOSEN](scope, receive, send)

    def in_front_of(self, router: ASGIApp) -> ASGIApp:
        """An ASGI app that serves each request this table matches fully, and hands every
        other to `router` (the application's, this table its first route): a 405 of a
        table route, the other routes (/docs, /openapi.json, static files), 404. The
        router would choose the same (the first full match, this table's before the
        rest), with two coroutine frames more a request and, behind it,
        `AsyncExitStackMiddleware`, which only FastAPI's own request handler (/docs) needs."""

        async def serve(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                match, child = self.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    await child[_CHOSEN](scope, receive, send)
                    return
            await router(scope, receive, send)

        return serve

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                pass
        raise NoMatchFound(name, path_params)
