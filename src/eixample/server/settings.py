"""The server's settings: every field of `ServerLimits` and the rest (database, host names, data
folder, bots, logs, metrics, draining), from four places, each above the next:

1. the command line's flags (`eixample serve --port ...`, the common settings only);
2. environment variables `EIXAMPLE_<NAME>` (`EIXAMPLE_MOVES_PER_MINUTE=600`; a list is written
   with commas: `EIXAMPLE_ALLOWED_HOSTS=games.example.org,www.games.example.org`);
3. a TOML file (`eixample serve --config FILE`), one `name = value` line per setting;
4. the defaults below.

A setting the file does not know, or a value out of its range, stops the server before it starts
with one line naming the setting. A new setting is a field of `Settings` (or of `ServerLimits`,
which becomes one here by itself) with a docstring: the reference in docs/deploy.md is made from
them (`python -m eixample.server.settings` rewrites it; a test fails when it is stale).
"""

from __future__ import annotations

import ast
import difflib
import inspect
import ipaddress
import itertools
import json
import os
import re
import socket
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Annotated, Any, Literal, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, SecretStr, ValidationError, create_model

from eixample.server.limits import ServerLimits
from eixample.server.mail import MailSettings

ENV_PREFIX = "EIXAMPLE_"
DEFAULT_LEASE_SECONDS = 10.0  # cluster.DEFAULT_LEASE_SECONDS (not imported: it pulls in the database)
MAX_INT = 10**9
MAX_SECONDS = 86_400.0
SECRET_SHOWN = "********"


def _listed(value: Any) -> Any:
    """A list written as one string (an environment variable, a flag): comma-separated."""
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


def _network(value: str) -> str:
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError:
        raise ValueError(f"'{value[:60]}' is not an IP address or network (like 10.0.0.0/8)") from None


Names = Annotated[list[str], BeforeValidator(_listed)]
Networks = Annotated[list[Annotated[str, BeforeValidator(_network)]], BeforeValidator(_listed)]
Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS)]


class HostSettings(BaseModel):
    """The settings that are not limits (those come from `ServerLimits`, below)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, frozen=True)

    host: str = "127.0.0.1"
    """The address to listen on."""
    port: Annotated[int, Field(ge=1, le=65535)] = 8000
    """The port to listen on."""
    data_dir: str = "data"
    """The folder of the SQLite database (unused with `database_url`)."""
    database_url: SecretStr | None = None
    """The database, as an SQLAlchemy URL (`postgresql+psycopg://user:password@host/name`); unset:
    `$DATABASE_URL`, else SQLite in `data_dir`. Shown without its password."""
    allowed_hosts: Names = []
    """Host names the server answers for besides the listen address and localhost (its public
    DNS name)."""
    trusted_proxies: Networks = []
    """Addresses (or networks) of the reverse proxies in front of the server (`["127.0.0.1"]` for
    nginx on the same machine): only their `X-Forwarded-For` and `X-Forwarded-Proto` are
    believed, and their connections are not counted by `connections_per_address`. Empty: every
    client is taken at its own address."""
    bot_delay: Annotated[float, Field(ge=0, le=60)] = 0.5
    """Seconds a bot waits before each decision, so that people can follow its moves."""
    bot_lease_seconds: Annotated[float, Field(ge=0.5, le=3600)] = DEFAULT_LEASE_SECONDS
    """With PostgreSQL: how long a process holds a game's bots without renewing (another process
    takes them over after that)."""
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """The least important log events written."""
    log_format: Literal["json", "text"] = "json"
    """`json`: one JSON object a line (for a log collector); `text`: plain lines for a terminal."""
    metrics_from: Networks = ["127.0.0.0/8", "::1/128"]
    """Client addresses (or networks) that may read `/metrics` without a token."""
    metrics_token: SecretStr | None = None
    """A bearer token that opens `/metrics` from any address (`Authorization: Bearer ...`)."""
    drain_seconds: Annotated[float, Field(gt=0, le=600)] = 10.0
    """On SIGTERM: how long moves in flight may take to finish before the process stops anyway;
    the process exits at most 5 s after that."""
    smtp_host: str | None = None
    """The SMTP server for the accounts' mail; unset, the server sends no mail."""
    smtp_port: Annotated[int, Field(ge=1, le=65535)] = 587
    """The SMTP server's port (465: TLS from the start)."""
    smtp_user: str | None = None
    """Log in to the SMTP server with this user (and `smtp_password`)."""
    smtp_password: SecretStr | None = None
    """The SMTP user's password (never shown)."""
    smtp_from: str | None = None
    """The sender's address of the mail; unset: `eixample@` and this machine's name."""
    smtp_starttls: bool = True
    """Upgrade the SMTP connection with STARTTLS before logging in (false for a local relay)."""
    public_url: str | None = None
    """The address players open (`https://games.example.org`): the links in "your turn" mails start
    with it; unset: the address of the latest request the server saw."""
    push_contact: str | None = None
    """The `mailto:` or `https:` contact that push services see in the Web Push (VAPID) token;
    unset: `mailto:` and `smtp_from`."""


