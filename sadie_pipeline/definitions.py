"""The one Definitions object of the code location: each domain's definitions plus shared resources."""

from dagster import Definitions

from sadie_pipeline.listings.definitions import defs as listings_defs
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

# Both resources resolve their backend from the environment when used (SADIE_DATABASE_URL,
# SADIE_S3_BUCKET...), falling back to the embedded database and the local folder.
shared_resources = {"database": Database(), "object_store": ObjectStore()}

defs = Definitions.merge(listings_defs, Definitions(resources=shared_resources))
