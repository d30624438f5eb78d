"""The one declarative base: naming convention, UTC timestamps, UUID keys."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, MetaData, Table, Uuid
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only aliases INTEGER PRIMARY KEY to the rowid, so big keys are INTEGER there.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps stored in UTC and always read back timezone-aware."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UTCDateTime, uuid.UUID: Uuid(as_uuid=True)}


def table_of(model: type[Base]) -> Table:
    """A model's table: its name and columns, for the plain SQL of the hot paths."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


def pg_array_types(table: Table, columns: Sequence[str]) -> tuple[str, ...]:
    """The PostgreSQL type of each column, as an array of it is cast (`varchar` without its
    length): the rows of an insert sent one array a column (`Insert.types`)."""
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    return tuple(
        re.sub(r"\(\d+\)", "", table.c[column].type.compile(dialect=dialect)).lower()
        for column in columns
    )


class UuidPk:
    """Mixin: a random UUID primary key."""

    uuid: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)


class Timestamps:
    """Mixin: created_at / updated_at in UTC."""

    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
