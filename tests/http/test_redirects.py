"""No redirect names a host the service was not configured with (issue 28, item 5): the
framework answered `GET /accounts/` with `Host: evil.example` by a 307 to
`http://evil.example/accounts`. A trailing slash on a path is now a 404 with the docs/api.md#errors
body; every redirect the service still makes (the dashboard's, after a form) is a path on
this service, whatever the `Host` header says."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.factories import make_user

EVIL = "evil.example"


def _paths(app: FastAPI) -> list[str]:
    """Every GET path the app serves (dashboard included), ids filled with a fresh uuid."""
    paths = []
    for route in [*app.routes, *app.state.api_routes]:
        methods = getattr(route, "methods", None) or {"GET"}
        if "GET" not in methods:
            continue
        path = str(getattr(route, "path", ""))
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            path = path[:start] + "0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30" + path[end + 1 :]
        paths.append(path)
    return paths


def _names_a_host(response: httpx.Response) -> bool:
    location = response.headers.get("location", "")
    return "//" in location or EVIL in location


async def test_a_trailing_slash_is_404_and_never_a_redirect_to_the_host_header(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    for headers in ({}, user.headers):
        response = await client.get("/accounts/", headers={**headers, "Host": EVIL})
        assert response.status_code == 404, response.headers
        assert response.json() == {
            "success": False,
            "message": "No such endpoint or resource.",
            "code": "not_found",
        }
        assert "location" not in response.headers
    wrong: list[Any] = []
    for path in _paths(app):
        for variant in {path, path.rstrip("/") + "/", path.rstrip("/")} - {""}:
            response = await client.get(variant, headers={**user.headers, "Host": EVIL})
            if _names_a_host(response) or response.status_code in (301, 302, 307, 308):
                wrong.append((variant, response.status_code, response.headers.get("location")))
    assert wrong == []


async def test_the_dashboards_redirects_are_paths_of_this_service(
    client: httpx.AsyncClient,
) -> None:
    """Signed out, every dashboard page sends the browser to sign in: by a path."""
    for path in ("/app", "/app/cards", "/app/webhooks", "/app/transactions"):
        response = await client.get(path, headers={"Host": EVIL})
        assert response.status_code == 303, (path, response.status_code)
        assert response.headers["location"] == "/app/login"
