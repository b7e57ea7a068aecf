""""Your turn" notices by mail: sent when the turn passes to a player who is not on the page, one
per game and turn, a digest of several games, in the player's language, with links to the game
and an unsubscribe link that works without signing in."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.server.harness import WsClient, create_claimed_game, wait_for
from tests.server.notices import (
    PUBLIC_URL,
    mails_to,
    move,
    notices_of,
    own_seat,
    server_with_mail,
    text_of,
    turn_mail,
    verify_email,
)
from tests.server.signin import sign_up
from tests.server.smtp import SmtpServer, smtp  # noqa: F401  (the fixture)

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]
ANA, BIEL = "ana@example.test", "biel@example.test"


def test_a_player_away_gets_one_mail_per_turn_in_their_language_and_none_while_on_the_page(
    tmp_path: Path, smtp: SmtpServer,  # noqa: F811
) -> None:
    server = server_with_mail(tmp_path / "data", smtp.env()).start()
    try:
        ana, biel = sign_up(server, email=ANA), sign_up(server, email=BIEL)
        for player in (ana, biel):
            verify_email(server, player.account["id"])
        with server.client() as api, ana, biel:
            game = create_claimed_game(api, "tictactoe", PEOPLE, turn_days=3)
            game_id = game["game_id"]
            ana_token, biel_token = (seat["token"] for seat in game["seats"])
            own_seat(server, game_id, 0, ana.account["id"])
            own_seat(server, game_id, 1, biel.account["id"])
            # Ana opens the game in French once: her notices speak French from then on
            with WsClient(f"{server.ws_url}/ws/games/{game_id}?lang=fr", ana_token) as page:
                page.state()
                move(api, game_id, ana_token, "mark 4", 0)
            mail = turn_mail(smtp.mailbox, BIEL)
            assert mail["Subject"] == "Your turn in Tic-tac-toe against Ana"
            body = text_of(mail)
            assert f"{PUBLIC_URL}/play/{game_id}" in body and "Hello " + biel.name in body
            unsubscribe = re.search(r"(http://\S+/notices/unsubscribe\?\S+)", body)
            assert unsubscribe is not None and mail["List-Unsubscribe"] == f"<{unsubscribe.group(1)}>"
            wait_for(lambda: notices_of(server, game_id) == [(1, 1, "sent", None)],
                     what="the notice marked sent")

            # Biel plays from the page, and stays: Ana (away) is told, in French; Biel is not
            with WsClient(f"{server.ws_url}/ws/games/{game_id}", biel_token) as page:
                page.state()
                move(api, game_id, biel_token, "mark 0", 1)
                french = turn_mail(smtp.mailbox, ANA)
                assert french["Subject"] == "À vous de jouer : Tic-tac-toe contre Biel"
                assert f"{PUBLIC_URL}/play/{game_id}" in text_of(french)
                move(api, game_id, ana_token, "mark 8", 2)
                # the mail can arrive before its row is marked sent: wait for every row's fate
                wait_for(lambda: all(row[2] != "waiting" for row in notices_of(server, game_id)),
                         what="the notices' fate")
            assert notices_of(server, game_id) == [
                (1, 1, "sent", None), (0, 2, "sent", None), (1, 3, "skipped", "on the page"),
            ]
            # a player who moves within the grace period gets no mail either
            move(api, game_id, biel_token, "mark 2", 3)
            move(api, game_id, ana_token, "mark 6", 4)
            wait_for(lambda: all(row[2] != "waiting" for row in notices_of(server, game_id)),
                     what="the notices' fate")
            assert notices_of(server, game_id)[3:] == [(0, 4, "skipped", "moved"), (1, 5, "sent", None)]
            assert (len(mails_to(smtp.messages, ANA)), len(mails_to(smtp.messages, BIEL))) == (1, 2)
    finally:
        server.stop()


def test_several_waiting_games_make_one_digest_and_the_unsubscribe_link_needs_no_sign_in(
    tmp_path: Path, smtp: SmtpServer,  # noqa: F811
) -> None:
    server = server_with_mail(tmp_path / "data", smtp.env()).start()
    try:
        ana, biel = sign_up(server, email=ANA), sign_up(server, email=BIEL)
        verify_email(server, biel.account["id"])
        with server.client() as api, ana, biel:
            games = [create_claimed_game(api, "tictactoe", PEOPLE, turn_days=1) for _ in range(3)]
            for game in games:
                own_seat(server, game["game_id"], 0, ana.account["id"])
                own_seat(server, game["game_id"], 1, biel.account["id"])
            for game in games[:2]:
                move(api, game["game_id"], game["seats"][0]["token"], "mark 4", 0)
            digest = turn_mail(smtp.mailbox, BIEL)
            assert digest["Subject"] == "Your turn in 2 games"
            body = text_of(digest)
            for game in games[:2]:
                assert f"{PUBLIC_URL}/play/{game['game_id']}" in body
            assert len(mails_to(smtp.messages, BIEL)) == 1
            assert mails_to(smtp.messages, ANA) == []  # her address is not verified

            link = re.search(r"http://eixample\.test(/notices/unsubscribe\?\S+)", body)
            assert link is not None
            query = dict(part.split("=", 1) for part in link.group(1).split("?", 1)[1].split("&"))
            with httpx.Client(base_url=server.url, timeout=10) as stranger:  # no cookie, no CSRF token
                page = stranger.get(link.group(1))
                assert page.status_code == 200 and "notices.js" in page.text
                wrong = stranger.post("/api/notices/unsubscribe",
                                      json={"account": query["account"], "token": query["token"][:-2] + "AA"})
                assert wrong.status_code == 403
                other = stranger.post("/api/notices/unsubscribe",
                                      json={"account": ana.account["id"], "token": query["token"]})
                assert other.status_code == 403
                done = stranger.post("/api/notices/unsubscribe",
                                     json={"account": query["account"], "token": query["token"]})
                assert done.status_code == 200
            assert biel.get("/api/notices/settings").json()["mail"] is False
            third = games[2]
            move(api, third["game_id"], third["seats"][0]["token"], "mark 4", 0)
            wait_for(lambda: notices_of(server, third["game_id"])[0][2] != "waiting",
                     what="the notice's fate")
            assert notices_of(server, third["game_id"]) == [(1, 1, "skipped", "no channel")]
            assert len(mails_to(smtp.messages, BIEL)) == 1
            # signed in, Biel turns the mails on again
            assert biel.put("/api/notices/settings", json={"mail": True}).json()["mail"] is True
    finally:
        server.stop()


def test_a_real_time_game_writes_no_notice(tmp_path: Path, smtp: SmtpServer) -> None:  # noqa: F811
    server = server_with_mail(tmp_path / "data", smtp.env()).start()
    try:
        biel = sign_up(server, email=BIEL)
        verify_email(server, biel.account["id"])
        with server.client() as api, biel:
            game = create_claimed_game(api, "tictactoe", PEOPLE, clock_seconds=600)
            own_seat(server, game["game_id"], 1, biel.account["id"])
            move(api, game["game_id"], game["seats"][0]["token"], "mark 4", 0)  # committed with its notices
            assert notices_of(server, game["game_id"]) == []
    finally:
        server.stop()
