"""The clients every API function takes: `Client` (no token) and `AuthenticatedClient`.

`raise_on_error` (default True) makes the API functions' `sync`/`asyncio` return only the
success type and raise `errors.ApiError` (carrying the error body) for any error answer, and
`errors.UnexpectedStatus` for an undocumented status. With `raise_on_error=False` they return
`Success | ErrorBody | None` as the generator's functions do. The `*_detailed` functions never
raise for an answer: they return the `Response` with its status, headers and parsed body.
"""

from __future__ import annotations

import copy
import ssl
from typing import Any, Generic, Literal, Self, TypedDict, TypeVar, Unpack, overload

import httpx

RaiseOnError = TypeVar("RaiseOnError", Literal[True], Literal[False])


class ClientOptions(TypedDict, total=False):
    """Keyword options of both clients, passed on to the `httpx` clients they make."""

    cookies: dict[str, str]
    headers: dict[str, str]
    timeout: httpx.Timeout | None
    verify_ssl: str | bool | ssl.SSLContext
    follow_redirects: bool
    httpx_args: dict[str, Any]
    raise_on_unexpected_status: bool


class Client(Generic[RaiseOnError]):
    """The API at `base_url`, without a token (the public dictionaries, `/health`)."""

    @overload
    def __init__(
        self: Client[Literal[True]],
        base_url: str,
        *,
        raise_on_error: Literal[True] = True,
        **options: Unpack[ClientOptions],
    ) -> None: ...

    @overload
    def __init__(
        self: Client[Literal[False]], base_url: str, *, raise_on_error: Literal[False], **options: Unpack[ClientOptions]
    ) -> None: ...

    def __init__(self, base_url: str, *, raise_on_error: bool = True, **options: Unpack[ClientOptions]) -> None:
        self.raise_on_error = raise_on_error
        self.raise_on_unexpected_status = options.get("raise_on_unexpected_status", False)
        self._base_url = base_url
        self._cookies = dict(options.get("cookies", {}))
        self._headers = dict(options.get("headers", {}))
        self._timeout = options.get("timeout")
        self._verify_ssl = options.get("verify_ssl", True)
        self._follow_redirects = options.get("follow_redirects", False)
        self._httpx_args = dict(options.get("httpx_args", {}))
        self._client: httpx.Client | None = None
        self._async_client: httpx.AsyncClient | None = None

    def _auth_headers(self) -> dict[str, str]:
        return {}

    def _evolved(self, **changes: Any) -> Self:
        made = copy.copy(self)
        for name, value in changes.items():
            setattr(made, name, value)
        return made

    def with_headers(self, headers: dict[str, str]) -> Self:
        """A new client matching this one with additional headers."""
        if self._client is not None:
            self._client.headers.update(headers)
        if self._async_client is not None:
            self._async_client.headers.update(headers)
        return self._evolved(_headers={**self._headers, **headers})

    def with_cookies(self, cookies: dict[str, str]) -> Self:
        """A new client matching this one with additional cookies."""
        if self._client is not None:
            self._client.cookies.update(cookies)
        if self._async_client is not None:
            self._async_client.cookies.update(cookies)
        return self._evolved(_cookies={**self._cookies, **cookies})

    def with_timeout(self, timeout: httpx.Timeout) -> Self:
        """A new client matching this one with a new timeout."""
        if self._client is not None:
            self._client.timeout = timeout
        if self._async_client is not None:
            self._async_client.timeout = timeout
        return self._evolved(_timeout=timeout)

    def _httpx_options(self) -> dict[str, Any]:
        return {
            "base_url": self._base_url,
            "cookies": self._cookies,
            "headers": {**self._headers, **self._auth_headers()},
            "timeout": self._timeout,
            "verify": self._verify_ssl,
            "follow_redirects": self._follow_redirects,
            **self._httpx_args,
        }

    def set_httpx_client(self, client: httpx.Client) -> Self:
        """Use `client` for every call (its settings override this client's)."""
        self._client = client
        return self

    def get_httpx_client(self) -> httpx.Client:
        """The underlying `httpx.Client`, made on first use."""
        if self._client is None:
            self._client = httpx.Client(**self._httpx_options())
        return self._client

    def __enter__(self) -> Self:
        self.get_httpx_client().__enter__()
        return self

    def __exit__(self, *args: Any, **kwargs: Any) -> None:
        self.get_httpx_client().__exit__(*args, **kwargs)

    def set_async_httpx_client(self, async_client: httpx.AsyncClient) -> Self:
        """Use `async_client` for every async call (its settings override this client's)."""
        self._async_client = async_client
        return self

    def get_async_httpx_client(self) -> httpx.AsyncClient:
        """The underlying `httpx.AsyncClient`, made on first use."""
        if self._async_client is None:
            self._async_client = httpx.AsyncClient(**self._httpx_options())
        return self._async_client

    async def __aenter__(self) -> Self:
        await self.get_async_httpx_client().__aenter__()
        return self

    async def __aexit__(self, *args: Any, **kwargs: Any) -> None:
        await self.get_async_httpx_client().__aexit__(*args, **kwargs)


class AuthenticatedClient(Client[RaiseOnError]):
    """The API at `base_url`, with a bearer token (`cardservice token issue`)."""

    @overload
    def __init__(
        self: AuthenticatedClient[Literal[True]],
        base_url: str,
        token: str,
        *,
        raise_on_error: Literal[True] = True,
        **options: Unpack[ClientOptions],
    ) -> None: ...

    @overload
    def __init__(
        self: AuthenticatedClient[Literal[False]],
        base_url: str,
        token: str,
        *,
        raise_on_error: Literal[False],
        **options: Unpack[ClientOptions],
    ) -> None: ...

    def __init__(
        self, base_url: str, token: str, *, raise_on_error: bool = True, **options: Unpack[ClientOptions]
    ) -> None:
        Client.__init__(self, base_url, raise_on_error=raise_on_error, **options)  # type: ignore[call-overload]
        self.token = token
        self.prefix = "Bearer"
        self.auth_header_name = "Authorization"

    def _auth_headers(self) -> dict[str, str]:
        return {self.auth_header_name: f"{self.prefix} {self.token}" if self.prefix else self.token}


Raising = AuthenticatedClient[Literal[True]]
"""The type of `AuthenticatedClient(base_url, token)` (errors raise), for annotations."""
