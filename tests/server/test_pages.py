"""The web pages share one shell: the head, the header with its language menu slot and the page's
script come from web/shell.html, each page's own parts from web/pages/, the parts the game and
replay pages share from web/partials/."""

from __future__ import annotations

import re

import pytest

from eixample.server.pages import PAGES, WEB_DIR, page_html


@pytest.mark.parametrize("page", PAGES)
def test_each_page_is_the_shell_around_its_own_parts(page: str) -> None:
    html = page_html(page)
    assert html.count("<!doctype html>") == 1 and html.count('<header class="topbar">') == 1
    assert f'<script type="module" src="/static/js/{page}.js"></script>' in html
    assert f'<body class="page-{page}">' in html
    assert html.count('id="language-slot"') == 1
    assert "{{" not in html and "<!-- include" not in html and "<!-- body -->" not in html
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "an id stands twice"


def test_no_page_repeats_the_shell() -> None:
    for path in (WEB_DIR / "pages").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<head>" not in text and 'class="brand"' not in text, path.name
    assert sorted(path.name for path in WEB_DIR.glob("*.html")) == ["shell.html"]


def test_the_game_and_replay_pages_share_the_table_and_leave_the_charts_to_the_coach() -> None:
    for page in ("game", "replay"):
        html = page_html(page)
        assert 'id="board-viewport"' in html and 'id="seats"' in html and 'id="log"' in html
        assert '<div id="charts"' in html and 'id="chart"' not in html and 'id="win-panel"' not in html
    coach = (WEB_DIR / "js" / "coach.js").read_text(encoding="utf-8")
    assert 'id: "chart"' in coach and 'id: "win-panel"' in coach
