"""Shared test helpers: invariants every Barcelona state must keep, random playouts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from eixample.core.rng import Rng
from eixample.games.barcelona import actions, board, new_game
from eixample.games.barcelona.state import NSRC, BarcelonaState


def check_invariants(s: BarcelonaState) -> None:
    t = s.t
    n = s.n
    # the 72 citizens are conserved: bag + hands + crossings + tracks + off the board
    for k in range(3):
        where = (
            s.bag[k]
            + sum(hand.count(k) for hand in s.hands)
            + sum(stack.count(k) for stack in s.cross_cit)
            + sum(s.track[k])
            + s.off_board[k]
        )
        assert where == t.citizen_counts[k], f"citizens of class {k}: {where} != {t.citizen_counts[k]}"
    # building tiles
    for kind in range(4):
        on_board = sum(layers.count(kind) for layers in s.bld_tiles)
        assert s.bld_stock[kind] + on_board == t.building_count[kind]
    for b in range(len(board.BUILDING_SPACES)):
        layers = s.bld_tiles[b]
        assert (layers[-1] if layers else -1) == s.bld_type[b]
        assert len(s.bld_markers[b]) <= len(layers)
    # player components
    km = len(t.marker_stacks)
    for p in range(n):
        assert s.coins[p] >= 0 and s.cloth[p] >= 0
        assert s.coins[p] + s.cloth[p] <= s.capacity(p) or any(f[:2] == (17, p) for f in s.stack)
        assert 0 <= s.cerda[p] <= t.cerda_top
        assert 0 <= s.sagrada[p] <= t.sagrada_top
        streets = sum(1 for o in s.space_owner if o == p)
        left = actions.street_tiles_left(s, p, True) + actions.street_tiles_left(s, p, False)
        assert streets + left == sum(t.narrow_stacks) + sum(t.wide_stacks)
        markers = sum(m.count(p) for m in s.bld_markers)
        assert markers + sum(s.markers_left[p * km : (p + 1) * km]) == sum(t.marker_stacks)
        assert sum(1 for o in s.cross_owner if o == p) == s.inters[p]
        assert sum(1 for o in s.space_passenger if o == p) == s.passengers[p]
        assert sum(1 for o in s.sidewalk if o == p) == s.cobbles[p]
        assert sum(s.vp_src[p * NSRC : (p + 1) * NSRC]) == s.vp[p]
    # tiles
    in_game = len(t.modernisme_ids) - 3
    mods = len(s.mod_stack) + sum(1 for m in s.mod_offer if m >= 0) + len(s.mod_discard)
    mods += sum(1 for m in s.mod_tile if m >= 0)
    assert mods == in_game
    assert s.mod_stack or not s.mod_discard, "an empty Modernisme stack never sits beside discards"
    assert sum(s.sagrada_offer) + sum(len(x) for x in s.sagrada_tiles) == len(t.sagrada_ids)
    per_stack = len(t.service_costs[0]) - (1 if n == 2 else 0)
    built = sum(bin(x).count("1") for x in s.services_built)
    assert sum(s.service_left) + built == per_stack * len(s.services)


def random_playout(
    players: int,
    seed: int,
    check: bool = True,
    *,
    invariants: Callable[[BarcelonaState], None] = check_invariants,
    salt: int = 0x5EED,
    **options: Any,
) -> Iterator[BarcelonaState]:
    """Play a game with uniformly random legal choices; yield the state after every action."""
    state = new_game(players, seed, **options)
    chooser = Rng(seed ^ salt)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        state.apply(legal[chooser.below(len(legal))])
        steps += 1
        assert steps < 5000, "game does not end"
        if check:
            invariants(state)
        yield state


def scenario(players: int = 4, seed: int = 1, rules: int | None = None) -> BarcelonaState:
    """A fresh game with the printed action map, for rule tests that arrange the table by hand
    (under the newest rules, or rules version `rules`)."""
    return new_game(players, seed, action_tiles="printed", **({} if rules is None else {"rules": rules}))


def decide(state: BarcelonaState, frame: tuple[int, ...]) -> BarcelonaState:
    """Make `frame` the pending decision, over a resting frame whose only choice is 'end actions'."""
    from eixample.games.barcelona.frames import ACTIONS

    state.stack = [(ACTIONS, frame[1], 0, 0), frame]
    state._legal = None
    state._settle()
    return state


def at_rest(state: BarcelonaState) -> bool:
    """True when every pushed decision has been resolved (only the resting frame is left)."""
    return state.legal_actions() == ["end actions"]


def street_with(state: BarcelonaState, action: str) -> int:
    """A street whose action tile is `action` (by kind name)."""
    from eixample.games.barcelona.components import ACTION_KINDS

    return next(i for i, kind in enumerate(state.street_action) if ACTION_KINDS[kind] == action)
