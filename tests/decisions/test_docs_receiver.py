"""The receiver snippet of docs/controls.md, served as it is written, decides for real."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from tests.decisions.conftest import serve, set_endpoint
from tests.factories import authorize, make_card, make_user

DOC = Path(__file__).resolve().parents[2] / "docs" / "controls.md"


def _snippet() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) == 1, "docs/controls.md has one Python receiver"
    return str(blocks[0])


async def test_the_documented_receiver_approves_and_declines(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, funds="2000", start_balance="1000")
    namespace: dict[str, Any] = {}
    async for base in serve(_LateApp(namespace)):
        response = await set_endpoint(client, user, f"{base}/decide")
        secret = response.json()["data"]["secret"]
        code = _snippet().replace('SECRET = "whsec_..."', f"SECRET = {secret!r}")
        exec(compile(code, str(DOC), "exec"), namespace)
        small = (await authorize(client, user, card, "20")).json()["data"]
        large = (await authorize(client, user, card, "600")).json()["data"]
    assert small["status"] == "pending" and small["decision"] == "endpoint"
    assert large["error"] == "do_not_honor" and large["decision"] == "endpoint"
    assert large["description"] == "over 500 needs a manager"
    await app.state.outbound.aclose()


class _LateApp:
    """The snippet's `app`, looked up per request: it is built once the secret is known."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.namespace["app"](scope, receive, send)
