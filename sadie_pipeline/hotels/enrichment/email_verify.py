"""E-mail verification (``LAYER_EMAIL_VERIFY``, asset `email_verification`): after every contact
layer and DNS (``layers.DEPENDENCIES``; a hotel missing one waits), each decision maker's address
gets a status, and people without one get a guess from the domain's pattern.

1. Syntax, MX, role account and the domain's pattern (`core/enrichment/email_verify.py`), as
   before; a pattern guess for a person without an address.
2. With ``mail_verifier`` on (``SADIE_SMTP_VERIFY``), every address that can receive mail, found
   or guessed, is checked: one SMTP session per domain, or Microsoft's account check for domains on
   Exchange Online (`resources/mail_verify.py`). The row gets ``email_status`` (verified_smtp |
   verified_o365 | catch_all | rejected | unknown), ``email_verified`` (true only when verified),
   ``email_reply`` (the server's answer) and ``email_checked_at``. A guess that verifies becomes
   a verified address; a rejected guess is removed (email NULL, status rejected, the reply naming
   it); other guesses stay ``pattern_guess`` (`mailbox.stored_email`).

Figures: addresses checked and guessed, and the count per status.
"""


from collections import Counter
from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.enrichment.dns_email import mx_hosts
from sadie_pipeline.core.enrichment.email_verify import FREE_MAIL_DOMAINS, guess_email, verify_email
from sadie_pipeline.core.enrichment.layers import LAYER_EMAIL_VERIFY, can_run
from sadie_pipeline.core.enrichment.mailbox import PATTERN_GUESS, MailboxCheck, MailboxStatus, stored_email
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.hotels import queries
from sadie_pipeline.hotels.assets import REGION_ASSET
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    PerRun,
    enrich_regions,
    hotel_domain,
    layer_asset,
    layer_output,
)
from sadie_pipeline.hotels.enrichment.common import save_layer as _save_layer
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.mail_verify import MailVerifierResource
from sadie_pipeline.resources.rdap_dns import DnsResource
from sadie_pipeline.resources.reliability import SkipItem

WAITING = "waiting for contacts and DNS"
# Pre-check statuses worth a mailbox check (invalid syntax and no MX bounce anyway).
CHECKABLE = frozenset({"valid_domain", "role_account", PATTERN_GUESS})


def _verification_inputs(conn: psycopg.Connection, hotel_ids: list[int]) -> tuple[dict[int, Any], dict[int, list]]:
    """(hotel id -> stored MX hosts, hotel id -> its decision makers)."""
    params = {"hotel_ids": hotel_ids}
    mx = dict(queries.run(conn, "email_verification", "stored_mx", params).fetchall())
    people: dict[int, list[dict[str, Any]]] = {}
    rows = queries.run(conn, "email_verification", "decision_makers", params)
    names = [d.name for d in rows.description]
    for row in rows.fetchall():
        person = dict(zip(names, row))
        people.setdefault(person["hotel_id"], []).append(person)
    return mx, people


def _email_domain(email: str) -> str:
    return email.rsplit("@", 1)[-1].strip().lower().rstrip(".") if "@" in email else ""


def _already_rejected(person: dict[str, Any], guess: str) -> bool:
    """The same guess was rejected by the mail server before: not worth guessing again."""
    return person["email_status"] == MailboxStatus.REJECTED.value and guess in (person.get("email_reply") or "")


async def _prechecks(hotel: dict[str, Any], staff: list[dict[str, Any]], mx_for: Any) -> list[dict[str, Any]]:
    """Syntax / MX / pattern status of each found address and a guess for people without one."""
    domain = hotel_domain(hotel)
    known = [(p["email"], p["full_name"]) for p in staff if p["email"] and p["email_status"] != PATTERN_GUESS]
    rows = []
    for person in staff:
        email = person["email"]
        if email and person["email_status"] != PATTERN_GUESS:
            email_domain = _email_domain(email)
            hosts = await mx_for(email_domain) if website_parts(email_domain) else []
            checked = verify_email(email, hosts, full_name=person["full_name"], known=known)
            rows.append({"id": person["id"], "email": email, "status": checked.status, "guessed": False,
                         "domain": email_domain, "mx": hosts})
        elif domain:  # no address (or only an earlier guess): follow the domain's known pattern
            hosts = await mx_for(domain)
            guess = guess_email(person["full_name"], domain, hosts, known)
            if guess is not None and guess.status == PATTERN_GUESS and not _already_rejected(person, guess.email):
                rows.append({"id": person["id"], "email": guess.email, "status": guess.status, "guessed": True,
                             "domain": domain, "mx": hosts})
    return rows


