"""SlackResource (slack_sdk's WebClient) against the sandbox's Slack Web API."""

from __future__ import annotations

import logging

import pytest

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.reliability import ServiceCallFailed
from sadie_pipeline.resources.slack import BASE_URL_ENV, CHANNEL_ENV, TOKEN_ENV, SlackResource
from sadie_pipeline.sandbox import Sandbox

TOKEN = "xoxb-4242-1717-sandboxbottoken"  # fake; must never show up in errors or logs


@pytest.fixture
def slack_env(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox's Slack settings in the environment; the sandbox accepts only TOKEN."""
    sb.expect_api_key("slack", TOKEN)
    env = sb.client_env()
    monkeypatch.setenv(TOKEN_ENV, TOKEN)
    monkeypatch.setenv(CHANNEL_ENV, env[CHANNEL_ENV])
    monkeypatch.setenv(BASE_URL_ENV, env[BASE_URL_ENV])


def fast(**kw: object) -> SlackResource:
    """The resource as the definitions configure it from the environment (its EnvVars read now)."""
    return resolved(configured("slack", **({"backoff_base_s": 0.01, "backoff_jitter_s": 0.0} | kw)))


def test_post_returns_ts_and_slack_saw_the_message(sb: Sandbox, slack_env: None) -> None:
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*US-FL*: 812 hotels, 640 enriched"}}]
    resource = fast()
    assert resource.configured()
    ts = resource.post("US-FL: 812 hotels, 640 enriched", blocks=blocks)
    assert ts == "1700000000.000100"
    assert resource.post("second") == "1700000000.000200"
    messages = sb.inspect("slack")["messages"]
    assert [(m["channel_name"], m["text"], m["ts"]) for m in messages] == [
        ("sadie-leads", "US-FL: 812 hotels, 640 enriched", ts), ("sadie-leads", "second", "1700000000.000200")]
    assert messages[0]["blocks"] == blocks and messages[1]["blocks"] is None
    assert all(e["headers"]["Authorization"] == "<redacted>" for e in sb.requests("slack"))
    assert resource.post("elsewhere", channel="general") == "1700000000.000300"
    assert sb.inspect("slack")["messages"][-1]["channel"] == "C0SADIEGENRL"


def test_bad_token_is_a_clear_auth_error_without_the_token(sb: Sandbox, slack_env: None,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    wrong = "xoxb-9999-0000-wrongtokenvalue"
    monkeypatch.setenv(TOKEN_ENV, wrong)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ServiceCallFailed) as failed:
        fast().post("hello")
    exc = failed.value
    assert exc.error_class is ErrorClass.AUTH and exc.attempts == 1 and exc.service == "slack"
    assert "invalid_auth" in str(exc) and TOKEN_ENV in str(exc) and exc.status_code == 200
    for text in (str(exc), exc.last_error, caplog.text):
        assert wrong not in text and TOKEN not in text
    assert sb.stats("slack")["requests"] == 1 and sb.inspect("slack")["messages"] == []


def test_unknown_channel_names_the_setting(sb: Sandbox, slack_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHANNEL_ENV, "#nowhere")
    with pytest.raises(ServiceCallFailed) as failed:
        fast().post("hello")
    assert failed.value.error_class is ErrorClass.NOT_FOUND
    assert "channel_not_found" in str(failed.value) and "#nowhere" in str(failed.value)
    assert CHANNEL_ENV in str(failed.value)


def test_5xx_once_is_retried_and_the_post_succeeds(sb: Sandbox, slack_env: None) -> None:
    sb.configure("slack", fail_next=1)
    assert fast().post("after a hiccup") == "1700000000.000100"
    assert sb.stats("slack")["statuses"] == {"503": 1, "200": 1}
    assert [m["text"] for m in sb.inspect("slack")["messages"]] == ["after a hiccup"]


def test_ratelimited_waits_for_retry_after(sb: Sandbox, slack_env: None) -> None:
    sb.configure("slack", rate_limit=(1, 1.0))
    resource = fast()
    assert resource.post("first") is not None
    assert resource.post("second, after Retry-After") is not None  # 429 + Retry-After: 1, then accepted
    assert sb.stats("slack")["rate_limited"] >= 1
    assert [m["text"] for m in sb.inspect("slack")["messages"]] == ["first", "second, after Retry-After"]


def test_slack_that_stays_down_fails_transient(sb: Sandbox, slack_env: None) -> None:
    sb.configure("slack", error_rate=1.0)
    with pytest.raises(ServiceCallFailed) as failed:
        fast(max_retries=2).post("lost")
    exc = failed.value
    assert exc.error_class is ErrorClass.TRANSIENT and exc.attempts == 3 and exc.status_code == 503
    assert "service_unavailable" in str(exc)
    assert sb.stats("slack")["requests"] == 3


def test_not_configured_posts_nothing(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    monkeypatch.setenv(CHANNEL_ENV, "#sadie-leads")
    monkeypatch.setenv(BASE_URL_ENV, f"{sb.base_url('slack')}/api")
    resource = fast()
    assert not resource.configured()
    assert TOKEN_ENV in resource.not_configured_message() and CHANNEL_ENV not in resource.not_configured_message()
    assert resource.post("nobody hears this") is None
    assert sb.stats("slack")["requests"] == 0
    monkeypatch.setenv(TOKEN_ENV, TOKEN)
    assert not resource.configured()  # the resource reads no variable: the definitions do, when built
    resource = fast()
    assert resource.configured()
    assert resource.resolved_base_url() == f"{sb.base_url('slack')}/api/"
    assert resource.post("now it does") == "1700000000.000100"
    monkeypatch.delenv(BASE_URL_ENV)
    assert SlackResource().resolved_base_url() == "https://slack.com/api/"
