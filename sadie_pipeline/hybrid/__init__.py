"""Hybrid (issue 35, seed 003): scrape on this machine, enrich in the cloud through an SQS queue."""
