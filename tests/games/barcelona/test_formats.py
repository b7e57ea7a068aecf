"""The JSON formats of docs/schemas: views, records and saved states of random games validate,
and a few broken documents do not (see docs/formats.md)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from eixample.core.errors import MalformedRecordError
from eixample.games import barcelona
from eixample.games.barcelona.state import FIELDS, BarcelonaState
from tests.games.barcelona.helpers import random_playout

SCHEMAS = Path(__file__).resolve().parents[3] / "docs" / "schemas"
GAMES = ((2, 21), (3, 22), (4, 23), (1, 24))  # (players, seed); 1: a solo game
EVERY = 60  # sample a state every this many actions


@cache
def schema(name: str) -> dict[str, Any]:
    data = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name))


def problems(name: str, document: Any) -> list[str]:
    return [
        f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message[:200]}"
        for error in validator(name).iter_errors(document)
    ]


@cache
def sampled_states() -> tuple[BarcelonaState, ...]:
    """States of a few random games: at the start, every EVERY actions, and at the end."""
    states: list[BarcelonaState] = []
    for players, seed in GAMES:
        states.append(barcelona.new_game(players, seed))
        for i, state in enumerate(random_playout(players, seed, check=False)):
            if i % EVERY == 0 or state.is_terminal():
                states.append(state.clone())
    return tuple(states)


def a_view(viewer: int | None = 1) -> dict[str, Any]:
    state = sampled_states()[3]
    return copy.deepcopy(state.view(viewer))


# ---------------------------------------------------------------------------- the schemas themselves
@pytest.mark.parametrize("name", ["record", "view", "state"])
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_state_schema_names_every_field_of_the_state() -> None:
    state = schema("state")["properties"]["state"]
    solo_fields = ["solo", "solo_meeple", "solo_deck", "solo_drawn"]
    assert list(state["properties"]) == list(FIELDS)
    assert state["required"] == [field for field in FIELDS if field not in solo_fields]
    assert state["additionalProperties"] is False
    solo_branch = next(branch for branch in schema("state")["allOf"]
                       if branch["if"]["properties"]["players"].get("const") == 1
                       and "state" in branch["then"]["properties"])
    assert solo_branch["then"]["properties"]["state"]["required"] == solo_fields


def test_view_schema_requires_every_key_a_view_has() -> None:
    view = sampled_states()[0].view(None)
    assert set(schema("view")["required"]) == set(view)
    player = schema("view")["properties"]["player_list"]["items"]
    assert set(player["required"]) == set(view["player_list"][0])


def test_record_and_state_schemas_share_the_action_text() -> None:
    assert schema("record")["$defs"]["action"] == schema("state")["$defs"]["action"]
    assert schema("record")["$defs"]["options"] == schema("state")["$defs"]["options"]


# ---------------------------------------------------------------------------- real documents validate
def test_the_games_sampled_reach_the_end() -> None:
    states = sampled_states()
    assert sum(1 for s in states if s.is_terminal()) == len(GAMES)
    assert len(states) >= 4 * len(GAMES)


def test_views_of_every_seat_and_of_a_spectator_validate() -> None:
    for state in sampled_states():
        for viewer in [None, *range(state.n)]:
            assert problems("view", state.view(viewer)) == [], (state.n, state.n_actions, viewer)


def test_records_validate() -> None:
    for state in sampled_states():
        record = json.loads(json.dumps(state.record()))
        assert problems("record", record) == []


def test_saved_states_validate_and_restore() -> None:
    for state in sampled_states():
        saved = json.loads(json.dumps(state.to_json()))
        assert problems("state", saved) == []
        assert barcelona.from_json(saved).to_json() == state.to_json()


def test_every_legal_action_matches_the_action_text_pattern() -> None:
    pattern = re.compile(schema("record")["$defs"]["action"]["pattern"])
    seen: set[str] = set()
    for players, seed in GAMES:
        for state in random_playout(players, seed, check=False):
            for action in state.legal_actions():
                assert pattern.match(action), action
                seen.add(action.split()[0])
    assert {"place", "act", "end", "build", "use"} <= seen


def test_a_record_with_options_validates() -> None:
    state = barcelona.new_game(3, 5, action_tiles="printed", first_player="random")
    assert problems("record", state.record()) == []
    assert problems("state", state.to_json()) == []


# ---------------------------------------------------------------------------- broken documents do not
Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        node: Any = document
        *parents, last = path.split("/")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return mutate


def _drop(key: str) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        del document[key]

    return mutate


BROKEN_VIEWS: dict[str, Mutation] = {
    "an extra key": _set("secret", 1),
    "an extra key in a player": _set("player_list/0/rng", 1),
    "an extra key in a crossing": _set("city/crossings/0/owner", 1),
    "a missing key": _drop("bag"),
    "coins as text": _set("player_list/0/coins", "3"),
    "a boolean for a number": _set("turns", True),
    "an unknown citizen": _set("city/crossings/0/citizens", ["X"]),
    "an unknown building type": _set("city/buildings/0/type", "L4"),
    "an unknown action kind": _set("city/streets/0/action", "steal"),
    "an unknown decision kind": _set("decision_kind", "think"),
    "a bad crossing id": _set("city/crossings/0/id", "C55"),
    "another player's hand shown": _set("player_list/0/hand", ["W", "M"]),
    "the viewer's own hand hidden": _set("player_list/1/hand", None),
    "three citizens in a hand": _set("player_list/1/hand", ["W", "M", "U"]),
    "a seat that does not exist": _set("viewer", 7),
    "a missing crossing": lambda view: view["city"]["crossings"].pop(),
    "one player too many": lambda view: view["player_list"].append(copy.deepcopy(view["player_list"][0])),
    "the bag's order": _set("bag", ["W", "M"]),
    "a benefit with an unknown part": _set("city/spaces/0/benefit", {"coin": 1, "gold": 1}),
}


@pytest.mark.parametrize("what", sorted(BROKEN_VIEWS))
def test_a_broken_view_does_not_validate(what: str) -> None:
    view = a_view(1)
    assert problems("view", view) == []
    BROKEN_VIEWS[what](view)
    assert problems("view", view), f"a view with {what} validated"


def test_a_spectator_view_with_a_hand_does_not_validate() -> None:
    view = a_view(None)
    assert problems("view", view) == []
    view["player_list"][0]["hand"] = ["U"]
    assert problems("view", view)


BROKEN_RECORDS: dict[str, Mutation] = {
    "an illegal action text": lambda r: r["actions"].append("place C55"),
    "an action that is not text": lambda r: r["actions"].append(12),
    "an unknown option": _set("options/colour", "red"),
    "a first player out of range": _set("options/first_player", 3),
    "another game": _set("game", "tictactoe"),
    "five players": _set("players", 5),
    "a seed as text": _set("seed", "7"),
    "a missing seed": _drop("seed"),
}


@pytest.mark.parametrize("what", sorted(BROKEN_RECORDS))
def test_a_broken_record_does_not_validate(what: str) -> None:
    record = copy.deepcopy(sampled_states()[1].record())
    assert record["players"] == 2
    BROKEN_RECORDS[what](record)
    assert problems("record", record), f"a record with {what} validated"


BROKEN_STATES: dict[str, Mutation] = {
    "a missing field": lambda d: d["state"].pop("bag"),
    "an unknown field": _set("state/secret", 1),
    "a negative coin count": _set("state/coins/0", -1),
    "a flag as a boolean": _set("state/row_bonus/0", True),
    "a citizen class out of range": _set("state/cross_cit/0", [3]),
    "an unknown decision frame": _set("state/stack/0", [99, 0]),
    "too few crossings": lambda d: d["state"]["cross_owner"].pop(),
    "a seat's list too short": lambda d: d["state"]["vp"].pop(),
    "a missing log": _drop("log"),
}


@pytest.mark.parametrize("what", sorted(BROKEN_STATES))
def test_a_broken_saved_state_does_not_validate(what: str) -> None:
    saved = copy.deepcopy(sampled_states()[1].to_json())
    assert problems("state", saved) == []
    BROKEN_STATES[what](saved)
    assert problems("state", saved), f"a saved state with {what} validated"


@pytest.mark.parametrize(
    "house_rules",
    [{"first_player_vp": 4}, {"turn_order_vp": 2}, {"rotate_first_player": True}, {"seat_vp": [3, 5, 0]},
     {"balanced_seats": True}],
)
def test_records_and_saved_states_with_house_rules_follow_the_schemas(house_rules: dict[str, Any]) -> None:
    state = barcelona.new_game(3, 27, **house_rules)
    for action in state.legal_actions()[:1]:
        state.apply(action)
    assert problems("record", state.record()) == []
    assert problems("state", state.to_json()) == []


def test_a_solo_record_with_a_house_rule_breaks_the_record_schema() -> None:
    record = barcelona.new_game(1, 28).record()
    record["options"]["seat_vp"] = [3, 0]
    assert problems("record", record)


# ------------------------------------------------------------------- the code refuses what they refuse
@pytest.mark.parametrize("key", ["format", "game", "players", "seed", "options", "actions"])
def test_replay_refuses_a_record_without_a_key_the_schema_requires(key: str) -> None:
    record = copy.deepcopy(sampled_states()[1].record())
    del record[key]
    assert problems("record", record)
    with pytest.raises(MalformedRecordError, match=f"'{key}' is missing"):
        barcelona.replay(record)


@pytest.mark.parametrize("key", ["format", "players", "seed", "options", "state", "actions", "log"])
def test_from_json_refuses_a_saved_state_without_a_key_the_schema_requires(key: str) -> None:
    saved = copy.deepcopy(sampled_states()[1].to_json())
    del saved[key]
    assert problems("state", saved)
    with pytest.raises(MalformedRecordError, match=f"{key}: is missing"):
        barcelona.from_json(saved)


@pytest.mark.parametrize("seed", [0, 2**63 - 1])
def test_a_game_of_any_seed_in_range_saves_restores_and_validates(seed: int) -> None:
    state = barcelona.new_game(2, seed)
    state.apply(state.legal_actions()[0])
    assert problems("record", state.record()) == []
    assert problems("state", state.to_json()) == []
    assert barcelona.replay(state.record()).to_json() == state.to_json()
    assert barcelona.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64])
def test_a_seed_out_of_range_is_refused_everywhere_with_the_range(seed: int) -> None:
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
        barcelona.new_game(2, seed)
    record = {**sampled_states()[1].record(), "seed": seed}
    assert problems("record", record)
    with pytest.raises(MalformedRecordError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
        barcelona.replay(record)
    saved = {**sampled_states()[1].to_json(), "seed": seed}
    assert problems("state", saved)
    with pytest.raises(MalformedRecordError, match="seed: must be from 0 to 9223372036854775807"):
        barcelona.from_json(saved)


def _saved_before_the_solo_mode_and_the_house_rule_source(saved: dict[str, Any]) -> dict[str, Any]:
    old = copy.deepcopy(saved)
    for field in ("solo", "solo_meeple", "solo_deck", "solo_drawn"):
        del old["state"][field]
    sources = len(old["state"]["vp_src"]) // len(old["state"]["vp"])
    old["state"]["vp_src"] = [value for index, value in enumerate(old["state"]["vp_src"])
                              if index % sources != sources - 1]  # house_rule: the last source
    return old


def test_a_state_saved_by_an_older_release_validates_and_loads() -> None:
    state = sampled_states()[1]
    old = _saved_before_the_solo_mode_and_the_house_rule_source(state.to_json())
    assert problems("state", old) == []
    assert barcelona.from_json(old).to_json() == state.to_json()


def test_a_solo_state_needs_its_solo_fields_in_the_schema_and_the_code() -> None:
    solo = next(state for state in sampled_states() if state.record()["players"] == 1).to_json()
    del solo["state"]["solo_deck"]
    assert problems("state", solo)
    with pytest.raises(MalformedRecordError, match="solo_deck: is missing"):
        barcelona.from_json(solo)
