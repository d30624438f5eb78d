"""The webhooks pages act only through the API of docs/events.md#events-and-webhooks: an endpoint is
added with its secret shown once, a private URL is refused as the API refuses it, enable/disable,
rotation and deletion change the endpoint, and its deliveries can be redelivered or replayed."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.webhooks.worker import DeliveryWorker
from tests.dashboard.session import post_form, sign_in
from tests.factories import Caller, make_card, make_user
from tests.webhooks.conftest import receiver, worker  # noqa: F401 - fixtures used here
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import logged

SECRET = re.compile(r'data-testid="secret">(whsec_[A-Za-z0-9+/=]+)<')


async def _endpoints(client: httpx.AsyncClient, user: Caller) -> list[dict[str, Any]]:
    response = await client.get("/webhook-endpoints", headers=user.headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["data"]
    return found


async def test_an_endpoint_is_added_with_its_secret_shown_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    made = await post_form(
        client, "/app/webhooks", url="http://127.0.0.1:9/hook", **{"type:card.updated": "on"}
    )
    assert made.status_code == 201
    secret = SECRET.search(made.text)
    assert secret is not None and "not shown again" in made.text
    [endpoint] = await _endpoints(client, user)
    assert endpoint["url"] == "http://127.0.0.1:9/hook"
    assert endpoint["event_types"] == ["card.updated"] and endpoint["enabled"] is True
    listed = (await client.get("/app/webhooks")).text
    assert secret.group(1) not in listed and endpoint["secret"] in listed  # masked from now on


async def test_a_private_url_is_refused_as_the_api_refuses_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings = app.state.settings.model_copy(update={"webhook_allow_private": False})
    user = await make_user(app)
    await sign_in(client, user)
    refused = await post_form(client, "/app/webhooks", url="http://10.1.2.3/hook")
    api = await client.post(
        "/webhook-endpoints", json={"url": "http://10.1.2.3/hook"}, headers=user.headers
    )
    assert refused.status_code == api.status_code == 422
    assert api.json()["code"] == "url_not_allowed"
    message = api.json()["message"].replace("'", "&#39;")
    assert f'<p id="f-url-error" class="field-error">{message}</p>' in refused.text
    assert 'value="http://10.1.2.3/hook"' in refused.text
    bad_form = await post_form(client, "/app/webhooks", url="ftp://example.com")
    assert bad_form.status_code == 422 and 'id="f-url-error"' in bad_form.text
    assert await _endpoints(client, user) == []


async def test_disable_rotate_and_delete_an_endpoint(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    first = SECRET.search(
        (await post_form(client, "/app/webhooks", url="http://127.0.0.1:9/")).text
    )
    [endpoint] = await _endpoints(client, user)
    base = f"/app/webhooks/{endpoint['uuid']}"
    disabled = await post_form(client, f"{base}/enabled", enabled="false")
    assert disabled.headers["location"] == f"{base}?done=disabled#notice"
    assert (await _endpoints(client, user))[0]["enabled"] is False
    assert "nothing is delivered to it" in (await client.get(disabled.headers["location"])).text
    await post_form(client, f"{base}/enabled", enabled="true")
    assert (await _endpoints(client, user))[0]["enabled"] is True
    rotated = SECRET.search((await post_form(client, f"{base}/rotate")).text)
    assert first is not None and rotated is not None and rotated.group(1) != first.group(1)
    deleted = await post_form(client, f"{base}/delete")
    assert deleted.headers["location"] == "/app/webhooks?done=deleted#notice"
    assert await _endpoints(client, user) == []
    assert (await client.get(base)).status_code == 404


async def test_deliveries_are_listed_redelivered_and_replayed(
    app: FastAPI,
    client: httpx.AsyncClient,
    receiver: Receiver,  # noqa: F811 - the fixture
    worker: DeliveryWorker,  # noqa: F811 - the fixture
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    await post_form(client, "/app/webhooks", url=receiver.url, **{"type:card.created": "on"})
    [endpoint] = await _endpoints(client, user)
    await make_card(app, client, user)
    [attempt] = await logged(client, user, endpoint["uuid"], 1)
    base = f"/app/webhooks/{endpoint['uuid']}"
    page = (await client.get(base)).text
    assert "HTTP 200" in page and attempt["event_uuid"][:8] in page

    again = await post_form(client, f"{base}/redeliver", event_uuid=attempt["event_uuid"])
    assert again.headers["location"] == f"{base}?done=redelivered#notice"
    await receiver.wait_for(2)
    assert receiver.ids() == [attempt["event_uuid"]] * 2
    unknown = await post_form(client, f"{base}/redeliver", event_uuid="../../accounts")
    assert unknown.status_code == 404

    bad = await post_form(client, f"{base}/replay", since="yesterday")
    assert bad.status_code == 422 and 'id="f-since-error"' in bad.text
    replayed = await post_form(client, f"{base}/replay", since="2000-01-01T00:00")
    assert replayed.headers["location"] == f"{base}?queued=0"  # every event got its 2xx
    assert "0 events queued" in (await client.get(replayed.headers["location"])).text
