"""No peeking in The Rose of Fire: a bot's choice depends only on what its seat can see.

Two states that look the same to `me` (the second drawn with `resample`: other hands' faces,
other families' tokens and convictions, the decks and the red bag differ) must get the same
answer from the same bot with the same seed."""

from __future__ import annotations

import re

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


SECRET_CHOICE = re.compile(r"^(keep [12]|drop [1-9][0-9]?)$")
SECRET_KINDS = ("keep", "drop")
GAMES = 6


def _secret_choices() -> list[tuple[RoseState, str, str]]:
    """(state before, action text, symbol chosen) for every token kept or dropped in a few random
    games of 3 players; each choice picks a random legal action."""
    found: list[tuple[RoseState, str, str]] = []
    for game in range(GAMES):
        state = rose_of_fire.new_game(3, 100 + game)
        rng = Rng(game)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            if state.decision_kind() in SECRET_KINDS:
                me = state.current_player()
                choice = state.view(me)["player_list"][me]["secret_choice"]
                found.append((state.clone(), action, choice[action]))
            state.apply(action)
    return found


def test_secret_token_choices_name_a_place_and_no_other_seat_sees_the_symbol() -> None:
    """Rulebook: Influence (tokens lie face down on the family card). A kept or dropped token's
    symbol must not reach the other seats: not in the action text (it names a place), not in
    their views before or after (identical whatever was chosen), not in the log."""
    choices = _secret_choices()
    assert len(choices) >= 10
    for state, action, symbol in choices:
        me = state.current_player()
        assert all(SECRET_CHOICE.match(text) for text in state.legal_actions())
        assert SECRET_CHOICE.match(action)
        afters = []
        for other_action in state.legal_actions():
            after = state.clone()
            after.apply(other_action)
            afters.append(after)
        for seat in range(state.n):
            if seat == me:
                continue
            view = state.view(seat)
            assert view["player_list"][me]["secret_choice"] is None
            assert all(
                resampled.view(seat) == view
                for resampled in (state.resample(seat, s) for s in RESAMPLE_SEEDS)
            )
            seen_after = [after.view(seat) for after in afters]
            assert all(v == seen_after[0] for v in seen_after), "another seat saw which token went"
        said = [line for line in afters[0].log_text()[len(state.log()) :] if "influence token" in line]
        assert said and not any(symbol in line for line in said)


def test_a_place_says_nothing_of_the_symbol() -> None:
    """Over many choices each place text stands for more than one symbol, and a kept token is the
    first of the two drawn about half the time whatever its symbol."""
    symbols_by_text: dict[str, set[str]] = {}
    first_by_symbol: dict[str, list[bool]] = {}
    for _state, action, symbol in _secret_choices():
        symbols_by_text.setdefault(action, set()).add(symbol)
        if action.startswith("keep"):
            first_by_symbol.setdefault(symbol, []).append(action == "keep 1")
    assert symbols_by_text["keep 1"] == symbols_by_text["keep 2"] == {"crown", "colonies", "personalities"}
    for symbol, firsts in first_by_symbol.items():
        if len(firsts) >= 20:
            assert 0.2 <= sum(firsts) / len(firsts) <= 0.8, symbol
