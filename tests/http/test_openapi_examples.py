"""The OpenAPI document's examples work as sent (issue 33).

Every operation is called once, in the document's order, on an in-process app holding
`cardservice demo`'s data, with its request body example exactly as the document shows it
except for what only the caller can know — the substitutions `docs/api.md` ("Examples")
lists: the credential (the demo owner's token; an operator key on `/operator/*` and
`/network/*`), the ids of the caller's own resources (`EXAMPLE_UUID` in a path or in an
`…_uuid` field), a live MFA code, a card number, and an `external_id` per operator move.
Every answer must be 2xx. Error examples must be the bodies the service really sends."""

from __future__ import annotations

import base64
import json
import secrets
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from fastapi import FastAPI

from cardservice.acquirer.representments import represent
from cardservice.config import Settings
from cardservice.demo.seed import create_demo
from cardservice.http.openapi_sdk import EXAMPLE_UUID, USD_BIN
from cardservice.models.base import utcnow
from tests.clearing.helpers import ipm_file, post_file, presentment
from tests.factories import ISSUED_SECRETS, make_user
from tests.operator.helpers import operator_key

OPERATOR_PATHS = ("/operator/", "/network/")
TOKEN_OPERATIONS = ("_token", "_tokens")  # a card's wallet tokens: the demo's card in Apple Pay


