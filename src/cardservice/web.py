"""The HTTP edge shared by every router: JSON rendering, body parsing, envelopes, pages."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Depends, Query, Request
from fastapi.responses import JSONResponse as FastAPIJSONResponse
from fastapi.responses import Response
from pydantic import BaseModel, ValidationError

from cardservice.errors import BadRequest, PayloadTooLarge, UnsupportedMediaType, ValidationFailed

ModelT = TypeVar("ModelT", bound=BaseModel)

_ORJSON_OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_OMIT_MICROSECONDS | orjson.OPT_NAIVE_UTC


def _encode_default(value: object) -> object:
    if isinstance(value, Decimal):
        return orjson.Fragment(format(value, "f"))  # exact decimal text, never via float
    if isinstance(value, uuid.UUID):  # asyncpg's own UUID subclass
        return str(value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def dumps(content: object) -> bytes:
    return orjson.dumps(content, default=_encode_default, option=_ORJSON_OPTIONS)


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
    """Read, parse and validate a JSON object body (413, 415, 400, then 422: API.md §1.1)."""
    limit = max_bytes or request.app.state.settings.max_body_bytes
    raw = await read_limited(request, limit)
    require_json(request)
    return parse_json(raw, model)


def require_json(request: Request) -> None:
    """415 unless the body is declared as `application/json`."""
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise UnsupportedMediaType()


def parse_json(raw: bytes, model: type[ModelT]) -> ModelT:
    """A JSON object (numbers as exact decimals) validated by `model` (400, then 422).
    `NaN` and `Infinity` parse (as non-finite decimals) so that validation refuses them
    with 422, as API.md §1.1 says for amounts, instead of a 400."""
    try:
        parsed = json.loads(raw, parse_float=Decimal, parse_constant=Decimal)
    except (ValueError, RecursionError) as exc:
        raise BadRequest("The body is not valid JSON.") from exc
    if not isinstance(parsed, dict):
        raise BadRequest("The body must be a JSON object.")
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


MAX_PAGE = 2**63 - 1  # `page` is an int64 (JSON and the databases' integers)
MAX_OFFSET = 2**62  # below every database's 64-bit OFFSET; any page that deep is empty


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    size: int

    @property
    def offset(self) -> int:
        """Rows before this page, capped so a huge `page` cannot overflow the SQL OFFSET."""
        return min((self.number - 1) * self.size, MAX_OFFSET)

    def meta(self, total: int) -> dict[str, int]:
        return {
            "current_page": self.number,
            "per_page": self.size,
            "total": total,
            "last_page": max(1, -(-total // self.size)),
        }


async def standard_page(
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1")] = 1,
    per_page: Annotated[int, Query(ge=1, le=100, description="Rows per page, 1..100")] = 20,
) -> Page:
    """`page` (≥ 1, default 1) and `per_page` (1..100, default 20)."""
    return Page(number=page, size=per_page)


async def card_page(
    page: Annotated[int, Query(ge=1, le=MAX_PAGE, description="Page number, from 1")] = 1,
    per_page: Annotated[int, Query(ge=1, le=500, description="Rows per page, 1..500")] = 100,
) -> Page:
    """`GET /card` pages: `per_page` up to 500, default 100."""
    return Page(number=page, size=per_page)


StandardPage = Annotated[Page, Depends(standard_page)]
CardPage = Annotated[Page, Depends(card_page)]


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


FILTER_KEY = re.compile(r"^filters\[([a-z_]{1,32})\]$")


def read_filters(request: Request, spec: Mapping[str, Callable[[str], Any]]) -> dict[str, Any]:
    """`filters[key]=value` (deepObject) → `{key: parsed}`; unknown keys or bad values → 422."""
    filters: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        if not key.startswith("filters"):
            continue
        match = FILTER_KEY.match(key)
        if match is None or match.group(1) not in spec:
            errors.setdefault(key, []).append(f"unknown filter; allowed: {', '.join(sorted(spec))}")
            continue
        name = match.group(1)
        try:
            filters[name] = spec[name](value)
        except ValueError as exc:
            errors.setdefault(f"filters[{name}]", []).append(str(exc))
    if errors:
        raise ValidationFailed(errors=errors)
    return filters


def one_of(*allowed: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return value

    return parse


def text_filter(max_length: int) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if not 1 <= len(value) <= max_length:
            raise ValueError(f"must be 1..{max_length} characters")
        return value

    return parse


def uuid_filter(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise ValueError("must be a UUID") from None


def bool_filter(value: str) -> bool:
    if value not in ("true", "false", "1", "0"):
        raise ValueError("must be true or false")
    return value in ("true", "1")


def escape_like(text: str) -> str:
    """`text` for a LIKE pattern with `\\` as the escape character."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
