"""The card page's digital wallets (docs/network.md#wallet-tokens): each token's suspend, resume and
delete are `POST /card/{cardUuid}/tokens/{tokenUuid}/suspend|resume|delete` of the API, sent as the
signed-in user; the list itself is read with the card (card_pages.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Path, Request
from fastapi.responses import Response

from cardservice.dashboard.api import Api
from cardservice.dashboard.views import act
from cardservice.dashboard.web import redirect
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
CardUuid = Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)]
TokenUuid = Annotated[str, Path(alias="tokenUuid", pattern=UUID_PATTERN)]
Action = Literal["suspend", "resume", "delete"]
NOTICES = {
    "token_suspend": "The wallet token is suspended: its payments are declined until resumed.",
    "token_resume": "The wallet token pays again.",
    "token_delete": "The wallet token is deleted; the card is no longer in that wallet.",
}


@router.post("/cards/{cardUuid}/tokens/{tokenUuid}/{action}")
async def change_token(
    request: Request, card_uuid: CardUuid, token_uuid: TokenUuid, action: Action
) -> Response:
    """Suspend, resume or delete one of the card's wallet tokens."""

    async def send(api: Api, _form: dict[str, str]) -> Response:
        await api.send("POST", f"/card/{card_uuid}/tokens/{token_uuid}/{action}")
        return redirect(request, f"/app/cards/{card_uuid}?done=token_{action}#notice")

    return await act(request, send)
