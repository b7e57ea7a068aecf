"""The Rose of Fire's evaluation: hand-set parts weighed by weights fitted on self-play games."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from eixample.ai.scoring import after, margins_after
from eixample.core.errors import DataFileError
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire import training
from eixample.games.rose_of_fire.end_of_phase import majorities
from eixample.games.rose_of_fire.evaluation import (
    HAND,
    HAND_EFFECTS,
    HAND_SET,
    LEADER,
    LEADER_SPREAD,
    LEADER_VP,
    MAJORITIES,
    MAJORITY_VP,
    PARTS,
    WEIGHTS_FILE,
    leader_shares,
    parse_weights,
    phase_weights,
    seat_parts,
    weighing,
)
from eixample.games.rose_of_fire.state import TILE


def _positions(seed: int, players: int) -> list[Any]:
    state = rose_of_fire.new_game(players, seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        found.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    found.append(state)
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_evaluation_is_the_points_plus_the_weighed_parts(players: int) -> None:
    weights = phase_weights()[players]
    for state in _positions(players, players)[::7]:
        evaluation = state.evaluation()
        if state.is_terminal():
            assert evaluation == [float(v) for v in state.scores()]
            continue
        for seat, parts in enumerate(seat_parts(state)):
            weighed = sum(w * part for w, part in zip(weights[state.phase], parts, strict=True))
            assert evaluation[seat] == pytest.approx(state.vp[seat] + weighed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_evaluation_after_a_tile_is_that_of_a_copy_with_the_tile_placed(players: int) -> None:
    """`evaluations_after` (what greedy look-ahead asks at every tile decision) gives exactly
    what copying the state and applying each tile gives, with the fitted weights and with every
    part weighed; any other decision has no shortcut."""
    rng = random.Random(players)
    tiles = blocks = 0
    for seed in range(3):
        state = rose_of_fire.new_game(players, 40 + seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.stack[-1][0] != TILE:
                assert state.evaluations_after(legal) is None
            elif rng.random() < 0.5:
                for weights in (phase_weights(), HAND_SET):
                    with weighing(weights):
                        copied = [after(state, action).evaluation() for action in legal]
                        assert state.evaluations_after(legal) == copied
                assert state.evaluations_after(legal[1:]) is None  # only the whole legal list
                tiles += len(legal)
                blocks += any(q >= 0 for q in state.in_block)
            mover = state.current_player()
            if rng.random() < 0.7:  # mostly greedy: blocks get completed, houses gain value
                values = margins_after(state, legal, mover)
                state.apply(legal[values.index(max(values))])
            else:
                state.apply(rng.choice(legal))
    assert tiles > 400 and blocks > 40


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_majorities_part_counts_the_majorities_the_end_of_phase_would_award(players: int) -> None:
    """The evaluation counts the houses in its own pass over the board; its winners are those
    of the rules' `majorities` (general tie rule included)."""
    checked = 0
    for state in _positions(10 + players, players)[::5]:
        if state.is_terminal() or state.phase == 5:
            continue
        held = [0.0] * players
        for _, _, winner, _ in majorities(state):
            if winner >= 0:
                held[winner] += MAJORITY_VP
        assert [parts[MAJORITIES] for parts in seat_parts(state)] == held
        checked += any(held)
    assert checked > 5


def test_a_card_in_hand_counts_for_what_it_carries() -> None:
    """A City card carries nothing but its house; a Prestige card its 4 VP (rulebook: Action
    cards); an event card the better of its event and its ability; an event that would cost its
    owner (the bomb) counts nothing. The Strike card is not a card to build with."""
    state = rose_of_fire.new_game(2, 3)
    index = state.t.card_index
    state.hands = [(index["c01"], index["r1"], index["p28"]), (index["p31"], index["strike"])]
    first, second = seat_parts(state)
    assert first[HAND] == pytest.approx(3 * 1.5) and second[HAND] == pytest.approx(1.5)
    assert state.t.card_event[index["p28"]] == ((2, 3),)  # VP 3
    assert first[HAND_EFFECTS] == pytest.approx(4.0 + 3.0)
    assert state.t.card_event[index["p31"]] == ((5, 2), (6, 1))  # the bomb 2, agitate 1
    assert second[HAND_EFFECTS] == 0.0


