"""Settings: the only place that reads the environment (prefix `CARDSERVICE_`)."""

from __future__ import annotations

import ipaddress
import re
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_VAR_DIR = Path("var")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> list[Network]:
    """Comma-separated CIDRs (a bare address is a /32 or /128); ValueError when malformed."""
    return [
        ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
    ]


class Settings(BaseSettings):
    """Configuration of one running service; see docs/configuration.md."""

    model_config = SettingsConfigDict(env_prefix="CARDSERVICE_", extra="ignore")

    database_url: str = Field(default="", description="sqlite:///PATH or postgresql://…")
    var_dir: Path = Field(default=DEFAULT_VAR_DIR, description="where embedded state lives")
    sandbox: bool | None = Field(default=None, description="card network simulator routes")
    encryption_key: str = Field(
        default="", description="Fernet keys for card numbers, comma-separated, newest first"
    )
    fingerprint_key: str = Field(
        default="", pattern=r"^([0-9a-f]{64})?$", description="HMAC key of card fingerprints"
    )
    key_file: Path | None = Field(default=None, description="the embedded set-up's key file")
    # the card verification key and where keys live (docs/security.md)
    cvk: str = Field(
        default="",
        pattern=r"^([0-9a-fA-F]{32})?$",
        description="card verification key (CVV2): a double-length DES key, 32 hex digits",
    )
    pvk: str = Field(
        default="",
        pattern=r"^([0-9a-fA-F]{32})?$",
        description="PIN verification key (Visa PVV): a double-length DES key, 32 hex digits",
        repr=False,
    )
    pin_rsa_key: str = Field(
        default="",
        description="the PIN envelope's RSA-2048 private key: base64 of its PKCS#8 DER",
        repr=False,
    )
    iso8583_zpk: str = Field(
        default="",
        pattern=r"^([0-9a-fA-F]{32}|[0-9a-fA-F]{48})?$",
        description="zone PIN key shared with the network (field 52): 32 or 48 hex digits",
        repr=False,
    )
    key_backend: Literal["local", "pkcs11"] = Field(
        default="local", description="where the card-number key and the CVK live"
    )
    pkcs11_module: str = Field(default="", description="the PKCS#11 library (.so) of the token")
    pkcs11_token_label: str = Field(default="", description="the token's label")
    pkcs11_pin: str = Field(default="", description="the token's user PIN", repr=False)
    storage_dir: Path | None = None
    max_attachment_bytes: int = Field(default=10 * 1024 * 1024, ge=1)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    rate_limit_per_minute: int = Field(default=1200, ge=1)
    auth_failures_per_minute: int = Field(default=30, ge=1)
    auth_cache_seconds: float = Field(
        default=2.0, ge=0, le=60, description="how long a checked bearer token is remembered"
    )
    redis_url: str = ""
    trusted_proxies: str = Field(
        default="", description="CIDRs whose X-Forwarded-For and X-Forwarded-Proto we believe"
    )
    metrics_token: str = Field(
        default="", description="bearer token a /metrics scrape must send; empty: open"
    )
    public_url: str = Field(
        default="",
        pattern=r"^(https?://[^\s/]+/?)?$",
        description="the URL browsers reach the service at; https makes cookies Secure",
    )
    workers: int = Field(default=1, ge=1, description="worker processes; set by serve --workers")
    bind_host: str = Field(default="", description="the address serve binds; set by serve")
    cors_origins: str = ""
    log_level: str = "INFO"
    log_format: Literal["auto", "human", "json"] = Field(
        default="auto", description="human on a terminal, JSON otherwise, unless forced"
    )
    mfa_ttl_seconds: int = Field(default=600, ge=10)
    three_ds_ttl_seconds: int = Field(default=600, ge=10)
    db_pool_size: int = Field(default=10, ge=1)
    db_connect_timeout_seconds: float = Field(
        default=5.0, gt=0, description="PostgreSQL: a new connection not made by then fails"
    )
    db_statement_timeout_seconds: float = Field(
        default=30.0, gt=0, description="PostgreSQL: a statement (never a COMMIT) cancelled after"
    )
    replica_url: str = Field(default="", description="a PostgreSQL hot standby for some reads")
    replica_max_lag_ms: int = Field(
        default=1000, ge=1, description="reads go to the standby only while it lags less"
    )
    replica_pin_seconds: float = Field(
        default=5.0, gt=0, description="a caller who wrote reads from the primary this long"
    )
    otel_endpoint: str = Field(
        default="", description="OTLP/HTTP collector base URL: one trace span per request"
    )
    webhook_allow_private: bool | None = Field(
        default=None, description="deliver to loopback/private addresses (default: sandbox)"
    )
    embedded_worker: bool = Field(default=True, description="a delivery loop inside serve")
    webhook_timeout_seconds: float = Field(default=10.0, gt=0)
    webhook_lease_seconds: float = Field(
        default=30.0, gt=0, description="a claimed attempt is taken again after this"
    )
    worker_poll_seconds: float = Field(default=0.1, gt=0)
    worker_concurrency: int = Field(default=32, ge=1, description="attempts in flight")
    # ISO 8583 listener (docs/network.md#the-network-interface-iso-8583): off unless a port is given
    iso8583_port: int | None = Field(default=None, ge=1, le=65535)
    iso8583_host: str = Field(default="127.0.0.1", description="the ISO 8583 listener's address")
    iso8583_tls_cert: Path | None = Field(default=None, description="PEM: the listener's cert")
    iso8583_tls_key: Path | None = Field(default=None, description="PEM: its private key")
    iso8583_tls_client_ca: Path | None = Field(
        default=None, description="PEM: CAs whose client certificates are required (mutual TLS)"
    )
    # the listener's bounds (docs/network.md#operating-the-listener), each counted on /metrics
    iso8583_max_connections: int = Field(
        default=256, ge=1, description="open connections per worker process; one more is closed"
    )
    iso8583_peers: str = Field(
        default="127.0.0.0/8,::1",
        description="addresses and CIDRs allowed to connect; any other is closed at once",
    )
    iso8583_max_connections_per_peer: int = Field(
        default=64, ge=1, description="open connections of one address per worker process"
    )
    iso8583_idle_seconds: float = Field(
        default=300.0, gt=0, description="a connection with no complete message for this long"
    )
    iso8583_frame_seconds: float = Field(
        default=10.0,
        gt=0,
        description="a connection's first message must be complete this long after it opened, "
        "and any message's bytes must follow its length within this",
    )
    iso8583_in_flight: int = Field(
        default=64, ge=1, description="requests of one connection worked on at once; then unread"
    )
    iso8583_answer_seconds: float = Field(
        default=0.8,
        gt=0,
        description="a request not answered by then is answered 91 (its work goes on; an "
        "authorization that commits later is released); a decision endpoint's wait adds to it. "
        "0.8 s: 91 reaches the acquirer within the 1 s of "
        "docs/network.md#the-network-interface-iso-8583",
    )
    seal_seconds: float = Field(
        default=0.2,
        gt=0,
        description="how often a worker loop seals the ledger's committed entries "
        "(docs/ledger.md, 'The hash chain'); the seal lag stays about this",
    )
    hold_sweep_seconds: float = Field(
        default=60.0, gt=0, description="how often a worker loop releases expired holds"
    )
    receipt_policy_seconds: float = Field(
        default=300.0,
        gt=0,
        description="how often a worker loop applies the teams' receipt policies "
        "(docs/teams.md#teams-budgets-requests-receipts)",
    )
    # where cardholders pay their top-ups (docs/operations.md#where-top-ups-are-paid)
    topup_pay_to: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="the program's payment details by method (or method:CURRENCY): JSON "
        '{"bank-transfer:EUR": {"IBAN": "…", "BIC": "…"}}; a top-up shows its method\'s',
    )
    # mail to people (docs/mail.md): off unless an SMTP server is given
    smtp_url: str = Field(
        default="",
        pattern=r"^(smtps?://([^\s:@/]+(:[^\s@/]*)?@)?[^\s:@/]+(:\d{1,5})?/?)?$",
        description="smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps:// "
        "(TLS from the start); empty: no mail",
        repr=False,
    )
    mail_from: str = Field(
        default="",
        pattern=r"^([^\s@<>]+@[^\s@<>]+)?$",
        description="the address mail is sent from (required with CARDSERVICE_SMTP_URL)",
    )
    mail_retention_days: int = Field(
        default=90,
        ge=1,
        le=3650,
        description="mails sent or given up are deleted this many days after they were queued",
    )
    smtp_ca_file: Path | None = Field(
        default=None,
        description="a CA bundle (PEM) the SMTP server's certificate is verified against;"
        " default: the system's",
    )
    smtp_timeout_seconds: float = Field(
        default=10.0, gt=0, description="a mail not handed to the SMTP server by then is retried"
    )

    @model_validator(mode="after")
    def _mail_needs_sender_and_links(self) -> Settings:
        if self.smtp_url and not (self.mail_from and self.public_url):
            raise ValueError(
                "CARDSERVICE_SMTP_URL needs CARDSERVICE_MAIL_FROM and CARDSERVICE_PUBLIC_URL"
                " (the mails' sender and the base of their links)"
            )
        return self

    @field_validator("topup_pay_to")
    @classmethod
    def _pay_to(cls, value: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for key, lines in value.items():
            if not re.fullmatch(r"[a-z0-9-]{1,32}(:[A-Z0-9]{3,5})?", key):
                raise ValueError(f"{key!r}: a payment method's slug, or slug:CURRENCY")
            if not lines or any(not k.strip() or not v.strip() for k, v in lines.items()):
                raise ValueError(f"{key!r}: one label and value at least, none empty")
        return value

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()

    @field_validator("trusted_proxies", "iso8583_peers")
    @classmethod
    def _cidrs(cls, value: str) -> str:
        parse_networks(value)  # ValueError → a settings error at start-up
        return value

    @property
    def trusted_proxy_networks(self) -> list[Network]:
        """Parsed on use (only failed authentications need it), so copies stay right."""
        return parse_networks(self.trusted_proxies)

    @property
    def iso8583_peer_networks(self) -> list[Network]:
        """The ISO 8583 allow-list, parsed (once, by the listener as it starts)."""
        return parse_networks(self.iso8583_peers)

    @cached_property
    def resolved_database_url(self) -> str:
        """The SQLAlchemy async URL: the driver is picked here, never by the operator."""
        url = self.database_url or f"sqlite:///{self.var_dir / 'cardservice.db.database'}"
        for plain, driver in (
            ("sqlite://", "sqlite+aiosqlite://"),
            ("postgresql://", "postgresql+asyncpg://"),
            ("postgres://", "postgresql+asyncpg://"),
        ):
            if url.startswith(plain):
                return driver + url[len(plain) :]
        return url

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def sandbox_enabled(self) -> bool:
        """`SANDBOX` when set; by default on only for SQLite served on a loopback address."""
        if self.sandbox is not None:
            return self.sandbox
        return self.is_sqlite and _is_loopback(self.bind_host)

    @property
    def encryption_keys(self) -> list[str]:
        return [key.strip() for key in self.encryption_key.split(",") if key.strip()]

    @property
    def resolved_key_file(self) -> Path:
        """Where the embedded set-up keeps its generated key: outside the database's dir."""
        return self.key_file or Path.home() / ".config" / "cardservice" / "encryption.key"

    @property
    def private_urls_allowed(self) -> bool:
        """Outbound calls (webhooks, the decision endpoint) may reach loopback and private
        addresses: by default exactly when the sandbox is on."""
        if self.webhook_allow_private is None:
            return self.sandbox_enabled
        return self.webhook_allow_private

    @property
    def blob_dir(self) -> Path:
        return self.storage_dir or self.var_dir / "blobs"

    @property
    def cors_origin_list(self) -> list[str]:
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]


def _is_loopback(host: str) -> bool:
    """`localhost` or a loopback address; "" (not served by `serve`) is not."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
