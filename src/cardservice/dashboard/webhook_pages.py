"""The webhooks pages: the user's endpoints (add, enable or disable, rotate the secret, delete)
and one endpoint's recent deliveries (redeliver an event, replay a window).

Every action is the API's own request of docs/events.md#events-and-webhooks, sent as the signed-in
user, so its URL rules (a private address refused with `url_not_allowed`) and messages are the
API's. A new secret is shown once, in the page that answers the creation or the rotation; it is
never put in a URL or kept by the dashboard.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.pages import PageNumber
from cardservice.dashboard.views import act, field_errors, page_links, refused, show
from cardservice.dashboard.web import redirect, render
from cardservice.events import EVENT_TYPES
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
EndpointUuid = Annotated[str, Path(alias="endpointUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
Queued = Annotated[int | None, Query(ge=0, le=10**9)]
NOTICES = {
    "enabled": "The endpoint is enabled: events are delivered to it again.",
    "disabled": "The endpoint is disabled: nothing is delivered to it until you enable it.",
    "deleted": "The endpoint is deleted, with its queue and its delivery log.",
    "redelivered": "The event is queued again for every endpoint that receives its type.",
}
TYPE_FIELD = "type:"  # one checkbox per event type: `type:card.created=on`


async def _endpoints(api: Api) -> dict[str, Any]:
    body = await api.body("/webhook-endpoints", {"per_page": 100})
    return {
        "title": "Webhooks",
        "endpoints": body["data"],
        "total": body["meta"]["total"],
        "event_types": EVENT_TYPES,
        "values": {"url": "", "description": ""},
        "chosen": [],
        "errors": {},
    }


@router.get("/webhooks")
async def webhooks(request: Request, done: Done = "") -> Response:
    """The user's endpoints and the form to add one."""

    async def build(api: Api) -> dict[str, Any]:
        return {**await _endpoints(api), "notice": NOTICES.get(done)}

    return await show(request, "webhooks.html", build)


@router.post("/webhooks")
async def create(request: Request) -> Response:
    """Add an endpoint; the answer shows its secret in full, this once."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        chosen = [name for name in EVENT_TYPES if form.get(TYPE_FIELD + name) == "on"]
        body: dict[str, Any] = {"url": form.get("url", "").strip()}
        if form.get("description", "").strip():
            body["description"] = form["description"].strip()
        if chosen:
            body["event_types"] = chosen
        try:
            made = (await api.send("POST", "/webhook-endpoints", body))["data"]
        except ApiError as error:
            if error.status_code != 422:
                raise
            context = await _endpoints(api)
            context.update(values=form, chosen=chosen, errors=field_errors(error, "url"))
            return render(request, "webhooks.html", context, status_code=422)
        context = {**await _endpoints(api), "secret": made["secret"], "secret_for": made["url"]}
        return render(request, "webhooks.html", context, status_code=201)

    return await act(request, action)


async def _endpoint(api: Api, endpoint_uuid: str, page: int) -> dict[str, Any]:
    endpoint = (await api.body(f"/webhook-endpoints/{endpoint_uuid}"))["data"]
    path = f"/webhook-endpoints/{endpoint_uuid}/deliveries"
    attempts = await api.body(path, {"page": page, "per_page": 20})
    return {
        "title": "Webhook endpoint",
        "endpoint": endpoint,
        "attempts": attempts["data"],
        "pages": page_links(attempts["meta"]),
        "total": attempts["meta"]["total"],
        "values": {"since": "", "until": ""},
        "errors": {},
    }


@router.get("/webhooks/{endpointUuid}")
async def endpoint_page(
    request: Request,
    endpoint_uuid: EndpointUuid,
    page: PageNumber = 1,
    done: Done = "",
    queued: Queued = None,
) -> Response:
    """One endpoint: its settings and actions, the replay form, its delivery attempts."""

    async def build(api: Api) -> dict[str, Any]:
        notice = NOTICES.get(done)
        if queued is not None:
            notice = f"{queued} event{'' if queued == 1 else 's'} queued for this endpoint."
        return {**await _endpoint(api, endpoint_uuid, page), "notice": notice}

    return await show(request, "webhook.html", build)


def _one(endpoint_uuid: str) -> str:
    return f"/webhook-endpoints/{endpoint_uuid}"


@router.post("/webhooks/{endpointUuid}/enabled")
async def set_enabled(request: Request, endpoint_uuid: EndpointUuid) -> Response:
    """Enable or disable the endpoint (`PATCH {enabled}`)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        enabled = form.get("enabled") == "true"
        await api.send("PATCH", _one(endpoint_uuid), {"enabled": enabled})
        done = "enabled" if enabled else "disabled"
        return redirect(request, f"/app/webhooks/{endpoint_uuid}?done={done}#notice")

    return await act(request, action)


@router.post("/webhooks/{endpointUuid}/rotate")
async def rotate(request: Request, endpoint_uuid: EndpointUuid) -> Response:
    """A new secret, shown in full this once; the old one keeps signing for 24 hours."""

    async def action(api: Api, _form: dict[str, str]) -> Response:
        made = (await api.send("POST", _one(endpoint_uuid) + "/rotate-secret"))["data"]
        context = {**await _endpoint(api, endpoint_uuid, 1), "secret": made["secret"]}
        return render(request, "webhook.html", context)

    return await act(request, action)


@router.post("/webhooks/{endpointUuid}/delete")
async def delete(request: Request, endpoint_uuid: EndpointUuid) -> Response:
    """Delete the endpoint, its queue and its delivery log."""

    async def action(api: Api, _form: dict[str, str]) -> Response:
        await api.send("DELETE", _one(endpoint_uuid))
        return redirect(request, "/app/webhooks?done=deleted#notice")

    return await act(request, action)


@router.post("/webhooks/{endpointUuid}/redeliver")
async def redeliver(request: Request, endpoint_uuid: EndpointUuid) -> Response:
    """Queue one event again (`POST /events/{uuid}/redeliver`: every endpoint receiving it)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        try:
            event = uuid.UUID(form.get("event_uuid", ""))
        except ValueError:
            return refused(request, ApiError(404, "Event not found."))
        await api.send("POST", f"/events/{event}/redeliver")
        return redirect(request, f"/app/webhooks/{endpoint_uuid}?done=redelivered#notice")

    return await act(request, action)


def _moment(text: str) -> str | None:
    """A `datetime-local` value read as UTC (`2026-11-23T10:00` → `…T10:00Z`); empty → None."""
    text = text.strip()
    if not text:
        return None
    return text if text.endswith("Z") or "+" in text[10:] else text + "Z"


@router.post("/webhooks/{endpointUuid}/replay")
async def replay(request: Request, endpoint_uuid: EndpointUuid) -> Response:
    """Queue every event of a window the endpoint never received with a 2xx."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        body = {"since": _moment(form.get("since", ""))}
        until = _moment(form.get("until", ""))
        if until is not None:
            body["until"] = until
        try:
            answer = await api.send("POST", _one(endpoint_uuid) + "/replay", body)
        except ApiError as error:
            if error.status_code != 422:
                raise
            context = await _endpoint(api, endpoint_uuid, 1)
            context.update(values=form, errors=field_errors(error, "since"))
            return render(request, "webhook.html", context, status_code=422)
        queued = answer["data"]["queued"]
        return redirect(request, f"/app/webhooks/{endpoint_uuid}?queued={queued}")

    return await act(request, action)
