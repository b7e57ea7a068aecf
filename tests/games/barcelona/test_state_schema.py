"""Saved states and records from outside: `from_json` and `core.records.replay` answer anything
malformed with MalformedRecordError naming the field, let no other error escape, and accept
nothing that play cannot reach."""

from __future__ import annotations

import contextlib
import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eixample.core.errors import MalformedRecordError
from eixample.core.records import replay
from eixample.core.registry import get_game
from eixample.games import barcelona
from eixample.games.barcelona.state import FIELDS
from tests.games.barcelona.helpers import random_playout

GAMES = ((2, 31), (3, 32), (4, 33), (1, 34))  # (players, seed); 1: a solo game
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def saved_states() -> tuple[str, ...]:
    """Saved states (as JSON text) at the start, early, mid-game and at the end of a few games."""
    out = []
    for players, seed in GAMES:
        out.append(json.dumps(barcelona.new_game(players, seed).to_json()))
        state = None
        for number, state in enumerate(random_playout(players, seed, check=False), start=1):
            if number in (7, 60):  # the playout changes one state in place: save it now
                out.append(json.dumps(state.to_json()))
        assert state is not None and state.is_terminal()
        out.append(json.dumps(state.to_json()))
    return tuple(out)


def saved(index: int) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(saved_states()[index])
    return document


def refused(document: Any) -> str:
    with pytest.raises(MalformedRecordError) as error:
        barcelona.from_json(document)
    return str(error.value)


def test_saved_states_restore() -> None:
    for index in range(len(saved_states())):
        document = saved(index)
        assert barcelona.from_json(copy.deepcopy(document)).to_json() == document


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d["state"].__setitem__("coins", [*d["state"]["coins"][:-1], -1]), "state.coins[1]"),
        (lambda d: d["state"]["coins"].__setitem__(0, "3"), "state.coins[0]: must be an integer"),
        (lambda d: d["state"]["coins"].__setitem__(0, True), "state.coins[0]: must be an integer"),
        (lambda d: d["state"]["coins"].__setitem__(0, 2.0), "state.coins[0]: must be an integer"),
        (lambda d: d["state"].__setitem__("ended", 0), "state.ended: must be true or false"),
        (
            lambda d: d["state"].__setitem__("cross_owner", d["state"]["cross_owner"][:-1]),
            "state.cross_owner",
        ),
        (lambda d: d["state"]["space_owner"].__setitem__(3, 7), "state.space_owner[3]: must be from -1 to 1"),
        (lambda d: d["state"]["hands"][0].append(0), "state.hands[0]"),
        (lambda d: d["state"]["bag"].__setitem__(0, d["state"]["bag"][0] - 1), "Citizens of class W"),
        (lambda d: d["state"]["vp"].__setitem__(0, d["state"]["vp"][0] + 1), "state.vp[0]"),
        (
            lambda d: d["state"]["coins"].__setitem__(0, d["state"]["coins"][0] + 1),
            "state.coins: is not what",
        ),
        (lambda d: d["state"]["stack"].append([99, 0]), "is not a kind of decision: 99"),
        (lambda d: d["state"].pop("rng"), "state.rng: is missing"),
        (lambda d: d["state"].__setitem__("cheat", 1), "state.cheat: is not a field"),
        (lambda d: d.__setitem__("players", 9), "players: must be from 1 to 4"),
        (lambda d: d.__setitem__("seed", "7"), "seed: must be an integer"),
        (lambda d: d["options"].__setitem__("colour", "red"), "options: unknown option"),
        (lambda d: d["actions"].__setitem__(0, "place nowhere"), "actions[0]"),
        (lambda d: d["actions"].append(5), "actions[7]"),
        (lambda d: d["log"].__setitem__(0, "a different story"), "log: is not the log"),
        (lambda d: d["state"].__setitem__("n_actions", 3), "state.n_actions"),
    ],
)
def test_each_malformed_field_is_named(mutate: Any, words: str) -> None:
    document = saved(1)  # two players, seven actions in
    assert len(document["actions"]) == 7
    mutate(document)
    assert words in refused(document)


