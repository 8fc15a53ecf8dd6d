"""What a production day is measured by: CPU and memory of the processes (sampled from /proc), the
runs' lock waits (from their logs), and the records' ends in the database (live, error row or
review item) against the generator's truth."""

from __future__ import annotations

import os
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field

import psycopg

TICK = os.sysconf("SC_CLK_TCK")
WAITED = re.compile(r"waited ([0-9.]+) s for .* \(lock (\w+)\)$")
ROLLED_BACK = re.compile(r"promotion try \d+ of \d+ rolled back")


def _cpu_s(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK   # utime, stime


def _status(pid: int) -> tuple[int, int, int] | None:
    """(parent pid, VmHWM kB, VmRSS kB)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            text = fh.read()
    except OSError:
        return None
    values = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    kb = lambda name: int(values.get(name, "0 kB").split()[0])  # noqa: E731
    return int(values["PPid"]), kb("VmHWM"), kb("VmRSS")


def _kind(pid: int, parent_kind: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    if "execute_run" in cmd or "execute_step" in cmd:
        return "run"
    if "multiprocessing" in cmd or "spawn_main" in cmd:   # the code server spawns runs; runs spawn workers
        return "run" if parent_kind == "code server" else "worker"
    if "dagster-daemon" in cmd or "dagster_daemon" in cmd:
        return "daemon"
    if "grpc" in cmd or "code-server" in cmd or "code_server" in cmd:
        return "code server"
    return "other"


def _postmaster() -> int | None:
    """The PostgreSQL server's first process (a `postgres` whose parent is not one)."""
    comms = {}
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/comm") as fh:
                comms[int(name)] = fh.read().strip()
        except (OSError, ValueError):
            continue
    for pid, comm in comms.items():
        if comm == "postgres" and (status := _status(pid)) and comms.get(status[0]) != "postgres":
            return pid
    return None


def _server_cpu_s(postmaster: int | None) -> float:
    """CPU seconds of the whole server: the postmaster, its ended children (cutime, cstime) and
    its live ones. Backends live one connection each, mostly shorter than a sample."""
    if postmaster is None:
        return 0.0
    try:
        with open(f"/proc/{postmaster}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    total = sum(int(f) for f in fields[11:15]) / TICK   # utime, stime, cutime, cstime
    for name in os.listdir("/proc"):
        if name.isdigit() and (status := _status(int(name))) and status[0] == postmaster:
            total += _cpu_s(int(name)) or 0.0
    return total


@dataclass
class Sampler:
    """Every second: the CPU of the PostgreSQL server (all of it: on a shared machine other
    databases' work counts too) and of every process under `root` (the daemon: its code server,
    runs and their stage workers), and each one's peak RSS. A process's last second before it
    exits is lost: the pipeline's figure is a little low."""
    admin_url: str
    databases: list[str]
    root: int
    interval_s: float = 1.0
    pg_cpu: dict[int, float] = field(default_factory=dict)
    tree_cpu: dict[int, float] = field(default_factory=dict)
    peak_kb: dict[int, tuple[str, int]] = field(default_factory=dict)
    parent: dict[int, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Sampler:
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()

    def _loop(self) -> None:
        postmaster = _postmaster()
        start = _server_cpu_s(postmaster)
        while not self._stop.wait(self.interval_s):
            self.pg_cpu = {0: _server_cpu_s(postmaster) - start}
            self._sample_tree()

    def _sample_tree(self) -> None:
        parents = {}
        for name in os.listdir("/proc"):
            if name.isdigit() and (status := _status(int(name))) is not None:
                parents[int(name)] = status
        tree, frontier = set(), {self.root}
        while frontier:
            tree |= frontier
            frontier = {pid for pid, (ppid, _, _) in parents.items() if ppid in frontier} - tree
        for pid in tree:
            if (cpu := _cpu_s(pid)) is not None:
                self.tree_cpu[pid] = cpu
            self.parent[pid] = parents.get(pid, (0, 0, 0))[0]
            parent = self.peak_kb.get(self.parent[pid], ("", 0))[0]
            kind = self.peak_kb[pid][0] if pid in self.peak_kb else _kind(pid, parent)
            self.peak_kb[pid] = (kind, max(parents.get(pid, (0, 0, 0))[1], self.peak_kb.get(pid, ("", 0))[1]))

    def figures(self, wall_s: float, steps: dict[int, str] | None = None) -> dict:
        """`steps`: the step key run by each step's process (step_processes); a process a step's
        process spawned is a stage worker."""
        pg, tree = sum(self.pg_cpu.values()), sum(self.tree_cpu.values())
        steps = steps or {}
        peaks: dict[str, int] = defaultdict(int)
        by_step: dict[str, int] = defaultdict(int)
        for pid, (kind, kb) in self.peak_kb.items():
            if (step := steps.get(pid)) is not None:
                kind = "run" if kind == "run" else "step"   # a run's own pid: its steps ran in it
                by_step[step] = max(by_step[step], kb)
            elif self.parent.get(pid, 0) in steps:
                kind = "stage worker"
            peaks[kind] = max(peaks[kind], kb)
        return {"pg_cpu_s": round(pg, 1), "pipeline_cpu_s": round(tree, 1),
                "pg_cpu_share": round(pg / (pg + tree), 3) if pg + tree else None,
                "pg_cores": round(pg / wall_s, 2) if wall_s else None,
                "peak_rss_mb": round(peaks.get("run", 0) / 1024, 1),
                "peak_rss_mb_by_process": {k: round(v / 1024, 1) for k, v in sorted(peaks.items())},
                "peak_rss_mb_by_step": {k: round(v / 1024, 1) for k, v in sorted(by_step.items(), key=lambda i: -i[1])},
                "run_processes": sum(1 for kind, _ in self.peak_kb.values() if kind == "run")}


def step_processes(instance) -> dict[int, str]:
    """The process of each step of the instance's runs, by pid: its STEP_START event names it."""
    from dagster import DagsterEventType

    out: dict[int, str] = {}
    for record in instance.get_run_records():
        started = instance.get_records_for_run(record.dagster_run.run_id, of_type=DagsterEventType.STEP_START)
        for entry in started.records:
            if (event := entry.event_log_entry.dagster_event) is not None and event.pid:
                out[event.pid] = event.step_key
    return out


def lock_waits(instance, run_ids: list[str]) -> tuple[dict[str, float], dict[str, dict[str, float]], int]:
    """(seconds waited by lock over the runs, and by run; promotion tries rolled back): the
    `waited ... (lock X)` lines that listings/locks.py writes to the run's log, and promote.py's."""
    total: dict[str, float] = defaultdict(float)
    by_run: dict[str, dict[str, float]] = {}
    rolled_back = 0
    for run_id in run_ids:
        waits: dict[str, float] = defaultdict(float)
        for entry in instance.all_logs(run_id):
            message = (entry.user_message or "").strip()
            rolled_back += bool(ROLLED_BACK.search(message))
            if m := WAITED.search(message):
                waits[m.group(2)] += float(m.group(1))
        by_run[run_id] = dict(waits)
        for lock, seconds in waits.items():
            total[lock] += seconds
    return dict(total), by_run, rolled_back


ACCOUNTED = """
SELECT count(*) FILTER (WHERE how = 'live'), count(*) FILTER (WHERE how = 'review'),
       count(*) FILTER (WHERE how = 'error')
  FROM (SELECT DISTINCT ON (sid) sid, how FROM (
          SELECT li.external_source_id AS sid, 'live' AS how, 1 AS rank FROM public.listing_info li
           WHERE li.dmo_id = %(dmo)s AND li.info_visible AND li.external_source_id IS NOT NULL
          UNION ALL
          SELECT s.source_id, 'live', 1 FROM staging.listings s
           WHERE s.dmo_id = %(dmo)s AND s.action = 'duplicate' AND s.promoted_at IS NOT NULL
          UNION ALL
          SELECT s.source_id, 'review', 2 FROM staging.listings s
           WHERE s.dmo_id = %(dmo)s AND s.review_status = 'pending' AND s.row_kind <> 'deletion'
          UNION ALL
          SELECT coalesce(e.record_id, 'record ' || e.rec_num), 'error', 3 FROM pipeline.job_errors e
            JOIN pipeline.jobs j ON j.id = e.job_id WHERE j.dmo_id = %(dmo)s) ends
         ORDER BY sid, rank) one_end_each
"""
LIVE_LISTING = """
SELECT li.external_source_id, li.listing_id FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
 WHERE d.slug = %s AND li.info_visible
"""


def accounted(conn: psycopg.Connection, day) -> dict[str, dict[str, int]]:
    """Per DMO: records sent, live, in review, error rows, and lost (sent, not accounted for)."""
    ids = dict(conn.execute("SELECT slug, id FROM public.dmos").fetchall())
    out = {}
    for plan in day.dmos:
        live, review, errors = conn.execute(ACCOUNTED, {"dmo": ids[plan.slug]}).fetchone()
        out[plan.slug] = {"sent": plan.records, "live": live, "review": review, "errors": errors,
                          "lost": plan.records - live - review - errors}
    return out


def cross_dmo_duplicates(conn: psycopg.Connection, day) -> tuple[int, list[str]]:
    """Places sent by two DMOs or more whose live records are more than one listing (records in
    review or in error are not live: they make no listing)."""
    slugs = [p.slug for p in day.dmos if p.kind == "csv"]
    by_slug_id = {}
    for slug in slugs:
        rows = conn.execute(LIVE_LISTING, (slug,)).fetchall()
        by_slug_id.update({(slug, sid): lid for sid, lid in rows})
    listings: dict[str, set[int]] = defaultdict(set)
    senders: dict[str, int] = defaultdict(int)
    for key, place in day.place_of.items():
        senders[place] += 1
        if key in by_slug_id:
            listings[place].add(by_slug_id[key])
    split = sorted(p for p, found in listings.items() if senders[p] > 1 and len(found) > 1)
    return len(split), split


def job_stages(conn: psycopg.Connection) -> dict[str, dict[str, int]]:
    """Per DMO: its jobs by stage (promoted, staged, failed ...)."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for slug, stage, n in conn.execute("""SELECT d.slug, j.stage, count(*) FROM pipeline.jobs j
                                           JOIN public.dmos d ON d.id = j.dmo_id GROUP BY 1, 2"""):
        out[slug][stage] = n
    return dict(out)


def hotels_by_region(conn: psycopg.Connection, regions: list[str]) -> dict[str, dict[int, int]]:
    out: dict[str, dict[int, int]] = {r: {} for r in regions}
    for region, status, n in conn.execute(
            "SELECT region, status, count(*) FROM sadie_gtm.hotels WHERE region = ANY(%s) GROUP BY 1, 2",
            (regions,)):
        out[region][int(status)] = n
    return out


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
