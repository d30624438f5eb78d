"""The attachments page: the signed-in user's own uploads, and the form that adds one.

The form is `multipart/form-data` (a plain file input, no script needed). The dashboard only
turns the chosen file into the API's own wire form, base64 in `POST /attachment`, and sends
that as the user: the size limit, the sniffing of types and the refusals are the API's. The
list is `GET /attachments` (the caller's own, even for a team owner).
"""

from __future__ import annotations

from typing import Annotated, Any, get_args

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.attachments.schemas import AttachmentType
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.pages import PageNumber
from cardservice.dashboard.uploads import upload_form
from cardservice.dashboard.views import act, as_user, field_errors, page_links, show
from cardservice.dashboard.web import ACCEPT, redirect, render
from cardservice.errors import BadRequest, PayloadTooLarge
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
AttachmentUuid = Annotated[str, Path(alias="attachmentUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
TYPES = get_args(AttachmentType)
NOTICES = {"uploaded": "The file is uploaded: it is the first in the list below."}
FIELDS = ("csrf_token", "type", "file")


def _limit_text(limit: int) -> str:
    """`10 MiB`, or the exact bytes of a limit that is not a whole number of MiB."""
    mib, rest = divmod(limit, 1024 * 1024)
    return f"{mib} MiB" if mib and not rest else f"{limit:,} bytes"


async def _attachments(request: Request, api: Api, page: int) -> dict[str, Any]:
    body = await api.body("/attachments", {"page": page, "per_page": 20})
    limit = request.app.state.settings.max_attachment_bytes
    return {
        "title": "Attachments",
        "attachments": body["data"],
        "pages": page_links(body["meta"]),
        "total": body["meta"]["total"],
        "types": TYPES,
        "accept": ACCEPT,
        "limit": _limit_text(limit),
        "chosen": "receipt",
        "errors": {},
    }


read_upload = upload_form(FIELDS)


@router.get("/attachments")
async def attachments(request: Request, page: PageNumber = 1, done: Done = "") -> Response:
    """The user's own attachments, newest first, and the upload form."""

    async def build(api: Api) -> dict[str, Any]:
        return {**await _attachments(request, api, page), "notice": NOTICES.get(done)}

    return await show(request, "attachments.html", build)


@router.post("/attachments")
async def upload(request: Request) -> Response:
    """Upload the chosen file (`POST /attachment` as the user); a refusal is shown by field."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        body = {"type": form["type"], "file": form["file"]}
        try:
            await api.send("POST", "/attachment", body)
        except ApiError as error:
            if error.status_code not in (413, 422):
                raise
            return await _refused(request, api, form["type"], error)
        return redirect(request, "/app/attachments?done=uploaded#notice")

    try:
        return await act(request, action, read=read_upload)
    except (PayloadTooLarge, BadRequest) as error:
        too_big = ApiError(error.status_code, str(error), error.code)

        async def answer(api: Api) -> Response:
            return await _refused(request, api, "receipt", too_big)

        return await as_user(request, answer)


async def _refused(request: Request, api: Api, chosen: str, error: ApiError) -> Response:
    """The page again, with the API's messages next to the fields they name."""
    context = await _attachments(request, api, 1)
    chosen = chosen if chosen in TYPES else "receipt"
    context.update(chosen=chosen, errors=field_errors(error, "file"))
    return render(request, "attachments.html", context, status_code=error.status_code)


@router.get("/attachments/{attachmentUuid}")
async def download(request: Request, attachment_uuid: AttachmentUuid) -> Response:
    """One of the user's attachments as a download, under the name the API gives it."""

    async def fetch(api: Api) -> Response:
        answer = await api.response(f"/attachment/{attachment_uuid}")
        headers = {"Content-Disposition": answer.headers["content-disposition"]}
        return Response(answer.content, media_type=answer.headers["content-type"], headers=headers)

    return await as_user(request, fetch)
