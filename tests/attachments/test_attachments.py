"""POST /attachment and GET /attachment/{uuid}: types, limits, sniffing, storage."""

from __future__ import annotations

import base64
import io
import uuid
from pathlib import Path

import httpx
from fastapi import FastAPI
from PIL import Image

from tests.factories import Caller, make_user


def _image(fmt: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(buffer, format=fmt)
    return buffer.getvalue()


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
FILES = {
    "image/jpeg": _image("JPEG"),
    "image/png": _image("PNG"),
    "image/webp": _image("WEBP"),
    "application/pdf": PDF,
}


async def _upload(
    client: httpx.AsyncClient,
    user: Caller,
    data: bytes | str,
    type_: str = "receipt",
    prefix: str = "",
) -> httpx.Response:
    encoded = data if isinstance(data, str) else prefix + base64.b64encode(data).decode()
    return await client.post(
        "/attachment", headers=user.headers, json={"type": type_, "file": encoded}
    )


async def _rows(app: FastAPI) -> int:
    return int(await app.state.db.reader.value("SELECT count(*) FROM attachments"))


async def test_each_accepted_type_round_trips(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for (mime, data), type_ in zip(
        FILES.items(), ["receipt", "invoice", "document", "photo"], strict=True
    ):
        response = await _upload(client, user, data, type_)
        assert response.status_code == 201, response.text
        record = response.json()["data"]
        assert (
            record["mime_type"] == mime and record["type"] == type_ and record["size"] == len(data)
        )
        assert set(record) == {"uuid", "type", "mime_type", "size", "sha256", "created_at"}
        download = await client.get(f"/attachment/{record['uuid']}", headers=user.headers)
        assert download.status_code == 200 and download.content == data
        assert download.headers["content-type"] == mime
        assert download.headers["etag"] == f'"{record["sha256"]}"'
        assert download.headers["x-content-type-options"] == "nosniff"
        extension = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}.get(mime, "pdf")
        assert download.headers["content-disposition"] == (
            f'attachment; filename="{record["uuid"]}.{extension}"'
        )


async def test_data_url_prefix_and_strict_base64(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    wrapped = base64.encodebytes(FILES["image/png"]).decode()  # MIME style, newlines every 76
    assert (await _upload(client, user, wrapped)).status_code == 422
    unpadded = base64.b64encode(FILES["image/png"]).decode().rstrip("=")
    assert (await _upload(client, user, unpadded)).status_code == 422
    response = await _upload(client, user, FILES["image/png"], prefix="data:image/png;base64,")
    assert response.status_code == 201 and response.json()["data"]["mime_type"] == "image/png"


async def test_claimed_type_is_not_trusted(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    response = await _upload(
        client, user, b"MZ\x90\x00 not a picture", prefix="data:image/png;base64,"
    )
    assert response.status_code == 422 and response.json()["code"] == "unsupported_file_type"
    assert await _rows(app) == 0


async def test_refusals_write_nothing(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    cases = [
        ({"type": "receipt", "file": "!!!not base64"}, 422),
        ({"type": "receipt", "file": ""}, 422),
        ({"type": "receipt", "file": "===="}, 422),
        ({"type": "selfie", "file": base64.b64encode(PDF).decode()}, 422),
        ({"file": base64.b64encode(PDF).decode()}, 422),
        ({"type": "receipt"}, 422),
        ({"type": "receipt", "file": base64.b64encode(PDF).decode(), "name": "x.pdf"}, 422),
        ({"type": "receipt", "file": 12}, 422),
    ]
    for body, status in cases:
        response = await client.post("/attachment", headers=user.headers, json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["success"] is False
    text = await client.post(
        "/attachment", headers={**user.headers, "Content-Type": "text/plain"}, content=b"x"
    )
    assert text.status_code == 415
    assert (await client.post("/attachment", json=cases[0][0])).status_code == 401
    assert await _rows(app) == 0


async def test_size_limit_is_413_by_header_and_by_stream(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    app.state.settings.max_attachment_bytes = 1000
    exact = PDF + b"0" * (1000 - len(PDF))
    assert (await _upload(client, user, exact)).status_code == 201
    over = await _upload(client, user, exact + b"0")
    assert over.status_code == 413 and over.json()["code"] == "payload_too_large"
    huge = b'{"type": "receipt", "file": "' + b"A" * 200_000 + b'"}'

    async def stream() -> object:
        for start in range(0, len(huge), 8192):
            yield huge[start : start + 8192]

    streamed = await client.post(
        "/attachment",
        content=stream(),  # no Content-Length: chunked
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert streamed.status_code == 413
    declared = await client.post(
        "/attachment", content=huge, headers={**user.headers, "Content-Type": "application/json"}
    )
    assert declared.status_code == 413
    assert await _rows(app) == 1


async def test_same_bytes_are_stored_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    first = (await _upload(client, user, FILES["image/jpeg"])).json()["data"]
    second = (await _upload(client, user, FILES["image/jpeg"], "photo")).json()["data"]
    assert first["uuid"] != second["uuid"] and first["sha256"] == second["sha256"]
    root = Path(app.state.settings.blob_dir)
    blobs = [p for p in root.rglob("*") if p.is_file()]  # noqa: ASYNC240 - a test's look at disk
    assert [p.name for p in blobs] == [first["sha256"]]
    assert await _rows(app) == 2


async def test_another_users_attachment_is_404(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    record = (await _upload(client, owner, PDF)).json()["data"]
    assert (
        await client.get(f"/attachment/{record['uuid']}", headers=stranger.headers)
    ).status_code == 404
    assert (
        await client.get(f"/attachment/{uuid.uuid4()}", headers=owner.headers)
    ).status_code == 404


async def test_list_holds_only_the_callers_own_newest_first(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app, team="Crew", role="owner")
    member = await make_user(app, team="Crew", role="member")
    first = (await _upload(client, owner, FILES["image/png"], "receipt")).json()["data"]
    second = (await _upload(client, owner, PDF, "invoice")).json()["data"]
    await _upload(client, member, FILES["image/jpeg"], "receipt")

    response = await client.get("/attachments", headers=owner.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    listed = [record["uuid"] for record in body["data"]]
    # newest first; the member's upload is not the owner's, even for a team owner
    assert listed == [second["uuid"], first["uuid"]]
    assert body["data"][0] == second
    assert body["meta"] == {"current_page": 1, "per_page": 20, "total": 2, "last_page": 1}

    receipts = await client.get(
        "/attachments", params={"filters[type]": "receipt"}, headers=owner.headers
    )
    assert [r["uuid"] for r in receipts.json()["data"]] == [first["uuid"]]
    mine = (await client.get("/attachments", headers=member.headers)).json()
    assert mine["meta"]["total"] == 1 and mine["data"][0]["mime_type"] == "image/jpeg"
    wrong = await client.get("/attachments", params={"filters[type]": "x"}, headers=owner.headers)
    assert wrong.status_code == 422
    assert (await client.get("/attachments")).status_code == 401
