"""Every error code the server can send is said in each language (issue 37).

The codes are read from the server's sources: the `code` given to each refusal
(`bad_request(..., "code")`, `ApiError(..., code=...)`), each `"code": "..."` of a body built by
hand, and the tables of codes (`STATUS_CODES`, a limit's `_RATE_CODES`). Each catalog has
`errors.code.<code>` (or the code in a feature's section, `ERROR_SECTIONS`) for every one, naming
the arguments the server sends with it and no other.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "eixample"
SERVER = SRC / "server"
CATALOGS = SRC / "web" / "i18n"
LANGUAGES = ("en", "fr", "de", "ja", "cs")
REFUSALS = {"bad_request", "not_found", "forbidden", "unauthorized", "conflict", "too_many", "unavailable"}
# the position of `code` among a refusal helper's arguments (after the message, and the wait)
CODE_POSITION = {"too_many": 2}
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def server_codes() -> dict[str, set[str]]:
    """Each code the server's sources can send, with the argument names sent along."""
    codes: dict[str, set[str]] = {}

    def add(code: str, args: set[str]) -> None:
        codes.setdefault(code, set()).update(args)

    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) in REFUSALS | {"ApiError", "_error", "_ws_error"}:
                name = _name(node)
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                position = CODE_POSITION.get(name, 1) if name in REFUSALS else 2
                if code is None and len(node.args) > position:
                    code = node.args[position]
                args = {k.arg for k in node.keywords if k.arg not in (None, "code", "args")}
                args_node = next((k.value for k in node.keywords if k.arg == "args"), None)
                if isinstance(args_node, ast.Dict):
                    args |= {str(key.value) for key in args_node.keys if isinstance(key, ast.Constant)}
                if name == "too_many":
                    args.add("seconds")
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    add(code.value, args)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    named_code = isinstance(key, ast.Constant) and key.value == "code"
                    if named_code and isinstance(value, ast.Constant) and isinstance(value.value, str):
                        add(value.value, set())
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                name = target.id if isinstance(target, ast.Name) else ""
                if name.endswith("CODES") and isinstance(node.value, ast.Dict):
                    for value in node.value.values:
                        if isinstance(value, ast.Constant) and isinstance(value.value, str):
                            add(value.value, {"seconds"} if "RATE" in name else set())
    return codes


ERROR_SECTIONS = (("errors", "code"), ("invite", "code"), ("account", "errors"))
"""Where the page looks for a code's words, in this order (web/js/api.js, ERROR_SECTIONS)."""


def catalog_codes(lang: str) -> dict[str, str]:
    catalog = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    codes: dict[str, str] = {}
    for section, part in reversed(ERROR_SECTIONS):
        codes.update(catalog.get(section, {}).get(part, {}))
    return codes


def test_the_sources_name_the_codes_a_player_meets() -> None:
    codes = server_codes()
    assert {"not_your_turn", "game_over", "stale_move", "illegal_action", "too_many_hints", "no_game",
            "invalid_request", "seat_token_other_game", "conflict", "too_many_games"} <= codes.keys()
    assert "player" in codes["not_your_turn"] and "seconds" in codes["too_many_hints"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_is_said_in_each_language(lang: str) -> None:
    said = catalog_codes(lang)
    missing = sorted(set(server_codes()) - set(said))
    assert not missing, f"{lang}: no words for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_message_names_only_arguments_the_server_sends(lang: str) -> None:
    said = catalog_codes(lang)
    for code, args in server_codes().items():
        # the refusal of a request's types lists its problems, which the page words itself
        sent = args | ({"problems"} if code == "invalid_request" else set())
        named = set(PLACEHOLDER.findall(said[code]))
        assert named <= sent, f"{lang} {code}: names {sorted(named - sent)}, the server sends {sorted(sent)}"
