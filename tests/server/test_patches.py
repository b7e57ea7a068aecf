"""json_patch: RFC 6902 operations that turn one message into the next, checked against the
`jsonpatch` library's own application of them."""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eixample.core.registry import get_game
from eixample.server.patches import json_patch

keys = st.text(alphabet="ab/~0", max_size=3)
scalars = st.none() | st.integers(-3, 3) | st.text(alphabet="xy", max_size=2)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


def as_json(value: Any) -> bytes:
    """JSON text with sorted keys (the order of an object's keys means nothing in JSON)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def applied(old: Any, operations: list[dict[str, Any]]) -> Any:
    """`operations` applied by the jsonpatch library to a copy of `old` as a client parses it."""
    return jsonpatch.apply_patch(orjson.loads(orjson.dumps(old)), operations)


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_a_patch_turns_the_old_value_into_the_new_one(old: Any, new: Any) -> None:
    operations = json_patch(old, new)
    assert as_json(applied(old, operations)) == as_json(new)
    assert {op["op"] for op in operations} <= {"add", "remove", "replace"}


def test_equal_values_give_an_empty_patch() -> None:
    message = {"a": [1, {"b": "c"}], "d": None}
    assert json_patch(message, orjson.loads(orjson.dumps(message))) == []


def test_a_growing_log_is_patched_by_its_new_lines_only() -> None:
    old = {"log": ["one", "two"], "move_number": 2}
    new = {"log": ["one", "two", "three", "four"], "move_number": 4}
    assert json_patch(old, new) == [
        {"op": "add", "path": "/log/2", "value": "three"},
        {"op": "add", "path": "/log/3", "value": "four"},
        {"op": "replace", "path": "/move_number", "value": 4},
    ]


def test_a_shorter_list_loses_its_last_elements_from_the_end() -> None:
    assert json_patch({"h": [1, 2, 3]}, {"h": [1]}) == [
        {"op": "remove", "path": "/h/2"},
        {"op": "remove", "path": "/h/1"},
    ]


def test_a_list_mostly_changed_is_replaced_whole() -> None:
    old = {"legal_actions": [f"a{i}" for i in range(10)]}
    new = {"legal_actions": [f"b{i}" for i in range(10)]}
    assert json_patch(old, new) == [
        {"op": "replace", "path": "/legal_actions", "value": new["legal_actions"]}
    ]


def test_an_object_whose_keys_changed_is_replaced_whole_in_its_new_order() -> None:
    old = {"view": {"a": 1, "b": 2}, "n": 1}
    new = {"view": {"c": 0, "a": 1, "b": 3}, "n": 1}
    patch = json_patch(old, new)
    assert patch == [{"op": "replace", "path": "/view", "value": new["view"]}]
    assert list(applied(old, patch)["view"]) == ["c", "a", "b"]


def test_keys_are_escaped_as_json_pointers() -> None:
    assert json_patch({"a/b": 1, "c~d": 1}, {"a/b": 2, "c~d": 2}) == [
        {"op": "replace", "path": "/a~1b", "value": 2},
        {"op": "replace", "path": "/c~0d", "value": 2},
    ]


def test_a_number_turned_boolean_in_a_changed_object_is_replaced() -> None:
    assert json_patch({"a": 1, "b": 0}, {"a": True, "b": 1}) == [
        {"op": "replace", "path": "/a", "value": True},
        {"op": "replace", "path": "/b", "value": 1},
    ]


@pytest.mark.parametrize("name", ["barcelona", "rose-of-fire"])
def test_every_view_of_a_random_game_follows_by_patches(name: str) -> None:
    """Each seat's view and the spectator's, from one decision to the next through a whole game:
    the patched view is the new view, as JSON text."""
    state = get_game(name).new_game(2, 7)
    rng = random.Random(7)
    seats: list[int | None] = [None, 0, 1]
    held = {seat: orjson.loads(orjson.dumps(state.view(seat))) for seat in seats}
    steps = 0
    while not state.is_terminal() and steps < 400:
        state.apply(rng.choice(list(state.legal_actions())))
        steps += 1
        for seat in seats:
            new = state.view(seat)
            held[seat] = jsonpatch.apply_patch(held[seat], json_patch(held[seat], new))
            assert as_json(held[seat]) == as_json(new), (name, steps, seat)
    assert steps > 50
