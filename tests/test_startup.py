"""What the app does once it has started (its lifespan)."""

from __future__ import annotations

import gc

from cardservice.app import create_app
from cardservice.config import Settings


async def test_the_start_up_is_frozen_out_of_the_collectors_reach(settings: Settings) -> None:
    """The objects alive after start-up are frozen (`gc.freeze`): a full collection no
    longer walks them and pauses the worker for ~100 ms (app._freeze_startup_objects)."""
    gc.unfreeze()  # as a fresh process
    app = create_app(settings.model_copy(update={"embedded_worker": False}))
    async with app.router.lifespan_context(app):
        assert gc.get_freeze_count() > 10_000
