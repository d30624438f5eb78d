"""The served OpenAPI document: security schemes, envelopes, error bodies, path patterns."""

from __future__ import annotations

import copy
from typing import Any, Generic, TypeVar

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field
from starlette.convertors import Convertor, register_url_convertor

from cardservice.errors import (
    AccountNotFound,
    BadRequest,
    CardNotFound,
    DatabaseUnavailable,
    DisputeNotFound,
    Forbidden,
    IdempotencyConflict,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    RuleViolation,
    ServiceError,
    TransactionNotFound,
    Unauthenticated,
    UnsupportedMediaType,
    ValidationFailed,
)
from cardservice.http.router import BODY_MODELS
from cardservice.values.patterns import SLUG_MAX_LENGTH, SLUG_PATTERN, UUID_PATTERN

T = TypeVar("T")


BEARER_OR_MFA: dict[str, Any] = {"security": [{"bearerAuth": []}, {"mfaCode": []}]}
BEARER_ONLY: dict[str, Any] = {"security": [{"bearerAuth": []}]}
PUBLIC: dict[str, Any] = {"security": []}


class UuidConvertor(Convertor[str]):
    """Path segments that are UUIDs (any case); anything else does not match the route: 404."""

    regex = UUID_PATTERN[1:-1]

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


class SlugConvertor(Convertor[str]):
    regex = rf"(?=[a-z0-9_-]{{1,{SLUG_MAX_LENGTH}}}(?:/|$)){SLUG_PATTERN[1:-1]}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("uuid36", UuidConvertor())
register_url_convertor("slug", SlugConvertor())


class Envelope(BaseModel, Generic[T]):
    success: bool = True
    data: T


class PageMeta(BaseModel):
    current_page: int = Field(ge=1)
    per_page: int = Field(ge=1)
    total: int = Field(ge=0)
    last_page: int = Field(ge=1)


class PagedEnvelope(BaseModel, Generic[T]):
    success: bool = True
    meta: PageMeta
    data: T


class Done(BaseModel):
    success: bool = True


class ErrorBody(BaseModel):
    success: bool = False
    message: str
    code: str
    errors: dict[str, list[str]] | None = None
    request_id: str | None = None


ERROR_STATUSES = {
    "400": "The body is not a JSON object",
    "401": "No valid credentials",
    "403": "Credentials of a scheme this endpoint does not accept",
    "404": "Unknown or foreign resource",
    "409": "Idempotency conflict",
    "413": "Body too large",
    "415": "Body is not JSON",
    "422": "Validation failed or a business rule refused",
    "429": "Rate limited",
    "500": "Unexpected failure",
    "503": "The database cannot be reached (with `Retry-After`)",
}
# Each status's example is the body the service sends (docs/api.md#errors), from the error itself.
ERROR_EXAMPLES: dict[str, ServiceError] = {
    "400": BadRequest(),
    "401": Unauthenticated(),
    "403": Forbidden(),
    "404": NotFound("No such endpoint or resource."),  # an unknown id or path
    "409": IdempotencyConflict(),
    "413": PayloadTooLarge(),
    "415": UnsupportedMediaType(),
    "422": RuleViolation(),
    "429": RateLimited(60),
    "503": DatabaseUnavailable(),
}
NOT_FOUND_BY_PARAMETER: dict[str, ServiceError] = {
    "cardUuid": CardNotFound(),
    "userAccountUuid": AccountNotFound(),
    "transactionUuid": TransactionNotFound(),
    "disputeUuid": DisputeNotFound(),
}
PAGE_SIZES = ("per_page", "limit")
INTERNAL_ERROR = {  # written by the request middleware, with the request's id
    "success": False,
    "message": "An unexpected error occurred.",
    "code": "internal_error",
    "request_id": "6f1c2a9e0d3b4c5a8e7f9a0b1c2d3e4f",
}


