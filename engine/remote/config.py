"""Where the office server is and how to trust it: one frozen value, checked once."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from engine.errors import ServerUnreachableError
from engine.messages import msg

EXAMPLE_ADDRESS = "https://ai.office.lan:8000"


@dataclass(frozen=True)
class ServerConfig:
    url: str                         # as typed: "https://ai.office.lan:8000" ("/v1" is fine too)
    model: str = ""                  # "" → the server's first model
    api_key: str | None = field(default=None, repr=False)
    verify_tls: bool = True          # never off without the user asking for it
    ca_bundle: str | None = None     # PEM file of the office's own certificate authority
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 300.0    # a long prompt on a busy server may take minutes

    def __post_init__(self) -> None:
        parsed = httpx.URL(self.url.strip()) if "://" in self.url else None
        if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
            raise ServerUnreachableError(msg("remote.bad_address", example=EXAMPLE_ADDRESS),
                                         repr(self.url))

    @property
    def root(self) -> str:
        """The base address without a trailing "/v1": /tokenize and /props live here."""
        base = self.url.strip().rstrip("/")
        return base[:-3] if base.endswith("/v1") else base

    @property
    def address(self) -> str:
        """The exact address that receives every conversation, for the settings to show."""
        return self.root + "/v1/chat/completions"

    @property
    def host_port(self) -> tuple[str, int]:
        url = httpx.URL(self.root)
        return url.host, url.port or (443 if url.scheme == "https" else 80)