NOT_STATES = [None, [], "state", 5, {"players": 2}, {"state": {}, "players": 2, "seed": 1}]


@pytest.mark.parametrize("document", NOT_STATES)
def test_documents_that_are_no_saved_state(document: Any) -> None:
    assert refused(document).startswith("saved Barcelona state")


# -- fuzzing: mutated saved states --------------------------------------------------------------------

ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
NEAR_INTEGERS = st.integers(-3, 30)


def paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document that a mutation may change."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += paths(value, (*prefix, index))
    return found


def replace(document: Any, path: tuple[Any, ...], value: Any) -> None:
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def check_mutated(original: dict[str, Any], mutated: dict[str, Any]) -> None:
    """Only MalformedRecordError escapes; a document is accepted only if it restores the original
    state (unchanged, or without the solo fields a state saved before solo play lacks): every
    other one is a state play cannot reach, or not a state at all."""
    try:
        state = barcelona.from_json(mutated)
    except MalformedRecordError as error:
        assert str(error).startswith("saved Barcelona state"), error
        return
    assert state.to_json() == original, "a changed saved state was accepted"


@FUZZ
@given(st.data())
def test_mutated_values_never_escape_or_pass(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(saved_states()) - 1), label="state")
    original = saved(index)
    mutated = copy.deepcopy(original)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(paths(mutated)), label="path")
        value = data.draw(NEAR_INTEGERS | ANY_JSON, label="value")
        replace(mutated, path, value)
    check_mutated(original, mutated)


@FUZZ
@given(st.data())
def test_mutated_fields_never_escape_or_pass(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(saved_states()) - 1), label="state")
    original = saved(index)
    mutated = copy.deepcopy(original)
    field = data.draw(st.sampled_from(FIELDS), label="field")
    how = data.draw(st.sampled_from(["drop", "shorten", "extend", "swap", "value"]), label="how")
    value = mutated["state"][field]
    if how == "drop":
        del mutated["state"][field]
    elif how == "shorten" and isinstance(value, list) and value:
        mutated["state"][field] = value[:-1]
    elif how == "extend" and isinstance(value, list):
        mutated["state"][field] = [*value, data.draw(NEAR_INTEGERS, label="extra")]
    elif how == "swap" and isinstance(value, list) and len(value) > 1:
        i, j = data.draw(st.lists(st.integers(0, len(value) - 1), min_size=2, max_size=2, unique=True))
        value[i], value[j] = value[j], value[i]
    else:
        mutated["state"][field] = data.draw(NEAR_INTEGERS | ANY_JSON, label="value")
    check_mutated(original, mutated)


# -- records ------------------------------------------------------------------------------------------


@FUZZ
@given(st.data())
def test_mutated_records_never_escape(data: st.DataObject) -> None:
    game = get_game(data.draw(st.sampled_from(["barcelona", "tictactoe"]), label="game"))
    if game.name == "barcelona":
        state = barcelona.new_game(2, 5)
        for _ in range(6):
            state.apply(state.legal_actions()[0])
        record: dict[str, Any] = json.loads(json.dumps(state.record()))
    else:
        record = {"format": 1, "game": "tictactoe", "players": 2, "seed": 1, "options": {},
                  "actions": ["mark 4", "mark 0", "mark 8"]}
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(paths(record)), label="path")
        replace(record, path, data.draw(NEAR_INTEGERS | ANY_JSON, label="value"))
    upto = data.draw(st.none() | st.integers(0, 10), label="upto")
    with contextlib.suppress(MalformedRecordError):  # the only error allowed out
        state = replay(game, record, upto=upto)
        assert len(state.record()["actions"]) == len(record["actions"][:upto])
