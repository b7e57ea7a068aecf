from __future__ import annotations

from typer.testing import CliRunner, Result

from eixample.cli.main import app


def invoke(runner: CliRunner, *args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input)


def assert_clear_failure(result: Result, *phrases: str) -> None:
    """Exit code 2, a message naming the problem, and no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    text = " ".join(result.output.split())
    for phrase in phrases:
        assert phrase in text, text
