"""Microsoft identity platform, Graph (OneDrive upload) and Slack through raw httpx: tokens,
OIDC discovery over the HTTPS listener, upload sessions and their fragment rules, Slack errors."""

from __future__ import annotations

import hashlib
import ssl
from collections.abc import Iterator
from typing import Any

import httpx
import msal
import pytest

from sadie_pipeline.sandbox import Sandbox, SandboxProcess
from sadie_pipeline.sandbox.services.graph import DRIVE_ID
from sadie_pipeline.sandbox.services.login import CLIENT_ID, TENANT_DOMAIN, TENANT_ID

SECRET = "graph-secret-for-tests-7Qx"  # fake
SCOPE = "https://graph.microsoft.com/.default"
UNIT = 320 * 1024
SLACK_TOKEN = "xoxb-1111-2222-sandboxtoken"


@pytest.fixture
def tls(sb: Sandbox) -> Iterator[httpx.Client]:
    """An httpx client that trusts the sandbox's CA (and nothing else)."""
    with httpx.Client(verify=ssl.create_default_context(cafile=sb.ca_file), timeout=10, trust_env=False) as client:
        yield client


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10, trust_env=False) as client:
        yield client


def token_form(**overrides: str) -> dict[str, str]:
    return {"client_id": CLIENT_ID, "client_secret": SECRET, "scope": SCOPE, "grant_type": "client_credentials",
            **overrides}


def get_token(sb: Sandbox, client: httpx.Client) -> str:
    r = client.post(f"{sb.https_url}/{TENANT_ID}/oauth2/v2.0/token", data=token_form())
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def graph(sb: Sandbox, path: str) -> str:
    return f"{sb.base_url('graph')}/v1.0/drives/{DRIVE_ID}/{path}"


# ---- identity platform ----------------------------------------------------------------------------

