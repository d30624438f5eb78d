"""The HTTP edge shared by every router: JSON rendering, body parsing, envelopes, pages."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from decimal import Decimal
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse as FastAPIJSONResponse
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, BeforeValidator, ValidationError

from cardservice.db.paging import MAX_PAGE, Page
from cardservice.encoding import dumps
from cardservice.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType, ValidationFailed
from cardservice.http.openapi_sdk import operation_id

ModelT = TypeVar("ModelT", bound=BaseModel)


class Router(APIRouter):
    """The router of one domain: FastAPI's declarations of its routes (`APIRoute`s, which
    the OpenAPI document is built from), served by `route.RouteTable` (the application does
    not include routers). Router-wide dependencies are refused here, as early as they can
    be: every dependency a route runs is in its own signature, where `route.handler_of`
    checks it."""

    def __init__(self, **kwargs: Any) -> None:
        if kwargs.get("dependencies"):
            raise TypeError("a Router takes no router-wide dependencies: declare them per route")
        super().__init__(generate_unique_id_function=operation_id, **kwargs)


class JSONResponse(FastAPIJSONResponse):
    """JSON with exact decimals and `Z` timestamps."""

    def render(self, content: Any) -> bytes:
        return dumps(content)


def ok(
    data: object,
    *,
    status_code: int = 200,
    meta: object | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """The success envelope: `{success, data}` (+ `meta` for paginated lists)."""
    body: dict[str, object] = {"success": True, "data": data}
    if meta is not None:
        body["meta"] = meta
    return JSONResponse(body, status_code=status_code, headers=headers)


CSV_MEDIA = "text/csv"
CSV_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {CSV_MEDIA: {}}, "description": "JSON; or, with `Accept: text/csv`, CSV"}
}


def _quality(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


def wants_csv(request: Request) -> bool:
    """`Accept` asks for `text/csv` over JSON (by q-value; the first listed wins a tie)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(request.headers.get("accept", "").split(",")):
        media, _, params = part.partition(";")
        media = media.strip().lower()
        if media in (CSV_MEDIA, "application/json"):
            ranked.append((_quality(params), -index, media))
    if not ranked:
        return False
    quality, _index, media = max(ranked)
    return media == CSV_MEDIA and quality > 0


