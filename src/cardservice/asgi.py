"""The ASGI application as deployed: `uvicorn cardservice.asgi:app` (settings from env)."""

from cardservice.app import create_app

app = create_app()
