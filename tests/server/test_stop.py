"""Stopping ``citadels serve``: Ctrl+C (SIGINT to the whole process group, as a terminal sends
it) and SIGTERM (to the server alone, as ``kill`` or a container runtime, or to its group, as
systemd) end it with exit status 0, one line, and no traceback from it or its bot workers."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import free_port


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _idle_worker(pid: int) -> bool:
    """Whether a bot worker of the server ``pid`` has started and now waits for work: it
    sleeps and its CPU time stays the same over a few looks (it is done importing)."""
    for child in _children(pid):
        with contextlib.suppress(OSError):
            if b"multiprocessing.spawn" not in Path(f"/proc/{child}/cmdline").read_bytes():
                continue
            looks = []
            for _ in range(3):
                stat = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
                looks.append((stat[0], stat[11], stat[12]))  # state, utime, stime
                time.sleep(0.2)
            if all(look == looks[0] for look in looks) and looks[0][0] == "S":
                return True
    return False


STOPPED = {"en": "Citadels server stopped.", "ru": "Сервер «Цитаделей» остановлен."}


@pytest.mark.parametrize(
    ("sig", "group", "lang"),
    [(signal.SIGINT, True, "en"), (signal.SIGTERM, False, "ru"), (signal.SIGTERM, True, "en")],
    ids=["ctrl-c", "sigterm", "sigterm-group"],
)
def test_a_signal_stops_the_server_with_one_line(
    tmp_path: Path, sig: signal.Signals, group: bool, lang: str
) -> None:
    port = free_port()
    instance = uuid.uuid4().hex
    proc = subprocess.Popen(
        [sys.executable, "-m", "citadels", "serve", "--port", str(port), "--bot-workers", "1",
         "--db", f"sqlite:///{tmp_path / 'stop.sqlite3'}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        start_new_session=True, env={**os.environ, "CITADELS_INSTANCE": instance, "LANGUAGE": lang},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        up = False
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(httpx.HTTPError):
                r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                up = r.status_code == 200 and r.json().get("instance") == instance
            if up and _idle_worker(proc.pid):
                break
            time.sleep(0.1)
        assert up and proc.poll() is None, "the server did not start"
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip() == ""
    lines = out.splitlines()
    assert len(lines) == 2 and f"http://127.0.0.1:{port}/" in lines[0]
    assert lines[1] == STOPPED[lang]
    assert proc.returncode == 0
