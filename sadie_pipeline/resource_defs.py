"""The resources as the code location configures them: every setting from its environment
variable through Dagster's `EnvVar`, never read by the resources themselves.

An `EnvVar` is resolved where a run executes and the UI shows only its name, so keys and URLs
with passwords never sit in run config. An unset `EnvVar` fails the run, and most settings
here are optional (unset: the embedded database, the local folder, a service "not
configured"), so a field gets its `EnvVar` only when its variable is set while the definitions
are built; an unset one keeps the field's default. The definitions are built when the code
location loads (each run's process loads it again), so they follow the environment they run in;
a process that changes its environment (the demo, a test) builds them again (`build_defs`).

    resources = hotel_resources()                  # {"serper": SerperResource(api_key=EnvVar(...)), ...}
    database = resolved(configured("database"))    # outside a run (the CLI): values read now
    OneDriveResource(**settings_from(environ, "onedrive"))  # plain values from a mapping of variables
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from dagster import ConfigurableResource, EnvVar

from sadie_pipeline.listings import geocoder
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline.operations.spend import UsageRecordingDatabase
from sadie_pipeline.resources import (
    abn,
    common_crawl,
    crtsh,
    licences,
    llm,
    mail_verify,
    onedrive,
    rdap_dns,
    serper,
    slack,
    wayback,
    web,
    whois,
)
from sadie_pipeline.resources.object_store import ObjectStore

R = TypeVar("R", bound=ConfigurableResource)

#: Each resource key's type and its fields' variables (vendors' own names for their keys).
RESOURCES: dict[str, tuple[type[ConfigurableResource], dict[str, str]]] = {
    # the database resource also writes each step's service usage (spend) when the step ends
    "database": (UsageRecordingDatabase, {"url": "SADIE_DATABASE_URL", "home": "SADIE_HOME"}),
    "object_store": (ObjectStore, {"bucket": "SADIE_S3_BUCKET", "endpoint_url": "SADIE_S3_ENDPOINT_URL",
                                   "region_name": "AWS_DEFAULT_REGION", "home": "SADIE_HOME"}),
    "serper": (serper.SerperResource, {"api_key": serper.API_KEY_ENV, "base_url": serper.BASE_URL_ENV}),
    "website_fetcher": (web.WebsiteFetcher, {"proxy": web.PROXY_ENV}),
    # the LLMs archive their raw answers in the object store (its variables)
    "groq": (llm.GroqResource, {"api_key": llm.GROQ_API_KEY_ENV, "base_url": llm.GROQ_BASE_URL_ENV,
                                **llm.RAW_STORE_ENV}),
    "anthropic": (llm.AnthropicResource, {"api_key": llm.ANTHROPIC_API_KEY_ENV,
                                          "base_url": llm.ANTHROPIC_BASE_URL_ENV, **llm.RAW_STORE_ENV}),
    "rdap": (rdap_dns.RdapResource, {"base_url": rdap_dns.RDAP_BASE_URL_ENV}),
    "dns": (rdap_dns.DnsResource, {"nameserver": rdap_dns.DNS_NAMESERVER_ENV}),
    "mail_verifier": (mail_verify.MailVerifierResource, {
        "verify": mail_verify.SMTP_VERIFY_ENV, "port": mail_verify.SMTP_PORT_ENV, "helo_name": mail_verify.SMTP_HELO_ENV,
        "mail_from": mail_verify.SMTP_FROM_ENV, "o365_base_url": mail_verify.O365_BASE_URL_ENV,
        "nameserver": mail_verify.DNS_NAMESERVER_ENV}),
    "onedrive": (onedrive.OneDriveResource, {
        "tenant_id": onedrive.TENANT_ENV, "client_id": onedrive.CLIENT_ID_ENV,
        "client_secret": onedrive.CLIENT_SECRET_ENV, "drive_id": onedrive.DRIVE_ENV,
        "base_url": onedrive.BASE_URL_ENV, "authority_host": onedrive.AUTHORITY_HOST_ENV,
        "ca_bundle": onedrive.CA_BUNDLE_ENV, "folder": onedrive.FOLDER_ENV}),
    "slack": (slack.SlackResource, {"bot_token": slack.TOKEN_ENV, "channel": slack.CHANNEL_ENV,
                                    "base_url": slack.BASE_URL_ENV}),
    "geocoder": (geocoder.GeocoderResource, geocoder.ENV_FIELDS),
    "image_fetcher": (ImageFetcher, {}),
    "whois": (whois.WhoisResource, {"server": whois.SERVER_ENV, "referrals": whois.REFERRALS_ENV}),
    "wayback": (wayback.WaybackResource, {"base_url": wayback.BASE_URL_ENV}),
    "licence_registers": (licences.LicenceRegisterResource, {"base_url": licences.LICENCE_BASE_URL_ENV,
                                                            "config_file": licences.LICENCE_REGISTERS_ENV}),
    "crtsh": (crtsh.CrtShResource, {"base_url": crtsh.BASE_URL_ENV}),
    "abn_lookup": (abn.AbnLookupResource, {"base_url": abn.BASE_URL_ENV, "guid": abn.GUID_ENV}),
    "common_crawl": (common_crawl.CommonCrawlResource, {"index_url": common_crawl.INDEX_URL_ENV,
                                                        "data_url": common_crawl.DATA_URL_ENV,
                                                        "discovery_tlds": common_crawl.DISCOVERY_TLDS_ENV}),
}
SHARED = ("database", "object_store")
LISTING_SERVICES = ("geocoder", "image_fetcher")
HOTEL_SERVICES = ("serper", "website_fetcher", "groq", "anthropic", "rdap", "dns", "onedrive", "slack",
                  # the owner layers of issue 31
                  "whois", "wayback", "crtsh", "licence_registers", "abn_lookup", "common_crawl", "mail_verifier")


def env_settings(key: str) -> dict[str, EnvVar]:
    """An `EnvVar` for each field of resource `key` whose variable is set (blank is unset)."""
    return {name: EnvVar(variable) for name, variable in RESOURCES[key][1].items()
            if (EnvVar(variable).get_value() or "").strip()}


def configured(key: str, **fields: Any) -> ConfigurableResource:
    """Resource `key` with its settings from the environment (`env_settings`); `fields` win."""
    cls, _ = RESOURCES[key]
    return cls(**{**env_settings(key), **fields})


def shared_resources() -> dict[str, ConfigurableResource]:
    """The database and the object store (every domain uses them)."""
    return {key: configured(key) for key in SHARED}


def listing_resources() -> dict[str, ConfigurableResource]:
    """The listings side's external services (geocoding, image downloads)."""
    return {key: configured(key) for key in LISTING_SERVICES}


def hotel_resources() -> dict[str, ConfigurableResource]:
    """The hotel side's external services."""
    return {key: configured(key) for key in HOTEL_SERVICES}


def resolved(resource: R) -> R:
    """A copy of the resource with each `EnvVar` read now (`EnvVar.get_value`), for use outside a
    run (the CLI, the demo, tests); a run resolves them itself when it starts."""
    cls = type(resource)
    values = {name: getattr(resource, name) for name in cls.model_fields}
    return cls(**{name: value.get_value() if isinstance(value, EnvVar) else value for name, value in values.items()})


def settings_from(environ: Mapping[str, str], key: str) -> dict[str, str]:
    """Plain field values of resource `key` from a mapping of variables (a sandbox's settings)."""
    return {name: environ[variable] for name, variable in RESOURCES[key][1].items()
            if (environ.get(variable) or "").strip()}
