"""The REST API against a real server process: lobby, play, errors, undo, races, records, replay."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from eixample.ai.specs import LEVELS
from eixample.core.records import replay
from eixample.core.registry import get_game
from eixample.games.rose_of_fire import BOT_LEVELS
from tests.server import hiddencards  # noqa: F401  (registers the test game here too)
from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def state_of(api: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = api.get(f"/api/games/{game_id}/state", headers=seat_headers(token) if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def move(api: httpx.Client, game_id: str, token: str, action: str, expected: int) -> httpx.Response:
    return api.post(
        f"/api/games/{game_id}/moves",
        json={"action": action, "expected_move": expected},
        headers=seat_headers(token),
    )


def assert_error(response: httpx.Response, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "code", "args"}, body
    assert isinstance(body["error"], str) and body["error"]
    assert isinstance(body["code"], str) and body["code"] and isinstance(body["args"], dict)
    for word in words:
        assert word in body["error"], body["error"]


def test_catalog_lists_games_and_bots(api: httpx.Client) -> None:
    catalog = api.get("/api/catalog").json()
    names = {game["name"]: game for game in catalog["games"]}
    assert names["tictactoe"]["min_players"] == 2 and names["tictactoe"]["max_players"] == 2
    assert names["hiddencards"]["options"] == ["turns_each"]
    assert "random" in catalog["bots"]
    assert all("data_dir" not in game["options"] for game in catalog["games"])
    assert names["barcelona"]["switches"] == ["rotate_first_player", "balanced_seats"]
    assert set(names["barcelona"]["switches"]) <= set(names["barcelona"]["options"])
    assert names["rose-of-fire"]["switches"] == ["no_strike"] and names["tictactoe"]["switches"] == []


def test_catalog_lists_the_values_of_options_with_a_few(api: httpx.Client) -> None:
    """Options with a few values come with them, per number of players, so the lobby offers a
    menu; every value listed is one the game accepts for that many players."""
    games = {game["name"]: game for game in api.get("/api/catalog").json()["games"]}
    barcelona, rose = games["barcelona"]["choices"], games["rose-of-fire"]["choices"]
    assert barcelona["2"] == {"action_tiles": ["shuffled", "printed"], "first_player": [0, 1, "random"]}
    assert barcelona["1"]["difficulty"] == ["easy", "normal", "hard"] and "first_player" not in barcelona["1"]
    assert rose["4"] == {"first_player": ["random", 0, 1, 2, 3]}
    assert games["tictactoe"]["choices"] == {"2": {}}
    for name, game in games.items():
        assert set(game["choices"]) == {str(n) for n in range(game["min_players"], game["max_players"] + 1)}
        for players, options in game["choices"].items():
            assert set(options) <= set(game["options"])
            for option, values in options.items():
                for value in values:
                    get_game(name).new_game(int(players), 1, **{option: value})  # accepted


def test_catalog_lists_the_limits_of_whole_number_options(api: httpx.Client) -> None:
    """Whole-number options come with their limits per number of players, so the lobby offers a
    number field; both limits are accepted by the game and one past either is refused."""
    games = {game["name"]: game for game in api.get("/api/catalog").json()["games"]}
    barcelona = games["barcelona"]["ranges"]
    assert barcelona["1"] == {}  # a solo game has no house-rule VP
    assert barcelona["4"] == {"first_player_vp": [0, 20], "turn_order_vp": [0, 10]}
    for name, game in games.items():
        assert set(game["ranges"]) == {str(n) for n in range(game["min_players"], game["max_players"] + 1)}
        for players, options in game["ranges"].items():
            assert set(options) <= set(game["options"]) - set(game["switches"])
            for option, (least, greatest) in options.items():
                for value in (least, greatest):
                    get_game(name).new_game(int(players), 1, **{option: value})  # accepted
                for value in (least - 1, greatest + 1):
                    with pytest.raises(ValueError, match=option):
                        get_game(name).new_game(int(players), 1, **{option: value})


def test_catalog_offers_bot_levels_by_plain_name(api: httpx.Client) -> None:
    """Issue 15: the lobby offers levels with plain names, each mapped to a spec the server takes."""
    levels = api.get("/api/catalog").json()["levels"]
    assert [level["name"] for level in levels] == list(LEVELS)
    assert all(level["spec"] == LEVELS[level["name"]] for level in levels)
    for level in levels:
        for named in (level["spec"], level["name"], level["name"].upper()):  # a level stands for its spec
            created = create_game(api, "tictactoe", [{"kind": "person", "name": "Ana"},
                                                     {"kind": "bot", "bot": named}])
            assert created["seats"][1]["bot"] == level["spec"]


def test_each_game_lists_its_levels_and_a_level_name_stands_for_that_games_spec(api: httpx.Client) -> None:
    """The Rose of Fire has a ladder of its own (docs/rose-of-fire/strength.md): its level names
    stand for its specs, and a level it does not have is no bot there."""
    games = {game["name"]: game for game in api.get("/api/catalog").json()["games"]}
    assert games["barcelona"]["levels"] == [{"name": name, "spec": spec} for name, spec in LEVELS.items()]
    rose = [{"name": name, "spec": spec} for name, spec in BOT_LEVELS.items()]
    assert games["rose-of-fire"]["levels"] == rose
    people = [{"kind": "person", "name": "Ana"}]
    # Ana moves first, so the bot never searches while later tests compare the database
    created = create_game(api, "rose-of-fire", [*people, {"kind": "bot", "bot": "strong"}],
                          options={"first_player": 0})
    assert created["seats"][1]["bot"] == BOT_LEVELS["strong"] != LEVELS["strong"]
    seats = [*people, {"kind": "bot", "bot": "strongest"}]
    refused = api.post("/api/games", json={"game": "rose-of-fire", "seats": seats})
    assert refused.status_code == 422 and "unknown bot 'strongest'" in refused.text


def test_create_gives_links_with_secret_tokens(api: httpx.Client, server: ServerProcess) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
    created = create_game(api, "tictactoe", seats)
    person, bot = created["seats"]
    assert person["name"] == "Ana" and person["kind"] == "person"
    assert len(person["token"]) >= 32
    assert person["link"] == f"{server.url}/play/{created['game_id']}#seat=0&token={person['token']}"
    assert bot["token"] is None and bot["link"] is None and bot["bot"] == "random"
    assert created["spectator_link"] == f"{server.url}/play/{created['game_id']}"
    assert created["state"]["seat"] is None and created["state"]["legal_actions"] == []
    # the lobby shows the game without any token
    listing = api.get("/api/games").text
    assert created["game_id"] in listing and person["token"] not in listing
    info = api.get(f"/api/games/{created['game_id']}").json()
    assert info["status"] == "open" and info["seats"][1]["bot"] == "random"
    assert info["seed"] is None and not info["seed_shown"]  # a drawn seed stays on the server


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "seats": PEOPLE}, 422, ["unknown game 'chess'"]),
        ({"game": "tictactoe", "seats": PEOPLE[:1]}, 422, ["2 players, not 1"]),
        ({"game": "tictactoe", "seats": PEOPLE * 3}, 422, ["2 players, not 6"]),
        ({"game": "tictactoe", "seats": []}, 422, ["seats"]),
        ({"game": "tictactoe", "seats": [*PEOPLE, {"kind": "person"}]}, 422, ["2 players, not 3"]),
        ({"game": "tictactoe", "seats": [{"kind": "alien"}, {}]}, 422, ["seats.0.kind"]),
        ({"game": "tictactoe", "seats": [{"kind": "bot", "bot": "no such bot"}, {}]}, 422, ["seats.0.bot"]),
        ({"game": "tictactoe", "seats": [{"kind": "bot", "bot": "psychic"}, {}]}, 422, ["seat A"]),
        ({"game": "tictactoe", "seats": [{"kind": "person", "bot": "random"}, {}]}, 422, ["no bot spec"]),
        ({"game": "tictactoe", "seats": PEOPLE, "options": {"size": 4}}, 422, ["unknown option", "size"]),
        ({"game": "hiddencards", "seats": PEOPLE, "options": {"turns_each": 99}}, 422, ["turns_each"]),
        ({"game": "barcelona", "seats": PEOPLE, "options": {"data_dir": "/etc"}}, 422, ["data_dir"]),
        ({"game": "tictactoe", "seats": PEOPLE, "colour": "red"}, 422, ["colour"]),
        ({"game": "tictactoe", "seats": PEOPLE, "seed": -1}, 422, ["seed"]),
        ({"game": "tictactoe", "seats": [{"name": "<script>"}, {}]}, 422, ["seats.0.name"]),
    ],
)
def test_create_rejects_bad_requests(
    api: httpx.Client, server: ServerProcess, body: dict[str, Any], status: int, words: list[str]
) -> None:
    before = server.settled_dump()
    assert_error(api.post("/api/games", json=body), status, *words)
    assert server.db_dump() == before


def test_malformed_json_and_unknown_routes_answer_json_errors(api: httpx.Client) -> None:
    assert_error(
        api.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
        422,
        "invalid request",
    )
    assert_error(api.get("/api/nothing/here"), 404, "not found")
    assert_error(api.delete("/api/games"), 405, "not allowed")
    assert_error(api.get("/api/games/unknown-game/state"), 404, "no game")
    assert_error(api.get("/api/games", params={"status": "paused"}), 422, "status")
    assert_error(api.get("/api/games/x/replay", params={"step": -1}), 422, "step")


def test_state_shows_each_seat_its_own_view(api: httpx.Client) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    first = state_of(api, gid, tokens[0])
    assert first["seat"] == 0 and first["your_turn"] and len(first["legal_actions"]) == 9
    assert first["decision"] == {"key": "ttt.toPlay", "args": {"mark": "X"}}
    second = state_of(api, gid, tokens[1])
    assert second["seat"] == 1 and not second["your_turn"] and second["legal_actions"] == []
    assert second["decision"] == {"key": "waiting", "args": {"player": "Ana (A)"}}
    spectator = state_of(api, gid)
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"]["viewer"] is None
    assert api.get(f"/api/games/{gid}").json()["status"] == "running"


def test_move_errors_are_clear_and_change_nothing(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE)
    gid = created["game_id"]
    ana, biel = (seat["token"] for seat in created["seats"])
    assert move(api, gid, ana, "mark 4", 0).status_code == 200
    other = create_game(api, "tictactoe", PEOPLE)
    before = server.settled_dump()
    assert_error(move(api, gid, ana, "mark 0", 1), 409, "not your turn", "Biel (B)")
    assert_error(move(api, gid, biel, "mark 4", 1), 422, "illegal action", "mark 4")
    assert_error(move(api, gid, biel, "mark 0", 0), 409, "stale move", "at move 1")
    assert_error(move(api, gid, "forged-token", "mark 0", 1), 403, "token")
    no_token = api.post(f"/api/games/{gid}/moves", json={"action": "mark 0", "expected_move": 1})
    assert_error(no_token, 401, "X-Seat-Token")
    assert_error(
        api.post(f"/api/games/{gid}/moves", json={"action": "mark 0"}, headers=seat_headers(biel)),
        422,
        "expected_move",
    )
    empty = {"action": "", "expected_move": 1}
    assert_error(api.post(f"/api/games/{gid}/moves", json=empty, headers=seat_headers(biel)), 422, "action")
    assert_error(move(api, gid, other["seats"][1]["token"], "mark 0", 1), 403, "does not belong")
    assert_error(move(api, "no-such-game", biel, "mark 0", 1), 404)
    assert_error(
        api.post(f"/api/games/{gid}/undo", json={"expected_move": 1}, headers=seat_headers(biel)),
        409,
        "nothing to undo",
    )
    early = api.post(f"/api/games/{gid}/undo", json={"expected_move": 1}, headers=seat_headers(ana))
    assert_error(early, 409, "own turn")
    assert_error(api.get(f"/api/games/{gid}/record"), 409, "once the game is over")
    assert_error(api.get(f"/api/games/{gid}/replay"), 409, "once it is over")
    assert server.db_dump() == before
    assert state_of(api, gid)["move_number"] == 1


def test_racing_moves_exactly_one_applies(api: httpx.Client, server: ServerProcess) -> None:
    lock = threading.Lock()
    for _attempt in range(3):
        created = create_game(api, "tictactoe", PEOPLE)
        gid, token = created["game_id"], created["seats"][0]["token"]
        barrier = threading.Barrier(4)
        results: list[httpx.Response] = []

        def race(
            cell: int, gid: str, token: str, barrier: threading.Barrier, results: list[httpx.Response]
        ) -> None:
            with server.client() as client:
                barrier.wait()
                response = move(client, gid, token, f"mark {cell}", 0)
            with lock:
                results.append(response)

        threads = [
            threading.Thread(target=race, args=(cell, gid, token, barrier, results)) for cell in (0, 2, 6, 8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(response.status_code for response in results)
        assert codes == [200, 409, 409, 409], [r.text for r in results]
        for response in results:
            if response.status_code == 409:
                assert_error(response, 409, "stale move")
        view = state_of(api, gid)
        assert view["move_number"] == 1 and view["view"]["board"].count("X") == 1
        rows = server.db_dump()["actions"]
        assert sum(1 for row in rows if row[0] == gid) == 1


def test_play_to_the_end_then_record_and_replay(api: httpx.Client) -> None:
    created = create_game(api, "tictactoe", PEOPLE, seed=1234, seed_shown=True)
    gid = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    moves = ["mark 0", "mark 3", "mark 1", "mark 4", "mark 2"]
    for number, action in enumerate(moves):
        response = move(api, gid, tokens[number % 2], action, number)
        assert response.status_code == 200, response.text
    final = response.json()
    assert final["status"] == "finished" and final["result"]["scores"] == [1, 0]
    assert final["result"]["winners"] == [0] and final["decision"] == {"key": "gameOver", "args": {}}
    assert_error(move(api, gid, tokens[1], "mark 5", 5), 409, "the game is over")

    record = api.get(f"/api/games/{gid}/record").json()
    assert record["actions"] == moves and record["seed"] == 1234 and record["game"] == "tictactoe"
    assert [seat["name"] for seat in record["seats"]] == ["Ana", "Biel"]
    engine = replay(get_game("tictactoe"), record)
    assert engine.scores() == final["result"]["scores"]

    listing = api.get("/api/games", params={"status": "finished"}).json()["games"]
    line = next(game for game in listing if game["game_id"] == gid)
    assert line["result"]["scores"] == [1, 0] and line["links"]["replay"] == f"/replay/{gid}"
    assert all(game["status"] == "finished" for game in listing)

    for step in (0, 2, 5, 3):
        frame = api.get(f"/api/games/{gid}/replay", params={"step": step}).json()
        expected = replay(get_game("tictactoe"), record, upto=step).view(None)
        assert frame["view"] == expected and frame["step"] == step and frame["steps"] == 5
        assert frame["actions"] == moves
        assert frame["score_history"][step] == [float(s) for s in expected["scores"]]
    assert api.get(f"/api/games/{gid}/replay").json()["step"] == 5
    assert_error(api.get(f"/api/games/{gid}/replay", params={"step": 6}), 422, "between 0 and 5")


def test_a_record_sent_by_a_client_replays_without_being_stored(
    api: httpx.Client, server: ServerProcess
) -> None:
    created = create_game(api, "tictactoe", PEOPLE, seed=77, seed_shown=True)
    gid = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    moves = ["mark 0", "mark 3", "mark 1", "mark 4", "mark 2"]
    for number, action in enumerate(moves):
        assert move(api, gid, tokens[number % 2], action, number).status_code == 200
    record = api.get(f"/api/games/{gid}/record").json()
    before = server.settled_dump()
    for step in (0, 3, 5):
        frame = api.post("/api/replay", params={"step": step}, json=record)
        assert frame.status_code == 200, frame.text
        stored = api.get(f"/api/games/{gid}/replay", params={"step": step}).json()
        same = ("view", "step", "steps", "actions", "action_seats", "score_history", "result", "decision")
        for key in same:
            assert frame.json()[key] == stored[key], key
        assert [seat["name"] for seat in frame.json()["seats"]] == ["Ana", "Biel"]
    assert api.post("/api/replay", json=record).json()["step"] == 5
    # refusals name the problem and store nothing
    assert_error(api.post("/api/replay", params={"step": 6}, json=record), 422, "between 0 and 5")
    assert_error(api.post("/api/replay", json={**record, "game": "chess"}), 422, "not of a game")
    assert_error(api.post("/api/replay", json={**record, "actions": [*moves[:4], "mark 3"]}), 422, "action 4")
    unfinished = {**record, "actions": moves[:4]}
    assert_error(api.post("/api/replay", json=unfinished), 422, "does not reach its end")
    assert_error(api.post("/api/replay", json={**record, "seed": "x"}), 422, "seed")
    assert_error(api.post("/api/replay", json=[1, 2]), 422)
    big = api.post("/api/replay", content=b'{"a": "' + b"x" * 70_000 + b'"}',
                   headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    assert server.db_dump() == before


def test_lobby_lists_open_running_and_finished(api: httpx.Client) -> None:
    created = create_game(api, "tictactoe", PEOPLE, invitations=True)
    gid = created["game_id"]

    def status_list(status: str) -> set[str]:
        return {game["game_id"] for game in api.get("/api/games", params={"status": status}).json()["games"]}

    def claim(seat: int) -> None:
        token = created["seats"][seat]["token"]
        assert api.post(f"/api/games/{gid}/claim", headers=seat_headers(token)).status_code == 200

    assert gid in status_list("open")
    claim(0)
    assert gid in status_list("open")
    claim(1)
    assert gid in status_list("running") and gid not in status_list("open")


def test_undo_within_own_turn_never_past_a_draw(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "hiddencards", PEOPLE, seed=99, seed_shown=True)
    gid = created["game_id"]
    ana, biel = (seat["token"] for seat in created["seats"])
    start = state_of(api, gid, ana)
    assert not start["can_undo"]
    card = start["view"]["hand"][0]
    after_play = move(api, gid, ana, f"play {card}", 0).json()
    assert after_play["can_undo"] and card in after_play["view"]["played"][0]

    def undo(token: str, expected: int) -> httpx.Response:
        body = {"expected_move": expected}
        return api.post(f"/api/games/{gid}/undo", json=body, headers=seat_headers(token))

    assert_error(undo(biel, 1), 409, "own turn")
    assert_error(undo(ana, 0), 409, "stale undo")
    undone = undo(ana, 1)
    assert undone.status_code == 200, undone.text
    assert undone.json()["move_number"] == 0 and undone.json()["view"] == start["view"]
    assert undone.json()["legal_actions"] == start["legal_actions"]
    assert [row for row in server.db_dump()["actions"] if row[0] == gid] == []

    # a random draw is a floor: neither it nor what came before can be undone
    assert move(api, gid, ana, f"play {card}", 0).status_code == 200
    drawn = move(api, gid, ana, "draw", 1).json()
    assert not drawn["can_undo"]
    assert_error(undo(ana, 2), 409, "nothing to undo")
    second = drawn["view"]["hand"][0]
    assert move(api, gid, ana, f"play {second}", 2).json()["can_undo"]
    assert undo(ana, 3).json()["move_number"] == 2
    # after ending the turn, the decision is another player's
    assert move(api, gid, ana, "end", 2).status_code == 200
    assert_error(undo(ana, 3), 409, "own turn")
    assert not state_of(api, gid, biel)["can_undo"]


def test_bots_play_on_the_server(api: httpx.Client) -> None:
    created = create_game(api, "hiddencards", [{"kind": "bot", "bot": "random"}] * 3, seed=5)
    gid = created["game_id"]
    assert api.get(f"/api/games/{gid}").json()["status"] == "running"
    wait_for(lambda: api.get(f"/api/games/{gid}").json()["status"] == "finished", what="the bots to finish")
    record = api.get(f"/api/games/{gid}/record").json()
    engine = replay(get_game("hiddencards"), record)
    assert engine.is_terminal()
    assert api.get(f"/api/games/{gid}").json()["result"]["scores"] == engine.scores()
    created = create_game(api, "tictactoe", [{"kind": "person"}, {"kind": "bot", "bot": "random"}])
    gid, token = created["game_id"], created["seats"][0]["token"]
    assert move(api, gid, token, "mark 4", 0).status_code == 200
    wait_for(lambda: state_of(api, gid, token)["your_turn"], what="the bot's reply")
    assert state_of(api, gid, token)["move_number"] == 2


def test_pages_and_static_files_are_served(api: httpx.Client) -> None:
    for path in ("/", "/play/abc", "/replay/abc"):
        response = api.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]
        assert "default-src 'self'" in response.headers["content-security-policy"]
    script = api.get("/static/games/tictactoe.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert api.get("/docs").status_code == 200
    assert "/api/games/{game_id}/moves" in api.get("/openapi.json").json()["paths"]
