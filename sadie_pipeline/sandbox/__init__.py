"""The sandbox: one local server that speaks each external service's real wire protocol from
bundled fixtures (Serper, hotel websites, Groq, Anthropic, RDAP, DNS), with knobs for latency,
rate limits (429 + Retry-After), 5xx and timeouts. Used by tests, the demo and benchmarks;
nothing else in `sadie_pipeline` imports it."""

from __future__ import annotations

from .knobs import Knobs
from .process import SandboxProcess
from .server import Sandbox, SandboxConfig
from .world import Place, World, generate_hotels

__all__ = ["Sandbox", "SandboxConfig", "SandboxProcess", "Knobs", "World", "Place", "generate_hotels"]
