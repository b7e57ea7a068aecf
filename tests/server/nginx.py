"""Debian's nginx in front of test servers, with the configuration of docs/deploy.md: the test
takes the doc's `nginx` block and changes only what a test must (the upstream ports, a plain
listen on 127.0.0.1 instead of TLS on 443), so the doc's proxy settings are the ones tested.

nginx runs as the test's user with its configuration, pid file, logs and temporary files in a
temporary folder. A machine without nginx fails these tests with a message saying how to
install it (`make nginx`): they are never skipped.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.server.harness import free_port

NGINX = Path("/usr/sbin/nginx")
DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
DOC_PORTS = ("127.0.0.1:8001", "127.0.0.1:8002")


def doc_config() -> str:
    """The `nginx` block of docs/deploy.md's reverse proxy section."""
    text = DEPLOY_DOC.read_text()
    section = text[text.index("### The reverse proxy (nginx)"):]
    found = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert found, "docs/deploy.md has no ```nginx block in its reverse proxy section"
    return found.group(1)


def fail_timeout() -> float:
    """The seconds the doc's proxy leaves a process alone after it failed once (`fail_timeout`)."""
    found = re.search(r"fail_timeout=(\d+)s", doc_config())
    assert found, "the doc's upstream has no fail_timeout"
    return float(found.group(1))


def served_config(upstreams: list[int], listen: int) -> str:
    """The doc's configuration, served on 127.0.0.1:`listen` to the `upstreams` ports."""
    config = doc_config()
    for doc_port, port in zip(DOC_PORTS, upstreams, strict=True):
        assert f"server {doc_port} " in config, f"the doc's upstream {doc_port} moved"
        config = config.replace(f"server {doc_port} ", f"server 127.0.0.1:{port} ")
    assert "listen 443 ssl;" in config, "the doc's listen line changed"
    config = config.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen};")
    return "\n".join(line for line in config.splitlines() if not line.strip().startswith("ssl_"))


class Nginx:
    def __init__(self, upstreams: list[int]) -> None:
        if not NGINX.is_file():
            pytest.fail(f"nginx is not installed ({NGINX}): these tests need Debian's nginx; "
                        "run `make nginx` (apt-get install nginx-light)", pytrace=False)
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="eixample-nginx-"))
        self.process: subprocess.Popen[bytes] | None = None
        root = self.root
        user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
        temp = "\n".join(f"    {kind}_temp_path {root}/{kind};" for kind in
                         ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (root / "nginx.conf").write_text(
            f"{user}worker_processes 1;\ndaemon off;\npid {root}/nginx.pid;\n"
            f"error_log {root}/error.log info;\n"
            "events { worker_connections 512; }\n"
            f"http {{\n    access_log {root}/access.log;\n{temp}\n"
            f"{served_config(upstreams, self.port)}\n}}\n"
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Nginx:
        command = [str(NGINX), "-p", str(self.root), "-e", str(self.root / "error.log"),
                   "-c", str(self.root / "nginx.conf")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30, check=False)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.stderr.read() if self.process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen within 15 s: {self.error_log()}")

    def error_log(self) -> str:
        path = self.root / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None
        shutil.rmtree(self.root, ignore_errors=True)
