from __future__ import annotations

import pytest

from eixample.ai import BotSpecError, bot_names, check_spec, make_bot, parse_spec
from eixample.ai.greedy import GreedyBot
from eixample.ai.mcts import DEFAULT_ITERATIONS, MctsBot, MctsSettings
from eixample.ai.random_bot import RandomBot
from eixample.ai.specs import LEVELS, game_levels, level_spec
from eixample.core.registry import get_game
from eixample.games.rose_of_fire import BOT_LEVELS


def test_the_four_bots_are_known() -> None:
    assert bot_names() == ["expert", "greedy", "mcts", "random"]


@pytest.mark.parametrize(
    ("spec", "kind"),
    [("random", RandomBot), ("greedy", GreedyBot), ("greedy:samples=3", GreedyBot), ("mcts", MctsBot),
     ("mcts:iterations=200", MctsBot), ("mcts:seconds=1", MctsBot), (" mcts:c=1.5:depth=0 ", MctsBot)],
)
def test_specs_make_their_bots(spec: str, kind: type) -> None:
    bot = make_bot(spec, seed=7)
    assert isinstance(bot, kind)
    assert bot.spec == spec.strip()
    assert bot.seed == 7


def test_mcts_parameters_are_parsed() -> None:
    bot = make_bot("mcts:iterations=200:c=0.5:depth=3:norm=rank:scale=4", seed=0)
    assert isinstance(bot, MctsBot)
    assert bot.settings == MctsSettings(iterations=200, c=0.5, depth=3, norm="rank", scale=4.0)


def test_expert_is_mcts_with_reuse_and_skip_whose_parameters_still_apply() -> None:
    bot = make_bot("expert:seconds=1", seed=0)
    assert isinstance(bot, MctsBot)
    assert bot.settings == MctsSettings(seconds=1.0, c=0.2, reuse=True, skip=True)
    plain = make_bot("expert:iterations=50:reuse=no:c=0.3", seed=0)
    assert isinstance(plain, MctsBot)
    assert plain.settings == MctsSettings(iterations=50, c=0.3, reuse=False, skip=True)


def test_levels_name_valid_specs_weakest_first() -> None:
    assert list(LEVELS) == ["beginner", "intermediate", "strong", "strongest"]
    for level, spec in LEVELS.items():
        check_spec(spec)
        assert level_spec(level) == spec
    assert level_spec(" Strongest ") == "expert:seconds=1:fpu=0.1:implicit=0.4"
    with pytest.raises(BotSpecError, match="unknown level 'grandmaster' \\(known: beginner, intermediate"):
        level_spec("grandmaster")


def test_a_game_may_offer_levels_of_its_own() -> None:
    """The Rose of Fire has its own ladder (docs/rose-of-fire/strength.md); Barcelona the default."""
    rose, barcelona = get_game("rose-of-fire"), get_game("barcelona")
    assert game_levels(barcelona) == LEVELS == game_levels()
    own = game_levels(rose)
    assert own == BOT_LEVELS and list(own) == ["beginner", "intermediate", "strong"]
    for level, spec in own.items():
        check_spec(spec)
        assert level_spec(level, rose) == spec
    assert level_spec("Strong", rose) != level_spec("strong")
    known = "known: beginner, intermediate, strong\\)"
    with pytest.raises(BotSpecError, match=f"unknown level 'strongest' \\({known}"):
        level_spec("strongest", rose)


def test_mcts_budget() -> None:
    assert MctsSettings().iteration_limit() == DEFAULT_ITERATIONS
    assert MctsSettings(iterations=5).iteration_limit() == 5
    assert MctsSettings(seconds=1.0).iteration_limit() > 10**9
    assert MctsSettings(iterations=5, seconds=1.0).iteration_limit() == 5
    assert MctsSettings(cpu=0.1).iteration_limit() > 10**9
    assert MctsSettings(iterations=5, cpu=0.1).iteration_limit() == 5


def test_parse_spec_splits_name_and_parameters() -> None:
    spec = parse_spec("mcts:iterations=200:norm=rank")
    assert (spec.name, spec.params) == ("mcts", {"iterations": "200", "norm": "rank"})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown bot 'alphazero' (known: expert, greedy, mcts, random)"),
        ("", "unknown bot"),
        ("mcts:budget=3",
         "unknown parameter 'budget' (known: iterations, seconds, c, depth, norm, scale, reuse, skip"),
        ("random:seed=3", "unknown parameter 'seed' (known: none)"),
        ("mcts:iterations", "parameter 'iterations' must be written KEY=VALUE"),
        ("mcts:iterations=", "must be written KEY=VALUE"),
        ("mcts:iterations=0", "iterations must be a positive integer, not '0'"),
        ("mcts:iterations=ten", "iterations must be a positive integer, not 'ten'"),
        ("mcts:iterations=2.5", "must be a positive integer"),
        ("mcts:seconds=-1", "seconds must be a positive number"),
        ("mcts:seconds=inf", "seconds must be a positive number"),
        ("mcts:seconds=nan", "seconds must be a positive number"),
        ("mcts:cpu=0", "cpu must be a positive number"),
        ("mcts:depth=-1", "depth must be a non-negative integer"),
        ("mcts:policy=clever", "policy must be one of"),
        ("mcts:norm=softmax", "norm must be one of minmax, rank, sigmoid, not 'softmax'"),
        ("mcts:c=1:c=2", "parameter 'c' given twice"),
        ("greedy:samples=0", "samples must be a positive integer"),
        ("expert:implicit=1.5", "implicit must be at most 1, not '1.5'"),
        ("expert:implicit=-0.1", "implicit must be a non-negative number"),
        ("expert:widen=101", "widen must be at most 100, not '101'"),
        ("expert:widen=-1", "widen must be a non-negative number"),
    ],
)
def test_bad_specs_get_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec, seed=0)
    assert message in str(caught.value)


def test_spec_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody", seed=0)
