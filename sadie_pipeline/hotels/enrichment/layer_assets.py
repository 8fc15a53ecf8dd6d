"""Every enrichment layer asset, in the order of seed 001's DAG: the Stage 3 layers, the contact
sources (in parallel), the layers that follow another (WHOIS history after RDAP and WHOIS, CT after
them, Common Crawl contacts after its harvest), and e-mail verification after every contact source
and DNS. `golden_hotels` depends on all of them."""

from __future__ import annotations

from sadie_pipeline.hotels.enrichment.abn import abn_assets
from sadie_pipeline.hotels.enrichment.certificates import certificates_assets
from sadie_pipeline.hotels.enrichment.common_crawl import common_crawl_assets
from sadie_pipeline.hotels.enrichment.email_verify import email_verification
from sadie_pipeline.hotels.enrichment.licences import licences_assets
from sadie_pipeline.hotels.enrichment.owner import dns_email_provider, rdap_owner, website_contacts
from sadie_pipeline.hotels.enrichment.proximity import attraction_proximity
from sadie_pipeline.hotels.enrichment.research import hotel_research
from sadie_pipeline.hotels.enrichment.reviews import reviews_assets
from sadie_pipeline.hotels.enrichment.room_counts import room_counts
from sadie_pipeline.hotels.enrichment.whois import whois_assets

STAGE3_ASSETS = [room_counts, attraction_proximity, hotel_research]
OWNER_LAYER_ASSETS = [rdap_owner, *whois_assets, dns_email_provider, website_contacts, *licences_assets,
                      *abn_assets, *certificates_assets, *reviews_assets, *common_crawl_assets, email_verification]
enrichment_assets = [*STAGE3_ASSETS, *OWNER_LAYER_ASSETS]
