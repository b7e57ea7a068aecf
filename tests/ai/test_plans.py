"""The greedy bot's look-ahead through its own decisions in a row (`plan`) and the MCTS early stop
(`stop`)."""

from __future__ import annotations

import random

import pytest

from eixample.ai import make_bot
from eixample.ai.greedy import GreedyBot
from eixample.ai.mcts import MctsBot, finish_move
from eixample.ai.view import PlayerView
from eixample.core.protocol import TERMINAL, JsonDict, State, StateDefaults
from eixample.core.registry import get_game

SECOND = {"safe": {"small": 1.0}, "bold": {"fail": -1.0, "win": 5.0}, "sure": {"forced": 3.0}}
"""Player 0 picks a first move, then a second one; the evaluation after the first move rates
`safe` above `bold` and `sure`, though `bold` leads to the best final position and `sure` to a
good one by a forced second move."""
AFTER_FIRST = {"safe": 0.5, "bold": 0.0, "sure": -1.0}


class TwoSteps(StateDefaults):
    def __init__(self, moves: tuple[str, ...] = ()) -> None:
        self.moves = moves

    @property
    def num_players(self) -> int:
        return 2

    def is_terminal(self) -> bool:
        return len(self.moves) == 2

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return list(SECOND) if not self.moves else list(SECOND[self.moves[0]])

    def apply(self, action: str) -> None:
        assert action in self.legal_actions()
        self.moves = (*self.moves, action)

    def clone(self) -> TwoSteps:
        return TwoSteps(self.moves)

    def resample(self, player: int, rng_seed: int) -> TwoSteps:
        return self.clone()

    def view(self, player: int | None) -> JsonDict:
        return {"moves": list(self.moves)}

    def evaluation(self) -> list[float]:
        if len(self.moves) == 1:
            return [AFTER_FIRST[self.moves[0]], 0.0]
        if len(self.moves) == 2:
            return [SECOND[self.moves[0]][self.moves[1]], 0.0]
        return [0.0, 0.0]

    def winners(self) -> list[int]:
        """Player 0 wins only with the best final position."""
        return [0] if self.evaluation()[0] > 4.0 else [1]


def expanded(spec: str, seed: int) -> frozenset[str]:
    """The first moves of `TwoSteps` that the search `spec` has visited after its budget."""
    bot = make_bot(spec, seed)
    assert isinstance(bot, MctsBot)
    return frozenset(e.action for e in bot.estimates(PlayerView(TwoSteps(), 0)) if e.visits)  # type: ignore[arg-type]


def test_greedy_plan_is_a_bounded_parameter() -> None:
    bot = make_bot("greedy:plan=3", 1)
    assert isinstance(bot, GreedyBot) and bot.plan == 3
    assert isinstance(make_bot("greedy", 1), GreedyBot) and make_bot("greedy", 1).plan == 1  # type: ignore[attr-defined]


def test_one_decision_ahead_takes_the_move_that_looks_better_now() -> None:
    """Plain greedy judges the position right after its move, even when a forced move follows."""
    assert all(make_bot("greedy", seed).choose(TwoSteps(), 0) == "safe" for seed in range(5))  # type: ignore[arg-type]


def test_plan_judges_a_move_by_the_best_continuation_of_the_turn() -> None:
    assert all(make_bot("greedy:plan=2", seed).choose(TwoSteps(), 0) == "bold" for seed in range(5))  # type: ignore[arg-type]
    assert make_bot("greedy:plan=2", 0).choose(TwoSteps(("bold",)), 0) == "win"  # type: ignore[arg-type]


@pytest.mark.parametrize("cells", [(), (4,), (0, 4), (4, 0, 8)])
def test_stop_makes_the_same_choice_with_fewer_iterations(cells: tuple[int, ...]) -> None:
    state = get_game("tictactoe").new_game(2, 0)
    for cell in cells:
        state.apply(f"mark {cell}")
    seat = state.current_player()
    full, early = make_bot("mcts:iterations=3000", 7), make_bot("mcts:iterations=3000:stop=yes", 7)
    assert isinstance(full, MctsBot) and isinstance(early, MctsBot)
    assert early.choose(state, seat) == full.choose(state, seat)
    assert full.last_iterations == 3000
    assert early.last_iterations <= 3000


def test_stop_ends_a_clear_search_early() -> None:
    state = get_game("tictactoe").new_game(2, 0)
    for cell in (0, 3, 1, 4):
        state.apply(f"mark {cell}")  # X takes 2 and wins
    bot = make_bot("mcts:iterations=5000:stop=yes", 3)
    assert isinstance(bot, MctsBot)
    assert bot.choose(state, 0) == "mark 2"
    assert bot.last_iterations < 5000


def test_finish_move_plays_the_rest_of_a_move_greedily() -> None:
    state = TwoSteps(("bold",))
    finish_move(state, 0, 1)  # type: ignore[arg-type]
    assert state.moves == ("bold", "win")
    unfinished = TwoSteps(("bold",))
    finish_move(unfinished, 0, 0)  # type: ignore[arg-type]
    assert unfinished.moves == ("bold",)
    forced = TwoSteps(("sure",))
    finish_move(forced, 0, 0)  # type: ignore[arg-type]
    assert forced.moves == ("sure", "forced")  # a forced move costs no decision


def test_finish_judges_each_leaf_after_the_rest_of_the_move() -> None:
    """With one iteration per first move, plain MCTS judges each of them half made (`safe` looks
    best); with `finish=1` each is judged after its best second move (`bold` then `win`)."""
    plain, finished = make_bot("mcts:iterations=3", 5), make_bot("mcts:iterations=3:finish=1", 5)
    assert plain.choose(TwoSteps(), 0) == "safe"  # type: ignore[arg-type]
    assert finished.choose(TwoSteps(), 0) == "bold"  # type: ignore[arg-type]
    assert isinstance(make_bot("mcts", 1), MctsBot) and make_bot("mcts", 1).settings.finish == 0  # type: ignore[attr-defined]


