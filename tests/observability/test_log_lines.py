"""What a real `cardservice serve` writes to its log while the API and the dashboard are
used with query strings (an MFA code among them): one line per request — the dashboard's
in-process API calls each once, never again as httpx's `HTTP Request` — and no query string
in any line (docs/operations.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cardservice.observability.logs import without_query
from tests.live_server import LiveServer, demo_server

QUERY = re.compile(r"\?[^\s\"]*=")


@pytest.fixture(scope="module")
def logged(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[list[dict[str, Any]], list[str], str]]:
    """The server's log lines after the traffic below, the request ids answered, the code."""
    var_dir = tmp_path_factory.mktemp("log-lines-var")
    log_file = var_dir / "server.log"
    with demo_server(database_url, var_dir, log_file) as live:
        ids, code = _traffic(live)
    lines = [json.loads(line) for line in log_file.read_text().splitlines() if line.strip()]
    yield lines, ids, code


def _traffic(live: LiveServer) -> tuple[list[str], str]:
    bearer = {"Authorization": f"Bearer {live.demo_token}"}
    answered: list[httpx.Response] = []
    with httpx.Client(base_url=live.base, follow_redirects=False) as http:
        issued = http.post("/auth/mfa-code", headers=bearer, json={})
        assert issued.status_code in (200, 201), issued.text
        code = issued.json()["data"]["code"]
        answered += [
            http.get("/accounts", params={"_code": code, "per_page": 2}),
            http.get("/card", params={"_code": code, "filters[status]": "active"}),
            http.get("/transaction/report", params={"per_page": 3, "page": 2}, headers=bearer),
            http.get("/accounts", params={"_code": code + "WRONG"}),
        ]
        answered += _dashboard(http, live.demo_token)
    assert [r.status_code for r in answered[:3]] == [200, 200, 200]
    assert answered[3].status_code == 401
    return [r.headers["x-request-id"] for r in answered], code


def _dashboard(http: httpx.Client, token: str) -> list[httpx.Response]:
    login = http.get("/app/login")
    form = {"token": token, "csrf_token": http.cookies["cs_csrf"]}
    signed_in = http.post("/app/login", data=form)
    assert signed_in.status_code == 303, signed_in.text
    pages = [
        http.get("/app"),
        http.get("/app/transactions", params={"page": 2, "status": "declined"}),
        http.get("/app/cards", params={"search": "4"}),
        http.get("/app/accounts"),
    ]
    assert [p.status_code for p in pages] == [200] * 4
    return [login, signed_in, *pages]


def test_no_line_carries_a_query_string_or_the_code(
    logged: tuple[list[dict[str, Any]], list[str], str],
) -> None:
    lines, _ids, code = logged
    text = "\n".join(json.dumps(line) for line in lines)
    assert len(lines) > 20
    assert code not in text and code.lower() not in text.lower()
    assert QUERY.search(text) is None, QUERY.search(text)


def test_every_request_is_logged_once(
    logged: tuple[list[dict[str, Any]], list[str], str],
) -> None:
    lines, ids, _code = logged
    assert not [line for line in lines if line["logger"] == "httpx"]
    access = [line for line in lines if line["logger"] == "cardservice.access"]
    for request_id in ids:
        assert [line["request_id"] for line in access].count(request_id) == 1
    in_process = [line for line in access if line["request_id"] not in ids]
    paths = {line["path"] for line in in_process}
    assert {"/transaction/report", "/card", "/accounts"} <= paths  # the dashboard's own calls
    assert len(in_process) == len({line["request_id"] for line in in_process})


def test_a_query_is_cut_wherever_it_stands() -> None:
    assert without_query("GET /accounts?_code=AB12CD34EF 401") == "GET /accounts 401"
    url = 'POST https://hooks.example/in?token=s3cret "HTTP/1.1 500"'
    assert without_query(url) == 'POST https://hooks.example/in "HTTP/1.1 500"'
    assert without_query("is it? yes") == "is it? yes"
