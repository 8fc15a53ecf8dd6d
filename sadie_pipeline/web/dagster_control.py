"""What the pages do to runs after launching them (dagster_runs.py launches): cancel a queued or
running run, re-execute a failed one from its failure, list a DMO's runs and a job's run family,
register a new DMO's partition. Through the Dagster webserver's GraphQL API when it answers (the
terminate mutation by dagster-graphql's client, launchPipelineReexecution with FROM_FAILURE), else
on the instance of DAGSTER_HOME (its run coordinator cancels; a failed run is launched afresh by
dagster_runs.launch), and each outcome's message says which."""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass
from typing import Any

import httpx

from sadie_pipeline.web.dagster_runs import _instance, _one_line, answers, graphql_client, launch

RUN_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ACTIVE = ("QUEUED", "NOT_STARTED", "STARTING", "STARTED")  # cancelable
ENDED_BADLY = ("FAILURE", "CANCELED")  # re-executable from failure
ROOT_TAG, PARTITION_TAG = "dagster/root_run_id", "dagster/partition"
_log = logging.getLogger(__name__)

_RUN_FIELDS = "runId status jobName rootRunId parentRunId creationTime tags { key value }"
_RUNS = ("query($filter: RunsFilter, $limit: Int) { runsOrError(filter: $filter, limit: $limit) { __typename "
         f"... on Runs {{ results {{ {_RUN_FIELDS} }} }} ... on Error {{ message }} }} }}")
_REEXECUTE = ("mutation($params: ReexecutionParams) { launchPipelineReexecution(reexecutionParams: $params) { "
              "__typename ... on LaunchRunSuccess { run { runId } } ... on Error { message } "
              "... on RunConfigValidationInvalid { errors { message } } } }")
_REPOSITORIES = ("query { repositoriesOrError { __typename ... on RepositoryConnection { nodes { name "
                 "location { name } } } } }")
_ADD_PARTITION = ("mutation($selector: RepositorySelector!, $name: String!, $key: String!) { "
                  "addDynamicPartition(repositorySelector: $selector, partitionsDefName: $name, partitionKey: $key) "
                  "{ __typename ... on Error { message } } }")


@dataclass(frozen=True)
class Outcome:
    """What an action on a run did: ok, the page's message, and the run it launched (if any)."""
    ok: bool
    message: str
    run_id: str | None = None


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    status: str        # DagsterRunStatus's name: QUEUED, STARTED, SUCCESS, FAILURE, CANCELED, ...
    job: str
    created: dt.datetime | None
    tags: dict[str, str]
    parent: str | None = None

    @property
    def partition(self) -> str | None:
        return self.tags.get(PARTITION_TAG)

    @property
    def cancelable(self) -> bool:
        return self.status in ACTIVE


