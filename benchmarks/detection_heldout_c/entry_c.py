"""One page of held-out set C: its label fields plus the parts chrome_c.page() lays out."""

from __future__ import annotations

FORMS = ("link", "iframe", "form", "script_widget", "widget_init", "custom_element", "script_unusual_path",
         "js_string")
REGIONS = ("North America", "Europe", "Latin America", "Asia", "Oceania", "Africa", "Middle East")


def E(slug: str, name: str, city: str, country: str, tld: str, lang: str, region: str, platform: str,
      engine: str | None, host: str | None, form: str, catalogued: bool | None, snippet: str, **extra) -> dict:
    """An entry. `host` is the engine's host as on the page (the hotel's own for a self-hosted plugin)."""
    from chrome_c import PLATFORMS, WORDS

    assert form in FORMS or (form == "none" and engine is None), (slug, form)
    assert region in REGIONS and platform in PLATFORMS and lang in WORDS, slug
    domain = extra.pop("domain", f"{slug}.{tld}")
    final_url = extra.pop("final_url", f"https://www.{domain}/")
    return {"slug": slug, "name": name, "city": city, "country": country, "lang": lang, "region": region,
            "platform": platform.split("-")[0], "theme_platform": platform, "engine": engine, "host": host,
            "form": form, "catalogued_guess": catalogued, "snippet": snippet, "domain": domain,
            "final_url": final_url, **extra}