class Demo:
    """The demo owner's side of the API and the resources an operation's ids name: each made
    fresh through the API itself, so an operation that closes or spends one harms no other."""

    def __init__(self, client: httpx.AsyncClient, token: str, key: str) -> None:
        self.client, self.token, self.key = client, token, key
        self.owner = {"Authorization": f"Bearer {token}"}
        self.operator = {"Authorization": f"Bearer {key}"}
        self.account = ""
        self.user = ""
        self.count = 0
        self.last4 = ""

    async def call(self, method: str, path: str, **kwargs: Any) -> Any:
        headers = self.operator if path.startswith(OPERATOR_PATHS) else self.owner
        answer = await self.client.request(method, path, headers=headers, **kwargs)
        assert answer.is_success, (method, path, answer.status_code, answer.text)
        return answer.json()["data"]

    async def start(self) -> None:
        accounts = (await self.call("GET", "/accounts"))["items"]
        self.account = next(a["uuid"] for a in accounts if a["currency"] == "USD")
        self.user = (await self.call("GET", "/user/summary"))["user"]["uuid"]

    async def card(self) -> str:
        body = {"account_uuid": self.account, "bin_uuid": USD_BIN, "start_balance": 100}
        return str((await self.call("POST", "/card/buy", json=body))["cards"][0]["uuid"])

    async def purchase(self) -> str:
        body = {"card_uuid": await self.card(), "amount": 20, "currency": "USD"}
        body["merchant_name"] = "Lidl"
        made = await self.call("POST", "/sandbox/authorizations", json=body)
        assert made["status"] == "pending", made
        return str(made["uuid"])

    async def settled(self) -> str:
        purchase = await self.purchase()
        await self.call("POST", f"/sandbox/transactions/{purchase}/settle", json={})
        return purchase

    async def dispute(self) -> str:
        body = {"transaction_uuid": await self.settled(), "reason": "duplicate"}
        return str((await self.call("POST", "/disputes", json=body))["uuid"])

    async def represented(self) -> str:
        """A dispute in `representment_received`, the step the operator accepts or escalates
        (docs/disputes.md): its chargeback sent in a file of a past date of its own (the
        example's file of its date is fixed), answered by the acquirer's simulator."""
        dispute = await self.dispute()
        self.count += 1
        day = (utcnow() - timedelta(days=self.count)).date().isoformat()
        sent = await self.client.post(
            "/operator/clearing-outgoing", json={"date": day}, headers=self.operator
        )
        assert sent.status_code == 200, sent.text
        with tempfile.TemporaryDirectory() as folder:
            outgoing, answer = Path(folder) / "out.ipm", Path(folder) / "answer.ipm"
            outgoing.write_bytes(sent.content)
            assert represent(outgoing, answer, share=1.0, seed=1) >= 1
            answered = await post_file(self.client, self.key, answer.read_bytes())
        assert answered.status_code == 201, answered.text
        return dispute

    async def mfa_code(self) -> str:
        code = str((await self.call("POST", "/auth/mfa-code"))["code"])
        ISSUED_SECRETS.append(code)
        return code

    async def physical(self, operation: str) -> str:
        """A physical card (docs/cards.md#physical-cards): shipped for its activation; its last
        four digits kept for the activation's body."""
        body = {"account_uuid": self.account, "bin_uuid": USD_BIN, "form": "physical"}
        body["shipping"] = SHIPPING
        card = (await self.call("POST", "/card/buy", json=body))["cards"][0]
        self.last4 = str(card["last4"])
        for status in ("printed", "shipped") if operation == "activate_card" else ():
            await self.call(
                "POST", f"/sandbox/cards/{card['uuid']}/fulfilment", json={"status": status}
            )
        return str(card["uuid"])

    async def sealed_pin(self) -> dict[str, str]:
        """A PIN envelope under the service's PIN key (docs/cards.md#the-pin)."""
        key = await self.call("GET", "/card/pin-key")
        public = serialization.load_pem_public_key(key["public_key_pem"].encode())
        assert isinstance(public, rsa.RSAPublicKey)
        plain = json.dumps({"pin": "2580", "nonce": secrets.token_hex(12)}).encode()
        sealed = public.encrypt(plain, OAEP)
        return {"key_id": key["key_id"], "encrypted_pin": base64.b64encode(sealed).decode()}

    async def pan(self) -> str:
        body = {"mfa_code": await self.mfa_code()}
        return str((await self.call("POST", f"/card/{await self.card()}/reveal", json=body))["pan"])

    async def endpoint(self) -> str:
        body = {"url": "https://hooks.example.com/cardservice"}
        return str((await self.call("POST", "/webhook-endpoints", json=body))["uuid"])

    async def program_endpoint(self) -> str:
        body = {"url": "https://hooks.example.com/program"}
        return str((await self.call("POST", "/operator/webhook-endpoints", json=body))["uuid"])

    async def event(self) -> str:
        return str((await self.call("GET", "/events", params={"limit": 1}))[0]["uuid"])

    async def attachment(self) -> str:
        body = {"type": "photo", "file": "JVBERi0xLjQK"}  # "%PDF-1.4"
        return str((await self.call("POST", "/attachment", json=body))["uuid"])

    def clearing_bytes(self) -> bytes:
        """A real IPM file (cardutil) of its own file id: one presentment of an unknown card."""
        self.count += 1
        return ipm_file(f"EXAMPLES{self.count:04d}{uuid.uuid4().hex[:8]}", [presentment(PAN, 100)])

    async def clearing_file(self) -> str:
        answer = await post_file(self.client, self.key, self.clearing_bytes())
        assert answer.status_code == 201, answer.text
        return str(answer.json()["data"]["uuid"])

    async def topup(self) -> str:
        body = {"account_uuid": self.account, "method": "bank-transfer"}
        body |= {"currency": "USD", "amount": 500}
        return str((await self.call("POST", "/topups", json=body))["uuid"])

    async def wallet(self) -> tuple[str, str]:
        """The demo's card in a digital wallet and its token (docs/network.md#wallet-tokens: only
        the network makes tokens; the demo has one)."""
        for card in (await self.call("GET", "/card", params={"per_page": 100}))["cards"]:
            tokens = await self.call("GET", f"/card/{card['uuid']}/tokens")
            if tokens:
                return str(card["uuid"]), str(tokens[0]["uuid"])
        raise AssertionError("the demo has a card in a wallet")

    async def new_user(self) -> str:
        self.count += 1
        body = {"email": f"user{self.count}@example.com", "name": "Grace Hopper"}
        return str((await self.call("POST", "/operator/users", json=body))["uuid"])

    async def new_account(self) -> str:
        body = {"user_uuid": self.user, "name": "Spare", "currency": "USD"}
        return str((await self.call("POST", "/operator/accounts", json=body))["uuid"])

    async def program(self) -> str:
        body = {"name": "Spare program", "bin_uuids": [USD_BIN]}
        return str((await self.call("POST", "/operator/programs", json=body))["uuid"])

    async def decision_endpoint(self) -> None:
        body = {"url": "https://decisions.example.com/authorize"}
        await self.call("PUT", "/authorization-endpoint", json=body)

    async def member(self) -> str:
        """The demo team's member (the owner of its other accounts)."""
        accounts = (await self.call("GET", "/accounts"))["related_team_accounts"]
        return str(accounts[0]["owner"]["uuid"])

    async def member_headers(self) -> dict[str, str]:
        member = await self.member()
        token = await self.call("POST", f"/operator/users/{member}/tokens", json={})
        ISSUED_SECRETS.append(token["token"])
        return {"Authorization": f"Bearer {token['token']}"}

    async def member_account(self) -> str:
        member = await self.member()
        accounts = (await self.call("GET", "/accounts"))["related_team_accounts"]
        return next(str(a["uuid"]) for a in accounts if a["owner"]["uuid"] == member)

    async def team_request(self) -> str:
        """A pending request of the member: more budget (their budget set first)."""
        member = await self.member()
        budget = {"amount": 500, "currency": "USD"}
        await self.call("PUT", f"/team/members/{member}/budget", json=budget)
        body = {"kind": "budget_increase", "amount": 10, "currency": "USD"}
        answer = await self.client.post(
            "/team/requests", json=body, headers=await self.member_headers()
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["data"]["uuid"])

    async def ensure_member_usd(self) -> None:
        """The member holds a USD account (the budget example's currency)."""
        assert await self.member_account()

    async def receipt_policy(self) -> None:
        body = {"min_amount": 25, "currency": "USD", "remind_after_days": 3,
                "freeze_after_days": 14}  # fmt: skip
        await self.call("PUT", "/team/receipt-policy", json=body)

    async def path_id(self, operation: str, name: str) -> str:
        """What `{name}` of `operation` names: a resource of the state the operation needs."""
        if name == "transactionUuid":
            needs_settled = operation in ("refund_sandbox_transaction",)
            return await (self.settled() if needs_settled else self.purchase())
        if name == "userUuid" and operation in ("put_team_budget", "delete_team_budget"):
            return await self.member()
        if name == "endpointUuid" and operation in PROGRAM_WIDE:
            return await self.program_endpoint()  # the operator's (docs/events.md)
        if name == "accountUuid" and operation == "patch_account":
            return await self.new_account()  # frozen by the example
        if name == "disputeUuid" and operation in ("accept", "escalate"):
            return await self.represented()
        if name == "cardUuid" and operation in PHYSICAL:
            return await self.physical(operation)
        if name == "tokenUuid" or (name == "cardUuid" and operation.endswith(TOKEN_OPERATIONS)):
            card, token = await self.wallet()
            return token if name == "tokenUuid" else card
        providers: dict[str, Callable[[], Awaitable[str]]] = {
            "cardUuid": self.card,
            "disputeUuid": self.dispute,
            "endpointUuid": self.endpoint,
            "eventUuid": self.event,
            "attachmentUuid": self.attachment,
            "topupUuid": self.topup,
            "userUuid": self.new_user,
            "requestUuid": self.team_request,
            "programUuid": self.program,
            "clearingFileUuid": self.clearing_file,
        }
        if name in providers:
            return await providers[name]()
        return {
            "userAccountUuid": self.account,
            "accountUuid": self.account,
            "binUuid": USD_BIN,
            "month": utcnow().strftime("%Y-%m"),
            "slug": "bank-transfer",
        }[name]

    async def body(self, operation: str, example: dict[str, Any]) -> dict[str, Any]:
        """The example with the caller's own ids, credentials and idempotency keys."""
        body = dict(example)
        if operation == "activate_card":
            body["last4"] = self.last4
        if operation == "set_pin":
            body |= await self.sealed_pin()
        fresh: dict[str, Callable[[], Awaitable[str]]] = {
            "card_uuid": self.card,
            "transaction_uuid": self.settled,
            "mfa_code": self.mfa_code,
            "pan": self.pan,
        }
        for name in body:
            if name in fresh:
                body[name] = await fresh[name]()
            elif name == "account_uuid" and operation in AS_MEMBER:
                body[name] = await self.member_account()
            elif name == "account_uuid":
                body[name] = self.account
            elif name == "attachment_uuid":
                body[name] = await self.attachment()
            elif name == "user_uuid":
                body[name] = self.user
            elif name == "card_uuids":
                body[name] = [await self.card()]
            elif name == "external_id" and operation in ("credit_account", "debit_account"):
                body[name] = f"{body[name]}-{operation}"
        assert EXAMPLE_UUID not in str(body), (operation, body)
        return body


