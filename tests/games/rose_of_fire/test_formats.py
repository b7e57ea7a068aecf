"""The view matches its JSON Schema (docs/schemas/rose-of-fire-view.schema.json) for every seat and
a spectator along a game, and the action texts match the forms documented in docs/formats.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema

from eixample.core.rng import Rng
from eixample.games import rose_of_fire

SCHEMA = json.loads((Path(__file__).parents[3] / "docs/schemas/rose-of-fire-view.schema.json").read_text())
ACTION = re.compile(
    r"^(card|event|both|discard) (c\d\d|p\d\d|r\d|strike)$|^tile [LRS][A-E]\d [YLG]$|^house [UMWL]$"
    r"|^keep [12]$|^drop [1-9]\d?$|^block [LRS][A-E]\d$|^buy [KCP]\d with ((\d[KCP])+(\+conv)?|conv)$"
    r"|^done$|^reward( personalities)?$|^extra (none|colonies)$|^(ability|strikers) first$"
)


def test_views_match_the_schema_along_a_game() -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    state = rose_of_fire.new_game(4, 9)
    rng = Rng(9)
    step = 0
    while True:
        if step % 37 == 0 or state.is_terminal():
            for viewer in (None, 0, 1, 2, 3):
                validator.validate(json.loads(json.dumps(state.view(viewer))))
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        step += 1


def test_every_action_text_has_a_documented_form() -> None:
    for players in (2, 3, 4):
        for action in rose_of_fire.GAME.all_actions(players):
            assert ACTION.match(action), action
