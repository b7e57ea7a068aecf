"""Moderation (server/admin.py): the first admin made by `eixample admin create` on the server's
machine; reports of a chat line reaching the admins; an admin hiding the line, ending the game,
suspending an account and blocking an address range, each act in the audit log; and nobody else
allowed to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from eixample.cli.main import app as cli
from tests.server.harness import ServerProcess, create_game, seat_headers, wait_for
from tests.server.signin import PASSWORD, sign_in, sign_up

PEOPLE = [{"kind": "person", "name": "Ana"}, {"kind": "person", "name": "Biel"}]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path).start()
    yield process
    process.stop()


def make_admin(server: ServerProcess, name: str) -> None:
    result = CliRunner().invoke(cli, ["admin", "create", name, "--data-dir", str(server.data_dir),
                                      "--password-stdin"], input=f"{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert f"admin {name} created" in result.output


def test_only_admins_reach_the_admin_api(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as guest:
        assert guest.get("/api/admin/games").status_code == 401
    with sign_up(server) as player:
        refused = player.get("/api/admin/reports")
        assert refused.status_code == 403 and refused.json()["code"] == "not_admin"
        assert player.post("/api/admin/blocks", json={"network": "10.0.0.0/8"}).status_code == 403
    result = CliRunner().invoke(cli, ["admin", "create", "x", "--data-dir", str(server.data_dir),
                                      "--password-stdin"], input=f"{PASSWORD}\n")
    assert result.exit_code == 2  # a name too short: refused, nothing made


def test_a_reported_chat_line_is_hidden_and_the_game_ended(server: ServerProcess) -> None:
    make_admin(server, "mod_ana")
    with server.client() as client, sign_in(server, "mod_ana") as admin:
        created = create_game(client, "tictactoe", PEOPLE)
        gid = created["game_id"]
        ana, biel = (seat["token"] for seat in created["seats"])
        said = client.post(f"/api/games/{gid}/chat", json={"text": "something rude"},
                           headers=seat_headers(biel))
        assert said.status_code == 201, said.text
        line_id = said.json()["id"]
        anonymous = client.post(f"/api/games/{gid}/reports", json={"line_id": line_id, "reason": "x"})
        assert anonymous.status_code == 401  # a report needs a seat or an account
        reported = client.post(f"/api/games/{gid}/reports", json={"line_id": line_id, "reason": "insults"},
                               headers=seat_headers(ana))
        assert reported.status_code == 201, reported.text

        reports = admin.get("/api/admin/reports").json()["reports"]
        seen = [(r["game_id"], r["line_id"], r["letter"], r["reporter"], r["line_text"]) for r in reports]
        assert seen == [(gid, line_id, "B", "seat A", "something rude")]
        games = admin.get("/api/admin/games").json()["games"]
        assert gid in {game["game_id"] for game in games}

        with server.ws(gid) as watcher:
            watcher.state()
            hidden = admin.post(f"/api/admin/games/{gid}/chat/{line_id}/hide", json={"reason": "insults"})
            assert hidden.status_code == 200, hidden.text
            pushed = watcher.recv_until(lambda m: m["type"] == "table" and any(
                line["id"] == line_id and line["kind"] == "hidden" for line in m["lines"]))
            assert all("something rude" not in line["text"] for line in pushed["lines"])
        table = client.get(f"/api/games/{gid}/table").json()
        assert [(line["kind"], line["text"]) for line in table["lines"]] == [("hidden", "")]

        ended = admin.post(f"/api/admin/games/{gid}/end", json={"reason": "abuse"})
        assert ended.status_code == 200, ended.text
        move = client.post(f"/api/games/{gid}/moves", json={"action": "mark 4", "expected_move": 0},
                           headers=seat_headers(ana))
        assert move.status_code == 409 and "moderator ended" in move.json()["error"]
        assert client.get(f"/api/games/{gid}/table").json()["lines"][-1]["text"] == "ended"
        assert gid not in {game["game_id"] for game in admin.get("/api/admin/games").json()["games"]}
        closed = admin.post(f"/api/admin/reports/{reports[0]['id']}/close", json={"reason": "done"})
        assert closed.status_code == 200 and admin.get("/api/admin/reports").json()["reports"] == []

        audit = admin.get("/api/admin/audit").json()["audit"]
    acts = [(entry["act"], entry["actor"]) for entry in reversed(audit)]
    assert acts == [("make_admin", "eixample admin (server machine)"), ("hide_line", "mod_ana"),
                    ("end_game", "mod_ana"), ("close_report", "mod_ana")]
    hide = next(entry for entry in audit if entry["act"] == "hide_line")
    assert hide["details"]["text"] == "something rude" and hide["target"] == f"game {gid} line {line_id}"


def test_a_suspended_account_is_signed_out_until_lifted(server: ServerProcess) -> None:
    make_admin(server, "mod_ana")
    with sign_in(server, "mod_ana") as admin, sign_up(server) as player:
        account_id = player.account["id"]
        suspended = admin.post(f"/api/admin/accounts/{account_id}/suspend", json={"reason": "cheating"})
        assert suspended.status_code == 200 and suspended.json()["sessions_ended"] == 1
        assert player.get("/api/account").status_code == 401
        again = player.post("/api/account/signin", json={"name": player.name, "password": PASSWORD})
        assert again.status_code == 403 and again.json()["code"] == "account_suspended"
        assert admin.post(f"/api/admin/accounts/{account_id}/lift", json={}).status_code == 200
        with sign_in(server, player.name):
            pass
        acts = [entry["act"] for entry in admin.get("/api/admin/audit").json()["audit"]]
    assert acts[:2] == ["lift_suspension", "suspend"]


def test_a_blocked_range_is_refused_until_unblocked(server: ServerProcess) -> None:
    make_admin(server, "mod_ana")
    blocked = "127.0.0.5"
    with sign_in(server, "mod_ana") as admin:
        own = admin.post("/api/admin/blocks", json={"network": "127.0.0.0/8", "reason": "x"})
        assert own.status_code == 409  # the admin's own address
        assert admin.post("/api/admin/blocks", json={"network": "not a network"}).status_code == 422
        made = admin.post("/api/admin/blocks", json={"network": f"{blocked}/32", "reason": "flood"})
        assert made.status_code == 201, made.text
        outsider = httpx.Client(base_url=server.url, transport=httpx.HTTPTransport(local_address=blocked))
        with outsider:
            refused = outsider.get("/api/games")
            assert refused.status_code == 403 and refused.json()["code"] == "blocked"
            with pytest.raises(InvalidStatus) as handshake:
                connect(f"{server.ws_url}/ws/games/x", open_timeout=10, source_address=(blocked, 0))
            assert handshake.value.response.status_code == 403
            assert admin.get("/api/games").status_code == 200  # others go on
            assert admin.delete(f"/api/admin/blocks/{made.json()['id']}").status_code == 204
            wait_for(lambda: outsider.get("/api/games").status_code == 200, what="the range unblocked")
        acts = [entry["act"] for entry in admin.get("/api/admin/audit").json()["audit"]]
    assert acts[:2] == ["unblock", "block"]
