#!/usr/bin/env python3
"""Set up what is missing, then run the bot or the tests. Needs only Python 3.11+.

    python3 dev.py run             # the bot (BOT_TOKEN in the environment or in .env)
    python3 dev.py test [ARGS]     # the whole test suite (ARGS go to pytest)
    python3 dev.py readme          # rewrite the screens in docs/playing.md from the bot's own rendering
    python3 dev.py pictures        # draw the README's match card and rating chart (docs/*.png)
    python3 dev.py setup           # only set up .venv (CI, before it runs suites side by side)

Each creates ``.venv`` when it is missing and installs the project into it
when ``pyproject.toml`` changed since the last install.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".pyproject.sha256"
TEST_WORKERS = ["-n", "5", "--dist", "loadgroup"]
"""The suite runs in five processes (pytest-xdist) on two cores: its end-to-end and fault tests mostly wait; each
takes the next test as it is free, the longest first (``loadgroup``, tests/schedule.py). Five ran a fresh-clone CI
in 322 s where six took 362, four 340 and three 374 (docs/testing.md). ``-n 0`` after ``test`` runs it in one."""
COMMANDS = {
    "run": ["-m", "bot"],
    "test": ["-m", "pytest", "-q", *TEST_WORKERS],
    "readme": ["-m", "tests.readme_screens"],
    "pictures": ["-m", "tests.readme_pictures"],
    "setup": [],
}


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_environment() -> Path:
    """The venv's Python, after creating the venv and installing the project if needed."""
    python = venv_python()
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not python.exists():
        print(f"dev.py: creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        print("dev.py: installing the project and its dependencies into .venv (a minute at most)", flush=True)
        install(python)
        STAMP.write_text(wanted + "\n")
    return python


def install(python: Path) -> None:
    """Install the project with its test tools into the venv: with uv (installed into the venv by its pip) when
    the package index gives it, else with pip alone. uv resolves, downloads and compiles in parallel: about 15 s
    on a fresh clone here where pip takes 45."""
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    uv = python.with_name("uv.exe" if os.name == "nt" else "uv")
    if subprocess.run([*pip, "uv>=0.4"], cwd=ROOT).returncode == 0 and uv.exists():
        command = [str(uv), "pip", "install", "--quiet", "--python", str(python), "--compile-bytecode"]
        if subprocess.run([*command, "-e", ".[dev]"], cwd=ROOT).returncode == 0:
            return
        print("dev.py: uv could not install the project; trying pip", flush=True)
    subprocess.run([*pip, "-e", ".[dev]"], check=True, cwd=ROOT)


BROWSERS = ("chromium", "chromium-browser")
"""What the Mini App's browser tests drive (tests/e2e/browser.py): Debian's chromium."""


def ensure_browser() -> None:
    """Install Debian's chromium with apt when it is missing and this runs as root (CI, a container); elsewhere
    say how: the browser tests are skipped without it (CI, where ``REQUIRE_BROWSER`` is set, fails instead)."""
    if any(shutil.which(name) for name in BROWSERS) or os.name == "nt":
        return
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        print("dev.py: no chromium; the Mini App's browser tests are skipped (apt-get install chromium)", flush=True)
        return
    print("dev.py: installing chromium with apt (the Mini App's browser tests)", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [apt, "install", "-y", "-q", "--no-install-recommends", "chromium"]
    quiet = {"stdout": subprocess.DEVNULL, "env": env}
    if subprocess.run(install, **quiet).returncode != 0:  # type: ignore[call-overload]
        subprocess.run([apt, "update", "-q"], **quiet)  # type: ignore[call-overload]
        if subprocess.run(install, **quiet).returncode != 0:  # type: ignore[call-overload]
            print("dev.py: chromium could not be installed; the browser tests are skipped", flush=True)


def main() -> int:
    if len(sys.argv) >= 2 and sys.argv[1] in ("-h", "--help", "help"):
        print("usage: python3 dev.py {run,test,readme,pictures,setup} [ARGS]\n")
        print(__doc__.strip().split("\n\n")[1])
        return 0
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print("usage: python3 dev.py {run,test,readme,pictures,setup} [ARGS]\n", file=sys.stderr)
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py may be started by an older Python)
        print(f"dev.py: Python 3.11 or newer is needed (this is {sys.version.split()[0]})", file=sys.stderr)
        return 2
    try:
        python = ensure_environment()
    except subprocess.CalledProcessError as error:
        print(f"dev.py: installing failed (exit code {error.returncode}); see pip's output above", file=sys.stderr)
        return 1
    if sys.argv[1] in ("setup", "test"):
        ensure_browser()
    if sys.argv[1] == "setup":
        return 0
    command = [str(python), *COMMANDS[sys.argv[1]], *sys.argv[2:]]
    if os.name == "nt":
        return subprocess.call(command, cwd=ROOT)
    os.chdir(ROOT)
    os.execv(command[0], command)


if __name__ == "__main__":
    sys.exit(main())
