"""Forms that carry a file (`multipart/form-data`, a plain file input, no script needed): the
attachments page, a receipt, a dispute's evidence. The dashboard only turns the chosen file
into the API's own wire form, base64 for `POST /attachment`; the size limit, the sniffing of
types and the refusals are the API's."""

from __future__ import annotations

import base64
from collections.abc import AsyncGenerator, Awaitable, Callable

from fastapi import Request
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from cardservice.attachments import upload_body_limit
from cardservice.dashboard.web import read_form
from cardservice.errors import BadRequest
from cardservice.http.router import read_limited


def upload_form(fields: tuple[str, ...]) -> Callable[[Request], Awaitable[dict[str, str]]]:
    """A reader of a multipart form with these fields and at most one file, as text fields:
    the file as base64 (empty when none was chosen). The body may be as large as the API's
    own upload body, no larger (413). A url-encoded form (no file) is read as one."""

    async def read(request: Request) -> dict[str, str]:
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            plain = await read_form(request)
            return {name: plain.get(name, "") for name in fields}
        limit = upload_body_limit(request.app.state.settings.max_attachment_bytes)
        raw = await read_limited(request, limit)

        async def body() -> AsyncGenerator[bytes, None]:
            yield raw

        parser = MultiPartParser(request.headers, body(), max_files=1, max_fields=len(fields))
        try:
            parsed = await parser.parse()
        except MultiPartException:
            raise BadRequest("The form could not be read.") from None
        form: dict[str, str] = {}
        for name in fields:
            value = parsed.get(name)
            if isinstance(value, UploadFile):
                value = base64.b64encode(await value.read()).decode("ascii")
            form[name] = value or ""
        await parsed.close()
        return form

    return read
