"""The global action numbering (`all_actions`): every legal action of every game is in it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from eixample.core.registry import get_game
from eixample.games.barcelona import board
from eixample.games.barcelona.tables import tables_for
from eixample.interop.table import GameTable, research_games
from tests.interop.helpers import random_walk, setups


def test_the_platform_games_are_covered() -> None:
    assert {"barcelona", "tictactoe"} <= set(research_games())


@pytest.mark.parametrize(("name", "players", "options"), setups())
def test_every_legal_action_is_numbered_at_every_step(name: str, players: int,
                                                      options: dict[str, Any]) -> None:
    table = GameTable.build(name, players, **options)
    assert len(set(table.actions)) == len(table.actions)
    assert table.actions == tuple(get_game(name).all_actions(players, **options))  # a fixed order
    used: set[str] = set()
    for seed in range(40):
        for state in random_walk(table, seed):
            legal = state.legal_actions()
            assert set(legal) <= set(table.index), set(legal) - set(table.index)
            used.update(legal)
            if not state.is_terminal():
                ids = table.legal_ids(state)
                assert [table.actions[i] for i in ids] == sorted(legal, key=table.index.__getitem__)
    assert len(used) > len(table.actions) // 3  # the walks went through most kinds of decision


def test_barcelona_numbering_is_derived_from_the_board_and_the_data() -> None:
    t = tables_for(None)
    actions = get_game("barcelona").all_actions(2)
    forms = Counter(" ".join(text.split()[:1]) for text in actions)
    assert forms["place"] == forms["intersection"] == len(board.CROSSINGS) == 25
    assert forms["street"] == forms["tram"] == len(board.SPACES) == 44
    assert forms["cobble"] == len(board.SIDEWALK) == 25
    assert forms["act"] == 11 * 8  # any action tile may lie on any street (setup shuffles them)
    assert forms["take"] == len(t.modernisme_ids) * len(t.modernisme_take)
    assert forms["service"] == len(t.service_ids)
    assert forms["sagrada"] == len(t.sagrada_ids)
    assert forms["improve"] == len(t.modernisme_improve)
    # Corner Buildings on the 8 triangles, the three other types on the 12 blocks
    assert forms["build"] == 8 + 3 * 12
    assert actions[0] == "place C00" and actions[-2].startswith("use ") and actions[-1] == "decline"


def test_barcelona_numbering_is_shared_by_player_counts_and_modes() -> None:
    game = get_game("barcelona")
    reference = game.all_actions(2)
    for players, options in ((1, {}), (3, {"action_tiles": "printed"}), (4, {"first_player": 3})):
        assert game.all_actions(players, **options) == reference


@pytest.mark.parametrize(("players", "options", "phrase"), [
    (5, {}, "1 to 4 players"),
    (2, {"colour": "red"}, "unknown option"),
    (2, {"difficulty": "hard"}, "only for a solo game"),
])
def test_barcelona_numbering_refuses_bad_options(players: int, options: dict[str, Any], phrase: str) -> None:
    with pytest.raises(ValueError, match=phrase):
        get_game("barcelona").all_actions(players, **options)
