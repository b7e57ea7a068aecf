"""Shared helpers of The Rose of Fire's tests: random play, and states arranged for a rule."""

from __future__ import annotations

from eixample.core.rng import Rng
from eixample.games import rose_of_fire
from eixample.games.rose_of_fire import RoseState
from eixample.games.rose_of_fire.setup import count_houses
from eixample.games.rose_of_fire.state import PLAY, frontiers, open_squares


def play_randomly(state: RoseState, rng: Rng, steps: int | None = None) -> RoseState:
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


def random_game(players: int, seed: int, **options: object) -> RoseState:
    return play_randomly(rose_of_fire.new_game(players, seed, **options), Rng(seed))


def at_play(players: int = 3, seed: int = 1, **options: object) -> RoseState:
    """A new game at its first decision (the first player chooses a card)."""
    state = rose_of_fire.new_game(players, seed, first_player=0, **options)
    assert state.stack[-1][0] == PLAY and state.current_player() == 0
    return state


def give(state: RoseState, p: int, *names: str) -> None:
    """Put the named cards in p's hand (taken from wherever they are), replacing the hand."""
    t = state.t
    wanted = [t.card_index[n] for n in names]
    for old in state.hands[p]:
        state.discard(old) if t.card_names[old] != "strike" else None
    state.hands[p] = tuple(wanted)
    for attr in ("city_deck", "pop_deck", "prestige_deck", "city_discard", "pop_discard", "prestige_discard"):
        setattr(state, attr, tuple(c for c in getattr(state, attr) if c not in wanted))
    for q in range(state.n):
        if q != p:
            state.hands[q] = tuple(c for c in state.hands[q] if c not in wanted)
    state._legal = None


def space(state: RoseState, name: str) -> int:
    return state.t.space_index[name]


def put_tile(state: RoseState, name: str, colour: int, owner: int = -1, house: int = -1) -> int:
    x = space(state, name)
    state.tile[x] = colour
    state.tiles_left[colour] -= 1
    if owner >= 0:
        state.owner[x] = owner
        state.htype[x] = house
        state.houses_left[4 * owner + house] -= 1
    # what the rules keep as they place tiles and houses
    state.square_open, state.frontier = open_squares(state), frontiers(state)
    count_houses(state)
    state._legal = None
    return x
