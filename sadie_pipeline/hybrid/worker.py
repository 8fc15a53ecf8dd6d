"""A plain worker process (no Dagster run): receive, enrich, delete, until the queue is empty or
`--max-messages` are done. The same `process_messages` the Dagster op runs; for a Fargate task
without a Dagster daemon, and for the tests that SIGKILL a worker mid-domain.

    python -m sadie_pipeline.hybrid.worker [--max-messages N] [--batch N]

Settings from the environment, as the definitions read them (hybrid/queue.py, resource_defs)."""

from __future__ import annotations

import argparse
import json
import sys

from sadie_pipeline.hybrid.enrich import process_messages
from sadie_pipeline.hybrid.queue import QueueNotConfigured, plain_queue


def work(max_messages: int, batch: int) -> dict[str, int]:
    from sadie_pipeline.resource_defs import configured, resolved

    queue = plain_queue()
    if not queue.configured():
        raise QueueNotConfigured(queue.not_configured_message())
    store, totals = resolved(configured("object_store")), {"messages": 0, "deleted": 0}
    while totals["messages"] < max_messages:
        got = queue.receive(min(batch, max_messages - totals["messages"]))
        if not got:
            break
        fetcher = resolved(configured("website_fetcher"))  # its sessions belong to one event loop: one per batch
        report = process_messages(queue, fetcher, store, got)
        totals["messages"] += len(got)
        totals["deleted"] += report.deleted
        for outcome, n in report.counts().items():
            totals[outcome] = totals.get(outcome, 0) + n
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sadie_pipeline.hybrid.worker", description=__doc__.split("\n")[0])
    parser.add_argument("--max-messages", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=50, help="messages received and enriched together")
    args = parser.parse_args(argv)
    try:
        totals = work(args.max_messages, args.batch)
    except QueueNotConfigured as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(totals), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
