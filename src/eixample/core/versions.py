"""Rules versions: every game is played, replayed and continued under the rules it was made with.

A game with more than one rules version records it as the game option `rules` (1 = oldest; a new
game takes the newest). A record or stored game without it was made before versions existed; it
is matched to the rules it was played under by replaying it under each candidate version, newest
first: the first under which every action is legal (and which gives what else is known of the
game, such as its stored final scores) wins."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eixample.core.errors import IllegalActionError, MalformedRecordError
from eixample.core.protocol import Game, JsonDict, State

RULES_OPTION = "rules"


def rules_versions(game: Game) -> list[int]:
    """The game's rules versions, oldest first ([1] for a game that has never changed its rules)."""
    versions = getattr(game, "rules_versions", None)
    return list(versions()) if versions is not None else [1]


def is_versioned(game: Game) -> bool:
    return len(rules_versions(game)) > 1


def candidates(game: Game) -> list[int]:
    """The versions an unversioned game may have been played under, newest first: all of them,
    or up to the game's `unversioned_rules` (the last version before the option existed)."""
    newest = getattr(game, "unversioned_rules", None)
    return [v for v in reversed(rules_versions(game)) if newest is None or v <= newest]


def needs_matching(game: Game, options: Any) -> bool:
    return isinstance(options, dict) and RULES_OPTION not in options and is_versioned(game)


def match_rules(
    game: Game,
    record: JsonDict,
    fits: Callable[[State], bool] | None = None,
    seats: Sequence[int] | None = None,
) -> tuple[int, State]:
    """The rules version an unversioned record was played under, with its state replayed under
    that version: the newest candidate under which every action is legal (made by the seat in
    `seats`, when known) and the replayed state `fits` what else is known of the game.
    MalformedRecordError when none does."""
    problems = []
    for version in candidates(game):
        versioned = {**record, "options": {**record.get("options", {}), RULES_OPTION: version}}
        try:
            state = _replay_by_seats(game, versioned, seats)
        except MalformedRecordError as error:
            problems.append(f"rules {version}: {error}")
            continue
        if fits is None or fits(state):
            return version, state
        problems.append(f"rules {version}: the replayed game differs from the stored one")
    raise MalformedRecordError("no rules version of the game replays this record: " + "; ".join(problems))


def _replay_by_seats(game: Game, record: JsonDict, seats: Sequence[int] | None) -> State:
    from eixample.core.records import replay_exactly

    if seats is None:
        return replay_exactly(game, record)
    state = replay_exactly(game, record, upto=0)
    for index, (seat, action) in enumerate(zip(seats, record["actions"], strict=True)):
        if state.current_player() != seat:
            raise MalformedRecordError(f"action {index} was made by seat {seat}, not by the seat to move")
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise MalformedRecordError(f"action {index} '{action[:60]}' is illegal: {error}") from error
    return state


def with_rules(game: Game, record: JsonDict, fits: Callable[[State], bool] | None = None) -> JsonDict:
    """The record with its rules version: as given, or matched (see `match_rules`)."""
    if not needs_matching(game, record.get("options", {})):
        return record
    version, _ = match_rules(game, record, fits)
    return {**record, "options": {**record.get("options", {}), RULES_OPTION: version}}


def result_fits(result: dict[str, Any] | None, to_move: int | None = None) -> Callable[[State], bool]:
    """A check that a replayed state ends as a stored game did: its final scores and winners when
    it had a result, otherwise still running (and with `to_move` deciding, when known)."""

    def fits(state: State) -> bool:
        if result is not None:
            return (
                state.is_terminal()
                and state.scores() == result.get("scores")
                and state.winners() == result.get("winners", state.winners())
            )
        if state.is_terminal():
            return False
        return to_move is None or state.current_player() == to_move

    return fits
