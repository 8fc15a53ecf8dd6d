"""The two partitionings: listings by DMO (dynamic), hotel leads by region (static ISO 3166-2)."""

from dagster import DynamicPartitionsDefinition, StaticPartitionsDefinition

from sadie_pipeline.regions import REGIONS

DMO_PARTITIONS_NAME = "dmo"
dmo_partitions = DynamicPartitionsDefinition(name=DMO_PARTITIONS_NAME)
region_partitions = StaticPartitionsDefinition(list(REGIONS))
