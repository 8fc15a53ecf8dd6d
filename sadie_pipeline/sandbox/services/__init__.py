"""The sandbox's HTTP services. Add a new one by writing a `Service` subclass (see base.py)
and listing it here; the sandbox mounts it under its prefix with knobs and counters."""

from __future__ import annotations

from .anthropic import AnthropicService
from .base import AbortConnection, BadRequest, Service, json_response
from .graph import GraphService, LoginService
from .groq import GroqService
from .rdap import RdapService
from .serper import SerperService
from .sites import SitesService
from .slack import SlackService

SERVICES: tuple[type[Service], ...] = (SerperService, GroqService, AnthropicService, RdapService, SitesService,
                                       LoginService, GraphService, SlackService)

__all__ = ["SERVICES", "Service", "BadRequest", "AbortConnection", "json_response", "SerperService", "GroqService",
           "AnthropicService", "RdapService", "SitesService", "LoginService", "GraphService", "SlackService"]
