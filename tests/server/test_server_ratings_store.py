"""Ratings in the database (server/ratings.py): written once per finished game, in the game's
order of ending; a recompute gives the same as the live updates; on PostgreSQL a
game rates once whatever the number of processes."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from eixample.server.db import GameData, SeatData, Store
from eixample.server.ratings import HISTORY, RATINGS, rate_finished, recompute, shown_ratings
from eixample.server.table import Table, TableStore
from tests.server.postgres import PostgresCluster

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def person(seat: int, account: str | None) -> SeatData:
    return SeatData(seat, "person", f"P{seat}", None, None, True, account_id=account)


def bot(seat: int, spec: str) -> SeatData:
    return SeatData(seat, "bot", f"Bot {seat}", spec, None, True)


def store_game(store: Store, game_id: str, seats: list[SeatData], result: dict[str, Any], minutes: int,
               *, rated: bool = True, gone: dict[int, str] | None = None) -> None:
    """A finished tic-tac-toe game as the server stores it (its table's stand-ins too)."""
    at = START + timedelta(minutes=minutes)
    store.create_game(GameData(
        id=game_id, game="tictactoe", players=len(seats), seed=1, options={}, status="finished",
        move_count=5, to_move=-1, result=result, created_at=at, updated_at=at, seats=seats, rated=rated,
    ))
    if gone:
        TableStore(store).save(Table(game_id, stand_ins=dict(gone)))


def rate(store: Store, game_id: str) -> bool:
    with store.engine.begin() as connection:
        return rate_finished(connection, game_id)


def tables(store: Store) -> tuple[list[Any], list[Any]]:
    with store.engine.connect() as connection:
        ratings = sorted(tuple(row) for row in connection.execute(select(RATINGS)).all())
        history = sorted(tuple(row) for row in connection.execute(select(HISTORY)).all())
    return ratings, history


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    made = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield made
    made.close()


def rating(store: Store, player: str) -> tuple[float, float, int, int]:
    with store.engine.connect() as connection:
        row = connection.execute(select(RATINGS).where(RATINGS.c.player == player)).one()
    return row.mu, row.sigma, row.games, row.wins


def test_a_finished_game_rates_its_players_once(store: Store) -> None:
    store_game(store, "g1", [person(0, "ana"), bot(1, "greedy")], {"scores": [1, 0], "winners": [0]}, 1)
    assert rate(store, "g1") is True
    assert rate(store, "g1") is False  # a game rates once
    ana = rating(store, "account:ana")
    beginner = rating(store, "bot:beginner")
    assert ana[0] > 25 > beginner[0]
    assert (ana[2], ana[3], beginner[2], beginner[3]) == (1, 1, 1, 0)
    _, history = tables(store)
    assert len(history) == 2


def test_shown_ratings_for_a_list_of_players(store: Store) -> None:
    store_game(store, "g1", [person(0, "ana"), bot(1, "greedy")], {"scores": [1, 0], "winners": [0]}, 1)
    rate(store, "g1")
    with store.engine.connect() as connection:
        found = shown_ratings(connection, ["account:ana", "bot:beginner", "account:new"], "tictactoe", 2)
        elsewhere = shown_ratings(connection, ["account:ana"], "barcelona", 2)
    assert found["account:ana"] > found["account:new"] == 1000 and found["bot:beginner"] != 1000
    assert elsewhere == {"account:ana": 1000}


def test_unrated_games_change_no_rating(store: Store) -> None:
    result = {"scores": [1, 0], "winners": [0]}
    store_game(store, "guest", [person(0, "ana"), person(1, None)], result, 1)
    store_game(store, "friendly", [person(0, "ana"), person(1, "biel")], result, 2, rated=False)
    assert not rate(store, "guest") and not rate(store, "friendly")
    assert tables(store) == ([], [])


def test_a_resigned_winner_loses_its_rating(store: Store) -> None:
    store_game(store, "g1", [person(0, "ana"), person(1, "biel")], {"scores": [1, 0], "winners": [0]}, 1,
               gone={0: "resigned"})
    assert rate(store, "g1")
    assert rating(store, "account:ana")[0] < 25 < rating(store, "account:biel")[0]
    assert rating(store, "account:biel")[3] == 1 and rating(store, "account:ana")[3] == 0


def random_games(store: Store, count: int, seed: int) -> list[str]:
    """Games among four accounts, two bot levels, a guest and a bot of its own, with random
    results, resignations and clocks run out; some created unrated."""
    draw = random.Random(seed)
    players: list[Any] = [
        ("account", "ana"), ("account", "biel"), ("account", "carme"), ("account", "dani"),
        ("bot", "greedy"), ("bot", "mcts:iterations=200"), ("guest", None), ("bot", "random"),
    ]
    ids = []
    for number in range(count):
        first, second = draw.sample(players, 2)
        seats = [person(seat, who) if kind != "bot" else bot(seat, who)
                 for seat, (kind, who) in enumerate((first, second))]
        outcome = draw.choice([[0], [1], [0, 1]])
        gone = None
        if draw.random() < 0.2:
            gone = {draw.randrange(2): draw.choice(["resigned", "clock", "left"])}
        game_id = f"g{number:03d}"
        store_game(store, game_id, seats, {"scores": [0, 0], "winners": outcome}, minutes=number,
                   rated=draw.random() > 0.1, gone=gone)
        ids.append(game_id)
    return ids


def test_recompute_gives_the_ratings_of_the_live_updates(store: Store, tmp_path: Path) -> None:
    ids = random_games(store, 60, seed=4)
    for game_id in ids:
        rate(store, game_id)
    live = tables(store)
    assert len(live[0]) >= 6 and len(live[1]) >= 40
    done = recompute(store)
    assert tables(store) == live
    assert done.games == len(live[1]) // 2


def test_on_postgresql_two_processes_rating_one_game_rate_it_once(postgres: PostgresCluster) -> None:
    url = postgres.new_database()
    stores = [Store(url), Store(url)]
    try:
        win, lose = {"scores": [1, 0], "winners": [0]}, {"scores": [0, 1], "winners": [1]}
        store_game(stores[0], "g1", [person(0, "ana"), person(1, "biel")], win, 1)
        store_game(stores[0], "g2", [person(0, "ana"), bot(1, "greedy")], lose, 2)
        outcomes: list[bool] = []
        start = threading.Barrier(4)

        def race(store: Store, game_id: str) -> None:
            start.wait()
            outcomes.append(rate(store, game_id))

        threads = [threading.Thread(target=race, args=(store, game_id))
                   for store in stores for game_id in ("g1", "g2")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(outcomes) == [False, False, True, True]
        assert len(tables(stores[0])[1]) == 4
        ana = rating(stores[0], "account:ana")
        assert (ana[2], ana[3]) == (2, 1)  # both games counted, each once
        assert recompute(stores[1]).games == 2
        assert len(tables(stores[0])[1]) == 4
    finally:
        for store in stores:
            store.close()
