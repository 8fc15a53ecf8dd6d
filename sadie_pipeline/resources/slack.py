"""Slack: post run summaries and alerts to a channel with the official client (slack_sdk).

`SlackResource.post(text, blocks=None)` calls ``chat.postMessage`` through
``slack_sdk.WebClient`` and returns the message's ``ts``. Retries are the SDK's retry handlers:
connection errors and timeouts, 429 ``ratelimited`` (waiting the Retry-After Slack sends, up to
``max_retry_after_s``), and 500/503, each up to ``max_retries`` times, with backoff and jitter.
Anything else (``invalid_auth``, ``channel_not_found``, ...) fails at once with
`ServiceCallFailed` whose text names the Slack error and the setting to check, never the token.

Settings are fields; the definitions set them from these variables:

    bot_token   SADIE_SLACK_BOT_TOKEN   the bot token (xoxb-...)
    channel     SADIE_SLACK_CHANNEL     channel id (C0123...) or name (#sadie-leads); the bot must be in it
    base_url    SADIE_SLACK_BASE_URL    optional, default https://slack.com/api/

    slack = SlackResource(bot_token="xoxb-...", channel="#sadie-leads")
    if slack.configured():
        ts = slack.post("US-FL: 812 hotels, 640 enriched", blocks=[...])
"""

from __future__ import annotations

import logging
import random
from typing import Any

from dagster import ConfigurableResource
from pydantic import Field
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.http_retry import (
    BackoffRetryIntervalCalculator,
    ConnectionErrorRetryHandler,
    Jitter,
    RateLimitErrorRetryHandler,
    RetryHandler,
)
from slack_sdk.http_retry.builtin_handlers import ServerErrorRetryHandler

from sadie_pipeline.core.errors import ErrorClass, classify, redact, retry_after_seconds
from sadie_pipeline.resources.reliability import ServiceCallFailed

logger = logging.getLogger(__name__)

TOKEN_ENV = "SADIE_SLACK_BOT_TOKEN"
CHANNEL_ENV = "SADIE_SLACK_CHANNEL"
BASE_URL_ENV = "SADIE_SLACK_BASE_URL"
DEFAULT_BASE_URL = WebClient.BASE_URL  # https://slack.com/api/
SERVICE = "slack"

_AUTH_ERRORS = frozenset({"not_authed", "invalid_auth", "account_inactive", "token_revoked", "token_expired",
                          "no_permission", "missing_scope", "not_allowed_token_type", "ekm_access_denied",
                          "team_access_not_granted"})
_NOT_FOUND_ERRORS = frozenset({"channel_not_found", "not_in_channel", "is_archived"})
_TRANSIENT_ERRORS = frozenset({"fatal_error", "internal_error", "service_unavailable", "request_timeout"})


class _Jitter(Jitter):
    def __init__(self, max_s: float) -> None:
        self.max_s = max_s

    def recalculate(self, duration: float) -> float:
        return duration + random.uniform(0, self.max_s)


class _Counting:
    """Counts the retries the handlers decide on (attempts = 1 + retries)."""

    def __init__(self) -> None:
        self.retries = 0