def test_discovery_over_https_points_back_at_the_listener(sb: Sandbox, tls: httpx.Client) -> None:
    assert sb.https_url.startswith("https://127.0.0.1:")
    r = tls.get(f"{sb.https_url}/{TENANT_ID}/v2.0/.well-known/openid-configuration")
    assert r.status_code == 200
    config = r.json()
    assert config["token_endpoint"] == f"{sb.https_url}/{TENANT_ID}/oauth2/v2.0/token"
    assert config["issuer"] == f"{sb.https_url}/{TENANT_ID}/v2.0"
    assert {"authorization_endpoint", "jwks_uri", "device_authorization_endpoint"} <= set(config)
    # the same service over plain http under its prefix, for humans and raw tests
    plain = httpx.get(f"{sb.base_url('login')}/{TENANT_DOMAIN}/v2.0/.well-known/openid-configuration").json()
    assert plain["token_endpoint"] == f"{sb.base_url('login')}/{TENANT_DOMAIN}/oauth2/v2.0/token"
    unknown = tls.get(f"{sb.https_url}/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
    assert unknown.status_code == 400 and unknown.json()["error"] == "invalid_tenant"
    assert unknown.json()["error_codes"] == [90002]
    instance = tls.get(f"{sb.https_url}/common/discovery/instance",
                       params={"api-version": "1.1",
                               "authorization_endpoint": f"{sb.https_url}/{TENANT_ID}/oauth2/v2.0/authorize"}).json()
    assert instance["tenant_discovery_endpoint"] == f"{sb.https_url}/{TENANT_ID}/v2.0/.well-known/openid-configuration"
    with pytest.raises(httpx.ConnectError):  # a client that does not trust the sandbox CA is refused
        httpx.get(f"{sb.https_url}/{TENANT_ID}/v2.0/.well-known/openid-configuration", trust_env=False)


def test_token_endpoint_speaks_aad(sb: Sandbox, tls: httpx.Client) -> None:
    url = f"{sb.https_url}/{TENANT_ID}/oauth2/v2.0/token"
    ok = tls.post(url, data=token_form())
    assert ok.status_code == 200 and ok.headers["Cache-Control"].startswith("no-store")
    body = ok.json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3599 and body["access_token"].count(".") == 2
    basic = tls.post(url, data={"scope": SCOPE, "grant_type": "client_credentials"}, auth=(CLIENT_ID, SECRET))
    assert basic.status_code == 200

    sb.expect_api_key("login", SECRET)
    wrong = tls.post(url, data=token_form(client_secret="not-the-secret"))
    assert wrong.status_code == 401
    err = wrong.json()
    assert err["error"] == "invalid_client" and err["error_codes"] == [7000215]
    assert err["error_description"].startswith("AADSTS7000215: Invalid client secret provided.")
    assert {"trace_id", "correlation_id", "timestamp", "error_uri"} <= set(err)
    assert "not-the-secret" not in wrong.text
    assert tls.post(url, data=token_form()).status_code == 200

    cases = {
        "no secret": (token_form(client_secret=""), 401, "invalid_client"),
        "scope without /.default": (token_form(scope="https://graph.microsoft.com/Files.ReadWrite.All"), 400,
                                    "invalid_scope"),
        "no scope": (token_form(scope=""), 400, "invalid_request"),
        "authorization code grant": (token_form(grant_type="authorization_code"), 400, "unsupported_grant_type"),
        "client id not a GUID": (token_form(client_id="my-app"), 400, "unauthorized_client"),
    }
    for name, (form, status, error) in cases.items():
        r = tls.post(url, data=form)
        assert (r.status_code, r.json()["error"]) == (status, error), name
    common = tls.post(f"{sb.https_url}/common/oauth2/v2.0/token", data=token_form())
    assert common.status_code == 400 and common.json()["error_codes"] == [50059]
    assert sb.requests("login")[-1]["path"] == "/common/oauth2/v2.0/token"


def test_msal_gets_a_token_through_its_http_client(sb: Sandbox, tls: httpx.Client) -> None:
    app = msal.ConfidentialClientApplication(CLIENT_ID, client_credential=SECRET,
                                             authority=f"{sb.https_url}/{TENANT_ID}", http_client=tls,
                                             instance_discovery=False)
    first = app.acquire_token_for_client(scopes=[SCOPE])
    assert first["token_source"] == "identity_provider" and first["access_token"]
    assert app.acquire_token_for_client(scopes=[SCOPE])["token_source"] == "cache"
    assert [(e["method"], e["path"]) for e in sb.requests("login")] == [
        ("GET", f"/{TENANT_ID}/v2.0/.well-known/openid-configuration"), ("POST", f"/{TENANT_ID}/oauth2/v2.0/token")]
    assert sb.stats("login")["requests"] == 2


# ---- Graph: auth, simple upload, metadata ----------------------------------------------------------

def test_graph_requires_a_token_from_the_login_service(sb: Sandbox, http: httpx.Client) -> None:
    url = graph(sb, "root:/Sadie Leads/a.csv:/content")
    missing = http.put(url, content=b"x")
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "InvalidAuthenticationToken"
    assert "innerError" in missing.json()["error"] and "WWW-Authenticate" in missing.headers
    forged = http.put(url, content=b"x", headers={"Authorization": "Bearer eyJhbGciOi.eyJhdWQiOi.c2ln"})
    assert forged.status_code == 401
    sb.expect_api_key("login", None)
    other_aud = http.post(f"{sb.base_url('login')}/{TENANT_ID}/oauth2/v2.0/token",
                          data=token_form(scope="api://something-else/.default")).json()["access_token"]
    wrong = http.put(url, content=b"x", headers={"Authorization": f"Bearer {other_aud}"})
    assert wrong.status_code == 401 and "audience" in wrong.json()["error"]["message"]
    assert sb.inspect("graph")["files"] == []


def test_simple_upload_metadata_and_download(sb: Sandbox, tls: httpx.Client, http: httpx.Client) -> None:
    auth = {"Authorization": f"Bearer {get_token(sb, tls)}"}
    data = b"name,city\nBiscayne Bay Inn,Miami\n"
    created = http.put(graph(sb, "root:/Sadie Leads/US-FL/leads%20v1.csv:/content"), content=data, headers=auth)
    assert created.status_code == 201
    item = created.json()
    assert item["name"] == "leads v1.csv" and item["size"] == len(data) and item["id"].startswith("01")
    assert item["webUrl"].endswith("/Documents/Sadie%20Leads/US-FL/leads%20v1.csv")
    assert item["parentReference"]["driveId"] == DRIVE_ID
    assert item["parentReference"]["path"] == f"/drives/{DRIVE_ID}/root:/Sadie Leads/US-FL"
    assert item["file"]["hashes"]["sha256Hash"] == hashlib.sha256(data).hexdigest().upper()

    replaced = http.put(graph(sb, "root:/sadie leads/us-fl/LEADS V1.csv:/content"), content=data + b"x", headers=auth)
    assert replaced.status_code == 200 and replaced.json()["id"] == item["id"]  # paths are case-insensitive
    conflict = http.put(graph(sb, "root:/Sadie Leads/US-FL/leads v1.csv:/content"), content=b"y", headers=auth,
                        params={"@microsoft.graph.conflictBehavior": "fail"})
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "nameAlreadyExists"

    meta = http.get(graph(sb, "root:/Sadie Leads/US-FL/leads v1.csv"), headers=auth)
    assert meta.status_code == 200 and meta.json()["size"] == len(data) + 1
    folder = http.get(graph(sb, "root:/Sadie Leads"), headers=auth).json()
    assert folder["folder"] == {"childCount": 1} and folder["name"] == "Sadie Leads"
    assert http.get(graph(sb, f"items/{item['id']}"), headers=auth).json()["name"] == "leads v1.csv"
    missing = http.get(graph(sb, "root:/Sadie Leads/nope.csv"), headers=auth)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "itemNotFound"
    download = http.get(graph(sb, "root:/Sadie Leads/US-FL/leads v1.csv:/content"), headers=auth)
    assert download.status_code == 302
    assert http.get(download.headers["Location"]).content == data + b"x"  # pre-authenticated URL
    other_drive = http.get(f"{sb.base_url('graph')}/v1.0/drives/b!nope/root:/a.csv", headers=auth)
    assert other_drive.status_code == 404
    illegal = http.put(graph(sb, "root:/Sadie Leads/a|b.csv:/content"), content=b"x", headers=auth)
    assert illegal.status_code == 400 and illegal.json()["error"]["code"] == "invalidRequest"

    too_big = http.put(graph(sb, "root:/Sadie Leads/big.bin:/content"), content=b"\0" * (4 * 1024 * 1024 + 1),
                       headers=auth)
    assert too_big.status_code == 413 and too_big.json()["error"]["code"] == "requestEntityTooLarge"
    files = sb.inspect("graph")["files"]
    assert [(f["path"], f["size"], f["method"]) for f in files] == [("Sadie Leads/US-FL/leads v1.csv", len(data) + 1,
                                                                    "simple")]
    assert sb.services["graph"].content("Sadie Leads/US-FL/leads v1.csv") == data + b"x"


# ---- Graph: upload sessions ---------------------------------------------------------------------------

def new_session(sb: Sandbox, http: httpx.Client, auth: dict[str, str], path: str, **item: Any) -> str:
    r = http.post(graph(sb, f"root:/{path}:/createUploadSession"), headers=auth,
                  json={"item": item} if item else None)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["nextExpectedRanges"] == ["0-"] and body["expirationDateTime"].endswith("Z")
    return body["uploadUrl"]


def put_range(http: httpx.Client, url: str, data: bytes, start: int, end: int,
              headers: dict[str, str] | None = None) -> httpx.Response:
    return http.put(url, content=data[start:end + 1],
                    headers={"Content-Range": f"bytes {start}-{end}/{len(data)}", **(headers or {})})


def test_upload_session_fragments_follow_graphs_rules(sb: Sandbox, tls: httpx.Client, http: httpx.Client) -> None:
    auth = {"Authorization": f"Bearer {get_token(sb, tls)}"}
    data = bytes(range(256)) * (5 * 4096)  # 5 MiB
    url = new_session(sb, http, auth, "Sadie Leads/US-FL/leads.xlsx",
                      **{"@microsoft.graph.conflictBehavior": "replace"})
    assert sb.inspect("graph")["upload_sessions"] == 1

    not_multiple = put_range(http, url, data, 0, 1_000_000 - 1)
    assert not_multiple.status_code == 400 and "320 KiB" in not_multiple.json()["error"]["message"]
    with_auth = put_range(http, url, data, 0, 4 * UNIT - 1, auth)
    assert with_auth.status_code == 401  # the upload URL is pre-authenticated; Graph warns against the header
    no_range = http.put(url, content=data[:UNIT])
    assert no_range.status_code == 400
    short = http.put(url, content=data[:UNIT - 1], headers={"Content-Range": f"bytes 0-{UNIT - 1}/{len(data)}"})
    assert short.status_code == 400

    first = put_range(http, url, data, 0, 4 * UNIT - 1)
    assert first.status_code == 202 and first.json()["nextExpectedRanges"] == [f"{4 * UNIT}-"]
    skipped = put_range(http, url, data, 8 * UNIT, 12 * UNIT - 1)
    assert skipped.status_code == 416 and skipped.json()["error"]["nextExpectedRanges"] == [f"{4 * UNIT}-"]
    again = put_range(http, url, data, 0, 4 * UNIT - 1)
    assert again.status_code == 416 and again.json()["error"]["code"] == "invalidRange"
    other_total = http.put(url, content=data[4 * UNIT:8 * UNIT],
                           headers={"Content-Range": f"bytes {4 * UNIT}-{8 * UNIT - 1}/{len(data) + 1}"})
    assert other_total.status_code == 400
    assert http.get(url).json()["nextExpectedRanges"] == [f"{4 * UNIT}-"]

    second = put_range(http, url, data, 4 * UNIT, 12 * UNIT - 1)
    assert second.status_code == 202 and second.json()["nextExpectedRanges"] == [f"{12 * UNIT}-"]
    last = put_range(http, url, data, 12 * UNIT, len(data) - 1)  # the last fragment may be any size
    assert last.status_code == 201
    item = last.json()
    assert item["name"] == "leads.xlsx" and item["size"] == len(data)
    assert item["file"]["mimeType"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert http.get(url).status_code == 404  # the session is over
    [stored] = sb.inspect("graph")["files"]
    assert (stored["method"], stored["chunks"], stored["sha256"]) == ("session", 3, hashlib.sha256(data).hexdigest())
    assert sb.inspect("graph")["upload_sessions"] == 0

    cancelled = new_session(sb, http, auth, "Sadie Leads/other.bin")
    assert http.delete(cancelled).status_code == 204 and http.get(cancelled).status_code == 404
    refused = http.post(graph(sb, "root:/Sadie Leads/US-FL/leads.xlsx:/createUploadSession"), headers=auth,
                        json={"item": {"@microsoft.graph.conflictBehavior": "fail"}})
    assert refused.status_code == 409


def test_graph_knobs_answer_in_graphs_shape(sb: Sandbox, tls: httpx.Client, http: httpx.Client) -> None:
    auth = {"Authorization": f"Bearer {get_token(sb, tls)}"}
    url = graph(sb, "root:/Sadie Leads/a.csv:/content")
    sb.configure("graph", fail_next=2)
    statuses = [http.put(url, content=b"a", headers=auth) for _ in range(3)]
    assert [r.status_code for r in statuses] == [503, 503, 201]
    assert statuses[0].json()["error"]["code"] == "serviceNotAvailable"
    assert sb.stats("graph")["injected_errors"] == 2
    sb.configure("graph", fail_next=0, rate_limit=(1, 60))
    assert http.put(url, content=b"a", headers=auth).status_code == 200
    limited = http.put(url, content=b"a", headers=auth)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert limited.json()["error"]["code"] == "activityLimitReached"
    assert sb.stats("login")["requests"] == 1  # the token endpoint has its own knobs


# ---- Slack --------------------------------------------------------------------------------------------

def slack(sb: Sandbox, method: str, token: str | None = SLACK_TOKEN, **kw: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{sb.base_url('slack')}/api/{method}", headers=headers, **kw)


def test_slack_post_message_and_permalink(sb: Sandbox) -> None:
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "*US-FL* done"}}]
    r = slack(sb, "chat.postMessage", json={"channel": "#sadie-leads", "text": "US-FL done", "blocks": blocks})
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True and body["channel"] == "C0SADIELEADS" and body["ts"] == "1700000000.000100"
    assert body["message"]["text"] == "US-FL done" and body["message"]["blocks"] == blocks
    assert body["message"]["bot_id"] and body["message"]["type"] == "message"
    form = slack(sb, "chat.postMessage", data={"channel": "C0SADIEGENRL", "text": "second"})
    assert form.json()["ts"] == "1700000000.000200"
    by_param = slack(sb, "chat.postMessage", token=None, data={"token": SLACK_TOKEN, "channel": "general",
                                                               "text": "third", "blocks": "[]"})
    assert by_param.json()["ok"] is True
    link = slack(sb, "chat.getPermalink", params={"channel": "C0SADIELEADS", "message_ts": body["ts"]}).json()
    assert link["permalink"].endswith("/archives/C0SADIELEADS/p1700000000000100")
    assert slack(sb, "chat.getPermalink", params={"channel": "C0SADIELEADS", "message_ts": "1.2"}).json() == \
        {"ok": False, "error": "message_not_found"}
    seen = httpx.get(f"{sb.url}/_sandbox/inspect/slack").json()["messages"]
    assert [(m["channel"], m["text"]) for m in seen] == [("C0SADIELEADS", "US-FL done"), ("C0SADIEGENRL", "second"),
                                                         ("C0SADIEGENRL", "third")]
    assert seen[0]["blocks"] == blocks
    sb.reset()
    assert sb.inspect("slack")["messages"] == []
    assert all(e["headers"].get("Authorization") == "<redacted>" for e in sb.requests("slack")) or \
        not sb.requests("slack")


