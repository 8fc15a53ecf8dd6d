"""`sadie hotel review`: the hotel entity pairs resolution was unsure of, and a person's decision on
each (registered on cli.py's `hotel` group; kept apart so that cli.py stays readable)."""

from __future__ import annotations

import click


def _user() -> str:
    import getpass

    return getpass.getuser()


@click.group("review")
def hotel_review() -> None:
    """Pairs of hotel records that may be one hotel: approve (merge) or reject (keep apart). The
    next hotel_entities run applies a decision, and a decided pair is never asked again."""


@hotel_review.command("list")
@click.option("--region", help="Only this region (ISO 3166-2, e.g. US-FL).")
@click.option("--all", "include_decided", is_flag=True, help="Decided pairs too, with their decision.")
def review_list(region: str | None, include_decided: bool) -> None:
    """Each pair: id, region, score, both records side by side (= marks fields that agree) and the
    resolver's explanation (each compared field's weight)."""
    from sadie_pipeline.cli import _database
    from sadie_pipeline.hotels.entity_reviews import describe_pair, list_pairs

    with _database().connect() as conn:
        pairs = list_pairs(conn, region, include_decided)
    for pair in pairs:
        click.echo("\n".join(describe_pair(pair)))
    pending = sum(1 for p in pairs if not p["decision"])
    click.echo(f"{pending} waiting for review" + (f", {len(pairs) - pending} decided" if include_decided else ""))


@hotel_review.command("approve")
@click.argument("ids", nargs=-1, type=int, required=True)
@click.option("--by", "decided_by", help="Who decides (default: your user name).")
def review_approve(ids: tuple[int, ...], decided_by: str | None) -> None:
    """The two records of each pair are the same hotel: the next hotel_entities run merges them."""
    from sadie_pipeline.hotels.entity_reviews import ReviewDecision

    _decide(ids, ReviewDecision.MERGE, decided_by, "approved")


@hotel_review.command("reject")
@click.argument("ids", nargs=-1, type=int, required=True)
@click.option("--by", "decided_by", help="Who decides (default: your user name).")
def review_reject(ids: tuple[int, ...], decided_by: str | None) -> None:
    """The two records of each pair are different hotels: they are kept apart from now on."""
    from sadie_pipeline.hotels.entity_reviews import ReviewDecision

    _decide(ids, ReviewDecision.SEPARATE, decided_by, "rejected")


def _decide(ids: tuple[int, ...], decision, decided_by: str | None, verb: str) -> None:
    from sadie_pipeline.cli import _database, _decided
    from sadie_pipeline.hotels.entity_reviews import decide, why_undecided

    with _database().connect() as conn:
        done = decide(conn, ids, decision, decided_by or _user())
        refused = why_undecided(conn, [i for i in dict.fromkeys(ids) if i not in done])
    _decided(verb, done, refused)


@click.command("engines")
@click.option("--region", "regions", multiple=True, help="Only these regions (repeatable).")
@click.option("--limit", type=click.IntRange(min=1), help="Only the N hosts used by most hotels.")
def hotel_engines(regions: tuple[str, ...], limit: int | None) -> None:
    """Booking hosts no catalogued engine matches (links, frames, forms, scripts, widgets), most
    hotels first, with the hotels waiting on each (status 98) and sample pages: what
    data/booking_engines.json should learn next."""
    from sadie_pipeline.cli import _database
    from sadie_pipeline.hotels.unknown_engines import describe, unknown_hosts

    with _database().connect() as conn:
        hosts = unknown_hosts(conn, list(regions) or None, limit)
    for line in describe(hosts):
        click.echo(line)