PROGRAM_WIDE = ("get_program_endpoint", "rotate_program_secret", "delete_program_endpoint",
                "program_deliveries", "replay_program_window",
                "update_program_endpoint")  # fmt: skip
OCTETS = "application/octet-stream"  # a clearing file's bytes (docs/network.md#clearing-files)
PAN = "5999990000000001"  # no card of the service: the presentment is unmatched
REQUIRED_QUERY = {"search": "ama", "date": utcnow().date().isoformat()}
DECLINING = ("decline_team_request",)
# a physical card's operations (docs/cards.md#physical-cards)
PHYSICAL = ("activate_card", "set_pin", "sandbox_card_fulfilment", "operator_card_fulfilment")
SHIPPING = {"name": "Ada Lovelace", "line1": "1 Main St", "city": "Boston", "postal_code": "02108",
            "country": "US"}  # fmt: skip
OAEP = padding.OAEP(
    mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None
)  # its answer is a declined request, by design
# only a team's member asks (docs/teams.md#teams-budgets-requests-receipts)
AS_MEMBER = ("create_team_request",)
BEFORE: dict[str, Callable[[Demo], Awaitable[None]]] = {
    "get_receipt_policy": Demo.receipt_policy,
    "put_team_budget": Demo.ensure_member_usd,
    "get_authorization_endpoint": Demo.decision_endpoint,
    "delete_authorization_endpoint": Demo.decision_endpoint,
}