async def _mailbox_checks(rows: list[dict[str, Any]], verifier: MailVerifierResource) -> dict[str, MailboxCheck]:
    """One check per e-mail domain for all its checkable addresses (free mail is not checked)."""
    by_domain: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["status"] in CHECKABLE and row["mx"]:
            by_domain.setdefault(row["domain"], []).append(row)
    checks: dict[str, MailboxCheck] = {}
    for domain, group in by_domain.items():
        for check in await verifier.check_domain(domain, group[0]["mx"], [r["email"] for r in group]):
            checks[check.email] = check
    return checks


# seed 001: verification runs after every contact source and DNS (core/enrichment/layers.py DEPENDENCIES)
EMAIL_VERIFY_AFTER = ["rdap_owner", "whois_owner", "whois_history", "website_contacts", "review_responses",
                      "licence_owners", "abn_asic", "cc_contacts", "dns_email_provider"]


@asset(**REGION_ASSET, **layer_asset("email_verification"), deps=EMAIL_VERIFY_AFTER,
       kinds={"postgres"}, pool="dns")
def email_verification(context: AssetExecutionContext, config: LayerConfig, database: Database, dns: DnsResource,
                       mail_verifier: MailVerifierResource) -> MaterializeResult[pd.DataFrame]:
    """A status for each decision maker's address, checked over SMTP or with Microsoft when
    verification is on, and pattern guesses for people without one."""
    result = LayerResult("email_verification")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        for row in value["rows"]:
            query = "set_guess" if row["guessed"] else "set_status"
            found = row["stored"]
            queries.run(conn, "email_verification", query, {
                "id": row["id"], "email": found["email"] if row["guessed"] else row["email"],
                "status": found["status"], "verified": found["verified"], "reply": found["reply"],
                "checked": found["checked"]})
        _save_layer(conn, hotel["id"], LAYER_EMAIL_VERIFY, "email_verification", {}, "email_verify", None,
                    config.force_refresh)

    async def domain_mx(domain: str) -> list[str]:
        return mx_hosts(await dns.mx(domain))

    lookup_mx = PerRun(domain_mx)

    async def verify(hotel: dict[str, Any], stored_mx: dict[int, Any], people: dict[int, list]) -> dict[str, Any]:
        if not can_run(LAYER_EMAIL_VERIFY, hotel["layers_completed"]):
            raise SkipItem(WAITING)
        domain, own_mx = hotel_domain(hotel), stored_mx.get(hotel["id"])

        async def mx_for(email_domain: str) -> list[str] | None:
            if email_domain in FREE_MAIL_DOMAINS:
                return None  # the big providers receive mail
            if email_domain == domain and own_mx is not None:
                return list(own_mx)  # what the DNS layer stored
            return await lookup_mx(email_domain)  # an address at another domain (a management company)

        rows = await _prechecks(hotel, people.get(hotel["id"], []), mx_for)
        checks = await _mailbox_checks(rows, mail_verifier) if mail_verifier.enabled() else {}
        for row in rows:
            stored = stored_email(row["email"], row["status"], row["guessed"], checks.get(row["email"].lower()))
            row["stored"] = stored.__dict__
            row.pop("mx")
        return {"rows": rows}

    def verifier(region: str, hotels: list[dict[str, Any]]) -> Any:
        with database.connect() as conn:
            stored_mx, people = _verification_inputs(conn, [h["id"] for h in hotels])
        return partial(verify, stored_mx=stored_mx, people=people)

    async def close() -> None:
        await mail_verifier.aclose()
        await dns.aclose()

    enrich_regions(context.partition_keys, database, result, LAYER_EMAIL_VERIFY, config, verifier, save,
                   concurrency=min(dns.max_concurrency, mail_verifier.max_concurrency), close=close)
    return layer_output(context, database, result, _verification_figures)


def _verification_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [row for v in values for row in v["rows"]]
    by_status = Counter(row["stored"]["status"] for row in rows)
    return {
        "emails_checked": sum(1 for row in rows if row["stored"]["checked"]),
        "emails_guessed": sum(1 for row in rows if row["guessed"]),
        "emails_verified": sum(1 for row in rows if row["stored"]["verified"]),
        "guesses_removed": sum(1 for row in rows if row["guessed"] and row["stored"]["email"] is None),
        "email_statuses": MetadataValue.json(dict(sorted(by_status.items()))),
    }


email_verify_assets = [email_verification]
