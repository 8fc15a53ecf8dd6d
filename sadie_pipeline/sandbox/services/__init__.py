"""The sandbox's HTTP services. Add a new one by writing a `Service` subclass (see base.py)
and listing it here; the sandbox mounts it under its prefix with knobs and counters."""

from __future__ import annotations

from .abr import AbrService
from .anthropic import AnthropicService
from .base import AbortConnection, BadRequest, Service, json_response
from .commoncrawl import CommonCrawlDataService, CommonCrawlService
from .crtsh import CrtShService
from .drupal import DrupalService
from .geocoding import GoogleGeocodingService, NominatimService
from .geojson import GeoJsonService
from .graph import GraphService
from .groq import GroqService
from .images import ImagesService
from .licences import LicenceRegisterService
from .login import LoginService
from .partner import PartnerService
from .rdap import RdapService
from .scrape_sites import ScrapeSitesService
from .serper import SerperService
from .sites import SitesService
from .slack import SlackService
from .wayback import WaybackService
from .wordpress import WordPressService

SERVICES: tuple[type[Service], ...] = (SerperService, GroqService, AnthropicService, RdapService, SitesService,
                                       LoginService, GraphService, SlackService)
SERVICES += (GoogleGeocodingService, NominatimService, ImagesService)  # listings: geocodes and images
SERVICES += (CrtShService, AbrService)  # issue 31: certificate transparency, ABN Lookup
SERVICES += (WaybackService,)  # issue 31: archived WHOIS lookups (CDX API, snapshots)
SERVICES += (LicenceRegisterService,)  # issue 31: lodging licence registers (FL DBPR, TX hotel tax)
SERVICES += (CommonCrawlService, CommonCrawlDataService)  # issue 31: Common Crawl's CDX index and WARC files
# Listing sources (issue 17). First: the scrapeable sites' hosts must match before the hotel sites'
# catch-all virtual host does.
LISTING_SOURCE_SERVICES: tuple[type[Service], ...] = (ScrapeSitesService, WordPressService, DrupalService,
                                                      PartnerService, GeoJsonService)
SERVICES = LISTING_SOURCE_SERVICES + SERVICES

__all__ = ["SERVICES", "Service", "BadRequest", "AbortConnection", "json_response", "SerperService", "GroqService",
           "AnthropicService", "RdapService", "SitesService", "LoginService", "GraphService", "SlackService",
           "GoogleGeocodingService", "NominatimService", "ImagesService"]
