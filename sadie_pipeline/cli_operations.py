"""`sadie deadletters list|requeue`: the enrichment items that failed for good, and a person's
request to try them again (registered on cli.py's main group; kept apart so that cli.py stays
readable)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click


@contextmanager
def _conn() -> Iterator[Any]:
    """A connection; a layer or id that names no dead letter ends the command with one line."""
    from sadie_pipeline.cli import _database
    from sadie_pipeline.operations.dead_letters import UnknownDeadLetters

    try:
        with _database().connect() as conn:
            yield conn
    except UnknownDeadLetters as exc:
        raise click.ClickException(str(exc)) from exc


@click.group("deadletters")
def deadletters() -> None:
    """Enrichment items whose layer failed after every retry (pipeline.dead_letters). Every run of a
    layer tries its hotels without the layer again; requeue records that you asked for it."""


@deadletters.command("list")
@click.option("--layer", help="Only this layer (an enrichment asset, e.g. room_counts).")
@click.option("--all", "include_resolved", is_flag=True, help="Resolved ones too.")
def deadletters_list(layer: str | None, include_resolved: bool) -> None:
    """Unresolved dead letters: id, layer, item, error class, attempts, last failure, state (open or
    requeued), which run retries it, and the last error."""
    from sadie_pipeline.operations.dead_letters import dead_letters, format_table

    with _conn() as conn:
        letters = dead_letters(conn, layer=layer, include_resolved=include_resolved)
    if letters:
        click.echo("\n".join(format_table(letters)))
    click.echo(f"{len(letters)} dead letters" + ("" if include_resolved else " unresolved"))


@deadletters.command("requeue")
@click.argument("ids", nargs=-1, type=int)
@click.option("--layer", help="Every unresolved dead letter of this layer.")
@click.option("--by", "requeued_by", help="Who asks (default: your user name).")
def deadletters_requeue(ids: tuple[int, ...], layer: str | None, requeued_by: str | None) -> None:
    """Requeue dead letters by id, or all of a layer's: they leave the open count the Slack alert
    watches until they fail again, and the table says which run retries each."""
    import getpass

    from sadie_pipeline.operations.dead_letters import format_table, requeue

    if bool(ids) == bool(layer):
        raise click.UsageError("give dead letter ids or --layer (one of the two)")
    with _conn() as conn:
        done, left = requeue(conn, ids=ids, layer=layer, by=requeued_by or getpass.getuser())
    if done:
        click.echo("\n".join(format_table(done)))
    for letter in left:
        click.echo(f"{letter.id}: already resolved, left alone")
    click.echo(f"requeued {len(done)}")
