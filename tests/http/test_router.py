"""`route.RouteTable`: a request is matched only against the routes of its path's first
segment, in declared order, and answered as Starlette's router would answer it (200, 405,
404, the path parameters, the application's root path, `url_path_for`)."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import NoMatchFound

from cardservice.http.route import RouteTable, UnsupportedRoute
from cardservice.http.router import JSONResponse, Router


def _app() -> tuple[FastAPI, list[str]]:
    """Two routers in one table; `asked` records each route pattern tried."""
    asked: list[str] = []
    cards, others = Router(prefix="/card"), Router()

    @cards.get("/{card_uuid}")
    async def one(card_uuid: str) -> JSONResponse:
        return JSONResponse({"uuid": card_uuid})

    @cards.get("/{card_uuid}/x")
    async def deeper(card_uuid: str) -> JSONResponse:
        return JSONResponse({"deeper": card_uuid})

    @others.get("/card/{card_uuid}")  # the same path in a later router: never reached
    async def shadowed(card_uuid: str) -> JSONResponse:
        return JSONResponse({"shadowed": card_uuid})

    @others.post("/card/{card_uuid}")  # the same path, another method: reached by POST
    async def change(card_uuid: str) -> JSONResponse:
        return JSONResponse({"changed": card_uuid})

    @others.get("/elsewhere/{thing}")
    async def elsewhere(thing: str) -> JSONResponse:
        return JSONResponse({"elsewhere": thing})

    routes = [*cards.routes, *others.routes]
    for route in routes:
        route.path_regex = _Tried(route.path_regex, route.path, asked)  # type: ignore[attr-defined]
    return FastAPI(routes=[RouteTable(routes)]), asked


class _Tried:
    """A route's path regex that records the route's pattern each time it is tried."""

    def __init__(self, regex: re.Pattern[str], path: str, asked: list[str]) -> None:
        self.regex, self.path, self.asked = regex, path, asked

    def match(self, text: str) -> re.Match[str] | None:
        self.asked.append(self.path)
        return self.regex.match(text)


async def _call(
    app: FastAPI, path: str, method: str = "GET", root_path: str = ""
) -> tuple[int, object]:
    transport = httpx.ASGITransport(app=app, root_path=root_path)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        response = await client.request(method, path)
    return response.status_code, response.json()


async def test_routes_answer_in_declared_order_with_their_parameters() -> None:
    app, _ = _app()
    assert await _call(app, "/card/abc") == (200, {"uuid": "abc"})
    assert await _call(app, "/card/abc/x") == (200, {"deeper": "abc"})
    assert await _call(app, "/card/abc", "POST") == (200, {"changed": "abc"})
    assert (await _call(app, "/card/abc", "DELETE"))[0] == 405
    assert (await _call(app, "/card/abc/more"))[0] == 404
    assert (await _call(app, "/nothing"))[0] == 404
    assert await _call(app, "/elsewhere/y") == (200, {"elsewhere": "y"})


async def test_a_path_is_matched_only_against_its_first_segments_routes() -> None:
    app, asked = _app()
    await _call(app, "/elsewhere/y")
    assert asked == ["/elsewhere/{thing}"]
    asked.clear()
    await _call(app, "/nothing/at/all")
    assert asked == []


def test_url_path_for_finds_any_route_of_the_table() -> None:
    app, _ = _app()
    assert app.url_path_for("deeper", card_uuid="abc") == "/card/abc/x"
    with pytest.raises(NoMatchFound):
        app.url_path_for("absent")


def test_a_route_starting_with_a_parameter_is_refused() -> None:
    router = Router()

    @router.get("/{anything}/y")
    async def anything(anything: str) -> JSONResponse:
        return JSONResponse({})

    with pytest.raises(UnsupportedRoute, match="literal segment"):
        RouteTable(router.routes)


async def test_the_root_path_is_removed_where_starlettes_router_removes_it() -> None:
    """Behind a root path (`uvicorn --root-path`), each path is answered as FastAPI's own
    router answers it: the root path is removed where it ends a segment, not elsewhere."""
    routes = Router()

    @routes.get("/card/{card_uuid}")
    async def card(card_uuid: str) -> JSONResponse:
        return JSONResponse({"uuid": card_uuid})

    @routes.get("/api/{thing}")
    async def api(thing: str) -> JSONResponse:
        return JSONResponse({"api": thing})

    ours = FastAPI(routes=[RouteTable(routes.routes)])
    theirs = FastAPI()
    theirs.include_router(routes)
    for root_path, path in [
        ("", "/card/a"), ("/api", "/api/card/a"), ("/api", "/card/a"), ("/ap", "/api/x"),
        ("/api", "/api"), ("/api", "/apicard/a"), ("/card", "/card/a"), ("/api/", "/api/card/a"),
    ]:  # fmt: skip
        mine = await _call(ours, path, root_path=root_path)
        assert mine == await _call(theirs, path, root_path=root_path), (root_path, path)
