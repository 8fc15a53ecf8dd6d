"""What benchmarks/listings_ingest.py measures beside the wall time: the CPU of a phase (its own
process and workers, and the PostgreSQL processes working for its database), the rows a phase
wrote in every table, and the COPY limit of exactly those rows."""

from __future__ import annotations

import os
import resource
import threading
import time
from pathlib import Path

import psycopg

# The schemas whose tables the listings import writes (its own scratch tables go elsewhere).
_TABLES = """SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind = 'r' AND n.nspname IN ('public', 'pipeline', 'staging') ORDER BY 1"""
# PostgreSQL's own processes, working for every database of the server (WAL, dirty pages).
_SERVER_PROCESSES = ("checkpointer", "background writer", "walwriter", "autovacuum launcher")


def busy_core_s() -> float | None:
    """The machine's busy CPU seconds so far, over all cores (Linux's /proc/stat: all but idle and
    I/O wait); None elsewhere."""
    try:
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """Core-seconds a phase spends: by the run's process, by its ended children (the stage's
    workers) and, on Linux, by the whole machine (PostgreSQL and the rest: the difference), sampled
    every 0.1 s so that each asset's share of the cores can be read off (`between`)."""

    def __init__(self):
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while True:
            busy = busy_core_s()
            if busy is not None:
                self.samples.append((time.time(), busy))
            if busy is None or self._stop.wait(0.1):
                return

    def __enter__(self) -> CpuMeter:
        self._rusage = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        own, workers = ((u.ru_utime + u.ru_stime) - (b.ru_utime + b.ru_stime) for u, b in
                        zip((resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)),
                            self._rusage))
        self.spent = {"own": round(own, 2), "workers": round(workers, 2)}
        if len(self.samples) > 1:
            (t0, b0), (t1, b1) = self.samples[0], self.samples[-1]
            self.spent.update(busy=round(b1 - b0, 1), rest=round(b1 - b0 - own - workers, 1),
                              use=round((b1 - b0) / ((t1 - t0) * (os.cpu_count() or 1)), 2))

    def between(self, start: float, end: float) -> float | None:
        """Cores busy on average between two time.time() instants (2.0: two cores throughout)."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        return round((inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]), 2)


def _cpu_s(pid: int) -> tuple[float, float] | None:
    """A process's own CPU seconds and those of its children it has reaped; None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


class PgCpu:
    """Core-seconds the PostgreSQL server spends while a phase runs (Linux, the server on this
    machine), from /proc every 10 ms: `database`, its processes whose title names the phase's
    database (backends, autovacuum) and their parallel workers; `server`, its own processes
    (checkpointer, WAL and background writers), which serve every database, ours included;
    `unattributed`, processes that started and ended between two samples, whoever they served.
    A process's CPU after its last sample is found when the postmaster reaps it (its children's
    time grows by their whole CPU) and goes to the kind of the processes ended in that interval."""

    def __init__(self, db_url: str):
        with psycopg.connect(db_url) as conn:
            backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            self._db = f" {conn.info.dbname} "
            # read while the backend lives: once the connection closes its /proc entry goes
            self._postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
        self._kinds: dict[int, str] = {}
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._alive: set[int] = set()
        self._tails = {"database": 0.0, "server": 0.0, "other": 0.0, "unattributed": 0.0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _kind(self, pid: int) -> str | None:
        if pid not in self._kinds:
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                return None
            if not title.startswith("postgres: "):  # forked, its title not set yet
                return None
            leader = title.split("parallel worker for PID ", 1)[1:]
            self._kinds[pid] = ("database" if self._db in title or (leader and self._kinds.get(int(leader[0])) == "database")
                                else "server" if any(p in title for p in _SERVER_PROCESSES) else "other")
        return self._kinds[pid]

    def _sample(self, start: bool = False) -> None:
        pm = self._postmaster
        reaped = _cpu_s(pm)[1]
        children = set(map(int, Path(f"/proc/{pm}/task/{pm}/children").read_text().split()))
        for pid in children:
            if (cpu := _cpu_s(pid)) is not None and self._kind(pid) is not None:
                self._first.setdefault(pid, cpu[0] if start else 0.0)
                self._last[pid] = cpu[0]
        if not start:
            ended = [self._kinds[p] for p in self._alive - children]
            tail = reaped - self._reaped - sum(self._last[p] for p in self._alive - children)
            for kind in ended or ["unattributed"]:
                self._tails[kind] += tail / (len(ended) or 1)
        self._alive, self._reaped = children & self._last.keys(), reaped

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            self._sample()

    def __enter__(self) -> PgCpu:
        self._sample(start=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        spent = dict(self._tails)
        for pid, last in self._last.items():
            spent[self._kinds[pid]] += last - self._first[pid]
        self.spent = {k: round(spent[k], 2) for k in ("database", "server", "unattributed")}


def table_rows(conn: psycopg.Connection) -> dict[str, int]:
    """Every table of the pipeline's schemas with its row count."""
    tables = [t for (t,) in conn.execute(_TABLES)]
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


def export_rows(db_url: str, written: dict[str, int], folder: Path) -> None:
    """`written[t]` rows of each table t, in COPY's text format, one file a table (not timed)."""
    with psycopg.connect(db_url) as conn, conn.cursor() as cur:
        for k, (table, n) in enumerate(written.items()):
            with cur.copy(f"COPY (SELECT * FROM {table} LIMIT {int(n)}) TO STDOUT") as copy, \
                    (folder / f"{k}.copy").open("wb") as fh:
                for data in copy:
                    fh.write(data)


def copy_rows_s(db_url: str, written: dict[str, int], folder: Path, indexed: bool = False) -> float:
    """Seconds to COPY the exported rows into copies of their tables (same columns and types; no
    constraint but NOT NULL, trigger or default), in one transaction; `indexed`: with the tables'
    indexes too (LIKE ... INCLUDING INDEXES: B-trees, trigram GIN, partial and unique ones)."""
    schema = "all_rows_indexed" if indexed else "all_rows_copy"
    like = " INCLUDING INDEXES" if indexed else ""
    with psycopg.connect(db_url) as conn, conn.cursor() as cur:
        cur.execute(f"CREATE SCHEMA {schema}")
        for k, table in enumerate(written):
            cur.execute(f"CREATE TABLE {schema}.t{k} (LIKE {table}{like})")
        conn.commit()
        started = time.perf_counter()
        for k in range(len(written)):
            with cur.copy(f"COPY {schema}.t{k} FROM STDIN") as copy, (folder / f"{k}.copy").open("rb") as fh:
                while chunk := fh.read(1 << 20):
                    copy.write(chunk)
        conn.commit()
        return time.perf_counter() - started
