"""The web server: lobby, game play over WebSocket, replays, and the static page.

`run()` starts it on uvicorn; `create_app()` builds the FastAPI application (tests use it with
their own database URL and bot pacing).
"""

from eixample.server.app import create_app, run

__all__ = ["create_app", "run"]
