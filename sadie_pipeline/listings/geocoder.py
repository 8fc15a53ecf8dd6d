"""The geocoding service of the listings: the Google Geocoding API, or Nominatim (keyless).

`GeocoderResource` sends ``GET {base}/maps/api/geocode/json?address=...&key=...`` (Google) or
``GET {base}/search?format=jsonv2&q=...&limit=1`` (Nominatim, with a User-Agent naming the
platform, as its usage policy asks) through a `ServiceGuard`: rate limit, concurrency, retries on
429 / OVER_QUERY_LIMIT / 5xx / timeouts with Retry-After, and a breaker. The definitions set it
from the environment (resource_defs, by EnvVar): SADIE_GEOCODER (google, nominatim or off; default google when a
key is set, else nominatim), SADIE_GEOCODER_BASE_URL, GOOGLE_MAPS_API_KEY. The key is redacted
from every error.

    answer = await geocoder.geocode("12 Water St, Charlottetown, PE C1A 4K3, CA", country="CA")
    answer.found, answer.lat, answer.lng, answer.precision   # core.geocode.Answer
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.errors import redact
from sadie_pipeline.core.geocode import Answer, Provider, read_google, read_nominatim
from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy, SkipItem

PROVIDER_ENV = "SADIE_GEOCODER"
BASE_URL_ENV = "SADIE_GEOCODER_BASE_URL"
GOOGLE_KEY_ENV = "GOOGLE_MAPS_API_KEY"
ENV_FIELDS = {"provider": PROVIDER_ENV, "base_url": BASE_URL_ENV, "api_key": GOOGLE_KEY_ENV}
DEFAULT_BASE_URLS = {Provider.GOOGLE: "https://maps.googleapis.com",
                     Provider.NOMINATIM: "https://nominatim.openstreetmap.org"}
# Google allows 50 requests a second per project; the public Nominatim one a second at most.
DEFAULT_RATES = {Provider.GOOGLE: 20.0, Provider.NOMINATIM: 1.0}


def _user_agent() -> str:
    try:
        own = version("sadie_pipeline")
    except PackageNotFoundError:  # a source tree that was never installed
        own = "0"
    return f"sadie-pipeline/{own} (listings geocoding)"


USER_AGENT = _user_agent()


class _Session:
    def __init__(self, provider: Provider, base_url: str, api_key: str | None, policy: ServicePolicy) -> None:
        self.provider, self.base_url, self.api_key = provider, base_url, api_key
        self.guard = ServiceGuard(policy, secrets=(api_key,))
        limits = httpx.Limits(max_connections=policy.max_concurrency * 2, max_keepalive_connections=policy.max_concurrency)
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(policy.timeout_s or 20.0, connect=10.0), limits=limits,
                                        headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
                                        trust_env=False)


class GeocoderResource(ConfigurableResource):
    """Address -> coordinates through Google's Geocoding API or Nominatim."""

    provider: str | None = Field(default=None, description="google, nominatim or off; None: google when api_key "
                                 "is set, else nominatim")
    base_url: str | None = Field(default=None, description="None: the provider's public endpoint")
    api_key: str | None = Field(default=None, description="Google's key (GOOGLE_MAPS_API_KEY)")
    requests_per_second: float | None = Field(default=None, gt=0, description="None: 20 for Google, 1 for Nominatim")
    max_concurrency: int = Field(default=4, ge=1)
    max_attempts: int = Field(default=4, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    timeout_s: float = Field(default=20.0, gt=0)
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=60.0, gt=0)

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    def resolved_provider(self) -> Provider:
        name = (self.provider or "").strip().lower()
        if name:
            try:
                return Provider(name)
            except ValueError:
                raise ValueError(f"{PROVIDER_ENV}: {name!r} is not one of {[p.value for p in Provider]}") from None
        return Provider.GOOGLE if (self.api_key or "").strip() else Provider.NOMINATIM

    def resolved_base_url(self) -> str:
        provider = self.resolved_provider()
        return ((self.base_url or "").strip() or DEFAULT_BASE_URLS.get(provider, "")).rstrip("/")

    def configured(self) -> bool:
        """False when geocoding is off, or Google is chosen without a key."""
        provider = self.resolved_provider()
        return provider is Provider.NOMINATIM or (provider is Provider.GOOGLE and bool((self.api_key or "").strip()))

    def not_configured_message(self) -> str:
        if self.resolved_provider() is Provider.OFF:
            return f"geocoding is off ({PROVIDER_ENV}=off)"
        return f"geocoding skipped: Google needs a key ({GOOGLE_KEY_ENV}), or set {PROVIDER_ENV}=nominatim"

    def policy(self) -> ServicePolicy:
        provider = self.resolved_provider()
        return ServicePolicy(
            name=f"geocoder-{provider}", requests_per_second=self.requests_per_second or DEFAULT_RATES.get(provider, 1.0),
            max_concurrency=self.max_concurrency, max_attempts=self.max_attempts, backoff_base_s=self.backoff_base_s,
            backoff_max_s=self.backoff_max_s, timeout_s=self.timeout_s, failure_threshold=self.failure_threshold,
            reset_timeout_s=self.reset_timeout_s)

    def _current(self) -> _Session:
        provider, base, key = self.resolved_provider(), self.resolved_base_url(), (self.api_key or "").strip() or None
        return self._sessions.get((provider, base, key), lambda: _Session(provider, base, key, self.policy()))

    def guard(self) -> ServiceGuard:
        return self._current().guard

    def redact(self, text: str) -> str:
        return redact(text, ((self.api_key or "").strip() or None,))

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.aclose()

    async def geocode(self, text: str, *, country: str | None = None, item_key: str | None = None) -> Answer:
        """The provider's first answer for a one-line address. Raises `SkipItem` when not configured
        and `ServiceCallFailed` when the guard gives up (a Google status that is a failure included)."""
        if not self.configured():
            raise SkipItem(self.not_configured_message())
        s = self._current()
        if s.provider is Provider.GOOGLE:
            url, read = f"{s.base_url}/maps/api/geocode/json", read_google
            params = {"address": text, "key": s.api_key or ""}
            if country:
                params["components"] = f"country:{country}"
        else:
            url, read = f"{s.base_url}/search", read_nominatim
            params = {"q": text, "format": "jsonv2", "limit": "1", "addressdetails": "0"}
            if country:
                params["countrycodes"] = country.lower()

        async def attempt() -> Answer:
            response = await s.client.get(url, params=params)
            response.raise_for_status()
            return read(response.json())  # a failing Google status raises with the class the guard acts on

        return await s.guard.call(attempt, item_key=item_key or text)
