"""A Redis server of the fault suite's own, on a loopback port, that a test stops, pauses and rolls back.

It keeps an append-only file (``appendfsync everysec``, as the compose file's
Redis does), so ``SHUTDOWN NOSAVE`` and a start again lose nothing; ``pause``
is SIGSTOP (the server hangs: connections open, no answers), ``snapshot`` and
``roll_back`` put the server back to an earlier moment (what a power cut
that lost the AOF's last second, or a failover to a lagging replica, does).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from bot.storage.embedded import redis_server_binary
from tests.ports import free_port


class ControlledRedis:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.paused = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def start(self, *, appendonly: bool = True) -> None:
        """Start the server on its port and directory (loading what it kept there); return once it answers."""
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [
                redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
                "--save", "", "--appendonly", "yes" if appendonly else "no", "--appendfsync", "everysec",
                "--logfile", str(self.directory / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while True:
            try:
                with self._client() as client:
                    if client.ping():
                        return
            except redis.RedisError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (self.directory / "redis.log").read_text(errors="replace")
                raise AssertionError(f"redis-server did not start on {self.port}:\n{log}")
            time.sleep(0.02)

    def shutdown_nosave(self) -> None:
        """``SHUTDOWN NOSAVE``: the server exits at once (its AOF has every write it answered)."""
        assert self.process is not None
        self.resume()
        try:
            with self._client() as client:
                client.shutdown(nosave=True)
        except redis.RedisError:
            pass
        self._wait_exit()

    def kill(self) -> None:
        """SIGKILL (the end of a test)."""
        if self.process is not None:
            self.process.kill()
            self._wait_exit()

    def _wait_exit(self) -> None:
        assert self.process is not None
        self.process.wait(timeout=20)
        self.process = None
        self.paused = False

    def pause(self) -> None:
        """SIGSTOP: the server hangs (the kernel still accepts connections; nothing answers)."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        if self.process is not None and self.paused:
            os.kill(self.process.pid, signal.SIGCONT)
            self.paused = False

    def snapshot(self) -> Path:
        """The data as it is now, saved aside (``SAVE``: one consistent moment)."""
        with self._client() as client:
            client.save()
        saved = self.directory / f"snapshot-{time.monotonic_ns()}.rdb"
        shutil.copyfile(self.directory / "dump.rdb", saved)
        return saved

    def roll_back(self, snapshot: Path) -> None:
        """Lose every write since ``snapshot``: the server dies, and starts again from that moment."""
        self.shutdown_nosave()
        shutil.rmtree(self.directory / "appendonlydir", ignore_errors=True)  # Redis 7
        (self.directory / "appendonly.aof").unlink(missing_ok=True)  # Redis 6
        shutil.copyfile(snapshot, self.directory / "dump.rdb")
        self.start(appendonly=False)

    def keys(self) -> int:
        with self._client() as client:
            return int(client.dbsize())


@contextlib.contextmanager
def redis_of_its_own(prefix: str, *, appendonly: bool = True) -> Iterator[ControlledRedis]:
    """A started server in a directory of its own (gone at the end, with everything in it)."""
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    server = ControlledRedis(directory)
    server.start(appendonly=appendonly)
    try:
        yield server
    finally:
        server.resume()
        server.kill()
        shutil.rmtree(directory, ignore_errors=True)
