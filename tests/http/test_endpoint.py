"""`endpoint.Route`: every route is served by the handler made for its own parameters, which
answers as FastAPI's did — the same validation and messages, dependencies in their order and
once a request — and a route that needs more than it gives is refused at start-up."""

from __future__ import annotations

from typing import Annotated, Any

import httpx
import pytest
from fastapi import BackgroundTasks, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse as PlainJSONResponse
from pydantic import BaseModel

from cardservice.http.route import Route, RouteTable, UnsupportedRoute
from cardservice.http.router import JSONResponse, Router


async def _answer(app: FastAPI, path: str) -> tuple[int, Any]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        response = await client.get(path)
    return response.status_code, response.json()


def _errors(_request: Request, exc: Exception) -> PlainJSONResponse:
    assert isinstance(exc, RequestValidationError)
    return PlainJSONResponse(
        [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()], status_code=422
    )


def _served(router: Router) -> FastAPI:
    app = FastAPI()
    app.router.routes.append(RouteTable(router.routes))  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _errors)
    return app


def _twin(router: Router) -> FastAPI:
    """The same endpoints on FastAPI's own route class and request handler."""
    app = FastAPI()
    for route in router.routes:
        assert isinstance(route, Route)
        app.add_api_route(route.path, route.endpoint, methods=sorted(route.methods))
    app.add_exception_handler(RequestValidationError, _errors)
    return app


def test_every_route_of_the_service_is_served_by_the_handler(app: FastAPI) -> None:
    routes = app.state.api_routes
    assert len(routes) > 100
    assert all(isinstance(route, Route) for route in routes)


# Module level: the annotations are strings (`from __future__ import annotations`), which
# FastAPI resolves in the module's globals.
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

    ours, theirs = _served(router), _twin(router)
    answers = []
    for path in (
        "/x/7", "/x/7?page=3&size=5&q=text", "/x/seven", "/x/7?page=0", "/x/7?page=11&size=x",
        "/x/seven?page=ten", "/x/7?page=", "/x/-1?size=100",
    ):  # fmt: skip
        CALLS.clear()
        mine = await _answer(ours, path)
        ours_calls = list(CALLS)
        CALLS.clear()
        assert mine == await _answer(theirs, path), path
        assert ours_calls == CALLS == ["caller"], path  # asked twice, called once a request
        answers.append(mine[0])
    assert answers == [200, 200, 422, 422, 422, 422, 422, 200]
    assert (await _answer(ours, "/x/7?page=3&size=5&q=text"))[1] == {
        "number": 7, "who": "nobody", "loud": "NOBODY", "pages": [3, 5], "q": "text",
        "path": "/x/7",
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


@pytest.mark.parametrize(
    "signature",
    ["header", "body", "background", "sync endpoint", "sync dependency"],
)
def test_a_route_needing_more_is_refused_when_declared(signature: str) -> None:
    router = Router()

    async def header(x_key: Annotated[str, Header()]) -> JSONResponse:
        return JSONResponse({})

    async def body(item: _Body) -> JSONResponse:
        return JSONResponse({})

    async def background(tasks: BackgroundTasks) -> JSONResponse:
        return JSONResponse({})

    def sync_endpoint() -> JSONResponse:
        return JSONResponse({})

    async def sync_dependency(_p: Annotated[None, Depends(_plain)]) -> JSONResponse:
        return JSONResponse({})

    endpoints = {
        "header": header, "body": body, "background": background,
        "sync endpoint": sync_endpoint, "sync dependency": sync_dependency,
    }  # fmt: skip
    with pytest.raises(UnsupportedRoute, match="/route"):
        router.add_api_route("/route", endpoints[signature], methods=["GET"])


def test_a_router_wide_dependency_is_refused() -> None:
    with pytest.raises(TypeError, match="router-wide"):
        Router(dependencies=[Depends(_nothing)])