FLAGS: dict[str, str] = {
    "host": "--host",
    "port": "--port",
    "data_dir": "--data-dir",
    "database_url": "--database-url",
    "allowed_hosts": "--allowed-host",
    "bot_delay": "--bot-delay",
    "log_level": "--log-level",
    "log_format": "--log-format",
    "drain_seconds": "--drain-seconds",
}
"""The settings `eixample serve` also takes as flags."""


def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's attributes (as `ServerLimits` documents its fields)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for item, following in itertools.pairwise(body):
        if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            docs[item.target.id] = inspect.cleandoc(following.value.value)
    return docs


def _limit_fields() -> dict[str, Any]:
    """`ServerLimits`' fields as pydantic fields: an int at least 1, a float above 0 (seconds at
    most a day), unless the field's annotation says otherwise (`Annotated[int, Field(ge=0)]`)."""
    hints = get_type_hints(ServerLimits, include_extras=True)
    docs = attribute_docs(ServerLimits)
    made: dict[str, Any] = {}
    for item in fields(ServerLimits):
        kind = hints[item.name]
        if kind is int:
            kind = Annotated[int, Field(ge=1, le=MAX_INT)]
        elif kind is float:
            kind = Annotated[float, Field(gt=0, le=MAX_SECONDS)]
        assert item.default is not MISSING, f"ServerLimits.{item.name} needs a default"
        made[item.name] = (kind, Field(item.default, description=docs.get(item.name)))
    return made


class _Base(HostSettings):
    def limits(self) -> ServerLimits:
        return ServerLimits(**{item.name: getattr(self, item.name) for item in fields(ServerLimits)})

    def mail(self) -> MailSettings:
        password = self.smtp_password.get_secret_value() if self.smtp_password is not None else None
        return MailSettings(
            host=(self.smtp_host or "").strip() or None, port=self.smtp_port,
            user=(self.smtp_user or "").strip() or None, password=password or None,
            sender=(self.smtp_from or "").strip() or f"eixample@{socket.getfqdn()}",
            starttls=self.smtp_starttls,
        )


Settings = create_model("Settings", __base__=_Base, __module__=__name__, **_limit_fields())
"""Every setting: `HostSettings`' and `ServerLimits`' fields together."""
Settings.__doc__ = "The server's settings (docs/deploy.md, Configuration)."


class SettingsError(ValueError):
    """A setting that cannot be used; the message is one line naming it."""


