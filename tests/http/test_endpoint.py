"""`route.handler_of`: every route is served by the handler made for its own parameters,
which answers as FastAPI's own route does — the same validation and messages, dependencies
in their order and once a request — and a route that declares anything it does not
implement is refused at start-up, when the route table is built."""

from __future__ import annotations

import asyncio
import enum
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from importlib.metadata import version
from typing import Annotated, Any

import httpx
import pytest
from fastapi import (
    APIRouter,
    BackgroundTasks,
    Body,
    Cookie,
    Depends,
    FastAPI,
    File,
    Form,
    Header,
    Path,
    Query,
    Request,
    Security,
    WebSocket,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse as PlainJSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field
from starlette.convertors import IntegerConvertor
from starlette.responses import Response

from cardservice.http.openapi import UuidConvertor
from cardservice.http.route import CHECKED_AGAINST, RouteTable, UnsupportedRoute, _text_regex
from cardservice.http.router import JSONResponse, Router
from cardservice.values.patterns import UUID_PATTERN


async def _answer(app: FastAPI, path: str) -> tuple[int, Any]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        response = await client.get(path)
    return response.status_code, response.json()


def _errors(_request: Request, exc: Exception) -> PlainJSONResponse:
    assert isinstance(exc, RequestValidationError)
    return PlainJSONResponse(
        [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()],
        status_code=422,
    )


def _served(router: APIRouter) -> FastAPI:
    app = FastAPI(routes=[RouteTable(router.routes)])
    app.add_exception_handler(RequestValidationError, _errors)
    return app


def _twin(router: APIRouter) -> FastAPI:
    """The same declarations served by FastAPI's own route and request handler."""
    app = FastAPI()
    app.include_router(router)
    app.add_exception_handler(RequestValidationError, _errors)
    return app


def test_the_versions_it_was_checked_against_are_the_installed_ones() -> None:
    """What `handler_of` refuses was checked against these; a new version may declare what
    it does not know (read its changelog, extend the refusals, then move the pin)."""
    assert {name: version(name) for name in CHECKED_AGAINST} == CHECKED_AGAINST


def test_every_route_of_the_service_is_served_by_the_table(app: FastAPI) -> None:
    [table] = [route for route in app.routes if isinstance(route, RouteTable)]
    assert len(table.routes) > 100
    assert table.routes == app.state.api_routes
    assert all(type(route) is APIRoute for route in table.routes)


# Module level: the annotations are strings (`from __future__ import annotations`), which
# resolve in the module's globals.
CALLS: list[str] = []


async def _caller(request: Request) -> str:
    CALLS.append("caller")
    return request.headers.get("x-who", "nobody")


async def _page(
    page: Annotated[int, Query(ge=1, le=10)] = 1,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> tuple[int, int]:
    return page, size


async def _loud(who: Annotated[str, Depends(_caller)]) -> str:
    return who.upper()


async def _refuses() -> None:
    CALLS.append("refuses")
    raise ValueError("no")


async def _after(page: Annotated[int, Query(ge=1)] = 1) -> int:
    CALLS.append("after")
    return page


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


async def _both(router: APIRouter, paths: list[str]) -> list[int]:
    """Each path answered by our table and by FastAPI alike (status, body, dependency calls)."""
    ours, theirs = _served(router), _twin(router)
    statuses = []
    for path in paths:
        CALLS.clear()
        mine = await _answer(ours, path)
        ours_calls = list(CALLS)
        CALLS.clear()
        assert mine == await _answer(theirs, path), path
        assert ours_calls == CALLS, path
        statuses.append(mine[0])
    return statuses


async def test_the_answers_and_the_validation_messages_are_fastapis() -> None:
    router = Router(prefix="/x")

    @router.get("/{number}")
    async def one(
        number: int,
        who: Annotated[str, Depends(_caller)],
        loud: Annotated[str, Depends(_loud)],
        pages: Annotated[tuple[int, int], Depends(_page)],
        request: Request,
        q: str | None = None,
    ) -> JSONResponse:
        return JSONResponse(
            {"number": number, "who": who, "loud": loud, "pages": list(pages), "q": q,
             "path": request.url.path}
        )  # fmt: skip

    statuses = await _both(router, [
        "/x/7", "/x/7?page=3&size=5&q=text", "/x/seven", "/x/7?page=0", "/x/7?page=11&size=x",
        "/x/seven?page=ten", "/x/7?page=", "/x/-1?size=100", "/x/7?q=a&q=b",
    ])  # fmt: skip
    assert statuses == [200, 200, 422, 422, 422, 422, 422, 200, 200]
    assert (await _answer(_served(router), "/x/7?page=3&size=5&q=text"))[1] == {
        "number": 7, "who": "nobody", "loud": "NOBODY", "pages": [3, 5], "q": "text",
        "path": "/x/7",
    }  # fmt: skip
    CALLS.clear()
    await _answer(_served(router), "/x/7")
    assert CALLS == ["caller"]  # asked twice, called once a request


async def test_path_parameters_their_convertor_matched_answer_as_fastapis() -> None:
    """A `str` parameter whose only constraint is its convertor's pattern is taken as the
    route matched it, without its model; a `str` on a convertor that gives a number, or one
    with a constraint of its own, keeps its validation: FastAPI's answers either way."""
    assert _text_regex(UuidConvertor()) == UUID_PATTERN[1:-1]
    assert _text_regex(IntegerConvertor()) is None
    router = Router(prefix="/p")

    @router.get("/{thing:uuid36}")
    async def by_uuid(thing: Annotated[str, Path(pattern=UUID_PATTERN)]) -> JSONResponse:
        return JSONResponse({"thing": thing})

    @router.get("/n/{count:int}")
    async def by_number(count: str) -> JSONResponse:
        return JSONResponse({"count": count})

    @router.get("/w/{word}")
    async def by_word(word: Annotated[str, Path(max_length=3)]) -> JSONResponse:
        return JSONResponse({"word": word})

    uuid = "0b7c6a4e-3f2d-4c1b-9a8e-7d6c5b4a3f2e"
    statuses = await _both(router, [
        f"/p/{uuid}", f"/p/{uuid.upper()}", "/p/not-a-uuid", "/p/n/7", "/p/w/abc", "/p/w/abcd",
    ])  # fmt: skip
    assert statuses == [200, 200, 404, 422, 200, 422]


async def test_aliases_defaults_and_types_are_read_as_fastapi_reads_them() -> None:
    router = Router()

    @router.get("/y/{thing}")
    async def y(
        thing_id: Annotated[str, Path(alias="thing", pattern="^[a-z]+$")],
        day: Annotated[str, Query(alias="date", min_length=10, max_length=10)],
        limit: Annotated[int, Query(ge=1, le=9)] = 5,
        flag: bool = False,
        colour: Colour | None = None,
        amount: Annotated[Decimal | None, Query(max_digits=5, decimal_places=2)] = None,
    ) -> JSONResponse:
        return JSONResponse(
            {"thing": thing_id, "day": day, "limit": limit, "flag": flag,
             "colour": colour and colour.value, "amount": str(amount)}
        )  # fmt: skip

    statuses = await _both(router, [
        "/y/abc?date=2026-11-26", "/y/abc", "/y/ABC?date=2026-11-26", "/y/abc?day=2026-11-26",
        "/y/abc?date=2026-11-26&limit=10&flag=maybe&colour=green&amount=1.234",
        "/y/abc?date=2026-11-26&limit=2&flag=yes&colour=blue&amount=12.5",
        "/y/abc?date=short&limit=",
    ])  # fmt: skip
    assert statuses == [200, 422, 422, 422, 422, 200, 422]
    assert (await _answer(_served(router), "/y/abc?date=2026-11-26"))[1] == {
        "thing": "abc", "day": "2026-11-26", "limit": 5, "flag": False, "colour": None,
        "amount": "None",
    }  # fmt: skip


async def test_a_dependency_that_raises_stops_before_the_next_one() -> None:
    router = Router()

    @router.get("/r")
    async def r(
        _a: Annotated[None, Depends(_refuses)], _b: Annotated[int, Depends(_after)]
    ) -> JSONResponse:
        return JSONResponse({})

    CALLS.clear()
    with pytest.raises(ValueError, match="no"):
        await _answer(_served(router), "/r?page=0")
    assert CALLS == ["refuses"]


async def test_a_dependency_whose_parameters_are_invalid_is_not_called() -> None:
    router = Router()

    @router.get("/s")
    async def s(
        _b: Annotated[int, Depends(_after)], who: Annotated[str, Depends(_caller)]
    ) -> JSONResponse:
        return JSONResponse({"who": who})

    CALLS.clear()
    status, body = await _answer(_served(router), "/s?page=0")
    assert status == 422 and body[0]["loc"] == ["query", "page"]
    assert CALLS == ["caller"]


async def test_an_endpoint_that_does_not_return_a_response_is_an_error() -> None:
    router = Router()

    @router.get("/d")
    async def d() -> dict[str, str]:
        return {"a": "b"}

    with pytest.raises(TypeError, match="not a Response"):
        await _answer(_served(router), "/d")


class _Body(BaseModel):
    name: str


async def _nothing() -> None:
    return None


def _plain() -> None:
    return None


async def _generator() -> AsyncIterator[None]:
    yield None


def _sync_generator() -> Iterator[None]:
    yield None


class _ClassDependency:
    def __init__(self) -> None:
        self.made = True


async def header(x_key: Annotated[str, Header()]) -> JSONResponse:
    return JSONResponse({})


async def cookie(session: Annotated[str, Cookie()]) -> JSONResponse:
    return JSONResponse({})


async def body(item: _Body) -> JSONResponse:
    return JSONResponse({})


async def body_field(name: Annotated[str, Body()]) -> JSONResponse:
    return JSONResponse({})


async def form(name: Annotated[str, Form()]) -> JSONResponse:
    return JSONResponse({})


async def upload(data: Annotated[bytes, File()]) -> JSONResponse:
    return JSONResponse({})


async def background(tasks: BackgroundTasks) -> JSONResponse:
    return JSONResponse({})


async def response(answer: Response) -> JSONResponse:
    return JSONResponse({})


async def websocket(socket: WebSocket) -> JSONResponse:
    return JSONResponse({})


def sync_endpoint() -> JSONResponse:
    return JSONResponse({})


async def sync_dependency(_p: Annotated[None, Depends(_plain)]) -> JSONResponse:
    return JSONResponse({})


async def yield_dependency(_p: Annotated[None, Depends(_generator)]) -> JSONResponse:
    return JSONResponse({})


async def sync_yield_dependency(_p: Annotated[None, Depends(_sync_generator)]) -> JSONResponse:
    return JSONResponse({})


async def class_dependency(_p: Annotated[_ClassDependency, Depends()]) -> JSONResponse:
    return JSONResponse({})


async def uncached(_p: Annotated[None, Depends(_nothing, use_cache=False)]) -> JSONResponse:
    return JSONResponse({})


async def limited(_p: Annotated[None, Depends(_nothing, max_concurrency=1)]) -> JSONResponse:
    return JSONResponse({})


async def scoped(_p: Annotated[None, Depends(_nothing, scope="function")]) -> JSONResponse:
    return JSONResponse({})


async def security(_p: Annotated[None, Security(_nothing, scopes=["cards"])]) -> JSONResponse:
    return JSONResponse({})


async def list_query(tags: Annotated[list[str], Query()]) -> JSONResponse:
    return JSONResponse({})


async def dict_query(tags: dict[str, str]) -> JSONResponse:
    return JSONResponse({})


async def untyped(thing) -> JSONResponse:  # type: ignore[no-untyped-def]
    return JSONResponse({})


async def keywords(**more: str) -> JSONResponse:
    return JSONResponse({})


async def path_not_in_path(thing: Annotated[str, Path()]) -> JSONResponse:
    return JSONResponse({})


async def twice(page: Annotated[int, Query(ge=1), Query(le=5)] = 1) -> JSONResponse:
    return JSONResponse({})


async def query_default(page: int = Query(1, ge=1)) -> JSONResponse:
    return JSONResponse({})


async def depends_default(who: str = Depends(_caller)) -> JSONResponse:
    return JSONResponse({})


async def pydantic_field(page: Annotated[int, Field(ge=1)] = 1) -> JSONResponse:
    return JSONResponse({})


async def other_alias(page: Annotated[int, Query(validation_alias="p")] = 1) -> JSONResponse:
    return JSONResponse({})


REFUSED = {
    "header": (header, "Header"),
    "cookie": (cookie, "Cookie"),
    "body model": (body, "not a path or query scalar"),
    "body field": (body_field, "Body"),
    "form": (form, "Form"),
    "file": (upload, "File"),
    "background tasks": (background, "not a path or query scalar"),
    "response parameter": (response, "not a path or query scalar"),
    "websocket parameter": (websocket, "not a path or query scalar"),
    "sync endpoint": (sync_endpoint, "not an `async def`"),
    "sync dependency": (sync_dependency, "_plain is not an `async def`"),
    "yield dependency": (yield_dependency, "_generator is not an `async def`"),
    "sync yield dependency": (sync_yield_dependency, "_sync_generator is not an `async def`"),
    "class dependency": (class_dependency, "Depends\\(\\) without its function"),
    "use_cache=False": (uncached, "Depends options \\['use_cache'\\]"),
    "max_concurrency": (limited, "Depends options \\['max_concurrency', '_concurrency'\\]"),
    "scope": (scoped, "Depends options \\['scope'\\]"),
    "security scopes": (security, "Security, with scopes"),
    "list query": (list_query, "not a path or query scalar"),
    "dict query": (dict_query, "not a path or query scalar"),
    "untyped parameter": (untyped, "no type for `thing`"),
    "**kwargs": (keywords, "VAR_KEYWORD|variadic keyword"),
    "Path not in the path": (path_not_in_path, "`thing` not in the route's path"),
    "declared twice": (twice, "declares `page` 2 times"),
    "Query as the default": (query_default, "`page` in its default: declare it in Annotated"),
    "Depends as the default": (depends_default, "`who` in its default: declare it in Annotated"),
    "a pydantic Field": (pydantic_field, "as FieldInfo"),
    "validation_alias": (other_alias, "validation_alias"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_route_declaring_what_the_handler_does_not_implement_is_refused(case: str) -> None:
    endpoint, reason = REFUSED[case]
    router = APIRouter()  # FastAPI's own: what it accepts, the table must refuse or serve
    router.add_api_route("/route", endpoint, methods=["GET"])
    with pytest.raises(UnsupportedRoute, match=f"\\['GET'\\] /route: .*{reason}"):
        RouteTable(router.routes)


def test_a_service_router_refuses_router_wide_dependencies_when_made() -> None:
    with pytest.raises(TypeError, match="router-wide"):
        Router(dependencies=[Depends(_nothing)])


@pytest.mark.parametrize("level", ["router", "route"])
def test_router_and_route_dependencies_are_refused(level: str) -> None:
    router = APIRouter(dependencies=[Depends(_nothing)] if level == "router" else [])
    extra = {"dependencies": [Depends(_nothing)]} if level == "route" else {}
    router.add_api_route("/route", _ok, methods=["GET"], **extra)
    with pytest.raises(UnsupportedRoute, match="route or router dependencies"):
        RouteTable(router.routes)


async def _ok() -> JSONResponse:
    return JSONResponse({})


def test_a_route_that_is_not_an_api_route_is_refused() -> None:
    router = APIRouter()

    async def socket(websocket: WebSocket) -> None:
        await websocket.close()

    router.add_api_websocket_route("/socket", socket)
    with pytest.raises(UnsupportedRoute, match="not a FastAPI APIRoute"):
        RouteTable(router.routes)


RUNNING = {"now": 0, "most": 0}


async def _slow() -> None:
    RUNNING["now"] += 1
    RUNNING["most"] = max(RUNNING.values())
    await asyncio.sleep(0.01)
    RUNNING["now"] -= 1


async def one_at_a_time(_p: Annotated[None, Depends(_slow, max_concurrency=1)]) -> JSONResponse:
    return JSONResponse({})


async def test_max_concurrency_would_have_limited_fastapis_calls() -> None:
    """Why `max_concurrency` is refused rather than ignored: FastAPI runs one call of the
    dependency at a time; a handler that ignored the option would run all four at once."""
    router = APIRouter()
    router.add_api_route("/limited", one_at_a_time, methods=["GET"])
    app = FastAPI()
    app.include_router(router)
    answers = await asyncio.gather(*(_answer(app, "/limited") for _ in range(4)))
    assert [status for status, _ in answers] == [200] * 4
    assert RUNNING["most"] == 1
    with pytest.raises(UnsupportedRoute, match="max_concurrency"):
        RouteTable(router.routes)