class _CountsRetries:
    """Mixed into an SDK retry handler: each retry it decides on is counted."""

    def __init__(self, counter: _Counting, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.counter = counter

    def prepare_for_next_attempt(self, **kwargs: Any) -> None:
        self.counter.retries += 1
        super().prepare_for_next_attempt(**kwargs)  # type: ignore[misc]


class _RateLimitHandler(_CountsRetries, RateLimitErrorRetryHandler):
    """Slack's 429: waits its Retry-After (the SDK's handler), unless longer than the cap."""

    def __init__(self, counter: _Counting, max_retry_count: int, max_retry_after_s: float) -> None:
        super().__init__(counter, max_retry_count=max_retry_count)
        self.max_retry_after_s = max_retry_after_s

    def _can_retry(self, *, state: Any, request: Any, response: Any = None, error: Any = None) -> bool:
        if not super()._can_retry(state=state, request=request, response=response, error=error):
            return False
        headers = {k: (v[0] if isinstance(v, list) and v else v) for k, v in (response.headers or {}).items()}
        wait = retry_after_seconds(headers)
        return wait is None or wait <= self.max_retry_after_s


class _ServerErrorHandler(_CountsRetries, ServerErrorRetryHandler):
    pass


class _ConnectionErrorHandler(_CountsRetries, ConnectionErrorRetryHandler):
    pass


def error_class_of(error: str, status: int | None) -> ErrorClass:
    """The class of a Slack API error (the ``error`` string and the HTTP status)."""
    if status == 429 or error == "ratelimited":
        return ErrorClass.RATE_LIMITED
    if error in _AUTH_ERRORS:
        return ErrorClass.AUTH
    if error in _NOT_FOUND_ERRORS:
        return ErrorClass.NOT_FOUND
    if error in _TRANSIENT_ERRORS or (status is not None and status >= 500):
        return ErrorClass.TRANSIENT
    return ErrorClass.PERMANENT


class SlackResource(ConfigurableResource):
    """Posts to one Slack channel as a bot; without a token and a channel, posting is skipped."""

    bot_token: str | None = Field(default=None, description=f"from {TOKEN_ENV}; None: not configured")
    channel: str | None = Field(default=None, description=f"from {CHANNEL_ENV}; None: not configured")
    base_url: str | None = Field(default=None, description=f"from {BASE_URL_ENV}; None: {DEFAULT_BASE_URL}")
    timeout_s: int = Field(default=30, ge=1)
    max_retries: int = Field(default=3, ge=0, description="retries per kind: connection/timeout, 429, 500/503")
    backoff_base_s: float = Field(default=0.5, ge=0, description="5xx/connection retries wait base * 2^n + jitter")
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    max_retry_after_s: float = Field(default=120.0, ge=0, description="a longer Retry-After fails the call instead")

    # ---- settings ------------------------------------------------------------------------
    def resolved_token(self) -> str | None:
        return (self.bot_token or "").strip() or None

    def resolved_channel(self) -> str | None:
        return (self.channel or "").strip() or None

    def resolved_base_url(self) -> str:
        url = (self.base_url or "").strip() or DEFAULT_BASE_URL
        return url if url.endswith("/") else url + "/"

    def configured(self) -> bool:
        """True when a bot token and a channel are set (posting is skipped otherwise)."""
        return self.resolved_token() is not None and self.resolved_channel() is not None

    def not_configured_message(self) -> str:
        missing = [name for name, value in ((TOKEN_ENV, self.resolved_token()), (CHANNEL_ENV, self.resolved_channel()))
                   if value is None] or [TOKEN_ENV, CHANNEL_ENV]
        return f"Slack notification skipped: Slack is not configured (set {', '.join(missing)})"

    def client(self, counter: _Counting | None = None) -> WebClient:
        """A WebClient with the retry handlers (built per call: it carries the call's retry counter)."""
        counter = counter or _Counting()
        backoff = BackoffRetryIntervalCalculator(backoff_factor=self.backoff_base_s,
                                                 jitter=_Jitter(self.backoff_jitter_s))
        handlers: list[RetryHandler] = [
            _ConnectionErrorHandler(counter, max_retry_count=self.max_retries, interval_calculator=backoff,
                                    error_types=[OSError]),  # URLError, resets, timeouts
            _RateLimitHandler(counter, self.max_retries, self.max_retry_after_s),
            _ServerErrorHandler(counter, max_retry_count=self.max_retries, interval_calculator=backoff),
        ]
        return WebClient(token=self.resolved_token(), base_url=self.resolved_base_url(), timeout=self.timeout_s,
                         retry_handlers=handlers, logger=logger)

    # ---- calls ----------------------------------------------------------------------------
    def post(self, text: str, blocks: list[Any] | None = None, *, channel: str | None = None) -> str | None:
        """Post ``text`` (and Block Kit ``blocks``; ``text`` is then the notification fallback) to
        the channel. Returns the message's ``ts``, or None when Slack is not configured (logged).
        Raises `ServiceCallFailed` when Slack refuses or keeps failing."""
        token, target = self.resolved_token(), channel or self.resolved_channel()
        if token is None or target is None:
            logger.info(self.not_configured_message())
            return None
        counter = _Counting()
        secrets = (token,)
        try:
            response = self.client(counter).chat_postMessage(channel=target, text=text, blocks=blocks)
        except SlackApiError as exc:
            status = exc.response.status_code
            data = exc.response.data if isinstance(exc.response.data, dict) else {}
            error = str(data.get("error") or f"http_{status}")
            error_class = error_class_of(error, status)
            raise ServiceCallFailed(error_class, counter.retries + 1, redact(self._explain(error, status, target),
                                                                            secrets),
                                    service=SERVICE, status_code=status) from None
        except (SlackClientError, OSError) as exc:  # connection errors and timeouts once retries are spent
            raise ServiceCallFailed(classify(exc) if isinstance(exc, OSError) else ErrorClass.PERMANENT,
                                    counter.retries + 1,
                                    redact(f"Slack chat.postMessage failed: {type(exc).__name__}: {exc}", secrets),
                                    service=SERVICE) from None
        ts = response.get("ts")
        return str(ts) if ts else None

    @staticmethod
    def _explain(error: str, status: int, channel: str) -> str:
        text = f"Slack chat.postMessage failed: {error} (HTTP {status})"
        if error in _AUTH_ERRORS:
            text += f"; check {TOKEN_ENV} (a bot token, xoxb-..., with the chat:write scope)"
        elif error in _NOT_FOUND_ERRORS:
            text += f"; check {CHANNEL_ENV} ({channel}) and that the bot is a member of the channel"
        return text