async def test_every_request_example_succeeds_as_sent(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings, openapi: dict[str, Any]
) -> None:
    token = await create_demo(settings)
    # the demo's disputes: one at each step (src/cardservice/demo/disputes.py)
    statuses = await app.state.db.reader.rows("SELECT status FROM disputes ORDER BY status")
    assert [row["status"] for row in statuses] == [
        "chargeback_sent", "lost", "open", "pre_arbitration", "representment_received", "won"
    ]  # fmt: skip
    key = await operator_key(app)
    ISSUED_SECRETS.append(token)
    demo = Demo(client, token, key)
    await demo.start()
    schema = openapi  # the app's (tests/http/conftest.py)
    sent = 0
    for template, item in schema["paths"].items():
        for method, operation in item.items():
            name = operation["operationId"]
            if name in BEFORE:
                await BEFORE[name](demo)
            path = template
            query = {}
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    value = await demo.path_id(name, parameter["name"])
                    path = path.replace("{" + parameter["name"] + "}", value)
                elif parameter.get("required"):
                    query[parameter["name"]] = REQUIRED_QUERY[parameter["name"]]
            content = operation.get("requestBody", {}).get("content", {})
            media = content.get("application/json")
            body = None if media is None else await demo.body(name, media["example"])
            headers = {} if operation["security"] == [] else demo.owner
            if operation["security"] == [{"operatorKey": []}]:
                headers = demo.operator
            if name in AS_MEMBER:
                headers = await demo.member_headers()
            octets = demo.clearing_bytes() if OCTETS in content else None
            if octets is not None:
                headers = {**headers, "Content-Type": OCTETS}
            answer = await client.request(
                method.upper(), path, params=query, json=body, content=octets, headers=headers
            )
            assert answer.is_success, (method, template, body, answer.status_code, answer.text)
            if answer.headers["content-type"] == "application/json" and name not in DECLINING:
                data = answer.json().get("data")  # an authorization example is approved
                assert not isinstance(data, dict) or data.get("status") != "declined", data
            sent += 1
    assert sent == sum(len(item) for item in schema["paths"].values()) >= 80


async def test_error_examples_are_the_bodies_the_service_sends(
    client: httpx.AsyncClient, app: FastAPI, openapi: dict[str, Any]
) -> None:
    schema = openapi  # the app's (tests/http/conftest.py)
    owner = (await make_user(app)).headers

    def example(path: str, method: str, status: str) -> Any:
        response = schema["paths"][path][method]["responses"][status]
        return response["content"]["application/json"]["example"]

    unknown = await client.get(f"/card/{uuid.uuid4()}", headers=owner)
    assert unknown.json() == example("/card/{cardUuid}", "get", "404")
    empty = await client.post("/card/buy", json={}, headers=owner)
    assert empty.json() == example("/card/buy", "post", "422")
    too_many = await client.get("/card", params={"per_page": 501}, headers=owner)
    assert too_many.json() == example("/card", "get", "422")
    anonymous = await client.get("/card")
    assert anonymous.json() == example("/card", "get", "401")
    for item in schema["paths"].values():
        for operation in item.values():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    body = response["content"]["application/json"]["example"]
                    assert body["success"] is False and body["code"] != "482913", body
