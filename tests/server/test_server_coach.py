"""The coach on the server: games created with hints allowed, the hint endpoint (refusals, cache,
rate limits, one computation per seat, no hidden information), and the win-probability curve of
finished games computed in the background. Bot budgets are iterations, kept tiny."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from eixample.core.protocol import JsonDict, State
from eixample.core.registry import get_game
from eixample.core.rng import Rng
from eixample.games import barcelona
from eixample.server.coach import Curves, Hints, curve_positions, hint_choices
from eixample.server.errors import ApiError
from eixample.server.limits import ServerLimits
from tests.server import hiddencards
from tests.server.harness import GENEROUS_LIMITS, ServerProcess, create_claimed_game, seat_headers
from tests.server.test_server_fanout import HealthProbe, p99

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
TINY = {"hint_iterations": 40, "curve_move_iterations": 5, "curve_chunk": 4}
"""Searches of a few iterations: the tests check what is answered, not how well."""


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    many = {"hints_per_minute": 10_000, "hints_per_address_minute": 10_000}
    limits = {**GENEROUS_LIMITS, **TINY, **many}
    process = ServerProcess(tmp_path_factory.mktemp("coach-data"), limits=limits).start()
    yield process
    process.stop()


@pytest.fixture()
def client(coach_server: ServerProcess) -> Iterator[httpx.Client]:
    with coach_server.client() as made:
        yield made


def ask_hint(client: httpx.Client, game: dict[str, Any], seat: int, move: int) -> httpx.Response:
    return client.post(
        f"/api/games/{game['game_id']}/hint",
        json={"expected_move": move},
        headers=seat_headers(game["seats"][seat]["token"]),
    )


def play(client: httpx.Client, game: dict[str, Any], seat: int, action: str, move: int) -> None:
    response = client.post(
        f"/api/games/{game['game_id']}/moves",
        json={"action": action, "expected_move": move},
        headers=seat_headers(game["seats"][seat]["token"]),
    )
    assert response.status_code == 200, response.text


def test_hints_allowed_is_stored_and_shown_in_the_lobby(client: httpx.Client) -> None:
    with_hints = create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True)
    without = create_claimed_game(client, "tictactoe", PEOPLE)
    assert client.get(f"/api/games/{with_hints['game_id']}").json()["hints_allowed"] is True
    assert client.get(f"/api/games/{without['game_id']}").json()["hints_allowed"] is False
    listed = {game["game_id"]: game for game in client.get("/api/games").json()["games"]}
    assert listed[with_hints["game_id"]]["hints_allowed"] is True
    assert listed[without["game_id"]]["hints_allowed"] is False


@pytest.mark.parametrize("value", ["yes", 1, None, "true"])
def test_hints_allowed_must_be_a_boolean(client: httpx.Client, value: Any) -> None:
    response = client.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, "hints_allowed": value})
    assert response.status_code == 422
    assert "hints_allowed" in response.json()["error"]


def test_a_hint_is_three_legal_choices_with_win_probabilities_then_cached(client: httpx.Client) -> None:
    game = create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True)
    play(client, game, 0, "mark 0", 0)
    play(client, game, 1, "mark 3", 1)
    play(client, game, 0, "mark 1", 2)
    response = ask_hint(client, game, 1, 3)
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["move_number"] == 3 and hint["seat"] == 1 and hint["cached"] is False
    legal = client.get(f"/api/games/{game['game_id']}/state", headers=seat_headers(game["seats"][1]["token"]))
    choices = hint["choices"]
    assert len(choices) == 3
    assert all(choice["action"] in legal.json()["legal_actions"] for choice in choices)
    assert len({choice["action"] for choice in choices}) == 3
    for choice in choices:
        assert 0.0 <= choice["win_probability"] <= 1.0
        assert choice["win_probability"] == choice["win_probabilities"][1]
        assert sum(choice["win_probabilities"]) == pytest.approx(1.0, abs=1e-3)
    again = ask_hint(client, game, 1, 3).json()
    assert again["cached"] is True and again["choices"] == choices


def test_hints_are_refused_without_agreement_out_of_turn_and_without_a_seat(
    client: httpx.Client, coach_server: ServerProcess
) -> None:
    without = create_claimed_game(client, "tictactoe", PEOPLE)
    before = coach_server.db_dump()
    refused = ask_hint(client, without, 0, 0)
    assert refused.status_code == 403
    assert "without hints" in refused.json()["error"]
    assert coach_server.db_dump() == before

    game = create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True)
    assert ask_hint(client, game, 1, 0).status_code == 409  # seat A decides
    stale = ask_hint(client, game, 0, 5)
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    anonymous = client.post(f"/api/games/{game['game_id']}/hint", json={"expected_move": 0})
    assert anonymous.status_code == 401
    wrong = client.post(
        f"/api/games/{game['game_id']}/hint", json={"expected_move": 0}, headers=seat_headers("x" * 30)
    )
    assert wrong.status_code == 403
    assert client.post(
        f"/api/games/{game['game_id']}/hint", json={"expected_move": "0"},
        headers=seat_headers(game["seats"][0]["token"]),
    ).status_code == 422


def test_solo_and_bot_seats_take_hints(client: httpx.Client) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
    game = create_claimed_game(client, "tictactoe", seats, hints_allowed=True)
    response = ask_hint(client, game, 0, 0)
    assert response.status_code == 200, response.text
    assert len(response.json()["choices"]) == 3


def test_a_hint_names_no_card_the_seat_cannot_see(client: httpx.Client) -> None:
    """Hidden cards: each hint answer, for each decision of a whole game, holds none of the other
    hands' or the bag's card names (each seat asks at every decision of its own)."""
    seed = 31
    game = create_claimed_game(client, "hiddencards", PEOPLE, hints_allowed=True, seed=seed, seed_shown=True,
                               options={"turns_each": 2})
    state = hiddencards.GAME.new_game(2, seed, turns_each=2)
    asked = 0
    while not state.is_terminal():
        seat, move = state.current_player(), len(state.actions)
        response = ask_hint(client, game, seat, move)
        assert response.status_code == 200, response.text
        assert not any(card in response.text for card in hiddencards.hidden_from(state, seat))
        asked += 1
        action = response.json()["choices"][0]["action"]
        play(client, game, seat, action, move)
        state.apply(action)
    assert asked >= 6


def test_hints_per_seat_are_limited_with_retry_after(new_server: Callable[..., ServerProcess]) -> None:
    server = new_server(limits={**GENEROUS_LIMITS, **TINY, "hints_per_minute": 2}).start()
    with server.client() as client:
        game = create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True)
        assert ask_hint(client, game, 0, 0).status_code == 200
        assert ask_hint(client, game, 0, 0).status_code == 200  # from the cache: not counted
        play(client, game, 0, "mark 0", 0)
        play(client, game, 1, "mark 4", 1)
        assert ask_hint(client, game, 0, 2).status_code == 200
        play(client, game, 0, "mark 8", 2)
        play(client, game, 1, "mark 1", 3)
        limited = ask_hint(client, game, 0, 4)
        assert limited.status_code == 429
        assert int(limited.headers["Retry-After"]) >= 1
        assert "too many hints" in limited.json()["error"]
        assert ask_hint(client, game, 1, 4).status_code == 409  # the other seat has its own share


def test_the_curve_of_a_finished_game_is_pending_then_ready(client: httpx.Client) -> None:
    game = create_claimed_game(client, "tictactoe", PEOPLE)
    running = client.get(f"/api/games/{game['game_id']}/win-probability")
    assert running.status_code == 409 and "once the game is over" in running.json()["error"]
    moves = [(0, "mark 0"), (1, "mark 3"), (0, "mark 1"), (1, "mark 4"), (0, "mark 2")]
    for number, (seat, action) in enumerate(moves):
        play(client, game, seat, action, number)
    first = client.get(f"/api/games/{game['game_id']}/win-probability").json()
    assert first["status"] in ("pending", "ready") and first["total"] == len(moves) + 1
    curve = first
    deadline = time.monotonic() + 30
    while curve["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.1)
        curve = client.get(f"/api/games/{game['game_id']}/win-probability").json()
    assert curve["status"] == "ready"
    points = curve["points"]
    assert [point["move"] for point in points] == list(range(len(moves) + 1))
    assert all(sum(point["win_probability"]) == pytest.approx(1.0, abs=1e-3) for point in points)
    assert points[-1]["win_probability"] == [1.0, 0.0]  # A won: the end is the outcome
    assert curve["budget"]["iterations"] == TINY["curve_move_iterations"]


def test_a_long_game_is_computed_at_evenly_spread_positions() -> None:
    assert curve_positions(5, 10) == [0, 1, 2, 3, 4, 5]
    spread = curve_positions(1000, 11)
    assert spread == list(range(0, 1001, 100))


def test_health_answers_quickly_while_hints_are_computed(new_server: Callable[..., ServerProcess]) -> None:
    """Hints search for their whole second in the workers; the event loop stays free."""
    limits = {**GENEROUS_LIMITS, "hint_seconds": 1.0, "hint_iterations": 10_000_000}
    server = new_server(limits=limits).start()
    with server.client() as client:
        games = [create_claimed_game(client, "tictactoe", PEOPLE, hints_allowed=True) for _ in range(4)]
        probe = HealthProbe(server)
        time.sleep(1.0)
        idle = probe.stop()
        answers: list[int] = []

        def ask(game: dict[str, Any]) -> None:
            with server.client() as own:
                answers.append(ask_hint(own, game, 0, 0).status_code)

        threads = [threading.Thread(target=ask, args=(game,)) for game in games]
        probe = HealthProbe(server)
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        elapsed = time.monotonic() - started
        during = probe.stop()
    print(f"/api/health p99: idle {p99(idle) * 1000:.1f} ms, during 4 hints {p99(during) * 1000:.1f} ms; "
          f"4 hints of 1 s on 2 workers took {elapsed:.1f} s")
    assert answers == [200] * 4
    assert elapsed >= 1.9  # the hints did search for their budget, two at a time
    assert len(during) >= 20
    assert p99(during) < max(0.2, 5 * p99(idle))


# -- in this process: the hint's search, and the services with a pool that waits -------------


def barcelona_position(seed: int = 21) -> State:
    state = barcelona.new_game(2, seed)
    rng = Rng(4)
    for _ in range(30):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


def test_a_hint_is_the_same_whatever_the_hidden_state() -> None:
    state = barcelona_position()
    me = state.current_player()
    expected = hint_choices(state, me, 30, 60.0, seed=7)
    assert len(expected) == 3
    for seed in (1, 2):
        other = state.resample(me, seed)
        assert other.view(me) == state.view(me)
        assert other.to_json() != state.to_json()  # other hidden cards, same view of the seat
        assert hint_choices(other, me, 30, 60.0, seed=7) == expected


class WaitingPool:
    """Stands for the bot pool: runs the work when released, and counts the calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = asyncio.Event()

    async def run(self, work: Callable[..., Any], *args: Any, game: str = "", address: str = "") -> Any:
        self.calls += 1
        await self.release.wait()
        return work(*args)