def env_name(name: str) -> str:
    return ENV_PREFIX + name.upper()


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The settings given as `EIXAMPLE_<NAME>` variables (others with the prefix are left to
    whoever reads them)."""
    environ = os.environ if environ is None else environ
    return {name: environ[env_name(name)] for name in Settings.model_fields if env_name(name) in environ}


def from_file(path: str | Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise SettingsError(f"cannot read the settings file {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"the settings file {path} is not valid TOML: {error}") from None
    for name, value in data.items():
        if name not in Settings.model_fields:
            near = difflib.get_close_matches(name, list(Settings.model_fields), n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            kind = "section" if isinstance(value, dict) else "setting"
            raise SettingsError(f"{path}: unknown {kind} '{name}'{hint}")
    return data


def load(
    config: str | Path | None = None,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """The settings in force: `flags` over the environment over the `config` file over the
    defaults. SettingsError (one line naming the setting and where it came from) when one is
    unknown or out of range."""
    given = {name: value for name, value in (flags or {}).items() if value is not None}
    for name in given:
        if name not in Settings.model_fields:
            raise SettingsError(f"unknown setting '{name}'")
    layers: list[tuple[str, dict[str, Any]]] = [
        (str(config), from_file(config) if config is not None else {}),
        ("environment", from_environment(environ)),
        ("flags", given),
    ]
    merged: dict[str, Any] = {}
    source: dict[str, str] = {}
    for where, values in layers:
        merged.update(values)
        source.update(dict.fromkeys(values, where))
    try:
        return Settings.model_validate(merged)
    except ValidationError as error:
        raise SettingsError(_one_line(error, source)) from None


def _one_line(error: ValidationError, source: dict[str, str]) -> str:
    first = error.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else "?"
    where = source.get(name, "")
    origin = {"environment": env_name(name), "flags": FLAGS.get(name, name)}.get(where, where)
    value = first.get("input")
    shown = "" if isinstance(value, dict | list) or value is None else f" (got {str(value)[:60]!r})"
    message = re.sub(r"\s+", " ", str(first["msg"])).removeprefix("Value error, ")
    return f"setting {name}{f' from {origin}' if origin else ''}: {message}{shown}"


# -- showing them -------------------------------------------------------------------------------

def _shown(name: str, value: Any) -> Any:
    if isinstance(value, SecretStr):
        secret = value.get_secret_value()
        if name == "database_url":
            from sqlalchemy.engine import make_url

            try:
                return make_url(secret).render_as_string(hide_password=True)
            except Exception:
                return SECRET_SHOWN
        return SECRET_SHOWN
    return value


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def as_toml(settings: Any) -> str:
    """The settings as a TOML file (passwords and tokens hidden; an unset one as a comment)."""
    lines = ["# the settings in force (flags > EIXAMPLE_* environment > file > defaults)"]
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if value is None:
            lines.append(f"# {name} = (not set)")
        else:
            lines.append(f"{name} = {_toml_value(_shown(name, value))}")
    return "\n".join(lines) + "\n"


def _type_of(annotation: Any) -> str:
    text = str(annotation)
    if "SecretStr" in text:
        return "string (secret)"
    if "Literal" in text:
        return " or ".join(f"`{choice}`" for choice in re.findall(r"'([^']*)'", text))
    for kind, shown in (("list", "list"), ("float", "number"), ("int", "integer"), ("str", "string")):
        if kind in text:
            return shown
    return text


def _range_of(info: Any) -> str:
    parts = []
    for item in info.metadata:
        for attribute, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            bound = getattr(item, attribute, None)
            if bound is not None:
                parts.append(f"{sign} {bound:,}" if isinstance(bound, int) else f"{sign} {bound:,g}")
    return " ".join(parts)


def reference() -> str:
    """The settings' reference, as Markdown (docs/deploy.md, between its markers)."""
    rows = ["| Setting | Default | Range | Flag | What it is |", "|---|---|---|---|---|"]
    for name, info in Settings.model_fields.items():
        default = info.default
        shown = "unset" if default is None else f"`{_toml_value(default)}`"
        about = re.sub(r"\s+", " ", info.description or "").replace("|", "\\|")
        flag = f"`{FLAGS[name]}`" if name in FLAGS else ""
        kind = _range_of(info) or _type_of(info.annotation)
        rows.append(f"| `{name}` | {shown} | {kind} | {flag} | {about} |")
    return "\n".join(rows) + "\n"


BEGIN = "<!-- settings reference: made by `python -m eixample.server.settings`; do not edit -->\n"
END = "<!-- end of the settings reference -->\n"
DEPLOY_DOC = Path(__file__).resolve().parents[3] / "docs" / "deploy.md"


def with_reference(document: str) -> str:
    """`document` with the text between the markers replaced by `reference()`."""
    start = document.index(BEGIN) + len(BEGIN)
    end = document.index(END, start)
    return document[:start] + "\n" + reference() + "\n" + document[end:]


def main() -> None:
    text = DEPLOY_DOC.read_text()
    updated = with_reference(text)
    if updated != text:
        DEPLOY_DOC.write_text(updated)
        print(f"updated {DEPLOY_DOC}", file=sys.stderr)


if __name__ == "__main__":
    from eixample.server import settings  # the package's module, whose source pydantic reads

    settings.main()
