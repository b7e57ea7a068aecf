""""Your turn" notices with several server processes on one PostgreSQL database: each turn's
notice is sent once whichever process claims it, and a process killed with kill -9 while sending
leaves its notice to be sent after the lease, by itself once restarted or by another process."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.server.harness import ServerProcess, create_claimed_game, wait_for
from tests.server.notices import (
    NOTICE_LIMITS,
    PUBLIC_URL,
    is_turn_mail,
    move,
    notices_of,
    own_seat,
    text_of,
    turn_mail,
    verify_email,
)
from tests.server.postgres import PostgresCluster
from tests.server.signin import sign_up
from tests.server.smtp import SmtpServer, smtp  # noqa: F401  (the fixture)

pytestmark = pytest.mark.postgres

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
SLOW_MAIL = Path(__file__).resolve().parent / "slow_mail.py"
LEASE_SECONDS = 3.0


def servers_on(folder: Path, database: str, smtp_env: dict[str, str], count: int,
               preload: tuple[Path, ...] = ()) -> list[ServerProcess]:
    made = []
    for index in range(count):
        place = folder / f"server{index}"
        place.mkdir()
        made.append(ServerProcess(
            place, database_url=database, preload=preload,
            limits={**NOTICE_LIMITS, "notice_poll_seconds": 0.1, "notice_lease_seconds": LEASE_SECONDS},
            env={**smtp_env, "EIXAMPLE_PUBLIC_URL": PUBLIC_URL},
        ))
    return made


def turn_mails(smtp: SmtpServer) -> list[object]:  # noqa: F811
    return [message for message in smtp.messages if is_turn_mail(message)]


def game_links(body: str) -> list[str]:
    return re.findall(re.escape(PUBLIC_URL) + r"/play/([\w-]+)", body)


def test_two_processes_send_each_turn_s_notice_once(
    tmp_path: Path, postgres: PostgresCluster, smtp: SmtpServer,  # noqa: F811
) -> None:
    first, second = servers_on(tmp_path, postgres.new_database(), smtp.env(), 2)
    try:
        first.start()
        second.start()
        players = [sign_up(first, email=f"p{index}@example.test") for index in range(4)]
        for player in players:
            verify_email(first, player.account["id"])
        games = []
        with first.client() as one, second.client() as two:
            for index in range(12):
                game = create_claimed_game(one, "tictactoe", PEOPLE, turn_days=1)
                own_seat(first, game["game_id"], 0, players[index % 2].account["id"])
                own_seat(first, game["game_id"], 1, players[2 + index % 2].account["id"])
                games.append(game)
            # the first move through one process, the answer through the other: two turns a game
            for index, game in enumerate(games):
                api = (one, two)[index % 2]
                move(api, game["game_id"], game["seats"][0]["token"], "mark 4", 0)
            wait_for(lambda: all(notices_of(first, g["game_id"]) == [(1, 1, "sent", None)] for g in games),
                     timeout=30, what="every first turn's notice sent")
            for index, game in enumerate(games):
                api = (two, one)[index % 2]
                move(api, game["game_id"], game["seats"][1]["token"], "mark 0", 1)
            wait_for(lambda: all(notices_of(first, g["game_id"])[-1] == (0, 2, "sent", None) for g in games),
                     timeout=30, what="every second turn's notice sent")
        told = Counter(gid for message in smtp.messages if is_turn_mail(message)
                       for gid in game_links(text_of(message)))
        assert told == Counter({game["game_id"]: 2 for game in games})  # once per game and turn
        for player in players:
            player.close()
    finally:
        first.stop()
        second.stop()


def test_a_process_killed_while_sending_leaves_its_notice_to_be_sent_after_restart(
    tmp_path: Path, postgres: PostgresCluster, smtp: SmtpServer,  # noqa: F811
) -> None:
    first, second = servers_on(tmp_path, postgres.new_database(), smtp.env(), 2, preload=(SLOW_MAIL,))
    try:
        first.start()
        biel = sign_up(first, email="biel@example.test")
        verify_email(first, biel.account["id"])
        with first.client() as api:
            game = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=1)
            own_seat(first, game["game_id"], 1, biel.account["id"])
            move(api, game["game_id"], game["seats"][0]["token"], "mark 4", 0)
        sending = first.data_dir / "mail-sending"
        wait_for(sending.exists, timeout=20, what="the first process to be sending the mail")
        first.kill9()
        assert turn_mails(smtp) == [] and notices_of(second, game["game_id"]) == [(1, 1, "waiting", None)]
        first.preload = ()  # restarted as it is, and a second process too: whichever wins sends it
        second.preload = ()
        first.start()
        second.start()
        mail = turn_mail(smtp.mailbox, "biel@example.test")
        assert game_links(text_of(mail)) == [game["game_id"]]
        wait_for(lambda: notices_of(first, game["game_id"]) == [(1, 1, "sent", None)], what="marked sent")
        assert len(turn_mails(smtp)) == 1
        biel.close()
    finally:
        first.stop()
        second.stop()