def _add_body_models(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            name = operation.pop("x-body-model", None)
            if name is None:
                continue
            model = BODY_MODELS[name]
            model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            components.update(model_schema.pop("$defs", {}))
            components[model.__name__] = model_schema


def _add_errors(schema: dict[str, Any]) -> None:
    ref = {"$ref": "#/components/schemas/ErrorBody"}
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's own shape; ours follows
            for status, description in ERROR_STATUSES.items():
                responses.setdefault(
                    status,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    schema["components"]["schemas"]["ErrorBody"] = ErrorBody.model_json_schema()
    for name in ("HTTPValidationError", "ValidationError"):
        schema["components"]["schemas"].pop(name, None)
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            for status, response in operation["responses"].items():
                media = response.get("content", {}).get("application/json")
                if media is not None and media.get("schema") == ref:
                    media["example"] = _error_example(status, operation, schema)


def _error_example(status: str, operation: dict[str, Any], schema: dict[str, Any]) -> Any:
    """The docs/api.md#errors body the service answers with `status` for this operation: a 404 names
    the path's resource, a 422 the first fields an empty body or too large a page would name."""
    if status == "500":
        return INTERNAL_ERROR
    if status == "404":
        for parameter in operation.get("parameters", []):
            if parameter["name"] in NOT_FOUND_BY_PARAMETER:
                return NOT_FOUND_BY_PARAMETER[parameter["name"]].body()
    if status == "422" and (errors := _validation_errors(operation, schema)):
        return ValidationFailed(errors=errors).body()
    return ERROR_EXAMPLES.get(status, ServiceError()).body()


def _validation_errors(operation: dict[str, Any], schema: dict[str, Any]) -> dict[str, list[str]]:
    """What an empty body (its required fields) or a page past `per_page`'s bound draws."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        required = schema["components"]["schemas"][name].get("required", [])
        return {field: ["Field required"] for field in required[:2]}
    for parameter in operation.get("parameters", []):
        bound = parameter.get("schema", {}).get("maximum")
        if parameter["name"] in PAGE_SIZES and bound is not None:
            return {parameter["name"]: [f"Input should be less than or equal to {bound}"]}
    return {}


NO_NUL = {"pattern": "^[^\\u0000]*$"}  # web.refuse_nul: no text input holds U+0000


def _refuse_nul(node: Any, components: dict[str, Any], seen: set[str]) -> None:
    """Every free text schema under `node` (a request body's, a query parameter's) says what
    the edge enforces: no U+0000. A pattern, an enum or a format already excludes it."""
    if isinstance(node, list):
        for item in node:
            _refuse_nul(item, components, seen)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            _refuse_nul(components.get(name), components, seen)
    if node.get("type") == "string" and not {"pattern", "enum", "format", "const"} & set(node):
        node.update(NO_NUL)
    for key in ("anyOf", "oneOf", "allOf", "items", "additionalProperties"):
        _refuse_nul(node.get(key), components, seen)
    _refuse_nul(list(node.get("properties", {}).values()), components, seen)


def _add_no_nul(schema: dict[str, Any]) -> None:
    schema["paths"] = copy.deepcopy(schema["paths"])  # filters' schemas are shared objects
    components = schema.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    _refuse_nul(parameter.get("schema"), components, seen)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                _refuse_nul(body.get("schema"), components, seen)


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus what it cannot infer from our hand-parsed bodies."""
    from cardservice.http.openapi_sdk import (  # kept lazy: only the document needs it
        add_examples,
        add_links,
        tidy_schema_names,
    )

    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.state.api_routes,
    )
    schema.setdefault("components", {})["securitySchemes"] = {
        "bearerAuth": {"type": "http", "scheme": "bearer"},
        "mfaCode": {"type": "apiKey", "in": "query", "name": "_code"},
        # the program operator's keys, `csk_…`, on /operator/* and /network/*
        # (docs/operations.md#running-a-program)
        "operatorKey": {"type": "http", "scheme": "bearer", "bearerFormat": "csk_"},
    }
    _add_body_models(schema)
    _add_errors(schema)
    tidy_schema_names(schema)
    _add_no_nul(schema)
    add_links(schema)
    add_examples(schema)
    app.openapi_schema = schema
    return schema
