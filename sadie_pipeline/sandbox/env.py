"""The environment that points the pipeline's resources at a sandbox, shared by the in-process
`Sandbox` and `SandboxProcess` (which only has the served sandbox's `describe()` output)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .services import graph as graph_service
from .services import login as login_service
from .services import slack as slack_service

CLIENT_KEY = "sandbox-key-not-a-secret"  # what `client_env` gives as API keys unless a service expects another
# The one address of the sandbox that `make demo` and `make dev` share: the demo's pulled DMOs keep
# it in their configs, so they can be pulled again while `make dev` serves the sandbox there.
PORT_ENV = "SADIE_SANDBOX_PORT"
STABLE_PORT = 8765


def stable_port() -> int:
    """SADIE_SANDBOX_PORT, else 8765; 0 is any free port (tests side by side), for a demo whose
    pulled DMOs need not be pulled again."""
    value = os.environ.get(PORT_ENV, "").strip() or str(STABLE_PORT)
    if not value.isdigit() or int(value) > 65535:
        raise ValueError(f"{PORT_ENV} should be a port number from 0 to 65535, not {value!r}")
    return int(value)


def client_env(described: Mapping[str, Any], api_keys: Mapping[str, str], key: str = CLIENT_KEY) -> dict[str, str]:
    """The environment of a pipeline run against a sandbox, from its `describe()` output.

    The same variables production sets, so the resources read them as usual: Serper, Groq,
    Anthropic and RDAP base URLs and keys, the DNS server, the proxy for hotel websites, Microsoft
    Graph (tenant, app, secret, drive, Graph base URL, the HTTPS authority host and its CA bundle)
    and Slack (bot token, channel, base URL).
    """
    services = described["services"]

    def base(name: str) -> str:
        return services[name]["base_url"]

    env = {"SADIE_SERPER_BASE_URL": base("serper"), "SERPER_API_KEY": api_keys.get("serper", key),
           "GROQ_BASE_URL": base("groq"), "GROQ_API_KEY": api_keys.get("groq", key),
           "ANTHROPIC_BASE_URL": base("anthropic"), "ANTHROPIC_API_KEY": api_keys.get("anthropic", key),
           "SADIE_RDAP_BASE_URL": base("rdap"), "SADIE_HTTP_PROXY": described["proxy"]}
    if "dns" in described:
        env["SADIE_DNS_NAMESERVER"] = f"{described['dns']['host']}:{described['dns']['port']}"
    if "graph" in services and "https" in described:
        env.update({"SADIE_GRAPH_TENANT_ID": login_service.TENANT_ID, "SADIE_GRAPH_CLIENT_ID": login_service.CLIENT_ID,
                    "SADIE_GRAPH_CLIENT_SECRET": api_keys.get("login", key),
                    "SADIE_GRAPH_DRIVE_ID": graph_service.DRIVE_ID,
                    "SADIE_GRAPH_BASE_URL": f"{base('graph')}/v1.0",
                    "SADIE_GRAPH_AUTHORITY_HOST": described["https"]["url"],
                    "SADIE_GRAPH_CA_BUNDLE": described["https"]["ca_file"]})
    if "slack" in services:
        env.update({"SADIE_SLACK_BOT_TOKEN": api_keys.get("slack", f"xoxb-{key}"),
                    "SADIE_SLACK_CHANNEL": f"#{slack_service.CHANNELS['C0SADIELEADS']}",
                    "SADIE_SLACK_BASE_URL": f"{base('slack')}/api/"})
    if "smtp" in described.get("listeners", {}):  # mailbox checks: every MX host resolves to the SMTP listener
        env.update({"SADIE_SMTP_VERIFY": "on", "SADIE_SMTP_PORT": str(described["listeners"]["smtp"]["port"]),
                    "SADIE_SMTP_HELO": "verify.sadie.test", "SADIE_SMTP_FROM": "verify@sadie.test"})
    if "login" in services:  # Microsoft's account-existence check (GetCredentialType)
        env["SADIE_O365_BASE_URL"] = base("login")
    if "whois" in described.get("listeners", {}):  # port 43: the registry, and where its referrals are served
        whois = described["listeners"]["whois"]
        env.update({"SADIE_WHOIS_SERVER": f"{whois['host']}:{whois['port']}",
                    "SADIE_WHOIS_REFERRALS": ",".join(f"{h}={a}" for h, a in sorted(whois["referrals"].items()))})
    if "wayback" in services:  # archived WHOIS lookups (the Wayback Machine's CDX API and snapshots)
        env["SADIE_WAYBACK_BASE_URL"] = base("wayback")
    if "crtsh" in services:  # certificate transparency (crt.sh)
        env["SADIE_CRTSH_BASE_URL"] = base("crtsh")
    if "abr" in services:  # ABN Lookup: its authentication GUID is the key
        env.update({"SADIE_ABR_BASE_URL": base("abr"), "SADIE_ABR_GUID": api_keys.get("abr", key)})
    if "licences" in services:  # lodging licence registers: every configured register's files under it
        env["SADIE_LICENCE_BASE_URL"] = base("licences")
    if "commoncrawl" in services:  # Common Crawl: the CDX index server and the WARC data server
        env.update({"SADIE_CC_INDEX_URL": f"{base('commoncrawl')}/index",
                    "SADIE_CC_DATA_URL": base("commoncrawl_data") if "commoncrawl_data" in services
                    else f"{base('commoncrawl')}/data",
                    # the sandbox's sites are under .test, scanned by discovery beside the region's ccTLD
                    "SADIE_CC_DISCOVERY_TLDS": "test"})
    if "google_geocoding" in services:  # listings' geocodes (Nominatim: SADIE_GEOCODER=nominatim and its base URL)
        env.update({"SADIE_GEOCODER": "google", "SADIE_GEOCODER_BASE_URL": base("google_geocoding"),
                    "GOOGLE_MAPS_API_KEY": api_keys.get("google_geocoding", key)})
    return env
