"""The one Definitions object of the code location: each domain's definitions plus shared resources."""

from dagster import Definitions

from sadie_pipeline.hotels import definitions as hotels
from sadie_pipeline.listings import definitions as listings
from sadie_pipeline.operations import definitions as operations
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

# Both resources resolve their backend from the environment when used (SADIE_DATABASE_URL,
# SADIE_S3_BUCKET...), falling back to the embedded database and the local folder.
defs = Definitions.merge(
    listings.defs,
    hotels.defs,
    operations.defs,
    Definitions(resources={"database": Database(), "object_store": ObjectStore()}),
)
