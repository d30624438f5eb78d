"""What makes the OpenAPI document fit for SDK generators and fuzzers: operation ids from the
handler's name, an example on every schema, response links between operations."""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute

from cardservice.values.patterns import SLUG_PATTERN, UUID_PATTERN

EXAMPLE_UUID = "0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30"
EXAMPLE_TIME = "2026-03-19T10:15:00Z"
# Values a reader recognises, by property name; anything else is derived from the schema.
NAMED_EXAMPLES: dict[str, Any] = {
    "currency": "EUR",
    "mask": "424242******4242",
    "last4": "4242",
    "bin": "424242",
    "brand": "visa",
    "email": "ada@example.com",
    "url": "https://hooks.example.com/cardservice",
    "name": "Ada Lovelace",
    "country": "DE",
    "mcc": "5411",
    "code": "482913",
    "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "mime_type": "image/jpeg",
    "description": "Team travel",
    "external_id": "order-1001",
    "holder_name": "Ada Lovelace",
    "line1": "Unter den Linden 1",
    "city": "Berlin",
    "postal_code": "10117",
    "expiry_month": 12,
    "expiry_year": 2029,
    "cards_count": 1,
    "file": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGA"
    "hKmMIQAAAABJRU5ErkJggg==",  # a 1×1 PNG
}
PATTERN_EXAMPLES = {
    UUID_PATTERN: EXAMPLE_UUID,
    SLUG_PATTERN: "bank-transfer",
    "^[A-Z]{3}$": "EUR",
    "^[A-Z]{2}$": "DE",
    r"^\d{6}$": "482913",
}
FORMAT_EXAMPLES = {"uuid": EXAMPLE_UUID, "date-time": EXAMPLE_TIME, "date": "2026-03-19"}
USD_BIN = "4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001"  # the catalogue's 424242 (USD, available)
SPENDING_CONTROLS = {"per_authorization": 250, "monthly": 2000, "blocked_tags": ["uber"]}
# Each request body's example: a request that succeeds as sent against `cardservice demo`'s
# data, once `EXAMPLE_UUID` (wherever it stands for one of your own resources: an account, a
# card, a transaction…) and the credentials are yours. BINs, tags, payment methods and
# currencies are the catalogue's own. tests/http/test_openapi_examples.py sends every one.
REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "SetBudgetRequest": {"amount": 500, "currency": "USD"},
    "CreateTeamRequest": {
        "kind": "card",
        "account_uuid": EXAMPLE_UUID,
        "bin_uuid": USD_BIN,
        "start_balance": 25,
        "description": "Conference travel",
    },
    "DeclineRequest": {"reason": "Use the team travel card"},
    "ReceiptPolicyRequest": {
        "min_amount": 25,
        "currency": "USD",
        "remind_after_days": 3,
        "freeze_after_days": 14,
    },
    "LinkReceiptRequest": {"attachment_uuid": EXAMPLE_UUID},
    "BuyCardsRequest": {
        "account_uuid": EXAMPLE_UUID,
        "bin_uuid": USD_BIN,
        "cards_count": 2,
        "start_balance": 25,
        "description": "Team travel",
        "external_id": "order-1001",
        "auto_replenish_amount": 50,
        "auto_replenish_min_balance": 10,
    },
    "CardChangeRequest": {
        "description": "Ads budget",
        "holder_name": "Ada Lovelace",
        "spending_controls": SPENDING_CONTROLS,
    },
    "SpendingControls": SPENDING_CONTROLS,
    "HolderAddressIn": {
        "line1": "Unter den Linden 1",
        "city": "Berlin",
        "postal_code": "10117",
        "country": "DE",
    },
    "AutoReplenishIn": {"enabled": True, "amount": 50, "min_balance": 10},
    "FavoriteRequest": {"card_uuids": [EXAMPLE_UUID], "is_favorite": True},
    "SortRequest": {"card_uuids": [EXAMPLE_UUID]},
    "RevealRequest": {"mfa_code": "k3v9q2x7mz"},
    "ReplaceCardRequest": {"reason": "damaged"},
    "ActivateCardRequest": {"last4": "4242"},
    "FulfilmentRequest": {"status": "printed"},
    "SetPinRequest": {
        "key_id": "rsa-3f1c0b6a9e2d4c57",
        "encrypted_pin": "bW9yZSB0aGFuIDM0MCBiYXNlNjQgY2hhcmFjdGVycyBpbiBwcmFjdGljZQ==",
        "mfa_code": "k3v9q2x7mz",
    },
    "AuthorizationEndpointRequest": {
        "url": "https://decisions.example.com/authorize",
        "timeout_ms": 1500,
        "on_timeout": "decline",
    },
    "OpenDisputeRequest": {
        "transaction_uuid": EXAMPLE_UUID,
        "reason": "not_received",
        "explanation": "Ordered on 3 March; nothing arrived.",
    },
    "ResolveDisputeRequest": {"outcome": "won"},
    "AcsCodeRequest": {
        "pan": "4242424242424242",
        "code": "482913",
        "merchant_name": "Booking.com",
        "amount": 189,
        "currency": "USD",
        "expires_in": 600,
    },
    "CreateUserRequest": {
        "email": "ada@example.com",
        "name": "Ada Lovelace",
        "team": "Analytical Engines",
        "role": "owner",
    },
    "ChangeUserRequest": {"name": "Ada King", "status": "active"},
    "IssueTokenRequest": {"name": "reporting script", "expires_in_days": 90},
    "CreateAccountRequest": {
        "user_uuid": EXAMPLE_UUID,
        "name": "Travel EUR",
        "currency": "EUR",
        "type": "budget",
    },
    "ChangeAccountRequest": {"status": "frozen"},
    "MoneyRequest": {
        "amount": 250,
        "external_id": "wire-2026-03-19-0042",
        "description": "Wire transfer from Ada Lovelace",
    },
    "CreateProgramRequest": {
        "name": "Marketing cards",
        "bin_uuids": [USD_BIN],
        "spending_controls": SPENDING_CONTROLS,
        "card_validity_months": 24,
    },
    "ChangeProgramRequest": {"card_validity_months": 36},
    "DepositRequest": {"account_uuid": EXAMPLE_UUID, "amount": 250},
    "AuthorizationRequest": {
        "card_uuid": EXAMPLE_UUID,
        "amount": 12.5,
        "currency": "USD",
        "merchant_name": "Amazon",
        "mcc": "5942",
        "merchant_country": "US",
        "merchant_city": "Seattle",
        "tag": "amazon",
    },
    "CaptureRequest": {"amount": 10, "final": True},
    "IncrementRequest": {"amount": 5},
    "RefundRequest": {"amount": 5},
    "ThreeDsRequest": {
        "card_uuid": EXAMPLE_UUID,
        "merchant_name": "Booking.com",
        "amount": 189,
        "currency": "USD",
    },
    "TopupRequest": {
        "account_uuid": EXAMPLE_UUID,
        "method": "bank-transfer",
        "currency": "USD",
        "amount": 500,
    },
    "ConfirmTopupRequest": {"received_amount": 500},
    # the operator's catalogue (docs/operations.md#your-own-catalogue): digits no BIN uses, a
    # pair no authorization has used
    "CreateBinRequest": {
        "bin": "45717360",
        "brand": "visa",
        "currency": "USD",
        "status": "available",
        "card_price": 2.5,
    },
    "ChangeBinRequest": {"status": "available", "card_price": 2.5},
    "ProgramFeesRequest": {"card_decline": 0.25, "card_fx": 1.5, "topup_percent": 1},
    "AddFxRateRequest": {
        "base": "JPY",
        "quote": "USD",
        "rate": 0.0067,
        "effective_at": "2026-12-01T00:00:00Z",
    },
    "AttachmentUpload": {"type": "receipt", "file": NAMED_EXAMPLES["file"]},
    "EndpointCreate": {
        "url": "https://hooks.example.com/cardservice",
        "description": "Ledger sync",
        "event_types": ["transaction.created", "transaction.updated"],
    },
    "EndpointUpdate": {"description": "Ledger sync (all events)", "event_types": None},
    "ProgramEndpointCreate": {
        "url": "https://ops.example.com/hooks",
        "description": "Back office",
        "event_types": ["clearing_file.ingested", "card_testing.locked", "dispute.updated"],
    },
    "ProgramEndpointUpdate": {"enabled": True, "event_types": None},
    "ReplayRequest": {"since": "2026-03-19T00:00:00Z", "until": "2026-03-20T00:00:00Z"},
}
MAX_DEPTH = 8

