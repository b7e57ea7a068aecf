"""No peeking in The Rose of Fire: a bot's choice depends only on what its seat can see.

Two states that look the same to `me` (the second drawn with `resample`: other hands' faces,
other families' tokens and convictions, the decks and the red bag differ) must get the same
answer from the same bot with the same seed."""

from __future__ import annotations

import pytest

from eixample.ai import make_bot
from eixample.core.rng import Rng
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire import RoseState

RANDOM_MOVES = 40
RESAMPLE_SEEDS = range(5)
BOT_SEED = 7


def _state() -> RoseState:
    state = rose_of_fire.new_game(3, 11)
    rng = Rng(3)
    for _ in range(RANDOM_MOVES):
        state.apply(rng.choice(state.legal_actions()))
    while state.decision_kind() != "play" or len(state.legal_actions()) < 3:
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    return state


def test_resampled_states_look_the_same_to_me_but_hide_other_hands() -> None:
    state = _state()
    me = state.current_player()
    others = [state.resample(me, seed) for seed in RESAMPLE_SEEDS]
    assert all(other.view(me) == state.view(me) for other in others)
    hidden = [(o.hands, o.tokens, o.conviction) for o in others]
    assert any(h != (state.hands, state.tokens, state.conviction) for h in hidden)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=20"])
def test_bots_choose_the_same_whatever_the_hidden_parts(spec: str) -> None:
    state = _state()
    me = state.current_player()
    expected = make_bot(spec, BOT_SEED).choose(state, me)
    for seed in RESAMPLE_SEEDS:
        other = state.resample(me, seed)
        assert make_bot(spec, BOT_SEED).choose(other, me) == expected, f"resample seed {seed}"


def test_a_determinization_depends_only_on_the_view() -> None:
    state = _state()
    me = state.current_player()
    for seed in RESAMPLE_SEEDS:
        other = state.resample(me, seed)
        assert other.resample(me, 99).to_json()["state"] == state.resample(me, 99).to_json()["state"]
