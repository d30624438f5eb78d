"""What the browser tests share: a page watched for console errors and failed requests,
signing in with the demo token, calls to the live API, screenshots checked not blank, and
axe-core's serious violations."""

from __future__ import annotations

from decimal import Decimal
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.async_api import BrowserContext, Page

from tests.live_server import LiveServer

AXE = Path(__file__).with_name("axe.min.js")


class Watched:
    """A page with its console errors and failed requests recorded."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.problems.append(m.text))
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        page.on("requestfailed", lambda r: self.problems.append(f"failed {r.url}"))
        page.on(
            "response",
            lambda r: r.status >= 400 and self.problems.append(f"{r.status} {r.url}"),
        )


async def sign_in(context: BrowserContext, live: LiveServer) -> Watched:
    watched = Watched(await context.new_page())
    await watched.page.goto(f"{live.base}/app")
    assert watched.page.url.endswith("/app/login")
    await watched.page.get_by_label("Bearer token").fill(live.demo_token)
    await watched.page.get_by_role("button", name="Sign in").click()
    await watched.page.wait_for_url(f"{live.base}/app")
    return watched


async def call(
    live: LiveServer, method: str, path: str, token: str = "", **kwargs: Any
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token or live.demo_token}"}
    async with httpx.AsyncClient(base_url=live.base, headers=headers) as client:
        return await client.request(method, path, **kwargs)


async def api(live: LiveServer, path: str, **params: str | int) -> Any:
    return (await call(live, "GET", path, params=params)).json()


def money(amount: object, currency: str) -> str:
    return f"{Decimal(str(amount)):,.2f} {currency}"


def not_blank(png: bytes) -> bool:
    colors = Image.open(BytesIO(png)).convert("RGB").getcolors(maxcolors=1 << 20)
    return colors is not None and len(colors) > 20


async def axe_serious(page: Page) -> list[str]:
    await page.add_script_tag(path=str(AXE))
    result = await page.evaluate("async () => (await axe.run(document)).violations")
    return [v["id"] for v in result if v["impact"] in ("serious", "critical")]


async def screenshot(page: Page, shots: Path, name: str) -> None:
    """A full-page screenshot kept under `shots`, checked not blank, with no serious axe
    violation and nothing wider than the window (tables scroll inside their own region)."""
    png = await page.screenshot(full_page=True)
    (shots / name).write_bytes(png)
    assert not_blank(png), name
    assert await axe_serious(page) == [], name
    overflow = await page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, name
