"""Saved states come from outside: `from_json` refuses every position the rules cannot reach with
MalformedRecordError, changes nothing it is given, and whatever it accepts plays on to the end."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eixample.core.errors import MalformedRecordError
from eixample.core.rng import Rng
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire.components import STRIKE
from eixample.games.rose_of_fire.state import ABILITY, HOUSE, KEEP, TILE, WHEN

from .helpers import play_randomly

Saved = dict[str, Any]


def saved_mid_game(players: int = 3, seed: int = 4, steps: int = 60, rules: int = 2) -> Saved:
    state = play_randomly(rose_of_fire.new_game(players, seed, rules=rules), Rng(seed), steps)
    return state.to_json()


def house_on_an_empty_space(d: Saved) -> None:
    s = d["state"]
    x = next(x for x, colour in enumerate(s["tile"]) if colour < 0)
    s["owner"][x], s["htype"][x] = 0, 3
    s["houses_left"][3] -= 1  # the pieces still add up


def hand_of_30_cards(d: Saved) -> None:
    s = d["state"]
    extra = s["city_deck"][: 30 - len(s["hands"][0])]
    s["hands"][0] = s["hands"][0] + extra  # taken from the deck: the cards still add up
    s["city_deck"] = [c for c in s["city_deck"] if c not in extra]


def immigration_level_9(d: Saved) -> None:
    d["state"]["level"] = 9


def ended_mid_game(d: Saved) -> None:
    d["state"]["ended"] = True


def tile_card_out_of_range(d: Saved) -> None:
    d["state"]["stack"].append([TILE, d["state"]["stack"][-1][1], 999])


def house_without_a_tile_placed(d: Saved) -> None:
    s = d["state"]
    s["stack"].append([HOUSE, s["stack"][-1][1], 3])
    s["placed"] = -1


def keep_places_not_fitting(d: Saved) -> None:
    s = d["state"]
    s["stack"].append([KEEP, s["stack"][-1][1], 0, 1, 4, 0, 0])
    s["red_bag"][0] -= 1  # the two tokens drawn leave the bag: the count still adds up
    s["red_bag"][1] -= 1


def token_symbols_swapped(d: Saved) -> None:
    """A crown more on a family card, a colonies less in the bag: the total still adds up."""
    s = d["state"]
    s["tokens"][0] += 1
    s["red_bag"][1] -= 1


def tile_alone(d: Saved) -> None:
    """A yellow tile with no yellow neighbour, off the yellow starting spaces."""
    s = d["state"]
    t = rose_of_fire.new_game(3, 0).t
    x = next(x for x, colour in enumerate(s["tile"]) if colour < 0 and x not in t.start_spaces[0]
             and all(s["tile"][y] != 0 for y in t.neighbours[x]) and t.space_district[x] == 0)
    s["tile"][x] = 0
    s["tiles_left"][0] -= 1


def event_not_reached(d: Saved) -> None:
    d["state"]["fired"] = [1, 1, 1]


def vp_without_sources(d: Saved) -> None:
    d["state"]["vp"][0] += 3


def rules_2_decision_in_rules_1(d: Saved) -> None:
    d["options"]["rules"] = 1
    s = d["state"]
    s["stack"].append([WHEN, s["stack"][-1][1], 0, 1])


def ability_choice_over_nothing(d: Saved) -> None:
    s = d["state"]
    s["stack"].append([WHEN, s["stack"][-1][1], 0, 1])


def unknown_rules_version(d: Saved) -> None:
    d["options"]["rules"] = 7


CORRUPTIONS: list[Callable[[Saved], None]] = [
    house_on_an_empty_space,
    hand_of_30_cards,
    immigration_level_9,
    ended_mid_game,
    tile_card_out_of_range,
    house_without_a_tile_placed,
    keep_places_not_fitting,
    token_symbols_swapped,
    tile_alone,
    event_not_reached,
    vp_without_sources,
    rules_2_decision_in_rules_1,
    ability_choice_over_nothing,
    unknown_rules_version,
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__)
def test_impossible_positions_are_refused(corrupt: Callable[[Saved], None]) -> None:
    data = saved_mid_game()
    rose_of_fire.from_json(copy.deepcopy(data))  # sound before
    corrupt(data)
    given_data = copy.deepcopy(data)
    with pytest.raises(MalformedRecordError):
        rose_of_fire.from_json(data)
    assert data == given_data  # refused, and nothing it was given changed


def test_every_reachable_position_is_accepted() -> None:
    for rules in (1, 2):
        for players in (2, 3, 4):
            state = rose_of_fire.new_game(players, players, rules=rules)
            rng = Rng(players)
            while True:
                restored = rose_of_fire.from_json(state.to_json())
                assert restored.legal_actions() == state.legal_actions()
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))


def test_the_strike_card_not_in_a_hand() -> None:
    data = saved_mid_game()
    s = data["state"]
    t = rose_of_fire.new_game(3, 0).t
    strike = next(c for c in range(len(t.card_names)) if t.card_kind[c] == STRIKE)
    holders = [p for p, hand in enumerate(s["hands"]) if strike in hand]
    receiver = s["strike_to"] if s["strike_to"] >= 0 else s["first"]
    other = next(p for p in range(3) if p != receiver and s["hands"][p])
    if holders:
        s["hands"][holders[0]].remove(strike)
        s["city_deck"].append(s["hands"][other].pop())
        s["hands"][holders[0]].append(s["city_deck"].pop(0))
    card = s["hands"][other].pop()
    s["city_deck"].append(card)
    s["hands"][other].append(strike)
    with pytest.raises(MalformedRecordError):
        rose_of_fire.from_json(data)


FIELDS_TO_SPOIL = ("level", "phase", "placed", "bomb", "first", "stack", "hands", "tile", "owner", "htype",
                   "in_block", "fired", "pending_events", "tokens", "red_bag", "conviction", "prestige",
                   "influence_owner", "vp", "round_track", "imm_pool", "blocks", "ended", "strike_to")


def spoil(data: Saved, name: str, index: int, change: int) -> None:
    value = data["state"][name]
    if isinstance(value, bool):
        data["state"][name] = not value
    elif isinstance(value, int):
        data["state"][name] = value + change
    elif value and isinstance(value[0], list):
        row = value[index % len(value)]
        if row:
            row[index % len(row)] += change
        else:
            row.append(abs(change))
    elif value:
        value[index % len(value)] += change
    else:
        value.append(abs(change))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 40),
    steps=st.integers(0, 300),
    name=st.sampled_from(FIELDS_TO_SPOIL),
    index=st.integers(0, 200),
    change=st.sampled_from([-9, -3, -2, -1, 1, 2, 3, 9]),
)
def test_a_spoiled_state_is_refused_or_plays_to_the_end(seed: int, steps: int, name: str, index: int,
                                                        change: int) -> None:
    """Whatever one field is changed to: MalformedRecordError and nothing changed, or a position
    that plays on to the end with no other exception and never without a legal action."""
    data = saved_mid_game(2 + seed % 3, seed, steps, rules=1 + seed % 2)
    spoil(data, name, index, change)
    given_data = copy.deepcopy(data)
    try:
        state = rose_of_fire.from_json(data)
    except MalformedRecordError:
        assert data == given_data
        return
    play_randomly(state, Rng(seed), 5000)
    assert state.is_terminal()


def test_the_rules_ability_frame_sits_on_its_ability() -> None:
    """A saved question of when the ability resolves is accepted over its ability."""
    from .test_readings import ability_card_before_raval

    s = ability_card_before_raval(2)
    assert s.stack[-2][0] == ABILITY
    restored = rose_of_fire.from_json(s.to_json())
    assert restored.legal_actions() == ["ability first", "strikers first"]
