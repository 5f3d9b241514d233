"""Load benchmark: N concurrent tables of bots playing over real WebSockets on loopback.

Starts ``citadels serve`` in a subprocess (SQLite in a temporary directory unless ``--db`` is
given), creates N tables, and plays them: ``--clients`` seats of every table are remote bots
connected over WebSockets (random legal actions), the other seats are the server's own bots.
A finished table is replaced by a new one until ``--seconds`` have passed. Reports games
completed, actions per second (all seats) and the latency of the clients' actions (from
sending ``act`` to receiving its acknowledged ``update``), p50 and p99, and the server's CPU
time per action.

Saturation (everyone acts at once; the server's throughput), and real play (the WebSocket
players think for an exponential time of mean ``--think`` seconds before each action;
``--bot-delay`` paces the server's bots as ``ServerConfig.bot_delay`` does):

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 60
    .venv/bin/python benchmarks/load.py --tables 200 --seconds 60 --think 2

Figures measured on the project's 2-core machine are in docs/deploy.md.

This is a benchmark, not a test: nothing fails on a slow machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from citadels.server.client import PlayerClient


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# With --profile: the server's event-loop thread is profiled in CPU time (not wall time, so a
# wait for a core or for the disk counts for nothing) from SIGUSR1 until SIGUSR2, which also
# writes the pstats file named in the environment.
PROFILER = (
    "import cProfile, os, signal, time; _prof = cProfile.Profile(time.thread_time); "
    "signal.signal(signal.SIGUSR1, lambda *_: _prof.enable()); "
    "signal.signal(signal.SIGUSR2, lambda *_: (_prof.disable(), "
    "_prof.dump_stats(os.environ['LOAD_PROFILE']))); "
)


def start_server(
    db: str, port: int, workers: int, log: Path, bot_delay: float = 0.0,
    profile: Path | None = None,
) -> subprocess.Popen[bytes]:  # fmt: skip
    code = (PROFILER if profile else "") + (
        "import sys; from citadels.server import ServerConfig, serve; "
        "from citadels.server.limits import Limits; "
        "serve(ServerConfig(db=sys.argv[1], bot_workers=int(sys.argv[2]), grace=60, "
        "bot_delay=float(sys.argv[4]), limits=Limits(throttle=False)), "
        "port=int(sys.argv[3]), announce=False)"
    )
    env = dict(os.environ, LOAD_PROFILE=str(profile)) if profile else None
    proc = subprocess.Popen(
        [sys.executable, "-c", code, db, str(workers), str(port), str(bot_delay)],
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.actions = 0
        self.latencies: list[float] = []  # after the ramp-up: the steady state
        self.all_latencies: list[float] = []  # the ramp-up included
        self.errors: dict[str, int] = {}
        self.steady_from = 0.0  # perf_counter() time at which the ramp-up is over


class TimedClient(PlayerClient):
    """A client that also notes when each acknowledgement arrived."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.acked_at: list[float] = []

    def _fold(self, msg: dict[str, Any]) -> None:
        before = len(self.latencies)
        super()._fold(msg)
        if len(self.latencies) > before:
            self.acked_at.append(time.perf_counter())