# (method, path, status) → links: the response value that feeds the next operation.
LINKS: dict[tuple[str, str, str], dict[str, tuple[str, str, str]]] = {
    ("post", "/card/buy", "201"): {
        "GetCard": ("get_card", "cardUuid", "$response.body#/data/cards/0/uuid"),
        "GetAccount": ("get_account", "userAccountUuid", "$response.body#/data/account/uuid"),
    },
    ("get", "/card", "200"): {
        "GetCard": ("get_card", "cardUuid", "$response.body#/data/cards/0/uuid"),
    },
    ("get", "/accounts", "200"): {
        "GetAccount": ("get_account", "userAccountUuid", "$response.body#/data/items/0/uuid"),
    },
    ("get", "/transaction/report", "200"): {
        "GetTransaction": ("get_transaction", "transactionUuid", "$response.body#/data/0/uuid"),
        "GetReceipt": ("get_receipt", "transactionUuid", "$response.body#/data/0/uuid"),
    },
    ("get", "/transaction/{transactionUuid}", "200"): {
        "GetReceipt": ("get_receipt", "transactionUuid", "$response.body#/data/uuid"),
        "GetCard": ("get_card", "cardUuid", "$response.body#/data/card_uuid"),
    },
    ("post", "/sandbox/authorizations", "201"): {
        "GetTransaction": ("get_transaction", "transactionUuid", "$response.body#/data/uuid"),
    },
    ("post", "/attachment", "201"): {
        "DownloadAttachment": (
            "download_attachment",
            "attachmentUuid",
            "$response.body#/data/uuid",
        ),
    },
    ("get", "/attachments", "200"): {
        "DownloadAttachment": (
            "download_attachment",
            "attachmentUuid",
            "$response.body#/data/0/uuid",
        ),
    },
}


