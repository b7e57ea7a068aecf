from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli.helpers import assert_clear_failure, invoke
from tests.records import record_of

ACTIONS = ["mark 4", "mark 0", "mark 1", "mark 3", "mark 7"]


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record_of(ACTIONS)))
    return path


def _moves_shown(output: str) -> list[int]:
    return [int(line.split("move ")[1].split()[0]) for line in output.splitlines() if ": move " in line]


def test_stepping_forwards_and_backwards(runner: CliRunner, record_file: Path) -> None:
    result = invoke(runner, "replay", str(record_file), input="n\nn\np\nlast\nfirst\n3\n9\nhuh\nq\n")
    assert result.exit_code == 0, result.output
    assert _moves_shown(result.output) == [0, 1, 2, 1, 5, 0, 3]
    out = " ".join(result.output.split())
    assert "Player 1 played: mark 4" in out
    assert "Winner: Player 1" in out
    assert "No move 9: moves go from 0 to 5." in out
    assert "Unknown command 'huh'" in out


def test_starting_at_a_move_and_reading_a_line_of_json_lines(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    lines = [{"record": record_of(ACTIONS[:k]), "bots": ["greedy", "random"]} for k in (2, 4)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = invoke(runner, "replay", str(path), "--line", "2", "--index", "3", input="n\nq\n")
    assert result.exit_code == 0, result.output
    assert _moves_shown(result.output) == [3, 4]
    assert "Player 2 (random) played: mark 3" in " ".join(result.output.split())


def test_replaying_a_saved_game(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    path.write_text(json.dumps({"record": record_of(ACTIONS[:1]), "seats": ["human", "mcts"]}))
    result = invoke(runner, "replay", str(path), "--index", "1", input="")
    assert result.exit_code == 0, result.output
    assert "Player 1 (human) played: mark 4" in " ".join(result.output.split())


@pytest.mark.parametrize(("content", "args", "phrase"), [
    ("not json", (), "is not valid JSON"),
    ("{}\n{}\n", (), "choose one with --line L"),
    ("{}\n", ("--line", "4"), "has 1 record; there is no line 4"),
    ("{}\n{}\n", ("--line", "4"), "has 2 records; there is no line 4"),
    (json.dumps(record_of(["mark 4", "mark 4"])), (), "action 1 'mark 4' is illegal"),
    (json.dumps(record_of(["mark 9"])), (), "action 0 'mark 9' is illegal"),
    (json.dumps({**record_of([]), "players": "two"}), (), "'players' is missing or not a int"),
    (json.dumps({**record_of([]), "game": "chess"}), (), "unknown game 'chess'"),
    (json.dumps(record_of(ACTIONS)), ("--index", "6"), "the game has 5 moves; there is no move 6"),
    (json.dumps(record_of(ACTIONS[:1])), ("--index", "2"), "the game has 1 move; there is no move 2"),
    (json.dumps(record_of([])), ("--game", "barcelona"), "is a game of 'tictactoe', not 'barcelona'"),
])
def test_bad_files(runner: CliRunner, tmp_path: Path, content: str, args: tuple[str, ...],
                   phrase: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert_clear_failure(invoke(runner, "replay", str(path), *args, input="q\n"), phrase)


def test_a_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    assert_clear_failure(invoke(runner, "replay", str(tmp_path / "nowhere.json")), "cannot read")


def test_replaying_a_record_made_before_rules_versions(runner: CliRunner, tmp_path: Path) -> None:
    """A Barcelona record of the first release (no `rules`; today's rules refuse one of its actions)
    replays under its own rules to its own final scores."""
    folder = Path(__file__).parents[1] / "games" / "barcelona" / "before_versions"
    fixture = folder / "rules1-p2-end-illegal.json"
    data = json.loads(fixture.read_text())
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data["record"]))
    result = invoke(runner, "replay", str(path), "--index", str(len(data["record"]["actions"])), input="q\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert all(str(score) in out for score in data["scores"]), out[-600:]


def _saved_barcelona_state(tmp_path: Path, corrupt: bool) -> Path:
    from eixample.games import barcelona

    state = barcelona.new_game(2, 5)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    saved = state.to_json()
    if corrupt:
        saved["state"]["coins"][0] += 7
    path = tmp_path / "saved-state.json"
    path.write_text(json.dumps(saved))
    return path


def test_a_saved_state_replays_from_its_own_actions(runner: CliRunner, tmp_path: Path) -> None:
    path = _saved_barcelona_state(tmp_path, corrupt=False)
    result = invoke(runner, "replay", str(path), "--index", "3", input="q\n")
    assert result.exit_code == 0, result.output
    assert _moves_shown(result.output) == [3]


@pytest.mark.parametrize("command", ["replay", "play"])
def test_a_corrupted_saved_state_is_refused_not_ignored(runner: CliRunner, tmp_path: Path,
                                                        command: str) -> None:
    path = _saved_barcelona_state(tmp_path, corrupt=True)
    args = (str(path),) if command == "replay" else ("--load", str(path))
    assert_clear_failure(invoke(runner, command, *args, input="q\nquit\n"),
                         "cannot restore the saved state", "state.coins")


def test_a_barcelona_replay_is_compact_in_words_with_the_whole_table_on_request(
        runner: CliRunner, tmp_path: Path) -> None:
    from eixample.games import barcelona

    state = barcelona.new_game(2, 3)
    state.apply("place C12")
    while not state.legal_actions()[0].startswith("act "):
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(state.record()))
    moves = len(state.record()["actions"])
    result = invoke(runner, "replay", str(path), "--index", str(moves), input="table\nq\n")
    assert result.exit_code == 0, result.output
    compact, whole = result.output.split("replay> ", 1)
    assert "played: Street " in compact and "act " not in compact
    assert "Citizen tracks" not in compact and "Citizen tracks" in whole
