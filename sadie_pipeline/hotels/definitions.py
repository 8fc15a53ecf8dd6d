from dagster import Definitions

from sadie_pipeline.hotels.assets import hotel_assets
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher

defs = Definitions(assets=hotel_assets, resources={"serper": SerperResource(), "website_fetcher": WebsiteFetcher()})
