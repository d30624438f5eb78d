"""Settings: the only place that reads the environment (prefix `CARDSERVICE_`)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_VAR_DIR = Path("var")


class Settings(BaseSettings):
    """Configuration of one running service; see docs/configuration.md."""

    model_config = SettingsConfigDict(env_prefix="CARDSERVICE_", extra="ignore")

    database_url: str = Field(default="", description="sqlite:///PATH or postgresql://…")
    var_dir: Path = Field(default=DEFAULT_VAR_DIR, description="where embedded state lives")
    sandbox: bool | None = Field(default=None, description="card network simulator routes")
    encryption_key: str = Field(default="", description="Fernet key for card numbers")
    storage_dir: Path | None = None
    max_attachment_bytes: int = Field(default=10 * 1024 * 1024, ge=1)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    rate_limit_per_minute: int = Field(default=1200, ge=1)
    auth_failures_per_minute: int = Field(default=30, ge=1)
    redis_url: str = ""
    cors_origins: str = ""
    log_level: str = "INFO"
    log_format: Literal["auto", "human", "json"] = Field(
        default="auto", description="human on a terminal, JSON otherwise, unless forced"
    )
    mfa_ttl_seconds: int = Field(default=600, ge=10)
    three_ds_ttl_seconds: int = Field(default=600, ge=10)
    db_pool_size: int = Field(default=10, ge=1)
    webhook_allow_private: bool | None = Field(
        default=None, description="call loopback and private URLs (default: with the sandbox)"
    )

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()

    @cached_property
    def resolved_database_url(self) -> str:
        """The SQLAlchemy async URL: the driver is picked here, never by the operator."""
        url = self.database_url or f"sqlite:///{self.var_dir / 'cardservice.db'}"
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
        """On by default for the embedded SQLite set-up, off by default otherwise."""
        return self.is_sqlite if self.sandbox is None else self.sandbox

    @property
    def private_urls_allowed(self) -> bool:
        """Outbound calls may reach loopback and private addresses: on with the sandbox."""
        return (
            self.sandbox_enabled
            if self.webhook_allow_private is None
            else (self.webhook_allow_private)
        )

    @property
    def blob_dir(self) -> Path:
        return self.storage_dir or self.var_dir / "blobs"

    @property
    def cors_origin_list(self) -> list[str]:
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]
