"""Root parallelisation (`workers=N`): helper processes search the same decision with their
own trees, and the bot chooses by the visits of all the trees."""

from __future__ import annotations

import gc

import pytest

from eixample.ai import make_bot
from eixample.ai.mcts import CPU_CHECK_EVERY, MctsBot
from eixample.ai.parallel import RootStatistics, SearchHelpers
from eixample.ai.specs import BotSpecError
from eixample.ai.view import player_view
from eixample.core.protocol import State
from eixample.games import barcelona


def _play(spec: str, seed: int, decisions: int) -> tuple[list[str], list[int]]:
    """The first `decisions` actions of a 2-player Barcelona game with `spec` in seat 0 and
    greedy in seat 1, and the iterations of each searched decision of seat 0."""
    state = barcelona.new_game(2, seed)
    bots = [make_bot(spec, 11), make_bot("greedy", 12)]
    iterations = []
    for _ in range(decisions):
        seat = state.current_player()
        choices = len(state.legal_actions())
        state.apply(bots[seat].choose(state, seat))
        if seat == 0 and choices > 1:
            iterations.append(bots[0].last_iterations)
    return list(state.record()["actions"]), iterations


def test_every_process_searches_the_whole_budget_and_games_repeat() -> None:
    actions, iterations = _play("expert:iterations=40:workers=3", 4, 30)
    assert iterations and all(count == 3 * 40 for count in iterations)
    assert _play("expert:iterations=40:workers=3", 4, 30)[0] == actions


def test_the_helpers_only_ever_receive_a_determinization(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[State, int]] = []
    original = SearchHelpers.search

    def search(self: SearchHelpers, world: State, player: int, continued: bool) -> None:
        sent.append((world, player))
        original(self, world, player, continued)

    monkeypatch.setattr(SearchHelpers, "search", search)
    state = barcelona.new_game(2, 8)
    seen = state.view(0)
    make_bot("expert:iterations=20:workers=2", 3).choose(state, 0)
    (world, player), = sent
    assert player == 0 and world is not state
    assert world.view(0) == seen
    assert world.to_json()["state"]["rng"] != state.to_json()["state"]["rng"], "chance is drawn afresh"


def test_helper_processes_end_with_their_bot() -> None:
    bot = make_bot("expert:iterations=10:workers=2", 1)
    assert isinstance(bot, MctsBot) and bot._helpers is not None
    state = barcelona.new_game(2, 2)
    bot.choose(state, 0)
    processes = list(bot._helpers.processes)
    assert len(processes) == 1 and processes[0].is_alive()
    del bot
    gc.collect()
    processes[0].join(timeout=5)
    assert not processes[0].is_alive()


@pytest.mark.parametrize("spec", ["expert:workers=0", "mcts:workers=17", "expert:workers=two"])
def test_worker_counts_out_of_range_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError, match="workers"):
        make_bot(spec, 1)


@pytest.mark.parametrize(("spec", "stops_early"), [("expert:seconds=5", True), ("expert:cpu=0.2", False),
                                                   ("expert:iterations=300", False)])
def test_a_helper_with_a_wall_clock_budget_stops_with_its_bot(spec: str, stops_early: bool) -> None:
    """With `seconds`, a helper's search ends when the bot's own search does (`stopped`); an
    iteration budget is spent whole (games repeat), and so is a CPU budget (the machine's other
    work must not change what the bot thinks)."""
    bot = make_bot(spec, 5)
    assert isinstance(bot, MctsBot)
    state = barcelona.new_game(2, 6)
    with player_view(state, 0) as view:
        bot.begin_decision()
        iterations = bot.search(view, MctsBot(spec, 1)._root(view), stopped=lambda: True)
    assert (iterations <= CPU_CHECK_EVERY) is stops_early


def test_helpers_go_on_from_their_kept_subtrees_within_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the bot goes on from its kept subtree, so does each helper: its root then holds
    more visits than the iterations of this decision (the kept statistics)."""
    found: list[RootStatistics] = []
    original = SearchHelpers.results

    def results(self: SearchHelpers) -> list[RootStatistics]:
        answers = original(self)
        found.extend(answers)
        return answers

    monkeypatch.setattr(SearchHelpers, "results", results)
    _play("expert:iterations=40:workers=2", 4, 30)
    assert found and all(answer.iterations == 40 for answer in found)
    assert any(sum(answer.visits.values()) > 40 for answer in found)
    assert any(sum(answer.visits.values()) <= 40 for answer in found), "a new turn starts afresh"
