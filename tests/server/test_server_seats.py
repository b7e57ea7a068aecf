"""Fair seeds and seats that belong to one browser: shown seeds, claims and releases."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.harness import ServerProcess, create_claimed_game, create_game, seat_headers, wait_for

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


def state(api: httpx.Client, gid: str, token: str | None = None) -> httpx.Response:
    return api.get(f"/api/games/{gid}/state", headers=seat_headers(token) if token else {})


def claim(api: httpx.Client, gid: str, invitation: str) -> httpx.Response:
    return api.post(f"/api/games/{gid}/claim", headers=seat_headers(invitation))


# -- seeds ----------------------------------------------------------------------------------------


def test_a_chosen_seed_is_refused_for_two_people_unless_shown(
    api: httpx.Client, server: ServerProcess
) -> None:
    before = server.settled_dump()
    refused = api.post("/api/games", json={"game": "tictactoe", "seats": PEOPLE, "seed": 42})
    assert refused.status_code == 422 and "seed_shown" in refused.json()["error"]
    assert server.db_dump() == before

    shown = create_game(api, "hiddencards", PEOPLE, seed=42, seed_shown=True)
    gid, token = shown["game_id"], shown["seats"][1]["token"]
    assert shown["state"]["seed_shown"] and shown["state"]["seed"] == 42
    assert state(api, gid, token).json()["seed"] == 42  # every seat's page shows it
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["seed_shown"] and summary["seed"] == 42
    line = next(game for game in api.get("/api/games").json()["games"] if game["game_id"] == gid)
    assert line["seed"] == 42  # and so does the lobby

    drawn = create_game(api, "hiddencards", PEOPLE)
    assert drawn["state"]["seed"] is None and not drawn["state"]["seed_shown"]
    # one person (solo, or against bots) may choose a seed as before
    alone = create_game(api, "tictactoe", [PEOPLE[0], {"kind": "bot", "bot": "random"}], seed=42)
    assert alone["state"]["seed"] is None


# -- claims ---------------------------------------------------------------------------------------


def test_claiming_a_seat_retires_its_invitation(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE, invitations=True)
    gid = created["game_id"]
    ana_invite, biel_invite = (seat["token"] for seat in created["seats"])
    claimed = claim(api, gid, ana_invite)
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["seat"] == 0
    private = claimed.json()["token"]
    assert private != ana_invite and len(private) >= 32

    refused = state(api, gid, ana_invite)
    assert refused.status_code == 403 and "claimed" in refused.json()["error"]
    move = {"action": "mark 4", "expected_move": 0}
    before = server.settled_dump()
    assert api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(ana_invite)).status_code == 403
    with server.ws(gid, ana_invite) as client:
        assert client.recv_until(lambda m: m["type"] == "error")["status"] == 403
    assert claim(api, gid, ana_invite).status_code == 409
    assert server.db_dump() == before

    mine = state(api, gid, private).json()
    assert mine["seat"] == 0 and mine["your_turn"] and mine["seats"][0]["claimed"]
    assert api.post(f"/api/games/{gid}/moves", json=move, headers=seat_headers(private)).status_code == 200
    # an unclaimed invitation only claims: it neither moves nor reads its seat's state
    reply = {"action": "mark 0", "expected_move": 1}
    answered = api.post(f"/api/games/{gid}/moves", json=reply, headers=seat_headers(biel_invite))
    assert answered.status_code == 403 and "only claims" in answered.json()["error"]
    assert claim(api, gid, "forged").status_code == 403
    assert "private" not in api.get("/api/games").text and private not in api.get(f"/api/games/{gid}").text


def test_the_creator_can_release_a_lost_claim(api: httpx.Client, server: ServerProcess) -> None:
    created = create_game(api, "tictactoe", PEOPLE, invitations=True)
    gid, creator = created["game_id"], created["creator_token"]
    invite = created["seats"][1]["token"]
    private = claim(api, gid, invite).json()["token"]

    def release(token: str | None, seat: int = 1) -> httpx.Response:
        headers = {"X-Creator-Token": token} if token else {}
        return api.post(f"/api/games/{gid}/seats/{seat}/release", headers=headers)

    before = server.settled_dump()
    assert release(None).status_code == 401
    assert release(invite).status_code == 403
    assert release(private).status_code == 403
    assert release(creator, 0).status_code == 409  # seat A was never claimed
    assert release(creator, 7).status_code == 422
    assert server.db_dump() == before
    released = release(creator)
    assert released.status_code == 200 and released.json() == {"seat": 1, "claimed": False}
    assert state(api, gid, private).status_code == 403
    assert state(api, gid, invite).status_code == 403  # the invitation claims again, nothing more
    again = claim(api, gid, invite)
    assert again.status_code == 200 and again.json()["token"] != private


def test_an_unclaimed_invitation_shows_nothing_of_its_seat(api: httpx.Client, server: ServerProcess) -> None:
    # the creator holds every invitation: before Biel claims his seat, his hand stays his
    created = create_game(api, "hiddencards", PEOPLE, invitations=True)
    gid = created["game_id"]
    biel_invite = created["seats"][1]["token"]
    before = server.settled_dump()
    refused = state(api, gid, biel_invite)
    assert refused.status_code == 403 and "only claims" in refused.json()["error"]
    hand = str(refused.json())
    with server.ws(gid, biel_invite) as client:
        error = client.recv_until(lambda m: m["type"] in ("error", "state"))
        assert error["type"] == "error" and error["status"] == 403
    said = api.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=seat_headers(biel_invite))
    assert said.status_code == 403
    for what in ("resign", "leave"):
        assert api.post(f"/api/games/{gid}/{what}", headers=seat_headers(biel_invite)).status_code == 403
    assert server.db_dump() == before
    private = claim(api, gid, biel_invite).json()["token"]
    mine = state(api, gid, private).json()
    assert mine["seat"] == 1 and mine["view"] != state(api, gid).json()["view"] and hand
    # one person (solo, or against bots) has nobody to hide from: the invitation acts as before
    alone = create_game(api, "tictactoe", [PEOPLE[0], {"kind": "bot", "bot": "random"}])
    assert state(api, alone["game_id"], alone["seats"][0]["token"]).json()["seat"] == 0


def test_anyone_may_join_a_seat_opened_to_anyone_and_only_that_one(
    api: httpx.Client, server: ServerProcess
) -> None:
    seats = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel", "open": True}]
    created = create_game(api, "hiddencards", seats, invitations=True)
    gid, ana_invite = created["game_id"], created["seats"][0]["token"]

    def join(seat: int) -> httpx.Response:
        return api.post(f"/api/games/{gid}/seats/{seat}/join")

    line = next(game for game in api.get("/api/games?status=open").json()["games"] if game["game_id"] == gid)
    assert [(seat["open"], seat["claimed"]) for seat in line["seats"]] == [(False, False), (True, False)]
    before = server.settled_dump()
    assert join(0).status_code == 403  # invitation only
    assert join(5).status_code == 422
    assert server.db_dump() == before
    joined = join(1)
    assert joined.status_code == 200, joined.text
    private = joined.json()["token"]
    assert joined.json()["seat"] == 1 and private != created["seats"][1]["token"]
    mine = state(api, gid, private).json()
    assert mine["seat"] == 1 and mine["view"] != state(api, gid).json()["view"]  # the joiner sees its hand
    after = server.settled_dump()
    assert join(1).status_code == 409  # the first to join keeps it
    assert server.db_dump() == after
    assert state(api, gid, created["seats"][1]["token"]).status_code == 403  # the invitation no longer acts
    # the invitation-only seat stays as it was: its invitation only claims, showing nothing of the seat
    assert state(api, gid, ana_invite).status_code == 403
    assert claim(api, gid, ana_invite).status_code == 200
    refused = api.post("/api/games", json={"game": "tictactoe", "seats": [
        PEOPLE[0], {"kind": "bot", "bot": "random", "open": True}]})
    assert refused.status_code == 422 and "person" in refused.json()["error"]


def test_a_stand_ins_decisions_are_not_undone_by_its_player(new_server: Any) -> None:
    # hidden cards: a turn is several decisions ("play" any number of times, then "end")
    server = new_server(bot_delay=1.5).start()
    with server.client() as api:
        created = create_claimed_game(api, "hiddencards", PEOPLE, options={"turns_each": 5})
        gid, ana, biel = created["game_id"], created["seats"][0]["token"], created["seats"][1]["token"]
        assert api.post(f"/api/games/{gid}/leave", headers=seat_headers(ana)).status_code == 200
        seen_in_her_turn: int | None = None
        refused_at: int | None = None

        def try_undo() -> bool:
            nonlocal seen_in_her_turn, refused_at
            now = state(api, gid, ana).json()
            if now["result"] is not None:
                raise AssertionError("the game ended before the stand-in decided within a turn")
            if now["current_player"] == 1:  # Biel ends his turns at once
                seen_in_her_turn = None
                end = {"action": "end", "expected_move": now["move_number"]}
                api.post(f"/api/games/{gid}/moves", json=end, headers=seat_headers(biel))
                return False
            if seen_in_her_turn is None or now["move_number"] == seen_in_her_turn:
                seen_in_her_turn = now["move_number"]
                return False
            # the stand-in has decided within Ana's turn: its decision is not hers to take back
            assert not now["can_undo"], now
            refused_at = now["move_number"]
            undo = api.post(f"/api/games/{gid}/undo", json={"expected_move": refused_at},
                            headers=seat_headers(ana))
            assert undo.status_code == 409, undo.text
            return True

        wait_for(try_undo, timeout=60, what="a stand-in's decision within its turn")
        before = refused_at
        assert before is not None
        assert api.get(f"/api/games/{gid}").json()["move_number"] >= before