def tictactoe_after(*moves: str) -> State:
    state = get_game("tictactoe").new_game(2, 0)
    for action in moves:
        state.apply(action)
    return state

def test_replies_judge_each_leaf_after_the_opponents_best_answer() -> None:
    """O threatens 1-4-7. With one iteration per move, each leaf judged as it stands misses
    the threat; with `replies=1` each is judged after O's greedy answer, and only blocking
    (`mark 7`) does not lose."""
    def position() -> State:
        return tictactoe_after("mark 0", "mark 4", "mark 8", "mark 1")

    for seed in range(3):
        assert make_bot("mcts:iterations=5:finish=1", seed).choose(position(), 0) != "mark 7"
        assert make_bot("mcts:iterations=5:finish=1:replies=1", seed).choose(position(), 0) == "mark 7"


def test_a_greedy_rollout_plays_each_leaf_on_as_a_sensible_player_would() -> None:
    """One iteration per first move and a rollout of one move: a random rollout may judge `bold`
    by its failing second move; a greedy one plays `win` after it, so `bold` is chosen."""
    for seed in range(5):
        bot = make_bot("mcts:iterations=3:depth=1:policy=greedy", seed)
        assert bot.choose(TwoSteps(), 0) == "bold"  # type: ignore[arg-type]
    judged = {make_bot("mcts:iterations=3:depth=1", seed).choose(TwoSteps(), 0)  # type: ignore[arg-type]
              for seed in range(12)}
    assert judged != {"bold"}  # the random rollout's second move sometimes fails
    assert make_bot("mcts", 1).settings.policy == "random"  # type: ignore[attr-defined]


def test_greedy_expansion_tries_the_move_a_sensible_player_would_first() -> None:
    """X can win at once (`mark 2`). With a single iteration the search chooses the one action
    it expanded: a random one with the default expansion, the winning one, the best margin one
    step ahead, with `expand=greedy`."""
    def position() -> State:
        return tictactoe_after("mark 0", "mark 3", "mark 1", "mark 4")

    for seed in range(5):
        assert make_bot("mcts:iterations=1:expand=greedy", seed).choose(position(), 0) == "mark 2"
    assert {make_bot("mcts:iterations=1", seed).choose(position(), 0) for seed in range(12)} != {"mark 2"}
    assert make_bot("mcts", 1).settings.expand == "random"  # type: ignore[attr-defined]


def test_greedy_expansion_follows_its_ranking_then_the_search() -> None:
    """The first moves are expanded in the order of the evaluation after them (`safe`, `bold`,
    then `sure`), where the default expansion draws them; every move is still tried in time."""
    first_two = {expanded("mcts:iterations=2:expand=greedy", seed) for seed in range(8)}
    assert first_two == {frozenset({"safe", "bold"})}
    assert len({expanded("mcts:iterations=2", seed) for seed in range(8)}) > 1
    assert all(len(expanded("mcts:iterations=9:expand=greedy", seed)) == 3 for seed in range(3))


def test_progressive_widening_keeps_to_the_best_ranked_moves_until_the_visits_allow_more() -> None:
    """With `widen=1` a node visited n times has at most ceil(sqrt(n)) children, ranked as by
    `expand=greedy`: after 5 iterations the root has tried `safe` and `bold` only (where greedy
    expansion alone has tried all three), and `sure` comes with the sixth."""
    assert expanded("mcts:iterations=5:widen=1", 3) == {"safe", "bold"}
    assert expanded("mcts:iterations=5:expand=greedy", 3) == {"safe", "bold", "sure"}
    assert expanded("mcts:iterations=6:widen=1", 3) == {"safe", "bold", "sure"}
    assert make_bot("mcts", 1).settings.widen == 0  # type: ignore[attr-defined]


def test_progressive_widening_plays_whole_games() -> None:
    """A widened search finds the win on tic-tac-toe and finishes a game of The Rose of Fire."""
    position = tictactoe_after("mark 0", "mark 3", "mark 1", "mark 4")
    assert make_bot("mcts:iterations=200:widen=1", 2).choose(position, 0) == "mark 2"
    state = get_game("rose-of-fire").new_game(2, 5)
    bots = [make_bot("expert:iterations=30:widen=0.5:fpu=0.1", 7), make_bot("greedy", 8)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(bots[seat].choose(state, seat))
    assert state.winners()  # every choice was legal (`choose` checks) and the game was scored


@pytest.mark.parametrize("seed", [3, 8])
def test_a_stage_rollout_ends_where_the_game_enters_its_next_stage(seed: int) -> None:
    """With `stage`, a rollout stops at the first position of the next stage (The Rose of Fire: a
    phase begun, its end-of-phase procedure done), however much `depth` is left; without it, it
    plays all `depth` moves."""
    game = get_game("rose-of-fire")
    start = game.new_game(2, seed)
    moves = random.Random(seed)
    for _ in range(20):
        start.apply(moves.choice(start.legal_actions()))
    phase = start.stage()
    staged = make_bot("mcts:depth=200:stage=yes", seed)
    assert isinstance(staged, MctsBot)
    state = start.clone()
    staged._rollout(state)
    applied = state.record()["actions"]
    assert state.stage() == phase + 1
    assert game.replay({**state.record(), "actions": applied[:-1]}).stage() == phase
    plain = make_bot("mcts:depth=30", seed)
    assert isinstance(plain, MctsBot)
    unstaged = start.clone()
    plain._rollout(unstaged)
    assert len(unstaged.record()["actions"]) == len(start.record()["actions"]) + 30
