"""Make a data folder the way a release made it: run this with that release's sources first on
the path, and it plays a set of games through the release's own web app and writes the database as
an SQL script (`sqlite3 .dump`).

    PYTHONPATH=/path/to/release/src python tests/server/stores/make_release_store.py OUT.sql

Next to OUT.sql it writes OUT.json: for each game its seats' tokens (plain, as the players hold
them) and what the release showed of it (status, move number, player to move, result, score
history; the lobby's result); and OUT.postgresql.sql: the release's tables as it creates them on
PostgreSQL (its SQLAlchemy metadata compiled for that dialect).

The games: Barcelona solo and with 2, 3 and 4 players, The Rose of Fire with 2, 3 and 4, from just
created to finished, with people and bots, a claimed seat, a shown seed, hints, a turn clock, chat
lines, a resigned seat and rematches. No unfinished game has a clock (its deadline would pass
before a test opens the folder, and a stand-in would play). People play legal actions drawn from a
fixed seed; bots (`random`, `greedy`) play on the server. Only the HTTP API is used, so any release
can make one.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from eixample.server.app import create_app
from eixample.server.db import Base
from eixample.server.limits import ServerLimits

SEEN = ("status", "move_number", "current_player", "result", "score_history")
HOSTS = frozenset({"127.0.0.1", "testserver"})
LIMITS = {"games_per_minute": 10_000, "moves_per_minute": 1_000_000, "chat_per_address_minute": 10_000}


def person(name: str) -> dict[str, Any]:
    return {"kind": "person", "name": name}


def bot(spec: str) -> dict[str, Any]:
    return {"kind": "bot", "bot": spec}


# (game, seats, extra creation fields, person moves to play: None = to the end)
GAMES: list[tuple[str, list[dict[str, Any]], dict[str, Any], int | None]] = [
    ("barcelona", [person("Ana")], {}, 0),
    ("barcelona", [person("Ana")], {"options": {"difficulty": "hard"}, "seed": 11}, 25),
    ("barcelona", [person("Ana")], {"seed": 12}, None),
    ("barcelona", [person("Ana"), bot("random")], {"seed": 21, "hints_allowed": True}, 15),
    ("barcelona", [person("Ana"), bot("greedy")], {"seed": 22}, None),
    ("barcelona", [bot("random"), bot("random"), bot("greedy")], {"seed": 31}, None),
    ("barcelona", [person("Ana"), person("Biel"), bot("random")], {"seed": 32, "seed_shown": True}, 30),
    ("barcelona", [person("Ana"), person("Biel"), person("Carme"), person("Dani")], {}, 0),
    ("barcelona", [person("Ana"), bot("random"), person("Carme"), bot("greedy")],
     {"seed": 41, "seed_shown": True, "options": {"action_tiles": "printed"}}, 40),
    ("barcelona", [bot("random"), bot("random"), bot("random"), bot("random")],
     {"seed": 42, "clock_seconds": 600}, None),  # a clock, on a game whose deadlines have all passed
    ("rose-of-fire", [person("Ana"), bot("random")], {"seed": 51}, 0),
    ("rose-of-fire", [person("Ana"), bot("greedy")], {"seed": 52}, None),
    ("rose-of-fire", [person("Ana"), person("Biel"), bot("random")], {"seed": 61, "seed_shown": True}, 20),
    ("rose-of-fire", [bot("random"), bot("greedy"), bot("random")], {"seed": 62}, None),
    ("rose-of-fire", [person("Ana"), bot("random"), bot("random"), person("Dani")],
     {"seed": 71, "seed_shown": True, "hints_allowed": True}, 35),
    ("rose-of-fire", [bot("random"), bot("random"), bot("random"), bot("random")], {"seed": 72}, None),
]


def state(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    answer = client.get(f"/api/games/{gid}/state", headers=headers)
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


def wait_for_people(client: TestClient, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The game once a person is to move or it is over (bots play meanwhile)."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        seen = state(client, gid)
        if seen["status"] == "finished" or seen["current_player"] in tokens:
            return seen
        time.sleep(0.02)
    raise RuntimeError(f"game {gid}: the bots did not move")


def play(client: TestClient, gid: str, tokens: dict[int, str], moves: int | None, rng: random.Random) -> None:
    played = 0
    while moves is None or played < moves:
        seen = wait_for_people(client, gid, tokens)
        if seen["status"] == "finished":
            return
        token = tokens[seen["current_player"]]
        mine = state(client, gid, token)
        if not mine["your_turn"]:
            continue
        action = rng.choice(mine["legal_actions"])
        answer = client.post(f"/api/games/{gid}/moves", headers={"X-Seat-Token": token},
                             json={"action": action, "expected_move": mine["move_number"]})
        if answer.status_code == 409:  # a bot moved first
            continue
        answer.raise_for_status()
        played += 1
    wait_for_people(client, gid, tokens)


def make(out: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="eixample-release-"))
    database = folder / "eixample.sqlite3"
    app = create_app(database_url=f"sqlite:///{database}", bot_delay=0, allowed_hosts=HOSTS,
                     limits=ServerLimits.with_overrides(LIMITS))
    rng = random.Random(34)
    games: dict[str, dict[str, Any]] = {}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for number, (game, seats, extra, moves) in enumerate(GAMES):
            answer = client.post("/api/games", json={"game": game, "seats": seats, **extra})
            answer.raise_for_status()
            created = answer.json()
            gid = created["game_id"]
            tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat.get("token")}
            if number % 2 and tokens:  # every other game: the first person claims a private token
                first = min(tokens)
                claimed = client.post(f"/api/games/{gid}/claim", headers={"X-Seat-Token": tokens[first]})
                claimed.raise_for_status()
                tokens[first] = claimed.json()["token"]
            if len(tokens) > 1:
                first = min(tokens)
                said = client.post(f"/api/games/{gid}/chat", headers={"X-Seat-Token": tokens[first]},
                                   json={"text": f"bon joc ({number})"})
                said.raise_for_status()
            people = dict(tokens)
            if len(tokens) > 1 and moves:  # the last person resigns: a stand-in plays on
                last = max(tokens)
                client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": tokens.pop(last)}
                            ).raise_for_status()
            play(client, gid, tokens, moves, rng)
            final = state(client, gid)
            games[gid] = {"tokens": {str(seat): token for seat, token in tokens.items()}}
            print(f"{game} {len(seats)} players: {final['status']} after {final['move_number']} actions",
                  file=sys.stderr)
            if final["status"] == "finished" and people:  # each person asks, and gets a seat's token
                again: dict[int, str] = {}
                for token in people.values():
                    rematch = client.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": token})
                    rematch.raise_for_status()
                    new_game = rematch.json()["game_id"]
                    again[rematch.json()["seat"]] = rematch.json()["token"]
                wait_for_people(client, new_game, again)
                games[new_game] = {"tokens": {str(seat): token for seat, token in again.items()}}
        lobby = client.get("/api/games").json()["games"]
        for summary in lobby:
            gid = summary["game_id"]
            seen = state(client, gid)
            games.setdefault(gid, {"tokens": {}})["seen"] = {key: seen[key] for key in SEEN}
            games[gid]["lobby_result"] = summary["result"]
    with sqlite3.connect(database) as connection:
        script = "\n".join(connection.iterdump()) + "\n"
    connection.close()
    out.write_text(script, encoding="utf-8")
    out.with_suffix(".json").write_text(json_lines(games), encoding="utf-8")
    out.with_suffix(".postgresql.sql").write_text(postgresql_schema(), encoding="utf-8")


def json_lines(games: dict[str, Any]) -> str:
    """One game a line."""
    lines = (f"{json.dumps(gid)}: {json.dumps(games[gid], sort_keys=True)}" for gid in sorted(games))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def postgresql_schema() -> str:
    """The release's CREATE statements for PostgreSQL, in the order it runs them."""
    from eixample.server.table import TableBase

    dialect = postgresql.dialect()
    statements = []
    for metadata in (Base.metadata, TableBase.metadata):
        for table in metadata.sorted_tables:
            statements.append(str(CreateTable(table).compile(dialect=dialect)).strip())
            statements.extend(str(CreateIndex(index).compile(dialect=dialect)) for index in table.indexes)
    return "".join(f"{statement};\n\n" for statement in statements)


if __name__ == "__main__":
    make(Path(sys.argv[1]))
