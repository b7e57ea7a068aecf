"""The optional house rule `first_player_vp` (docs/barcelona/balance.md, "Seat fairness under MCTS play"): not
a printed rule. The first player cannot construct a Building on the game's first turn (rulebook:
CONSTRUCTING A BUILDING needs citizens on two crossings, and the board starts empty); a table may
give the first player N VP at setup to offset that. 0, the default, is the printed rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eixample.core.errors import DataFileError, MalformedRecordError
from eixample.core.records import replay
from eixample.games import barcelona
from eixample.games.barcelona.house_rules import (
    HOUSE_RULES_FILE,
    MAX_SEAT_VP,
    balanced_seats_vp,
    load_house_rules,
)
from eixample.games.barcelona.setup import MAX_FIRST_PLAYER_VP, MAX_TURN_ORDER_VP
from eixample.games.barcelona.state import NSRC, BarcelonaState
from tests.games.barcelona.helpers import random_playout

# Final scores and seat 0's VP by source (streets .. modernisme) of random playouts, measured with
# the engine before the house rule existed (rules 2): a game by the printed rules must not change.
PRINTED_RULES_GAMES = [
    (2, 11, [75, 65], [2, 39, 15, 3, 7, 0, 6, 0, 3, 0, 0]),
    (3, 12, [92, 67, 93], [7, 35, 5, 9, 15, 0, 6, 0, 5, 0, 10]),
    (4, 13, [35, 64, 61, 40], [2, 24, 0, 0, 3, 0, 0, 0, 3, 3, 0]),
]


@pytest.mark.parametrize(("players", "seed", "scores", "seat0_sources"), PRINTED_RULES_GAMES)
def test_house_rule_off_by_default_games_score_as_before(
    players: int, seed: int, scores: list[int], seat0_sources: list[int]
) -> None:
    *_, last = random_playout(players, seed, check=False, rules=2)
    assert last.scores() == scores
    assert last.vp_src[: NSRC - 1] == seat0_sources
    assert all(line["house_rule"] == 0 for line in last.score_breakdown())
    assert "first_player_vp" not in last.record()["options"]  # a printed-rules record is unchanged


@pytest.mark.parametrize(("players", "extra"), [(2, 8), (3, 6), (4, 5), (4, MAX_FIRST_PLAYER_VP)])
def test_house_rule_first_player_vp_gives_the_first_player_exactly_n(players: int, extra: int) -> None:
    printed = barcelona.new_game(players, 21, first_player="random")
    house = barcelona.new_game(players, 21, first_player="random", first_player_vp=extra)
    first = house.first_player
    assert first == printed.first_player
    for seat in range(players):
        bonus = extra if seat == first else 0
        assert house.scores()[seat] == printed.scores()[seat] + bonus
        assert house.score_breakdown()[seat]["house_rule"] == bonus
        assert sum(house.score_breakdown()[seat].values()) == house.scores()[seat]
    assert house.view(first)["score_breakdown"][first]["house_rule"] == extra
    assert house.record()["options"]["first_player_vp"] == extra


def test_house_rule_changes_nothing_at_setup_but_the_first_players_vp() -> None:
    printed = barcelona.new_game(3, 31).to_json()["state"]
    house = barcelona.new_game(3, 31, first_player_vp=6).to_json()["state"]
    differ = {name for name in printed if printed[name] != house[name]}
    assert differ == {"vp", "vp_src"}
    assert house["vp"] == [6, 0, 0]
    assert house["vp_src"][NSRC - 1] == 6 and sum(house["vp_src"]) == 6


@pytest.mark.parametrize("bad", [-1, 21, 2.5, "6", True, None, [6]])
def test_house_rule_first_player_vp_out_of_range_is_refused(bad: Any) -> None:
    refusal = r"first_player_vp \(house rule\) must be a whole number of VP 0\.\.20"
    with pytest.raises(ValueError, match=refusal):
        barcelona.new_game(3, 1, first_player_vp=bad)


def test_house_rule_is_refused_in_a_solo_game() -> None:
    with pytest.raises(ValueError, match="not a solo game"):
        barcelona.new_game(1, 1, first_player_vp=5)
    assert barcelona.new_game(1, 1, first_player_vp=0).score_breakdown()[0]["house_rule"] == 0


def test_house_rule_a_record_replays_to_the_identical_game() -> None:
    *_, last = random_playout(4, 41, first_player_vp=5)
    record = json.loads(json.dumps(last.record()))
    again = replay(barcelona.GAME, record)
    assert again.to_json() == last.to_json()
    assert again.scores() == last.scores()
    assert again.score_breakdown()[again.first_player]["house_rule"] == 5


def test_house_rule_a_record_with_a_bad_value_is_refused() -> None:
    *_, last = random_playout(2, 42, first_player_vp=8)
    record = last.record()
    record["options"]["first_player_vp"] = 99
    with pytest.raises(MalformedRecordError, match="first_player_vp"):
        replay(barcelona.GAME, record)


def test_house_rule_saved_state_round_trips() -> None:
    state = barcelona.new_game(2, 43, first_player_vp=8)
    saved = json.loads(json.dumps(state.to_json()))
    assert barcelona.from_json(saved).to_json() == state.to_json()


def test_a_state_saved_before_the_house_rule_source_restores_with_it_at_zero() -> None:
    *_, state = random_playout(3, 44, check=False)
    saved = json.loads(json.dumps(state.to_json()))
    width = NSRC - 1
    saved["state"]["vp_src"] = [v for i, v in enumerate(saved["state"]["vp_src"]) if i % NSRC != width]
    restored = barcelona.from_json(saved)
    assert restored.to_json() == state.to_json()


# The optional house rule `turn_order_vp` (docs/barcelona/balance.md, "The last seat"): not a printed rule.
# Later seats construct on fuller Citizen tracks (rulebook: a Building scores the lowest VP visible
# on the tracks) and the last seat takes the game's last turn (GAME END: play continues until all
# players have played the same number of turns); a table may give each player N VP for every
# player who takes their turn after them in a round.


@pytest.mark.parametrize(("players", "per_seat"), [(2, 3), (3, 2), (4, 2), (4, MAX_TURN_ORDER_VP)])
def test_house_rule_turn_order_vp_gives_n_per_later_seat_in_turn_order(players: int, per_seat: int) -> None:
    printed = barcelona.new_game(players, 22, first_player="random")
    house = barcelona.new_game(players, 22, first_player="random", turn_order_vp=per_seat)
    first = house.first_player
    assert first == printed.first_player
    for position in range(players):  # the first player is position 0, the last player n - 1
        seat = (first + position) % players
        bonus = per_seat * (players - 1 - position)
        assert house.scores()[seat] == printed.scores()[seat] + bonus
        assert house.score_breakdown()[seat]["house_rule"] == bonus
    assert house.scores()[(first - 1) % players] == 0  # the last player starts with nothing
    assert house.record()["options"]["turn_order_vp"] == per_seat
    assert "first_player_vp" not in house.record()["options"]


def test_house_rules_turn_order_vp_and_first_player_vp_add_up() -> None:
    house = barcelona.new_game(4, 23, first_player=1, first_player_vp=5, turn_order_vp=2)
    assert house.scores() == [0, 5 + 3 * 2, 2 * 2, 1 * 2]
    assert [line["house_rule"] for line in house.score_breakdown()] == house.scores()
    assert house.record()["options"]["first_player_vp"] == 5
    assert house.record()["options"]["turn_order_vp"] == 2


def test_house_rule_turn_order_vp_off_by_default_changes_nothing_at_setup() -> None:
    printed = barcelona.new_game(3, 31).to_json()
    assert barcelona.new_game(3, 31, turn_order_vp=0).to_json() == printed
    house = barcelona.new_game(3, 31, turn_order_vp=3).to_json()["state"]
    differ = {name for name in printed["state"] if printed["state"][name] != house[name]}
    assert differ == {"vp", "vp_src"}
    assert house["vp"] == [6, 3, 0]


@pytest.mark.parametrize("bad", [-1, MAX_TURN_ORDER_VP + 1, 1.5, "2", False, None])
def test_house_rule_turn_order_vp_out_of_range_is_refused(bad: Any) -> None:
    refusal = rf"turn_order_vp \(house rule\) must be a whole number of VP 0\.\.{MAX_TURN_ORDER_VP}"
    with pytest.raises(ValueError, match=refusal):
        barcelona.new_game(3, 1, turn_order_vp=bad)


def test_house_rule_turn_order_vp_is_refused_in_a_solo_game() -> None:
    with pytest.raises(ValueError, match=r"turn_order_vp .*not a solo game"):
        barcelona.new_game(1, 1, turn_order_vp=2)


def test_house_rule_turn_order_vp_record_replays_and_a_bad_value_is_refused() -> None:
    *_, last = random_playout(3, 45, turn_order_vp=2)
    record = json.loads(json.dumps(last.record()))
    again = replay(barcelona.GAME, record)
    assert again.to_json() == last.to_json()
    assert [line["house_rule"] for line in again.score_breakdown()] == [4, 2, 0]
    record["options"]["turn_order_vp"] = 11
    with pytest.raises(MalformedRecordError, match="turn_order_vp"):
        replay(barcelona.GAME, record)


# The optional house rule `rotate_first_player` (docs/barcelona/balance.md, "Seat fairness under MCTS play"):
# not a printed rule. The rulebook keeps one turn order all game ("Starting with the first player
# and continuing clockwise"), so the same seat always builds last in a round and takes the game's
# last turn; with the house rule the First Player token passes to the next player after each round.


def turn_order(players: int, seed: int, **options: Any) -> tuple[list[int], BarcelonaState]:
    """Whose turn each turn of a random playout was, and the final state."""
    last = barcelona.new_game(players, seed, **options)
    order = [last.turn_player]
    for last in random_playout(players, seed, **options):
        if not last.ended and last.turns == len(order):
            order.append(last.turn_player)
    return order, last


@pytest.mark.parametrize("players", [2, 3, 4])
def test_house_rule_rotate_first_player_passes_the_token_after_every_round(players: int) -> None:
    order, last = turn_order(players, 50 + players, rotate_first_player=True)
    rounds = [order[i : i + players] for i in range(0, len(order), players)]
    for number, round_ in enumerate(rounds):
        starter = number % players
        assert round_ == [(starter + i) % players for i in range(players)][: len(round_)]
    assert last.ended and last.turns % players == 0  # every seat still plays the same number of turns
    assert last.record()["options"]["rotate_first_player"] is True


def test_house_rule_rotate_first_player_off_by_default_keeps_one_turn_order() -> None:
    order, last = turn_order(3, 53)
    assert order == [i % 3 for i in range(len(order))]
    assert "rotate_first_player" not in last.record()["options"]
    assert (
        barcelona.new_game(3, 53, rotate_first_player=False).to_json() == barcelona.new_game(3, 53).to_json()
    )


def test_house_rule_rotate_first_player_view_shows_the_token_holder() -> None:
    for state in random_playout(4, 54, rotate_first_player=True):
        if not state.ended:
            assert state.view(0)["first_player"] == (state.turns // 4) % 4


@pytest.mark.parametrize("bad", [1, "yes", None, 0])
def test_house_rule_rotate_first_player_must_be_true_or_false(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"rotate_first_player \(house rule\) must be true or false"):
        barcelona.new_game(3, 1, rotate_first_player=bad)


def test_house_rule_rotate_first_player_is_refused_in_solo_and_with_turn_order_vp() -> None:
    with pytest.raises(ValueError, match="not a solo game"):
        barcelona.new_game(1, 1, rotate_first_player=True)
    with pytest.raises(ValueError, match="fixed turn order"):
        barcelona.new_game(3, 1, rotate_first_player=True, turn_order_vp=2)
    assert barcelona.new_game(3, 1, rotate_first_player=True, first_player_vp=6).scores() == [6, 0, 0]


def test_house_rule_rotate_first_player_record_replays_identically() -> None:
    *_, last = random_playout(4, 55, rotate_first_player=True)
    record = json.loads(json.dumps(last.record()))
    again = replay(barcelona.GAME, record)
    assert again.to_json() == last.to_json()
    record["options"]["rotate_first_player"] = "yes"
    with pytest.raises(MalformedRecordError, match="rotate_first_player"):
        replay(barcelona.GAME, record)


# The optional house rules `seat_vp` and `balanced_seats` (docs/barcelona/balance.md, "Optional house rule:
# balanced_seats"): not printed rules. With one fixed turn order (rulebook: "Starting with the first
# player and continuing clockwise") the first player cannot construct on the game's first turn and
# the last player takes the game's last turn (GAME END); a table may give each seat its own VP at
# setup, in turn order. balanced_seats takes the measured values of data/house_rules.toml.


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 1)])
def test_house_rule_seat_vp_gives_each_seat_its_value_in_turn_order(players: int, first: int) -> None:
    values = [3 * (players - i) + 1 for i in range(players)]
    printed = barcelona.new_game(players, 24, first_player=first)
    house = barcelona.new_game(players, 24, first_player=first, seat_vp=values)
    for position, value in enumerate(values):
        seat = (first + position) % players
        assert house.scores()[seat] == printed.scores()[seat] + value
        assert house.score_breakdown()[seat]["house_rule"] == value
    assert house.record()["options"]["seat_vp"] == values
    assert "balanced_seats" not in house.record()["options"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_house_rule_balanced_seats_records_the_measured_values_as_seat_vp(players: int) -> None:
    measured = list(balanced_seats_vp(players))
    assert len(measured) == players and any(measured)
    house = barcelona.new_game(players, 25, balanced_seats=True)
    options = house.record()["options"]
    assert options["seat_vp"] == measured  # a later change of the data file leaves this record alone
    assert "balanced_seats" not in options
    assert house.scores() == measured  # first player is seat 0 by default
    again = replay(barcelona.GAME, json.loads(json.dumps(house.record())))
    assert again.to_json() == house.to_json()


def test_house_rule_seat_vp_all_zero_is_the_printed_rules() -> None:
    printed = barcelona.new_game(3, 26).to_json()
    assert barcelona.new_game(3, 26, seat_vp=[0, 0, 0]).to_json() == printed
    assert barcelona.new_game(3, 26, balanced_seats=False).to_json() == printed


@pytest.mark.parametrize(
    "bad",
    [[1, 2], [1, 2, 3, 4], [1, 2, MAX_SEAT_VP + 1], [1, -1, 0], [1.5, 0, 0], [True, 0, 0], "1,2,0", 5],
)
def test_house_rule_seat_vp_malformed_is_refused(bad: Any) -> None:
    refusal = rf"seat_vp \(house rule\) must list 3 whole numbers of VP 0\.\.{MAX_SEAT_VP}"
    with pytest.raises(ValueError, match=refusal):
        barcelona.new_game(3, 1, seat_vp=bad)


def test_house_rules_seat_vp_and_balanced_seats_refusals() -> None:
    with pytest.raises(ValueError, match="not a solo game"):
        barcelona.new_game(1, 1, seat_vp=[3])
    with pytest.raises(ValueError, match="not a solo game"):
        barcelona.new_game(1, 1, balanced_seats=True)
    with pytest.raises(ValueError, match="give one or the other"):
        barcelona.new_game(3, 1, balanced_seats=True, seat_vp=[1, 1, 0])
    with pytest.raises(ValueError, match="fixed turn order"):
        barcelona.new_game(3, 1, rotate_first_player=True, seat_vp=[2, 1, 0])
    with pytest.raises(ValueError, match=r"balanced_seats \(house rule\) must be true or false"):
        barcelona.new_game(3, 1, balanced_seats="yes")


def test_house_rule_seat_vp_record_with_a_bad_value_is_refused() -> None:
    *_, last = random_playout(3, 46, seat_vp=[5, 6, 0])
    record = json.loads(json.dumps(last.record()))
    assert replay(barcelona.GAME, record).to_json() == last.to_json()
    record["options"]["seat_vp"] = [5, 6, 300]
    with pytest.raises(MalformedRecordError, match="seat_vp"):
        replay(barcelona.GAME, record)


def test_house_rules_file_problems_name_the_file_and_entry(tmp_path: Path) -> None:
    (tmp_path / HOUSE_RULES_FILE).write_text(
        '[balanced_seats]\nplayers_2 = [8, 0]\nplayers_3 = [1, 2]\nplayers_4 = [0, 0, 0, 0]\n'
        'source = "measured"\nnote = ""\n'
    )
    problem = r"house_rules\.toml: balanced_seats\.players_3: must list 3 values"
    with pytest.raises(DataFileError, match=problem):
        load_house_rules(tmp_path)
    (tmp_path / HOUSE_RULES_FILE).write_text('[balanced_seats]\nplayers_2 = [8, "x"]\n')
    with pytest.raises(DataFileError, match=r"house_rules\.toml"):
        load_house_rules(tmp_path)
    assert load_house_rules().balanced_seats.source == "measured"
