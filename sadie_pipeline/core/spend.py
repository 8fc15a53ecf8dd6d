"""Spend of the external services: prices per call, daily quotas and the alert share, and the pure
arithmetic over them (cost of a day's calls, share of a quota used). No I/O: the configuration is
read by operations/spend.py (defaults here, a YAML file named by SADIE_SPEND_CONFIG overrides).

Service names are the guards' policy names grouped (`service_group`): one guard per host or
server ("images:cdn.example", "smtp:mx1.example", "whois:whois.verisign-grs.com") counts as
its family ("images", "smtp", "whois"); a listings source's guard ("source host") as "sources".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field

# Estimated list prices per call in USD (vendors' public pricing, rounded; free services 0).
# They are estimates for the spend page, not invoices: override them in the YAML.
DEFAULT_PRICES: dict[str, Decimal] = {
    "serper": Decimal("0.001"),           # places/maps/reviews search, per query
    "geocoder-google": Decimal("0.005"),  # Google Geocoding API
    "geocoder-nominatim": Decimal("0"),   # OpenStreetMap Nominatim, free with its usage policy
    "groq": Decimal("0.0008"),            # llama-3.3-70b, ~1.5k tokens a call
    "anthropic": Decimal("0.012"),        # claude-sonnet, ~3k tokens in, 300 out a call
    "rdap": Decimal("0"), "dns": Decimal("0"), "whois": Decimal("0"), "wayback": Decimal("0"),
    "crt_sh": Decimal("0"), "websites": Decimal("0"), "images": Decimal("0"), "smtp": Decimal("0"),
    "o365": Decimal("0"), "onedrive": Decimal("0"), "abn_lookup": Decimal("0"), "licences": Decimal("0"),
    "cc_index": Decimal("0"), "cc_data": Decimal("0"), "sources": Decimal("0"),
}
# Daily quotas of the plans the seeds name (calls per UTC day); a service without one has no quota alert.
DEFAULT_QUOTAS: dict[str, int] = {"serper": 2500, "groq": 1000, "geocoder-google": 10000}


class SpendConfig(BaseModel):
    """Prices per call, daily quotas and the share of a quota that raises the Slack alert."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prices_usd: dict[str, Decimal] = Field(default_factory=lambda: dict(DEFAULT_PRICES))
    daily_quotas: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_QUOTAS))
    quota_alert_share: float = Field(default=0.8, gt=0, le=1)

    @classmethod
    def with_overrides(cls, overrides: dict) -> SpendConfig:
        """The defaults with the YAML's entries on top: a price or quota given replaces that one
        service's, the others keep theirs (a quota of 0 removes it)."""
        base = cls()
        merged = cls.model_validate({
            "prices_usd": {**base.prices_usd, **(overrides.get("prices_usd") or {})},
            "daily_quotas": {**base.daily_quotas, **(overrides.get("daily_quotas") or {})},
            **{k: v for k, v in overrides.items() if k not in ("prices_usd", "daily_quotas")},
        })
        quotas = {k: v for k, v in merged.daily_quotas.items() if v > 0}
        return merged.model_copy(update={"daily_quotas": quotas})

    def price(self, service: str) -> Decimal:
        return self.prices_usd.get(service, Decimal("0"))

    def cost(self, service: str, calls: int) -> Decimal:
        """Estimated cost of `calls` calls (failed ones included: a vendor bills the attempt)."""
        return self.price(service) * calls

    def quota(self, service: str) -> int | None:
        return self.daily_quotas.get(service)

    def quota_share(self, service: str, calls: int) -> float | None:
        """Share of the daily quota the calls used, None without a quota."""
        quota = self.quota(service)
        return None if not quota else calls / quota


def service_group(guard_name: str) -> str:
    """The service a guard's calls count for: per-host guards count for their family."""
    if guard_name.startswith("source "):
        return "sources"
    return guard_name.split(":", 1)[0].strip() or "unknown"


@dataclass(frozen=True)
class Bar:
    """One day's bar of a server-drawn SVG chart: its box, and the failed part at its foot."""

    label: str
    value: float
    part: float
    x: float
    y: float
    width: float
    height: float
    part_height: float


def bars(labels: Sequence[str], values: Sequence[float], parts: Sequence[float] | None = None, *,
         width: float = 600, height: float = 120, gap: float = 1) -> list[Bar]:
    """Bars scaled to the largest value, bottom-aligned in a `width` x `height` box (SVG's y grows
    downwards); `parts` (failures) are drawn over the foot of their bar."""
    parts = parts or [0.0] * len(values)
    top = max([*values, 0.0]) or 1.0
    step = width / max(len(values), 1)
    out = []
    for i, (label, value, part) in enumerate(zip(labels, values, parts)):
        h, ph = height * value / top, height * min(part, value) / top
        out.append(Bar(label, value, part, round(i * step, 2), round(height - h, 2), round(max(step - gap, 1), 2),
                       round(h, 2), round(ph, 2)))
    return out
