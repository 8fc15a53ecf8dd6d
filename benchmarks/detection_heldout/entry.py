"""One page of the held-out corpus: its label and the parts chrome.page() lays out."""

from __future__ import annotations

FORMS = ("link", "iframe", "form", "script_widget", "widget_init", "custom_element", "script_unusual_path",
         "js_string")
REGIONS = ("North America", "Europe", "Latin America", "Asia", "Oceania", "Africa")


def ota_footer(slug: str, cc: str) -> str:
    """The 'also on' OTA links many small hotels keep in their footer (not their engine)."""
    return (f'<p class="ota-links">Also on <a href="https://www.booking.com/hotel/{cc}/{slug}.html" rel="nofollow">Booking.com</a>'
            f' · <a href="https://www.expedia.com/Hotel-Search?destination={slug}" rel="nofollow">Expedia</a>'
            f' · <a href="https://www.tripadvisor.com/Hotel_Review-g187514-d{len(slug) * 7919}-Reviews-{slug}.html">Tripadvisor</a></p>')


def E(slug: str, name: str, city: str, tld: str, lang: str, region: str, platform: str, engine: str | None,
      host: str | None, form: str, catalogued: bool | None, snippet: str, **extra: str) -> dict:
    """An entry: the label fields plus page parts (snippet in the hero; tail/footer/middle/head_extra)."""
    assert form in FORMS or form == "none", form
    assert region in REGIONS, region
    domain = f"{slug}.{tld}"
    final_url = extra.pop("final_url", f"https://www.{domain}/")
    return {"slug": slug, "name": name, "city": city, "lang": lang, "region": region, "platform": platform,
            "engine": engine, "host": host, "form": form, "catalogued_guess": catalogued, "snippet": snippet,
            "domain": domain, "final_url": final_url, **extra}