def tidy_schema_names(schema: dict[str, Any]) -> None:
    """`PagedEnvelope_list_TransactionRecord__` → `PagedEnvelopeListTransactionRecord`: the
    names pydantic gives generic models become class names a generator can use as they are."""
    components = schema["components"]["schemas"]
    renamed = {old: _camel(old) for old in components if not old.isalnum()}
    for old, new in renamed.items():
        components[new] = {**components.pop(old), "title": new}  # generators name by title
    refs = {f"#/components/schemas/{o}": f"#/components/schemas/{n}" for o, n in renamed.items()}
    _rewrite_refs(schema, refs)


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name))


def _rewrite_refs(node: Any, refs: dict[str, str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            node["$ref"] = refs.get(node["$ref"], node["$ref"])
        for value in node.values():
            _rewrite_refs(value, refs)
    elif isinstance(node, list):
        for value in node:
            _rewrite_refs(value, refs)


def operation_id(route: APIRoute) -> str:
    """The handler's own name (`list_accounts`, `get_card`): one id per operation."""
    return route.name


def add_links(schema: dict[str, Any]) -> None:
    """OpenAPI links from a response to the operations that take its identifiers."""
    for (method, path, status), links in LINKS.items():
        operation = schema["paths"].get(path, {}).get(method)
        if operation is None:  # the sandbox routes are optional
            continue
        response = operation["responses"][status]
        response["links"] = {
            name: {"operationId": target, "parameters": {parameter: expression}}
            for name, (target, parameter, expression) in links.items()
        }


def add_examples(schema: dict[str, Any]) -> None:
    """An `example` on every component schema and on every JSON request and response body."""
    components = schema["components"]["schemas"]
    for name, example in REQUEST_EXAMPLES.items():
        if name in components:  # the sandbox's bodies only with the sandbox on
            components[name]["example"] = example
    for component in components.values():
        component.setdefault("example", example_for(component, components))
    for path_item in schema["paths"].values():
        for operation in path_item.values():
            bodies = [operation.get("requestBody", {}), *operation["responses"].values()]
            for body in bodies:
                media = body.get("content", {}).get("application/json")
                if media is not None and "schema" in media:
                    media.setdefault("example", example_for(media["schema"], components))


def example_for(
    schema: dict[str, Any], components: dict[str, Any], name: str = "", depth: int = 0
) -> Any:
    """A value valid against `schema`: named values first, then the schema's own hints."""
    if "$ref" in schema:
        target = components[schema["$ref"].rsplit("/", 1)[1]]
        return example_for(target, components, name, depth + 1)
    if "example" in schema:
        return schema["example"]
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return example_for(options[0], components, name, depth)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        if depth > MAX_DEPTH:
            return {}
        properties = schema.get("properties", {})
        return {k: example_for(v, components, k, depth + 1) for k, v in properties.items()}
    if kind == "array":
        return [example_for(schema.get("items", {}), components, name, depth + 1)]
    if kind in ("number", "integer"):
        named = NAMED_EXAMPLES.get(name)
        return named if isinstance(named, int) else _number(schema, kind)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return _string(schema, name)


def _number(schema: dict[str, Any], kind: str) -> int | float:
    low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    value: int | float = 12.5 if kind == "number" else 1
    value = max(value, low + 1 if "exclusiveMinimum" in schema else low)
    if high is not None:
        value = min(value, high)
    return int(value) if kind == "integer" else value


def _string(schema: dict[str, Any], name: str) -> str:
    text: str = (
        PATTERN_EXAMPLES.get(schema.get("pattern", ""))
        or FORMAT_EXAMPLES.get(schema.get("format", ""))
        or (NAMED_EXAMPLES.get(name) if isinstance(NAMED_EXAMPLES.get(name), str) else None)
        or (EXAMPLE_UUID if name.endswith("uuid") else None)
        or (EXAMPLE_TIME if name.endswith("_at") else None)
        or "example"
    )
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    text = text.ljust(low, "x")
    return text[:high] if high is not None else text
