"""The sandbox's HTTP services. Add a new one by writing a `Service` subclass (see base.py)
and listing it here; the sandbox mounts it under its prefix with knobs and counters."""

from __future__ import annotations

from .anthropic import AnthropicService
from .base import AbortConnection, BadRequest, Service, json_response
from .drupal import DrupalService
from .geocoding import GoogleGeocodingService, NominatimService
from .geojson import GeoJsonService
from .graph import GraphService
from .groq import GroqService
from .images import ImagesService
from .login import LoginService
from .partner import PartnerService
from .rdap import RdapService
from .scrape_sites import ScrapeSitesService
from .serper import SerperService
from .sites import SitesService
from .slack import SlackService
from .wordpress import WordPressService

SERVICES: tuple[type[Service], ...] = (SerperService, GroqService, AnthropicService, RdapService, SitesService,
                                       LoginService, GraphService, SlackService)
SERVICES += (GoogleGeocodingService, NominatimService, ImagesService)  # listings: geocodes and images
# Listing sources (issue 17). First: the scrapeable sites' hosts must match before the hotel sites'
# catch-all virtual host does.
LISTING_SOURCE_SERVICES: tuple[type[Service], ...] = (ScrapeSitesService, WordPressService, DrupalService,
                                                      PartnerService, GeoJsonService)
SERVICES = LISTING_SOURCE_SERVICES + SERVICES

__all__ = ["SERVICES", "Service", "BadRequest", "AbortConnection", "json_response", "SerperService", "GroqService",
           "AnthropicService", "RdapService", "SitesService", "LoginService", "GraphService", "SlackService",
           "GoogleGeocodingService", "NominatimService", "ImagesService"]