def test_slack_errors_are_ok_false_like_slack(sb: Sandbox) -> None:
    post = "chat.postMessage"
    assert slack(sb, post, token=None, json={"channel": "C0SADIELEADS", "text": "x"}).json() == \
        {"ok": False, "error": "not_authed"}
    garbage = slack(sb, post, token="not-a-slack-token", json={"channel": "C0SADIELEADS", "text": "x"})
    assert garbage.status_code == 200 and garbage.json() == {"ok": False, "error": "invalid_auth"}
    sb.expect_api_key("slack", SLACK_TOKEN)
    assert slack(sb, post, token="xoxb-other", json={"channel": "C0SADIELEADS", "text": "x"}).json()["error"] == \
        "invalid_auth"
    assert slack(sb, post, json={"channel": "#nowhere", "text": "x"}).json() == \
        {"ok": False, "error": "channel_not_found"}
    assert slack(sb, post, json={"channel": "C0SADIELEADS"}).json()["error"] == "no_text"
    assert slack(sb, post, json={"channel": "C0SADIELEADS", "text": "x", "blocks": [{"text": "no type"}]}).json() \
        == {"ok": False, "error": "invalid_blocks"}
    assert slack(sb, post, json={"channel": "C0SADIELEADS", "text": "x" * 40_001}).json()["error"] == "msg_too_long"
    unknown = slack(sb, "chat.nope", json={})
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown_method"
    assert sb.inspect("slack")["messages"] == []

    sb.configure("slack", rate_limit=(1, 60))
    assert slack(sb, post, json={"channel": "C0SADIELEADS", "text": "x"}).json()["ok"] is True
    limited = slack(sb, post, json={"channel": "C0SADIELEADS", "text": "x"})
    assert limited.status_code == 429 and limited.json() == {"ok": False, "error": "ratelimited"}
    assert int(limited.headers["Retry-After"]) >= 1 and "X-RateLimit-Limit" not in limited.headers
    sb.configure("slack", rate_limit=None, fail_next=1)
    down = slack(sb, post, json={"channel": "C0SADIELEADS", "text": "x"})
    assert down.status_code == 503 and down.json() == {"ok": False, "error": "service_unavailable"}


