"""Certificate transparency layer (seed 001: "CT Certs -> Org Name (cross-ref with WHOIS)").

`certificate_orgs` (``LAYER_CT_CERTS``, resource ``crtsh``): the certificates crt.sh logged for
each tier-1 hotel's domain; of the newest ones not from a DV-only CA, the PEM is read for the
organisation an OV/EV certificate names and the other registrable domains on it (sibling hotels
of the same owner). The organisation is cross-referenced with the one RDAP / WHOIS registered the
domain to (`cert_org_matches_whois`), so the layer waits for both (``can_run``: hotels whose
RDAP or WHOIS layer has not completed are skipped, and taken up by a later run). A certificate
names a company, never a person: the layer adds no decision makers. A hotel without a domain, or
whose domain crt.sh has never seen, completes with nothing found.
"""

from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, AssetKey, MaterializeResult, asset

from sadie_pipeline.core.enrichment.certificates import certificates_to_fetch, crtsh_entries, parse_pem, summarise
from sadie_pipeline.core.enrichment.layers import LAYER_CT_CERTS, can_run
from sadie_pipeline.hotels.assets import REGION_ASSET
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    PerRun,
    enrich_regions,
    hotel_domain,
    layer_asset,
    layer_output,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.owner import rdap_owner
from sadie_pipeline.hotels.queries import run
from sadie_pipeline.resources.crtsh import CrtShResource
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import SkipItem

WAITING = "waiting for RDAP and WHOIS"
SOURCE = "crt_sh"


def _registered_orgs(conn: psycopg.Connection, hotel_ids: list[int]) -> dict[int, list[str]]:
    """hotel id -> the organisations RDAP / WHOIS / archived WHOIS gave for its domain."""
    rows = run(conn, "owner_certificates", "registered_orgs", {"hotel_ids": hotel_ids}).fetchall()
    return {row[0]: [org for org in row[1:] if org] for row in rows}


def _figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "hotels_with_certificates": sum(1 for v in values if v["certificates"]),
        "hotels_with_cert_org": sum(1 for v in values if v["cert_orgs"]),
        "hotels_with_sibling_domains": sum(1 for v in values if v["cert_sibling_domains"]),
        "cert_org_matches_whois": sum(1 for v in values if v["cert_org_matches_whois"] is True),
        "cert_org_differs_from_whois": sum(1 for v in values if v["cert_org_matches_whois"] is False),
        "certificates_read": sum(v["certificates_read"] for v in values),
    }


@asset(**REGION_ASSET, **layer_asset("certificate_orgs"), deps=[AssetKey("whois_owner"), rdap_owner],
       kinds={"postgres"}, pool="crtsh")
def certificate_orgs(context: AssetExecutionContext, config: LayerConfig, database: Database,
                     crtsh: CrtShResource) -> MaterializeResult[pd.DataFrame]:
    """The organisation on each tier-1 hotel's OV/EV certificates (crt.sh), its sibling domains,
    and whether the organisation is the WHOIS / RDAP registrant's."""
    result = LayerResult("certificate_orgs")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        values = {k: value[k] for k in ("cert_orgs", "cert_sibling_domains", "cert_org_matches_whois")}
        values = {k: (v or None) if isinstance(v, list) else v for k, v in values.items()}
        save_layer(conn, hotel["id"], LAYER_CT_CERTS, "certificate_orgs", values, SOURCE, None, config.force_refresh)

    async def domain_certificates(domain: str) -> tuple[int, list[Any]]:
        entries = crtsh_entries(await crtsh.search(domain))
        certs = []
        for cert_id in certificates_to_fetch(entries, crtsh.max_certificates):
            pem = await crtsh.certificate(cert_id)
            if pem is not None:
                certs.append(parse_pem(pem))
        return len(entries), certs

    lookup = PerRun(domain_certificates)

    async def read(hotel: dict[str, Any], orgs: dict[int, list[str]]) -> dict[str, Any]:
        if not can_run(LAYER_CT_CERTS, hotel["layers_completed"]):
            raise SkipItem(WAITING)
        domain = hotel_domain(hotel)
        empty = {"domain": domain, "certificates": 0, "certificates_read": 0, "cert_orgs": [],
                 "cert_sibling_domains": [], "cert_org_matches_whois": None, "validation": []}
        if not domain:
            return empty
        logged, certs = await lookup(domain)
        found = summarise(certs, domain, orgs.get(hotel["id"], []))
        return {**empty, **found, "certificates": logged, "certificates_read": len(certs)}

    def reader(region: str, hotels: list[dict[str, Any]]) -> Any:
        with database.connect() as conn:
            return partial(read, orgs=_registered_orgs(conn, [h["id"] for h in hotels]))

    enrich_regions(context.partition_keys, database, result, LAYER_CT_CERTS, config, reader, save,
                   concurrency=crtsh.max_concurrency, close=crtsh.aclose)
    return layer_output(context, database, result, _figures)


certificates_assets = [certificate_orgs]
