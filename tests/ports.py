"""Loopback ports for the servers a test starts itself (a bot's webhook or metrics, a Redis of its own, a
Redis Cluster's nodes), chosen so that no two test processes that may run at once pick the same one.

A port asked of the kernel (bind to port 0, close, hand the number on) is free only at that instant: until the
server binds it, any other process may take it: another xdist worker choosing the same way, the Cluster step
beside the main suite, or simply an outgoing connection, whose local port the kernel takes from the same
ephemeral range (32768-60999 here). With some fifty processes and thousands of connections a run, that is a
rare "address already in use" in some test, never the same one.

So each test process draws from a block of its own below the ephemeral range: xdist worker ``gwN`` of the main
suite from block N, of the Cluster step (``TEST_REDIS=cluster``) from block 8 + N, the Cluster step in one
process from its own, a run without xdist from another. Inside a block
the ports are handed out in turn and each is checked to bind (one a killed server still holds is skipped).
A Cluster node's bus port (its port + 10000) falls in 24000-28499, which no block uses.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST = 10000
BLOCK = 500
WORKER_BLOCKS = 16
"""Blocks 10000-17999: the main suite's xdist workers gw0..gw7 take the first eight, the Cluster step's workers
(``TEST_REDIS=cluster``, run beside it) the last eight."""
CLUSTER_WORKERS = WORKER_BLOCKS // 2
CLUSTER_BLOCK = WORKER_BLOCKS
SOLO_BLOCK = WORKER_BLOCKS + 1
BUS_OFFSET = 10000
"""A Redis Cluster node's bus port is its port + 10000: below the ephemeral range too."""


def block() -> int:
    """This process's block: its xdist worker's number, or the Cluster step's, or the one of a plain run."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cluster = os.environ.get("TEST_REDIS") == "cluster"
    if worker.startswith("gw") and worker[2:].isdigit() and int(worker[2:]) < CLUSTER_WORKERS:
        return int(worker[2:]) + (CLUSTER_WORKERS if cluster else 0)
    if cluster:
        return CLUSTER_BLOCK
    return SOLO_BLOCK


def bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


_turn = itertools.count(os.getpid())
"""Where in the block the next search starts (a process started again does not begin where the last one did)."""


def free_port(bus: bool = False) -> int:
    """A loopback TCP port of this process's block that nothing holds now (with ``bus``: its +10000 too)."""
    start = FIRST + block() * BLOCK
    for _ in range(BLOCK):
        port = start + next(_turn) % BLOCK
        if bindable(port) and (not bus or bindable(port + BUS_OFFSET)):
            return port
    raise RuntimeError(f"no free port in {start}-{start + BLOCK - 1} (block {block()} of this test process)")


def free_ports(count: int, bus: bool = False) -> list[int]:
    """``count`` different ports, as ``free_port``."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port(bus)
        if port not in ports:
            ports.append(port)
    return ports
