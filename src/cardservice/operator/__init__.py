"""The program operator's API (docs/operations.md#running-a-program): keys with scopes, users,
funding, top-ups, programs and the ACS's 3DS codes."""

from __future__ import annotations

from cardservice.operator.acting import CLI, Acting
from cardservice.operator.api_keys import Operator, create_key, list_keys, parse_scopes, revoke_key
from cardservice.operator.console import (
    console_actor,
    create_console_link,
    session_of,
    sign_in,
    sign_out,
)
from cardservice.operator.funding import change_account_status, move_money_in, open_account
from cardservice.operator.schemas import CreateAccountRequest, CreateUserRequest, MoneyRequest
from cardservice.operator.service import issue_user_token, list_users, onboard_user, sign_in_link

__all__ = [
    "CLI",
    "Acting",
    "CreateAccountRequest",
    "CreateUserRequest",
    "MoneyRequest",
    "Operator",
    "change_account_status",
    "console_actor",
    "create_console_link",
    "create_key",
    "issue_user_token",
    "list_keys",
    "list_users",
    "move_money_in",
    "onboard_user",
    "open_account",
    "parse_scopes",
    "revoke_key",
    "session_of",
    "sign_in",
    "sign_in_link",
    "sign_out",
]