def csv_response(chunks: AsyncIterator[bytes], filename: str) -> StreamingResponse:
    """A streamed CSV download (`values.csv_text`): `Content-Disposition: attachment`."""
    return StreamingResponse(
        chunks,
        media_type=f"{CSV_MEDIA}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def done() -> JSONResponse:
    """The action-only envelope: `{success: true}`."""
    return JSONResponse({"success": True})


def _field_name(loc: Sequence[int | str]) -> str:
    return ".".join(str(part) for part in loc) or "body"


def validation_errors(error: ValidationError) -> dict[str, list[str]]:
    """Pydantic errors → `{"field": ["message", ...]}`."""
    errors: dict[str, list[str]] = {}
    for item in error.errors(include_url=False):
        errors.setdefault(_field_name(item["loc"]), []).append(item["msg"])
    return errors


async def read_json(
    request: Request, model: type[ModelT], *, max_bytes: int | None = None
) -> ModelT:
    """Read, parse and validate a JSON object body (413, 415, 400, then 422: docs/api.md#errors)."""
    limit = max_bytes or request.app.state.settings.max_body_bytes
    raw = await read_limited(request, limit)
    require_json(request)
    return parse_json(raw, model)


def require_json(request: Request) -> None:
    """415 unless the body is declared as `application/json`."""
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaType()


# No text input may hold U+0000: PostgreSQL cannot store it, and nothing a person types
# needs it. Refused here, at the edge, for every JSON body (`parse_json`), every filter
# (`filters.read_filters`) and every free-text query parameter (`QueryText`).
NUL = "\x00"
NUL_MESSAGE = "must not contain the NUL character (U+0000)"


def refuse_nul(value: str) -> str:
    """`value`, or ValueError (422) when it holds U+0000."""
    if NUL in value:
        raise ValueError(NUL_MESSAGE)
    return value


def _refuse_nul_first(value: object) -> object:
    return refuse_nul(value) if isinstance(value, str) else value


# before the parameter's own pattern and lengths, so the answer names the NUL
QueryText = Annotated[str, BeforeValidator(_refuse_nul_first)]
# a query parameter of named choices (a Literal): the NUL named before the choices are
NoNul = BeforeValidator(_refuse_nul_first)


def nul_errors(value: object, at: tuple[str | int, ...] = ()) -> dict[str, list[str]]:
    """Every place in a parsed JSON value where a string (or an object's key) holds U+0000."""
    found: dict[str, list[str]] = {}
    if isinstance(value, str):
        if NUL in value:
            found[_field_name(at)] = [NUL_MESSAGE]
    elif isinstance(value, dict):
        for key, item in value.items():
            found.update(
                nul_errors(key, (*at, key)) if NUL in key else nul_errors(item, (*at, key))
            )
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(nul_errors(item, (*at, index)))
    return found


def parse_json(raw: bytes, model: type[ModelT]) -> ModelT:
    """A JSON object (numbers as exact decimals) validated by `model` (400, then 422).
    `NaN` and `Infinity` parse (as non-finite decimals) so that validation refuses them
    with 422, as docs/api.md#errors says for amounts, instead of a 400. A string holding U+0000,
    anywhere in the body, is refused before the model sees it."""
    try:
        parsed = json.loads(raw, parse_float=Decimal, parse_constant=Decimal)
    except (ValueError, RecursionError) as exc:
        raise BadRequest("The body is not valid JSON.") from exc
    if not isinstance(parsed, dict):
        raise BadRequest("The body must be a JSON object.")
    if refused := nul_errors(parsed):
        raise ValidationFailed(errors=refused)
    try:
        return model.model_validate(parsed)
    except ValidationError as exc:
        raise ValidationFailed(errors=validation_errors(exc)) from exc


async def read_limited(request: Request, limit: int) -> bytes:
    """The body, refused with 413 as soon as it is known to exceed `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge()
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


BODY_MODELS: dict[str, type[BaseModel]] = {}


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`openapi_extra` documenting a JSON body we parse ourselves (after authentication)."""
    BODY_MODELS[model.__name__] = model
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}
            },
        },
        "x-body-model": model.__name__,
    }


def client_has(request: Request, etag: str) -> bool:
    """`If-None-Match` names this ETag (weak or strong comparison) or is `*`."""
    presented = request.headers.get("if-none-match", "")
    return presented == "*" or etag in {t.strip().removeprefix("W/") for t in presented.split(",")}


def cacheable(request: Request, data: object, *, max_age: int = 300) -> Response:
    """A public success body with `ETag` and `Cache-Control`; 304 when the client has it."""
    body = dumps({"success": True, "data": data})
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={max_age}"}
    if client_has(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


PageNumber = Annotated[
    int,
    Query(
        ge=1,
        le=MAX_PAGE,
        description="Page number, from 1 (default 1); past the last page the list is empty",
    ),
]


async def standard_page(
    page: PageNumber = 1,
    per_page: Annotated[
        int, Query(ge=1, le=100, description="Rows per page, 1..100 (default 20)")
    ] = 20,
) -> Page:
    """`page` (≥ 1, default 1) and `per_page` (1..100, default 20)."""
    return Page(number=page, size=per_page)


async def card_page(
    page: PageNumber = 1,
    per_page: Annotated[
        int, Query(ge=1, le=500, description="Rows per page, 1..500 (default 100)")
    ] = 100,
) -> Page:
    """`GET /card` pages: `per_page` up to 500, default 100."""
    return Page(number=page, size=per_page)


StandardPage = Annotated[Page, Depends(standard_page)]
CardPage = Annotated[Page, Depends(card_page)]
