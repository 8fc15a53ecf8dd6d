from dagster import Definitions

from sadie_pipeline.hotels.assets import hotel_assets
from sadie_pipeline.hotels.enrichment.proximity import attraction_proximity
from sadie_pipeline.hotels.enrichment.research import hotel_research
from sadie_pipeline.hotels.enrichment.room_counts import room_counts
from sadie_pipeline.resources.llm import AnthropicResource, GroqResource
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher

enrichment_assets = [room_counts, attraction_proximity, hotel_research]

defs = Definitions(
    assets=[*hotel_assets, *enrichment_assets],
    resources={"serper": SerperResource(), "website_fetcher": WebsiteFetcher(), "groq": GroqResource(),
               "anthropic": AnthropicResource()},
)
