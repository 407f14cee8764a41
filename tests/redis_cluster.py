"""A Redis Cluster of three masters on loopback ports, for the suites run with ``TEST_REDIS=cluster``.

    TEST_REDIS=cluster .venv/bin/python -m pytest -q tests/bot tests/e2e
    .venv/bin/python -m tests.redis_cluster      # start one, print its URL, stop it on Enter

Each node is a ``redis-server --cluster-enabled yes`` in a temporary
directory (nothing kept on disk); ``redis-cli --cluster create`` joins them
and hands out the 16384 slots; the cluster is used once every node says
``cluster_state:ok``. The nodes die with the process that started them, however it ends (a worker that exits
without running its ``atexit`` handlers left a cluster running after a CI run of 2026-12-08).
"""

from __future__ import annotations

import ctypes
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from tests.ports import free_ports

MASTERS = 3
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child, before it runs the server: the kernel kills it when its parent dies (Linux). The parent is
    the thread that started it: the tests start their Cluster from the main thread (``tests.redis_server``)."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class RedisCluster:
    """Three masters, no replicas, on 127.0.0.1."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="domino-test-cluster-"))
        self.ports = free_ports(MASTERS, bus=True)
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def start(self) -> str:
        """Start the nodes and make them a cluster; its URL (everything is stopped if that fails)."""
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> str:
        server = shutil.which("redis-server")
        cli = shutil.which("redis-cli")
        if server is None or cli is None:
            raise RuntimeError("a Redis Cluster needs redis-server and redis-cli on PATH")
        for port in self.ports:
            node = self.directory / str(port)
            node.mkdir()
            options = {
                "port": port,
                "bind": "127.0.0.1",
                "cluster-enabled": "yes",
                "cluster-config-file": node / "nodes.conf",
                # How long a node may not answer its peers before they mark it failed; with no replicas the
                # cluster then refuses every command until it is cleared. CI runs the cluster step niced beside
                # the main suite on two cores, where a node can go unscheduled for seconds: not 2 s, then.
                "cluster-node-timeout": 15000,
                "save": "",
                "appendonly": "no",
                "dir": node,
            }
            command = [server, *(x for name, value in options.items() for x in (f"--{name}", str(value)))]
            self.processes.append(
                subprocess.Popen(
                    command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent
                )
            )
        for port in self.ports:
            self._wait(port, lambda client: bool(client.ping()))
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [cli, "--cluster", "create", *nodes, "--cluster-replicas", "0", "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for port in self.ports:
            self._wait(port, lambda client: client.cluster("INFO").get("cluster_state") == "ok")
        return self.url

    @staticmethod
    def _wait(port: int, ready: object, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        client = redis.Redis(port=port, socket_timeout=1)
        try:
            while True:
                try:
                    if ready(client):  # type: ignore[operator]
                        return
                except redis.RedisError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the cluster node on port {port} is not ready after {seconds:.0f} s")
                time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


if __name__ == "__main__":
    cluster = RedisCluster()
    print(cluster.start(), flush=True)
    try:
        input("a Redis Cluster is running; Enter stops it\n")
    finally:
        cluster.stop()
