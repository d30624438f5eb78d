"""`web.Router`: a request outside a router's first path segments is refused at once, and
everything a router serves is still answered as FastAPI would (200, 405, 404)."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.web import JSONResponse, Router


def _app() -> tuple[FastAPI, list[str]]:
    """Two routers; `asked` records each route pattern FastAPI tries."""
    asked: list[str] = []
    cards, loose = Router(prefix="/card"), Router()

    @cards.get("/{card_uuid}")
    async def one(card_uuid: str) -> JSONResponse:
        return JSONResponse({"uuid": card_uuid})

    @loose.get("/{anything}/y")
    async def anything(anything: str) -> JSONResponse:
        return JSONResponse({"anything": anything})

    app = FastAPI()
    app.include_router(cards)
    app.include_router(loose)
    for route in [*cards.routes, *loose.routes]:
        matches = route.matches

        def counted(scope, matches=matches, path=route.path):  # type: ignore[no-untyped-def]
            asked.append(path)
            return matches(scope)

        route.matches = counted  # type: ignore[method-assign]
    return app, asked


async def _get(app: FastAPI, path: str, method: str = "GET") -> int:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        return (await client.request(method, path)).status_code


async def test_its_own_paths_are_answered_as_before() -> None:
    app, _ = _app()
    assert await _get(app, "/card/abc") == 200
    assert await _get(app, "/card/abc", "POST") == 405
    assert await _get(app, "/card/abc/more") == 404


async def test_a_path_of_another_segment_never_reaches_the_patterns() -> None:
    app, asked = _app()
    assert await _get(app, "/elsewhere/y") == 200  # the second router's route
    assert "/card/{card_uuid}" not in asked
    # a router with a route starting with a parameter has no segments: its patterns decide
    assert "/{anything}/y" in asked
