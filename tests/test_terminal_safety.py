"""User text never acts as Rich markup or terminal escapes in CLI output (issue 11, row 8)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ragaudit
from ragaudit.models import AuditRequest, Source
from ragaudit.render._safe import printable
from ragaudit.service.store import open_store

HOSTILE = (
    "[/x] [link=https://evil.example]click[/link] [bold red]loud \x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07"
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "ragaudit", *args], capture_output=True, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def assert_inert(output: str) -> None:
    """No escape sequence reached the output (Rich writes none when not on a terminal)."""
    assert "\x1b" not in output and "\x07" not in output
    assert "Traceback" not in output and "MarkupError" not in output


def test_text_report_shows_markup_and_escapes_literally(tmp_path: Path) -> None:
    request = {
        "answer": f"The plant opened in 2012 [/x]. {HOSTILE} It employs 500 people.",
        "sources": [
            {"id": "[/x]", "text": f"The plant opened in 2012. {HOSTILE}"},
            {"id": "[link=https://evil.example]2[/link]", "text": "It employs 500 people."},
        ],
    }
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request))
    proc = run("audit", str(path), "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert_inert(proc.stdout + proc.stderr)
    assert "[/x]" in proc.stdout and "[link=https://evil.example]" in proc.stdout and "␛[31m" in proc.stdout


def test_log_list_survives_a_hostile_trace_id(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audits.db'}"
    store = open_store(url)
    request = AuditRequest(answer="Paris is big.", sources=[Source(id="1", text="Paris is big.")])
    store.record_audit(ragaudit.Auditor().audit(request), request, trace_id="[/x]\x1b[2J", latency_ms=1.0)
    store.close()
    proc = run("log", "list", "--db", url)
    assert proc.returncode == 0, proc.stderr
    assert_inert(proc.stdout + proc.stderr)
    assert "[/x]" in proc.stdout


def test_error_line_with_markup_in_the_path_is_one_plain_line(tmp_path: Path) -> None:
    missing = tmp_path / "[" / "x]request.json"
    proc = run("audit", str(missing))
    assert proc.returncode == 2
    assert_inert(proc.stderr)
    assert len(proc.stderr.strip().splitlines()) == 1 and "[/x]request.json" in proc.stderr


def test_printable_keeps_length_so_offsets_hold() -> None:
    text = "a\x1b[1mb\x00c\x7fd\x85e\tf\ng"
    assert len(printable(text)) == len(text)
    assert "\x1b" not in printable(text) and "\t" in printable(text) and "\n" in printable(text)