async def post(http: httpx.AsyncClient, url: str, **kw: Any) -> httpx.Response:
    """POST, trying again when a kept-alive connection was closed under the request."""
    for attempt in range(3):
        try:
            return await http.post(url, **kw)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def one_table(
    http: httpx.AsyncClient, base: str, args: argparse.Namespace, seed: int, stats: Stats,
    stop_at: float,
) -> None:  # fmt: skip
    rng = random.Random(seed)
    players = args.players
    bots = {str(s): args.bot_level for s in range(args.clients, players)}
    r = await post(http, "/api/tables", json={
        "name": "Load 0", "edition": args.edition, "players": players, "bots": bots,
        "public": False,
    })  # fmt: skip
    made = r.json()
    code, tokens = made["code"], [made["token"]]
    for s in range(1, args.clients):
        r = await post(http, f"/api/tables/{code}/join", json={"name": f"Load {s}", "seat": s})
        tokens.append(r.json()["token"])
    clients = [TimedClient(base, code, tok, seed=rng.randrange(1 << 30)) for tok in tokens]
    for c in clients:
        await c.connect()
    await post(http, f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"})

    async def play(c: PlayerClient) -> None:
        acted = -1
        while c.result is None and time.monotonic() < stop_at:
            if c.legal and c.version != acted:
                if args.think > 0:
                    # A person thinks before acting: exponential, with mean --think seconds.
                    await asyncio.sleep(min(c.rng.expovariate(1 / args.think), 10 * args.think))
                    if time.monotonic() >= stop_at:
                        return
                acted = c.version
                # Within the server's frames per connection (session.RATE), as any client
                # must be: with the bots' moves chained, a table can offer its player a
                # decision every few milliseconds when nobody thinks.
                await c.pace()
                await c.act(c.rng.choice(c.legal)["action"])
            try:
                msg = await c.recv(timeout=max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            if msg["type"] == "error":
                stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
                acted = -1

    await asyncio.gather(*(play(c) for c in clients))
    for c in clients:
        stats.all_latencies.extend(c.latencies)
        stats.latencies.extend(
            lat for lat, at in zip(c.latencies, c.acked_at, strict=True) if at >= stats.steady_from
        )
        await c.close()
    stats.actions += clients[0].version
    if clients[0].result is not None:
        stats.games += 1


async def profile_steady_state(pid: int, ramp: float, stop_at: float) -> None:
    """Profile the server from the end of the ramp-up to the end of the run."""
    await asyncio.sleep(ramp)
    os.kill(pid, signal.SIGUSR1)
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    os.kill(pid, signal.SIGUSR2)


async def run(args: argparse.Namespace, base: str, server_pid: int | None = None) -> Stats:
    stats = Stats()
    start = time.monotonic()
    stop_at = start + args.seconds
    stats.steady_from = time.perf_counter() + args.ramp
    if args.profile and server_pid is not None:
        profiling = asyncio.create_task(profile_steady_state(server_pid, args.ramp, stop_at))
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def lane(i: int) -> None:
            # The tables open one after another over the ramp-up, as players arrive.
            await asyncio.sleep(args.ramp * i / args.tables)
            n = 0
            while time.monotonic() < stop_at and (args.games is None or stats.games < args.games):
                await one_table(http, base, args, i * 100_000 + n, stats, stop_at)
                n += 1

        await asyncio.gather(*(lane(i) for i in range(args.tables)))
    if args.profile and server_pid is not None:
        await profiling
    stats.elapsed = time.monotonic() - start  # type: ignore[attr-defined]
    return stats


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200, help="concurrent tables")
    p.add_argument("--seconds", type=float, default=60.0, help="how long to run (bound)")
    p.add_argument("--games", type=int, default=None, help="stop after this many games")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--edition", default="classic")
    p.add_argument("--clients", type=int, default=1, help="WebSocket seats per table")
    p.add_argument("--bot-level", default="random", help="level of the server's bots")
    p.add_argument("--workers", type=int, default=2, help="the server's bot processes")
    p.add_argument(
        "--think", type=float, default=0.0,
        help="mean think time of the WebSocket players in seconds (exponential; 0: none)",
    )  # fmt: skip
    p.add_argument(
        "--bot-delay", type=float, default=0.0,
        help="the server's pause before a bot moves (ServerConfig.bot_delay), in seconds",
    )  # fmt: skip
    p.add_argument(
        "--ramp", type=float, default=10.0,
        help="seconds over which the tables open; latencies count after it (0: all at once)",
    )  # fmt: skip
    p.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--profile", type=Path, default=None,
        help="write a profile (pstats, CPU time) of the server's steady state to this file",
    )  # fmt: skip
    args = p.parse_args()
    if not 1 <= args.clients <= args.players:
        raise SystemExit("--clients must be 1 to --players")
    # The load generator's own pauses would count as the server's latency: with a thousand
    # tables its clients hold so much that each full collection of Python's garbage
    # collector stopped it for 0.25 to 1 s, every few seconds, and those pauses were the
    # measured p99. Its objects make few cycles and a run is bounded, so it collects none.
    gc.disable()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        port = free_port()
        profile = args.profile.resolve() if args.profile else None
        proc = start_server(
            db, port, args.workers, Path(tmp) / "server.log", args.bot_delay, profile
        )
        try:
            cpu0 = cpu_seconds(proc.pid)
            stats = asyncio.run(run(args, f"http://127.0.0.1:{port}", proc.pid))
            cpu1 = cpu_seconds(proc.pid)
            server_user, server_system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # bot workers left behind, if any
    lat = sorted(stats.latencies)
    everything = sorted(stats.all_latencies)

    def pct(q: float, lat: list[float] = lat) -> float:
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    elapsed = stats.elapsed  # type: ignore[attr-defined]
    report: dict[str, Any] = {
        "tables": args.tables,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "seconds": round(elapsed, 1),
        "games_completed": stats.games,
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "client_actions": len(lat),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p90": round(pct(0.90), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_p999": round(pct(0.999), 1),
        "latency_ms_max": round(pct(1.0), 1),
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "ramp_s": args.ramp,
        "latency_ms_p99_with_ramp": round(pct(0.99, everything), 1),
        "server_cpu_ms_per_action": round(
            (server_user + server_system) * 1000 / max(1, stats.actions), 2
        ),
        # The kernel's share (sockets, the loop's polling, the database's writes) apart.
        "server_system_ms_per_action": round(server_system * 1000 / max(1, stats.actions), 2),
        "client_cpu_seconds": round(time.process_time(), 1),
        "client_cpu_ms_per_action": round(time.process_time() * 1000 / max(1, stats.actions), 2),
        "errors": stats.errors,
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:>20}: {v}")


if __name__ == "__main__":
    main()
