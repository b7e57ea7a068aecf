"""The expert search keeps its tree through its own turn, and still sees only its own view."""

from __future__ import annotations

from eixample.ai import make_bot
from eixample.ai.mcts import MctsBot
from eixample.ai.view import player_view
from eixample.core.protocol import State
from eixample.core.rng import Rng
from eixample.games import barcelona

SPEC = "expert:iterations=40"


def _turn_start(seed: int) -> State:
    """A 2-player game after a few random moves, at a decision followed by another of the same
    seat (a multi-step turn)."""
    state = barcelona.new_game(2, seed)
    rng = Rng(seed)
    for _ in range(200):
        legal = state.legal_actions()
        if len(legal) > 1 and _same_seat_next(state):
            return state
        state.apply(legal[rng.below(len(legal))])
    raise AssertionError("no multi-step turn found")


def _same_seat_next(state: State) -> bool:
    seat = state.current_player()
    return all(_after(state, action).current_player() == seat for action in state.legal_actions())


def _after(state: State, action: str) -> State:
    following = state.clone()
    following.apply(action)
    return following


def _kept_root(bot: MctsBot, state: State) -> bool:
    """Whether the bot's next search would start from the kept subtree."""
    kept = bot._kept
    with player_view(state, state.current_player()) as view:
        return kept is not None and bot._root(view) is kept[1]


def test_the_next_decision_of_the_same_turn_starts_from_the_kept_subtree() -> None:
    state = _turn_start(5)
    seat = state.current_player()
    bot = make_bot(SPEC, 1)
    assert isinstance(bot, MctsBot)
    state.apply(bot.choose(state, seat))
    assert state.current_player() == seat
    assert _kept_root(bot, state)


def test_nothing_is_kept_without_reuse_or_after_another_seat_moved() -> None:
    state = _turn_start(6)
    seat = state.current_player()
    plain = make_bot("mcts:iterations=40", 1)
    assert isinstance(plain, MctsBot)
    plain.choose(state, seat)
    assert plain._kept is None
    bot = make_bot(SPEC, 1)
    assert isinstance(bot, MctsBot)
    rng = Rng(2)
    state.apply(bot.choose(state, seat))
    while state.current_player() == seat:  # the rest of the turn and the next, played at random
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    while state.current_player() != seat:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert not _kept_root(bot, state)


def test_a_whole_turn_is_played_the_same_whatever_the_hidden_parts() -> None:
    state = _turn_start(7)
    seat = state.current_player()
    other = state.resample(seat, 99)
    assert other.view(seat) == state.view(seat)
    bots = [make_bot(SPEC, 3), make_bot(SPEC, 3)]
    played: list[list[str]] = [[], []]
    for world, bot, actions in zip((state, other), bots, played, strict=True):
        while world.current_player() == seat:
            action = bot.choose(world, seat)
            actions.append(action)
            world.apply(action)
    assert len(played[0]) >= 2
    assert played[0] == played[1]