def _graphql(dagster_url: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{dagster_url}/graphql", json={"query": query, "variables": variables}, timeout=30)
    response.raise_for_status()
    body = response.json()
    if body.get("errors"):
        raise RuntimeError("; ".join(e.get("message", "") for e in body["errors"]))
    return body["data"]


def _from_graphql(r: dict[str, Any]) -> RunInfo:
    created = dt.datetime.fromtimestamp(r["creationTime"], dt.UTC) if r.get("creationTime") else None
    return RunInfo(r["runId"], r["status"], r["jobName"], created, {t["key"]: t["value"] for t in r["tags"]},
                   r.get("parentRunId"))


def _from_instance(run: Any, created: dt.datetime | None = None) -> RunInfo:
    return RunInfo(run.run_id, run.status.name, run.job_name, created, dict(run.tags), run.parent_run_id)


def find_runs(dagster_url: str, tags: dict[str, str] | None = None, run_ids: list[str] | None = None,
              limit: int = 10) -> list[RunInfo]:
    """Runs (newest first) with these tags or ids, from the webserver, else the instance; [] when
    neither is there."""
    if answers(dagster_url):
        where = {**({"tags": [{"key": k, "value": v} for k, v in tags.items()]} if tags else {}),
                 **({"runIds": run_ids} if run_ids else {})}
        try:
            found = _graphql(dagster_url, _RUNS, {"filter": where, "limit": limit})["runsOrError"]
        except (httpx.HTTPError, RuntimeError, ValueError):  # a page still shows without its runs
            _log.exception("the Dagster webserver at %s did not list runs", dagster_url)
            return []
        return [_from_graphql(r) for r in found.get("results", [])]
    instance = _instance()
    if instance is None:
        return []
    from dagster import RunsFilter

    records = instance.get_run_records(RunsFilter(tags=tags or {}, run_ids=run_ids), limit=limit)
    return [_from_instance(r.dagster_run, r.create_timestamp) for r in records]


def run_of(dagster_url: str, run_id: str) -> RunInfo | None:
    if not RUN_ID.fullmatch(run_id):
        return None
    found = find_runs(dagster_url, run_ids=[run_id], limit=1)
    return found[0] if found else None


def newest_of_family(dagster_url: str, root_run_id: str) -> RunInfo | None:
    """The newest run of a run's family (the run itself, or its newest re-execution): the one a
    job's state follows, since a re-execution keeps its root's id (listings/assets.py run_key)."""
    if not RUN_ID.fullmatch(root_run_id or ""):
        return None
    children = find_runs(dagster_url, tags={ROOT_TAG: root_run_id}, limit=1)
    return children[0] if children else run_of(dagster_url, root_run_id)


def cancel(dagster_url: str, run_id: str) -> Outcome:
    """Cancels a queued or running run: the webserver's terminate mutation, else the instance's run
    coordinator (a queued run is marked canceled; a started one is asked to stop)."""
    if not RUN_ID.fullmatch(run_id):
        return Outcome(False, "not a run id")
    if answers(dagster_url):
        from dagster_graphql import DagsterGraphQLClientError

        try:
            graphql_client(dagster_url).terminate_run(run_id)
        except DagsterGraphQLClientError as exc:
            return Outcome(False, f"Dagster did not cancel run {run_id[:8]}: {_one_line(exc)}")
        return Outcome(True, f"run {run_id[:8]} canceled through the Dagster webserver", run_id)
    instance = _instance()
    run = instance.get_run_by_id(run_id) if instance is not None else None
    if run is None:
        return Outcome(False, f"no Dagster webserver answers at {dagster_url} and no instance knows run {run_id[:8]}")
    if run.status.name not in ACTIVE:
        return Outcome(False, f"run {run_id[:8]} is {run.status.name.lower()}: only a queued or running run is canceled")
    if not instance.run_coordinator.cancel_run(run_id):
        return Outcome(False, f"the Dagster instance could not cancel run {run_id[:8]} (no webserver answers)")
    return Outcome(True, f"run {run_id[:8]} canceled on the Dagster instance (no webserver answers)", run_id)


def reexecute(dagster_url: str, run_id: str, user: str | None = None) -> Outcome:
    """Runs a failed or canceled run again from its failure (its root's id kept, so its jobs stay
    its own); without a webserver, a fresh run of the same job, partition and config."""
    if answers(dagster_url):
        params = {"parentRunId": run_id, "strategy": "FROM_FAILURE",
                  "extraTags": [{"key": "dagster/user", "value": user}] if user else []}
        try:
            found = _graphql(dagster_url, _REEXECUTE, {"params": params})["launchPipelineReexecution"]
        except (httpx.HTTPError, RuntimeError) as exc:
            return Outcome(False, f"Dagster refused to re-execute run {run_id[:8]}: {_one_line(exc)}")
        if found["__typename"] != "LaunchRunSuccess":
            why = found.get("message") or "; ".join(e["message"] for e in found.get("errors", [])) or found["__typename"]
            return Outcome(False, f"Dagster refused to re-execute run {run_id[:8]}: {_one_line(Exception(why))}")
        new = found["run"]["runId"]
        return Outcome(True, f"run {run_id[:8]} re-executed from its failure as run {new[:8]} through the Dagster "
                             f"webserver", new)
    return _launch_again(dagster_url, run_id, user)


def _launch_again(dagster_url: str, run_id: str, user: str | None) -> Outcome:
    instance = _instance()
    run = instance.get_run_by_id(run_id) if instance is not None else None
    if run is None or PARTITION_TAG not in run.tags:
        return Outcome(False, f"no Dagster webserver answers at {dagster_url} to re-execute run {run_id[:8]}, and no "
                              f"instance knows it")
    assets = [k.to_user_string() for k in run.asset_selection] if run.asset_selection else None
    config = {k: v for k, v in run.run_config.items() if k != "loggers"}
    again = launch(dagster_url, run.job_name, run.tags[PARTITION_TAG], config, user=user, assets=assets)
    if not again.ok:
        return Outcome(False, again.problem or "not launched")
    return Outcome(True, f"no Dagster webserver answers to re-execute run {run_id[:8]}: {run.job_name} launched "
                         f"afresh {again.where} (a failed import is imported again; a failed stage is staged again "
                         f"only by a re-execution)", again.run_id)


def ensure_partition(dagster_url: str, slug: str) -> str | None:
    """Adds the DMO's `dmo` partition (as dmo_partitions_sensor would within a minute) so that a run
    can be launched for it at once; None, or why it was not added."""
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    if answers(dagster_url):
        try:
            return _add_partition_graphql(dagster_url, DMO_PARTITIONS_NAME, slug)
        except (httpx.HTTPError, RuntimeError, KeyError) as exc:
            return _one_line(exc)
    instance = _instance()
    if instance is None:
        return "no Dagster webserver or instance: the partition sensor adds it"
    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, slug):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])
    return None


def _add_partition_graphql(dagster_url: str, name: str, slug: str) -> str | None:
    repos = _graphql(dagster_url, _REPOSITORIES, {})["repositoriesOrError"].get("nodes", [])
    if not repos:
        return "the webserver lists no code location"
    selector = {"repositoryName": repos[0]["name"], "repositoryLocationName": repos[0]["location"]["name"]}
    added = _graphql(dagster_url, _ADD_PARTITION, {"selector": selector, "name": name, "key": slug})
    result = added["addDynamicPartition"]
    if result["__typename"] == "AddDynamicPartitionSuccess" or "already exists" in (result.get("message") or ""):
        return None
    return result.get("message") or result["__typename"]

