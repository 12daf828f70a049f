"""A throwaway PostgreSQL cluster for tests, from Debian's `postgresql` package.

`initdb` and `pg_ctl` run in a temporary folder as a non-root user (`postgres` when the tests
run as root: the server refuses to run as root), listening on a free loopback port. Each
test that needs a database gets a fresh one (`new_database`). `.ci/run` installs the package
when it is missing; without it these tests skip and say why.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "gds_test"
PASSWORD = "pw-" + secrets.token_hex(8)


def find_bindir() -> Path | None:
    """Return the folder of initdb/pg_ctl of the newest installed PostgreSQL, or None."""
    installed = Path("/usr/lib/postgresql").glob("*/bin/initdb")
    candidates = sorted(
        (p for p in installed if p.parent.parent.name.isdigit()),
        key=lambda p: int(p.parent.parent.name),
        reverse=True,
    )
    if candidates:
        return candidates[0].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def unavailable_reason() -> str | None:
    """Return why no cluster can be started here, or None when one can."""
    if find_bindir() is None:
        return "PostgreSQL is not installed (Debian package `postgresql`; .ci/run installs it)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a `postgres` user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root without `runuser` to start the server as `postgres`"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One PostgreSQL server in a temporary folder; `start`, `stop`, `new_database`."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="gds-postgres-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_root = os.geteuid() == 0
        self._counter = 0
        if self._as_root:
            os.chmod(self.root, 0o755)
            shutil.chown(self.root, "postgres", "postgres")

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if self._as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        password_file = self.root / "pwfile"
        password_file.write_text(PASSWORD + "\n")
        if self._as_root:
            shutil.chown(password_file, "postgres", "postgres")
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--pwfile",
            str(password_file),
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
        )
        password_file.unlink()

    @property
    def socket_dir(self) -> Path:
        return self.root

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        return f"postgresql://{SUPERUSER}:{password}@127.0.0.1:{self.port}/{database}"

    def new_database(self, template: str | None = None) -> str:
        """Create a database (empty, or a copy of database `template`) and return its URL."""
        import psycopg

        self._counter += 1
        name = f"gds_test_{os.getpid()}_{self._counter}"
        copy = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def remove(self) -> None:
        self.stop("immediate")
        with contextlib.suppress(OSError):
            shutil.rmtree(self.root)


def start_cluster() -> Cluster:
    cluster = Cluster()
    try:
        cluster.init()
        cluster.start()
    except BaseException:
        cluster.remove()
        raise
    return cluster
