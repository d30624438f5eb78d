"""The attachments page uploads through `POST /attachment` as the signed-in user: the file is
stored as the API stores it, the API's refusals (too large, a type it does not accept, a
broken form) are shown next to the field they name and write nothing, a form without its
CSRF token is refused, and the list and downloads hold only the user's own files."""

from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path

import httpx
from fastapi import FastAPI
from PIL import Image

from tests.dashboard.session import sign_in
from tests.factories import Caller, make_user

FILE_ERROR = re.compile(r'<p id="f-file-error" class="field-error">([^<]*)</p>')


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (20, 120, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


async def _upload(
    client: httpx.AsyncClient,
    data: bytes,
    name: str = "receipt.png",
    csrf: str | None = "cookie",
    type_: str = "receipt",
) -> httpx.Response:
    """Post the page's form as a browser does: multipart, the file and the CSRF token."""
    fields = {"type": type_}
    if csrf is not None:
        fields["csrf_token"] = client.cookies["cs_csrf"] if csrf == "cookie" else csrf
    files = {"file": (name, data, "application/octet-stream")}
    return await client.post("/app/attachments", data=fields, files=files)


async def _nothing_written(app: FastAPI) -> None:
    assert await app.state.db.reader.value("SELECT count(*) FROM attachments") == 0
    root = Path(app.state.settings.blob_dir)
    assert not [p for p in root.rglob("*") if p.is_file()]  # noqa: ASYNC240 - a test's look


async def _api_list(client: httpx.AsyncClient, user: Caller) -> list[dict[str, object]]:
    response = await client.get("/attachments", headers=user.headers)
    assert response.status_code == 200, response.text
    listed: list[dict[str, object]] = response.json()["data"]
    return listed


async def test_an_upload_is_stored_as_the_api_stores_it_and_listed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    png = _png()
    sent = await _upload(client, png, type_="photo")
    assert sent.status_code == 303
    assert sent.headers["location"] == "/app/attachments?done=uploaded#notice"
    [record] = await _api_list(client, user)
    assert record["type"] == "photo" and record["mime_type"] == "image/png"
    assert record["size"] == len(png)
    page = await client.get(sent.headers["location"])
    assert page.status_code == 200 and "The file is uploaded" in page.text
    assert f'data-attachment="{record["uuid"]}"' in page.text and "1 file uploaded" in page.text
    download = await client.get(f"/app/attachments/{record['uuid']}")
    assert download.status_code == 200 and download.content == png
    assert download.headers["content-type"] == "image/png"
    assert download.headers["content-disposition"] == (
        f'attachment; filename="{record["uuid"]}.png"'
    )


async def test_the_list_and_downloads_hold_only_the_users_own_files(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app, team="Crew", role="owner")
    member = await make_user(app, team="Crew", role="member")
    await sign_in(client, member)
    assert (await _upload(client, _png())).status_code == 303
    [theirs] = await _api_list(client, member)
    await sign_in(client, owner)
    page = await client.get("/app/attachments")
    assert "0 files uploaded by you" in page.text and str(theirs["uuid"]) not in page.text
    refused = await client.get(f"/app/attachments/{theirs['uuid']}")
    assert refused.status_code == 404 and "Attachment not found." in refused.text


async def test_a_file_over_the_limit_is_refused_with_the_apis_message(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings.max_attachment_bytes = 1000
    user = await make_user(app)
    await sign_in(client, user)
    over = _png()[:8] + b"\0" * 993  # a PNG's signature, one byte past the limit
    api = await client.post(
        "/attachment",
        headers=user.headers,
        json={"type": "receipt", "file": base64.b64encode(over).decode()},
    )
    assert api.status_code == 413
    refused = await _upload(client, over)
    assert refused.status_code == 413
    assert FILE_ERROR.findall(refused.text) == [html.escape(api.json()["message"])]
    assert 'aria-invalid="true"' in refused.text and "Nothing was uploaded" in refused.text
    # a body past what the API itself would read is refused before it is held whole
    huge = await _upload(client, b"\x89PNG\r\n\x1a\n" + b"\0" * 200_000)
    assert huge.status_code == 413
    assert FILE_ERROR.findall(huge.text) == ["The request body is too large."]
    await _nothing_written(app)


async def test_a_file_of_another_type_is_refused_whatever_its_name(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    refused = await _upload(client, b"GIF89a not accepted", name="receipt.png")
    assert refused.status_code == 422
    assert FILE_ERROR.findall(refused.text) == ["Only JPEG, PNG, WebP and PDF files are accepted."]
    empty = await _upload(client, b"", name="empty.pdf")
    assert empty.status_code == 422 and len(FILE_ERROR.findall(empty.text)) == 1
    kind = await _upload(client, _png(), type_="selfie")
    assert kind.status_code == 422 and 'id="f-type-error"' in kind.text
    assert '<option value="receipt" selected>' in kind.text
    await _nothing_written(app)


async def test_without_the_csrf_token_or_a_session_nothing_is_written(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await sign_in(client, user)
    missing = await _upload(client, _png(), csrf=None)
    assert missing.status_code == 403 and "The form expired" in missing.text
    wrong = await _upload(client, _png(), csrf="not-the-cookie")
    assert wrong.status_code == 403
    broken = await client.post(
        "/app/attachments",
        content=b"--x\r\nnot a form",
        headers={"Content-Type": "multipart/form-data; boundary=x"},
    )
    assert broken.status_code == 400
    assert FILE_ERROR.findall(broken.text) == ["The form could not be read."]
    client.cookies.delete("cs_session")
    signed_out = await _upload(client, _png())
    assert signed_out.status_code == 303 and signed_out.headers["location"] == "/app/login"
    await _nothing_written(app)
