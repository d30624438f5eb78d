"""`endpoint.RouteTable`: a request is matched only against the routes of its path's first
segment, in declared order, and answered as Starlette's router would answer it (200, 405,
404, the path parameters, `url_path_for`)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import NoMatchFound

from cardservice.http.route import RouteTable
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
        matches = route.matches

        def counted(scope, matches=matches, path=route.path):  # type: ignore[no-untyped-def]
            asked.append(path)
            return matches(scope)

        route.matches = counted  # type: ignore[method-assign]
    app = FastAPI()
    app.router.routes.append(RouteTable(routes))  # type: ignore[arg-type]
    return app, asked


async def _call(app: FastAPI, path: str, method: str = "GET") -> tuple[int, object]:
    transport = httpx.ASGITransport(app=app)
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

    with pytest.raises(ValueError, match="literal segment"):
        RouteTable(router.routes)  # type: ignore[arg-type]
