"""The database of a request: the route dependency `db: Db` (the connection layer, `db/`,
knows nothing of HTTP)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from cardservice.db.database import Database
from cardservice.db.replica import STANDBY_ROUTES, RoutedReader
from cardservice.observability import metrics


async def database(request: Request) -> Database:
    """The service instance's database (a route dependency: `db: Db`; async, so FastAPI
    calls it inline instead of on a worker thread). With a standby, a request of a route in
    `replica.STANDBY_ROUTES` gets a view whose `reader` may read from it."""
    db: Database = request.app.state.db
    if db.standby is not None and metrics.route_template(request.scope) in STANDBY_ROUTES:
        return db.reading_from(RoutedReader(db.reader, db.standby))
    return db


Db = Annotated[Database, Depends(database)]
