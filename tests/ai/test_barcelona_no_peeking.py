"""No peeking in Barcelona: a bot's choice depends only on what its seat can see.

Two states that look the same to `me` (the second drawn with `resample`, so the other players'
hands, the bag order and the face-down Modernisme stack differ) must get the same answer from
the same bot with the same seed.
"""

from __future__ import annotations

import pytest

from eixample.ai import make_bot
from eixample.core.rng import Rng
from eixample.games import barcelona
from eixample.games.barcelona import BarcelonaState

RANDOM_MOVES = 30
RESAMPLE_SEEDS = range(6)
BOT_SEED = 7

def _state() -> BarcelonaState:
    """A 3-player game after RANDOM_MOVES random moves."""
    state = barcelona.new_game(3, 11)
    rng = Rng(3)
    for _ in range(RANDOM_MOVES):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert not state.is_terminal()
    return state


def _others(state: BarcelonaState, me: int) -> list[tuple[int, ...]]:
    return [state.hands[seat] for seat in range(state.num_players) if seat != me]


def test_resampled_states_look_the_same_to_me_but_hide_other_hands() -> None:
    state = _state()
    me = state.current_player()
    others = [state.resample(me, seed) for seed in RESAMPLE_SEEDS]
    assert all(other.view(me) == state.view(me) for other in others)
    assert all(other.hands[me] == state.hands[me] for other in others)
    assert any(_others(other, me) != _others(state, me) for other in others)


@pytest.mark.parametrize("spec", [
    "random",
    "greedy",
    "mcts:iterations=30",
    "expert:iterations=30",
    "expert:iterations=30:leaf=learned",
])
def test_bots_choose_the_same_whatever_the_hidden_parts(spec: str) -> None:
    state = _state()
    me = state.current_player()
    expected = make_bot(spec, BOT_SEED).choose(state, me)
    for seed in RESAMPLE_SEEDS:
        other = state.resample(me, seed)
        assert make_bot(spec, BOT_SEED).choose(other, me) == expected, f"resample seed {seed}"


def test_a_determinization_depends_only_on_the_view() -> None:
    """The root of the above: resampling two states `me` cannot tell apart, with the same seed,
    gives the same state."""
    state = _state()
    me = state.current_player()
    for seed in RESAMPLE_SEEDS:
        other = state.resample(me, seed)
        assert other.resample(me, 99).to_json()["state"] == state.resample(me, 99).to_json()["state"]
