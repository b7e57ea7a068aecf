"""The web app's pages: one shell (head, header, language menu slot, the page's script) around
each page's own parts, `web/pages/<page>.html`: its header items after `<!-- header -->`, its
body after `<!-- body -->`. `<!-- include NAME -->` takes `web/partials/NAME.html` (the parts the
game and replay pages share). Built once, when first asked for."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from functools import cache
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PAGES = ("lobby", "game", "replay", "rules", "account", "profile", "leaderboard", "admin", "notices")
_INCLUDE = re.compile(r"^<!-- include (\w+) -->\n", re.MULTILINE)


@cache
def page_html(page: str) -> str:
    """The whole HTML of `page` (one of PAGES)."""
    if page not in PAGES:
        raise KeyError(page)
    own = _read("pages", f"{page}.html")
    header, body = own.removeprefix("<!-- header -->\n").split("<!-- body -->\n", 1)
    body = _INCLUDE.sub(lambda match: _read("partials", f"{match[1]}.html"), body)
    shell = _read("shell.html")
    filled = shell.replace("{{page}}", page).replace("{{header}}", header.rstrip("\n"))
    return filled.replace("{{body}}", body)


def _read(*parts: str) -> str:
    return WEB_DIR.joinpath(*parts).read_text(encoding="utf-8")


def serve_pages(routes: FastAPI | APIRouter, pages: Mapping[str, str]) -> None:
    """Serve each page (one of PAGES) at its path, in order: the page reads the path's
    parameters itself, in the browser."""
    for path, page in pages.items():
        routes.add_api_route(path, _serve(page), methods=["GET"], name=f"{page}_page",
                             include_in_schema=False)


def _serve(page: str) -> Callable[[], Awaitable[HTMLResponse]]:
    async def serve() -> HTMLResponse:
        return HTMLResponse(page_html(page))

    return serve