# ---- wiring -------------------------------------------------------------------------------------------

def test_client_env_points_the_resources_at_the_sandbox(sb: Sandbox) -> None:
    env = sb.client_env()
    assert env["SADIE_GRAPH_AUTHORITY_HOST"] == sb.https_url and env["SADIE_GRAPH_CA_BUNDLE"] == sb.ca_file
    assert env["SADIE_GRAPH_BASE_URL"] == f"{sb.base_url('graph')}/v1.0"
    assert (env["SADIE_GRAPH_TENANT_ID"], env["SADIE_GRAPH_CLIENT_ID"], env["SADIE_GRAPH_DRIVE_ID"]) == \
        (TENANT_ID, CLIENT_ID, DRIVE_ID)
    assert env["SADIE_SLACK_BASE_URL"] == f"{sb.base_url('slack')}/api/"
    assert env["SADIE_SLACK_BOT_TOKEN"].startswith("xoxb-") and env["SADIE_SLACK_CHANNEL"] == "#sadie-leads"
    assert env["SADIE_SERPER_BASE_URL"] == sb.base_url("serper") and env["SADIE_HTTP_PROXY"] == sb.proxy_url
    sb.expect_api_key("login", SECRET)
    assert sb.client_env()["SADIE_GRAPH_CLIENT_SECRET"] == SECRET


def test_graph_and_slack_in_a_child_process() -> None:
    with SandboxProcess(demo=False, dns=False) as sb:
        env = sb.client_env()
        with httpx.Client(verify=ssl.create_default_context(cafile=sb.ca_file), trust_env=False) as tls:
            app = msal.ConfidentialClientApplication(env["SADIE_GRAPH_CLIENT_ID"],
                                                     client_credential=env["SADIE_GRAPH_CLIENT_SECRET"],
                                                     authority=f"{sb.https_url}/{TENANT_ID}", http_client=tls,
                                                     instance_discovery=False)
            token = app.acquire_token_for_client(scopes=[SCOPE])["access_token"]
        r = httpx.put(f"{env['SADIE_GRAPH_BASE_URL']}/drives/{DRIVE_ID}/root:/Sadie Leads/x.txt:/content",
                      content=b"hi", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201
        assert [f["path"] for f in sb.inspect("graph")["files"]] == ["Sadie Leads/x.txt"]
        sb.reset()
        assert sb.inspect("graph")["files"] == []