def live_game(state: State, hints_allowed: bool = True) -> Any:
    return SimpleNamespace(
        id="g1", hints_allowed=hints_allowed, finished=state.is_terminal(),
        move_number=len(state.record()["actions"]), state=state,
        seat_label=lambda seat: f"seat {seat}", game_name="tictactoe", actions=[], seats=[],
        resigned=frozenset(),
    )


def test_one_hint_is_computed_per_seat_at_a_time() -> None:
    async def scenario() -> None:
        pool = WaitingPool()
        limits = ServerLimits(hint_iterations=10)
        hints = Hints(pool, limits)  # type: ignore[arg-type]
        state = get_game("tictactoe").new_game(2, 0)
        live = live_game(state)
        first = asyncio.create_task(hints.hint(live, 0, 0, "a"))
        second = asyncio.create_task(hints.hint(live, 0, 0, "b"))
        await asyncio.sleep(0.05)
        state.apply("mark 0")
        state.apply("mark 1")
        live.move_number = 2
        with pytest.raises(ApiError) as refused:
            await hints.hint(live, 0, 2, "a")
        assert refused.value.status == 429 and "still being computed" in refused.value.message
        pool.release.set()
        one, two = await first, await second
        assert one["choices"] == two["choices"] and pool.calls == 1

    asyncio.run(scenario())


def test_curves_refuse_running_games_and_limit_the_queue() -> None:
    async def scenario() -> None:
        pool = WaitingPool()
        curves = Curves(pool, ServerLimits(curves_queued=1, curve_move_iterations=3))  # type: ignore[arg-type]
        running = live_game(get_game("tictactoe").new_game(2, 0))
        with pytest.raises(ApiError) as refused:
            curves.curve(running)
        assert refused.value.status == 409
        finished_state = get_game("tictactoe").new_game(2, 0)
        for action in ["mark 0", "mark 3", "mark 1", "mark 4", "mark 2"]:
            finished_state.apply(action)
        finished = live_game(finished_state)
        finished.actions = finished_state.record()["actions"]
        assert curves.curve(finished)["status"] == "pending"
        other = live_game(finished_state)
        other.id = "g2"
        with pytest.raises(ApiError) as busy:
            curves.curve(other)
        assert busy.value.status == 503 and "Retry-After" in busy.value.headers
        pool.release.set()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if curves.curve(finished)["status"] == "ready":
                break
        ready: JsonDict = curves.curve(finished)
        assert ready["status"] == "ready" and len(ready["points"]) == 6
        await curves.stop()

    asyncio.run(scenario())
