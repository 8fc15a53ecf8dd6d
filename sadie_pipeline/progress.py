"""A progress bar for a `sadie` command while Dagster runs do its work: asset partitions materialised
out of the total and the asset being materialised (read from the runs' events in the instance, so
the same bar follows a run in this process or the daemon's runs of a backfill), with the command's
own figures (records, hotels) from a callback.

Drawn on stderr when stderr is a terminal; otherwise silent, so that piped or captured output holds
the command's result lines only."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from dagster import DagsterInstance

POLL_S = 1.0


class RunProgress:
    """`with RunProgress(instance, total, label) as p: p.follow(run_id); job.execute_in_process(run_id=...)`;
    or `runs=` a callable giving the run ids to read (a backfill's, as the daemon launches them)."""

    def __init__(self, instance: DagsterInstance, total: int, label: str, *,
                 figures: Callable[[], str] | None = None, runs: Callable[[], Iterable[str]] | None = None,
                 file: IO[str] | None = None, poll_s: float = POLL_S) -> None:
        self._instance, self._total, self._label = instance, max(total, 1), label
        self._figures = figures or (lambda: "")
        self._followed: list[str] = []
        self._runs = runs or (lambda: list(self._followed))
        self._file = file or sys.stderr
        self._poll_s = poll_s
        self._cursors: dict[str, str | None] = {}
        self.done, self.asset = 0, ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Any = None

    @property
    def shown(self) -> bool:
        return self._file.isatty()

    def follow(self, run_id: str) -> None:
        """Reads this run's events too (a run this process is about to execute)."""
        self._followed.append(run_id)

    def __enter__(self) -> RunProgress:
        if self.shown:
            self._bar = click.progressbar(length=self._total, label=self._label, file=self._file, width=24,
                                          show_eta=False, item_show_func=lambda text: text)
            self._bar.__enter__()
            self._thread = threading.Thread(target=self._loop, name="sadie-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._draw()  # the events of the last moments
        self._bar.__exit__(*exc)

    def _loop(self) -> None:
        while not self._stop.wait(self._poll_s):
            self._draw()

    def _draw(self) -> None:
        # The bar is an aid: a storage or database hiccup while drawing it must not end the command
        # (the runs go on either way), so it is drawn again at the next poll.
        try:
            self.read_events()
            status = " ".join(part for part in (self.asset, self._figures()) if part)
        except Exception:  # noqa: BLE001
            return
        self._bar.update(min(self.done, self._total) - self._bar.pos, status)

    def read_events(self) -> None:
        """Counts the materialisations and notes the step started last, from each run's new events."""
        from dagster import DagsterEventType

        kinds = {DagsterEventType.STEP_START, DagsterEventType.ASSET_MATERIALIZATION}
        for run_id in self._runs():
            page = self._instance.get_records_for_run(run_id, cursor=self._cursors.get(run_id), of_type=kinds)
            self._cursors[run_id] = page.cursor
            for record in page.records:
                event = record.event_log_entry.dagster_event
                if event is None:
                    continue
                if event.event_type == DagsterEventType.STEP_START:
                    self.asset = event.step_key or self.asset
                else:
                    self.done += 1
