"""Game records: options + seed + actions. Replaying one rebuilds the identical state.

A record comes from outside: `check_record` and `replay` let nothing but MalformedRecordError
escape, whatever the record holds."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, cast

from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State
from eixample.core.rng import check_seed

RECORD_FORMAT = 1
MAX_RECORD_ACTIONS = 100_000


def make_record(game: str, players: int, seed: int, options: dict[str, Any], actions: list[str]) -> JsonDict:
    return {
        "format": RECORD_FORMAT,
        "game": game,
        "players": players,
        "seed": seed,
        "options": dict(options),
        "actions": list(actions),
    }


def check_record(record: Any, game: Game) -> JsonDict:
    """Validate the shape of a record; raise MalformedRecordError naming the problem. Every
    field of `make_record` is required (every record ever written has them); which options a
    record holds is the game's to judge."""
    if not isinstance(record, dict):
        raise MalformedRecordError("a game record must be a JSON object")
    if record.get("format") != RECORD_FORMAT or isinstance(record.get("format"), bool):
        raise MalformedRecordError(f"game record: 'format' is missing or not {RECORD_FORMAT}")
    if not isinstance(record.get("game"), str):
        raise MalformedRecordError("game record: 'game' is missing or not a text")
    if record["game"] != game.name:
        raise MalformedRecordError(f"game record is for '{record['game'][:40]}', not '{game.name}'")
    for key, kind in (("players", int), ("seed", int), ("actions", list)):
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            raise MalformedRecordError(f"game record: '{key}' is missing or not a {kind.__name__}")
    try:
        check_seed(record["seed"])
    except ValueError as error:
        raise MalformedRecordError(f"game record: {error}") from None
    options = record.get("options")
    if not isinstance(options, dict):
        raise MalformedRecordError("game record: 'options' is missing or not an object")
    if not all(isinstance(a, str) for a in record["actions"]):
        raise MalformedRecordError("game record: every action must be a string")
    if len(record["actions"]) > MAX_RECORD_ACTIONS:
        raise MalformedRecordError(f"game record: more than {MAX_RECORD_ACTIONS} actions")
    if not all(isinstance(key, str) for key in options):
        raise MalformedRecordError("game record: option names must be strings")
    return record


def replay(game: Game, record: Any, upto: int | None = None) -> State:
    """Rebuild a state from a record (optionally only its first `upto` actions), under the rules
    version it was played under (matched for a record made before versions: core.versions)."""
    from eixample.core.versions import needs_matching, with_rules

    record = check_record(record, game)
    if needs_matching(game, record.get("options", {})):
        record = with_rules(game, record)
    return replay_exactly(game, record, upto)


def replay_exactly(game: Game, record: Any, upto: int | None = None) -> State:
    """`replay` with the record's options as they are (no rules version matched)."""
    record = check_record(record, game)
    try:
        state = game.new_game(record["players"], record["seed"], **record["options"])
    except MalformedRecordError:
        raise
    except Exception as error:  # whatever the options hold, the answer is the documented error
        raise MalformedRecordError(f"game record: cannot set up the game: {_short(error)}") from error
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise MalformedRecordError(
                f"game record: action {index} '{action[:60]}' is illegal: {_short(error)}"
            ) from error
    return state


def _short(error: Exception) -> str:
    text = str(error)
    return text if len(text) <= 200 else f"{text[:200]}…"


def can_undo(state: State) -> bool:
    """True when the last action may be taken back: it is the current seat's own decision made
    after the last random draw and after every other seat's decision."""
    return len(state.record()["actions"]) > state.undo_floor()


def undo(game: Game, state: State) -> State:
    """The state before the last action, if `can_undo`; otherwise IllegalActionError."""
    if not can_undo(state):
        raise IllegalActionError("nothing to undo: undo stops at a random draw or another player's decision")
    record = state.record()
    return replay(game, record, upto=len(record["actions"]) - 1)


S = TypeVar("S", bound=State)


class RecordedGame(Generic[S]):
    """What most small games share of `Game`: a saved state is the game's record (`from_json`
    replays it), no options, the platform's default bot levels. A subclass sets the class
    attributes and writes `new_game` (and `all_actions`, to plug into the research interfaces);
    it overrides whatever else differs."""

    name: str
    title: str
    min_players: int
    max_players: int
    speed_ratio = 0.5

    def new_game(self, players: int, seed: int, **options: Any) -> S:
        raise NotImplementedError

    def replay(self, record: JsonDict) -> S:
        # replay builds the state with self.new_game; all_actions, which it never calls, is optional
        return cast(S, replay(cast(Game, self), record))

    def from_json(self, data: JsonDict) -> S:
        if not isinstance(data, dict) or "record" not in data:
            raise MalformedRecordError(f"{self.title} state: 'record' missing")
        return self.replay(data["record"])

    def option_names(self) -> list[str]:
        return []

    def switch_options(self) -> list[str]:
        return []

    def option_choices(self, players: int) -> dict[str, list[str | int]]:
        return {}

    def option_ranges(self, players: int) -> dict[str, tuple[int, int]]:
        return {}

    def bot_levels(self) -> dict[str, str]:
        return {}

    def rules_versions(self) -> list[int]:
        return [1]