def test_the_leader_part_grows_with_each_point_toward_the_lead() -> None:
    """The Prestige card goes to the highest prestige at each end-of-phase procedure (its step
    3): each seat's part is its share of the cards to come, a share that grows with every
    prestige point, not only with the one that takes the lead."""
    assert leader_shares([2, 2]) == [0.5, 0.5]
    behind, even, ahead = (leader_shares([mine, 3])[0] for mine in (2, 3, 4))
    assert behind < even < ahead
    assert ahead == pytest.approx(1 / (1 + math.exp(-1 / LEADER_SPREAD)))
    shares = leader_shares([5, 0, 1, 5])
    assert sum(shares) == pytest.approx(1.0) and shares[0] == shares[3] > shares[2] > shares[1]
    state = rose_of_fire.new_game(3, 8)
    state.prestige = [4, 1, 1]
    phases_left = 5 - state.phase + 1
    parts = seat_parts(state)
    assert [row[LEADER] for row in parts] == pytest.approx(
        [LEADER_VP * phases_left * share for share in leader_shares([4, 1, 1])])
    assert parts[0][LEADER] > LEADER_VP * phases_left * 0.75  # a lead of 3: about 4 cards in 5


def test_the_shipped_weights_cover_every_player_count_and_phase() -> None:
    weights = phase_weights()
    assert sorted(weights) == [2, 3, 4]
    for phases in weights.values():
        assert sorted(phases) == [1, 2, 3, 4, 5]
        assert all(len(row) == len(PARTS) and all(0 <= w <= 10 for w in row) for row in phases.values())
    shipped = json.loads(WEIGHTS_FILE.read_text())
    assert shipped["source"] == "fitted"
    assert shipped["how"].startswith("python -m eixample.games.rose_of_fire.training")


def _weights_file() -> dict[str, Any]:
    phases = {str(phase): [1.0] * len(PARTS) for phase in range(1, 6)}
    return {"parts": list(PARTS), "weights": {str(n): json.loads(json.dumps(phases)) for n in (2, 3, 4)}}


@pytest.mark.parametrize(("change", "entry", "problem"), [
    (lambda data: data.update(parts=["houses"]), "parts", "must list houses, influence"),
    (lambda data: data["weights"].pop("3"), "weights", "player counts 2, 3 and 4"),
    (lambda data: data["weights"]["4"].pop("5"), "weights.4", "phases 1 to 5"),
    (lambda data: data["weights"]["2"]["1"].pop(), "weights.2.1", f"must list {len(PARTS)} weights"),
    (lambda data: data["weights"]["3"]["2"].__setitem__(0, math.inf), "weights.3.2", "finite numbers"),
    (lambda data: data["weights"]["3"]["2"].__setitem__(4, "1"), "weights.3.2", "finite numbers"),
    (lambda data: data["weights"]["2"]["5"].__setitem__(1, 1e6), "weights.2.5", "at most 10"),
])
def test_a_malformed_weights_file_is_refused_naming_the_entry(change: Any, entry: str, problem: str) -> None:
    data = _weights_file()
    parse_weights(data, "w.json")
    change(data)
    with pytest.raises(DataFileError, match=f"w.json: {entry}: .*{problem}"):
        parse_weights(data, "w.json")


def test_the_training_command_repeats_itself(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for out in (first, second):
        training.main(["--games", "2", "--seed", "5", "--every", "5", "--out", str(out)])
    assert first.read_text() == second.read_text()
    made = json.loads(first.read_text())
    assert made["how"] == ("python -m eixample.games.rose_of_fire.training --games 2 --seed 5 --spec greedy "
                           "--every 5")
    parse_weights(made, "a.json")


def test_weighing_puts_other_weights_in_place_for_a_block_only() -> None:
    """The training's self-play judges with the hand-set estimates, whatever weights are shipped,
    so that its command gives the same file again."""
    state = next(position for position in _positions(5, 3)
                 if position.phase == 3 and not position.is_terminal())
    shipped = state.evaluation()
    with weighing(HAND_SET):
        hand_set = state.evaluation()
    assert hand_set == [vp + sum(parts) for vp, parts in zip(state.vp, seat_parts(state), strict=True)]
    assert hand_set != shipped and state.evaluation() == shipped
