"""The server's settings (server/settings.py, docs/deploy.md "Configuration"): every ServerLimits
field and the host's settings from a TOML file, EIXAMPLE_* variables and flags, in that order of
strength; unknown and out-of-range values refused with one line naming the setting; the settings
in force printed; the reference in docs/deploy.md made from the code."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from eixample.cli.main import app as cli
from eixample.server import settings as settings_module
from eixample.server.limits import ServerLimits
from eixample.server.settings import Settings, SettingsError, load
from tests.server.harness import GENEROUS_LIMITS, ServerProcess


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "eixample.toml"
    path.write_text(text)
    return path


def test_flags_beat_the_environment_which_beats_the_file_which_beats_the_defaults(tmp_path: Path) -> None:
    config = write(tmp_path, 'port = 9001\nmoves_per_minute = 100\nhint_seconds = 2.5\nlog_format = "text"\n')
    environ = {"EIXAMPLE_PORT": "9002", "EIXAMPLE_MOVES_PER_MINUTE": "200"}
    settings = load(config, {"port": 9003}, environ)
    assert settings.port == 9003  # flag
    assert settings.moves_per_minute == 200  # environment over the file
    assert settings.hint_seconds == 2.5 and settings.log_format == "text"  # the file
    assert settings.games_per_minute == ServerLimits().games_per_minute  # default
    assert settings.limits().moves_per_minute == 200
    assert load(config, {}, environ).port == 9002
    assert load(config, {}, {}).port == 9001
    assert load(None, {}, {}).port == 8000


def test_every_server_limit_is_a_setting_from_the_environment() -> None:
    def other(default: Any) -> Any:
        """A value in range and not the default: twice it, or half of it at the range's top."""
        upper = settings_module.MAX_SECONDS if isinstance(default, float) else settings_module.MAX_INT
        return default * 2 if default * 2 <= upper else default / 2

    environ = {settings_module.env_name(item.name): str(other(item.default)) for item in fields(ServerLimits)}
    limits = load(None, {}, environ).limits()
    for item in fields(ServerLimits):
        assert getattr(limits, item.name) == other(item.default), item.name


def test_lists_from_the_environment_are_comma_separated() -> None:
    settings = load(None, {}, {"EIXAMPLE_ALLOWED_HOSTS": "games.example.org, www.games.example.org",
                               "EIXAMPLE_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8"})
    assert settings.allowed_hosts == ["games.example.org", "www.games.example.org"]
    assert settings.trusted_proxies == ["127.0.0.1/32", "10.0.0.0/8"]


@pytest.mark.parametrize(
    ("text", "environ", "words"),
    [
        ("moves_per_minut = 10\n", {},
         ["unknown setting 'moves_per_minut'", "did you mean moves_per_minute"]),
        ("[limits]\nx = 1\n", {}, ["unknown section 'limits'"]),
        ("port = 70000\n", {}, ["setting port from", "eixample.toml", "less than or equal to 65535"]),
        ("", {"EIXAMPLE_MOVES_PER_MINUTE": "0"}, ["setting moves_per_minute from EIXAMPLE_MOVES_PER_MINUTE",
                                                  "greater than or equal to 1"]),
        ("", {"EIXAMPLE_HINT_SECONDS": "soon"}, ["setting hint_seconds", "valid number"]),
        ("", {"EIXAMPLE_TRUSTED_PROXIES": "proxy.example"}, ["setting trusted_proxies",
                                                           "not an IP address or network"]),
        ("", {"EIXAMPLE_LOG_FORMAT": "xml"}, ["setting log_format", "'json' or 'text'"]),
        ("port = [\n", {}, ["not valid TOML"]),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(
    tmp_path: Path, text: str, environ: dict[str, str], words: list[str]
) -> None:
    with pytest.raises(SettingsError) as refused:
        load(write(tmp_path, text), {}, environ)
    message = str(refused.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_serve_refuses_a_bad_setting_in_one_line_before_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EIXAMPLE_CHAT_PER_MINUTE", "-3")
    result = CliRunner().invoke(cli, ["serve", "--config", str(write(tmp_path, "bot_delay = 1\n"))])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "setting chat_per_minute from EIXAMPLE_CHAT_PER_MINUTE" in lines[0], lines


def test_print_config_shows_the_settings_in_force_as_a_file_that_loads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(tmp_path, 'hints_per_minute = 9\nmetrics_token = "s3cret-metrics"\n')
    monkeypatch.setenv("EIXAMPLE_DATABASE_URL", "postgresql+psycopg://eixample:pa55word@db.example/eixample")
    monkeypatch.setenv("EIXAMPLE_BOT_WORKERS", "4")
    result = CliRunner().invoke(cli, ["serve", "--config", str(config), "--port", "8123", "--print-config"])
    assert result.exit_code == 0, result.output
    assert "pa55word" not in result.output and "s3cret-metrics" not in result.output
    printed = tomllib.loads(result.output)
    assert printed["port"] == 8123 and printed["hints_per_minute"] == 9 and printed["bot_workers"] == 4
    assert printed["database_url"] == "postgresql+psycopg://eixample:***@db.example/eixample"
    assert {item.name for item in fields(ServerLimits)} <= set(printed) <= set(Settings.model_fields)
    assert "# smtp_host = (not set)" in result.output
    again = load(write(tmp_path, result.output), {}, {})
    assert again.limits() == load(config, {"port": 8123}, {"EIXAMPLE_BOT_WORKERS": "4"}).limits()


def test_the_reference_in_deploy_md_is_made_from_the_code() -> None:
    """Regenerate with `python -m eixample.server.settings` after adding or changing a setting."""
    document = settings_module.DEPLOY_DOC.read_text()
    assert settings_module.with_reference(document) == document, (
        "docs/deploy.md's settings reference is stale: run `python -m eixample.server.settings`"
    )
    for name in Settings.model_fields:
        assert f"| `{name}` |" in document, name


def test_a_server_takes_its_limits_from_the_file(tmp_path: Path) -> None:
    config = write(tmp_path, "games_per_minute = 1\n")
    limits = {**GENEROUS_LIMITS}
    del limits["games_per_minute"]
    server = ServerProcess(tmp_path, limits=limits, run_options={"config": str(config)})
    server.start()
    try:
        seats = [{"kind": "person", "name": "Ana"}, {"kind": "bot", "bot": "random"}]
        with httpx.Client(base_url=server.url) as client:
            assert client.post("/api/games", json={"game": "tictactoe", "seats": seats}).status_code == 201
            refused = client.post("/api/games", json={"game": "tictactoe", "seats": seats})
            assert refused.status_code == 429, refused.text
    finally:
        server.stop()


def test_the_mail_settings_come_from_the_same_places(tmp_path: Path) -> None:
    config = write(tmp_path, 'smtp_host = "mail.example.org"\nsmtp_user = "eixample"\n'
                             'smtp_password = "m4il-pass"\n')
    settings = load(config, {}, {"EIXAMPLE_SMTP_PORT": "465", "EIXAMPLE_SMTP_STARTTLS": "0",
                                 "EIXAMPLE_SMTP_FROM": "games@example.org"})
    mail = settings.mail()
    assert (mail.host, mail.port, mail.user, mail.password, mail.sender, mail.starttls) == (
        "mail.example.org", 465, "eixample", "m4il-pass", "games@example.org", False)
    assert "m4il-pass" not in settings_module.as_toml(settings)
    assert not load(None, {}, {}).mail().enabled
    with pytest.raises(SettingsError, match="setting smtp_port from EIXAMPLE_SMTP_PORT"):
        load(None, {}, {"EIXAMPLE_SMTP_PORT": "smtp"})
