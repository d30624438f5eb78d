"""`/metrics` behind a bearer token (issue 28, item 9): with `CARDSERVICE_METRICS_TOKEN`
set, a scrape without it, or with a wrong one (a user's API token too), is 401 with the
docs/api.md#errors body and counts as a failed authentication of its address; with it, 200."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.factories import make_user

TOKEN = "metrics-" + "s" * 40


async def test_metrics_need_the_token_when_one_is_set(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    assert (await client.get("/metrics")).status_code == 200  # unset: open, as documented
    app.state.settings = app.state.settings.model_copy(
        update={"metrics_token": TOKEN, "auth_failures_per_minute": 3}
    )
    user = await make_user(app)
    for headers in ({}, {"Authorization": "Bearer wröng".encode()}, user.headers):
        refused = await client.get("/metrics", headers=headers)
        assert refused.status_code == 401, refused.text
        assert refused.json()["code"] == "unauthenticated"
        assert refused.headers["www-authenticate"] == "Bearer"
    scraped = await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert scraped.status_code == 200 and "cardservice_" in scraped.text
    guesses = [
        (await client.get("/metrics", headers={"Authorization": f"Bearer guess{n}"})).status_code
        for n in range(2)
    ]
    assert guesses == [401, 429]  # limited like any invalid credential (3 a minute here)
