"""The office server as the app sees it: plain data, and its access key in the OS keyring.

No Qt here. The key is never written to the settings file: ``KeyStore`` keeps it in the
operating system's keyring (Windows Credential Manager, macOS Keychain, Secret Service),
through the ``keyring`` library; on a computer without one, only in this process's memory
until Rotary closes (Settings says so before the key is typed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.text.i18n import tr
from app.text.korean import particles
from app.settings.model import Settings

KEYRING_SERVICE = "Rotary office server"


@dataclass(frozen=True)
class ServerConnection:
    """What the bridge needs to reach the office server (app.bridge.engine_bridge turns it into the engine's)."""

    url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    verify_tls: bool = True
    ca_bundle: str | None = None


class KeyringUnavailable(Exception):
    """No keyring backend on this computer; ``message`` says so in plain words."""

    def __init__(self, details: str = "") -> None:
        self.message = tr("This computer's password store did not take the access key, so "
                          "Rotary keeps it only until it closes. Ask IT to set the store up, "
                          "or use a server that needs no key.")
        self.details = details
        super().__init__(self.message)


class KeyStore:
    """The access key per server address, in the OS keyring (or, where there is none, in
    memory until Rotary closes)."""

    _session: dict[str, str] = {}       # every KeyStore of this process: keys not stored

    def __init__(self, service: str = KEYRING_SERVICE) -> None:
        self.service = service

    def keeps_keys(self) -> bool:
        """Is there a password store to keep keys across restarts?"""
        try:
            self._keyring()
        except KeyringUnavailable:
            return False
        return True

    @staticmethod
    def _keyring():
        try:
            import keyring  # noqa: PLC0415 - optional until a key is used
            from keyring.backends import fail  # noqa: PLC0415
        except ImportError as error:
            raise KeyringUnavailable(repr(error)) from error
        backend = keyring.get_keyring()
        if isinstance(backend, fail.Keyring):
            raise KeyringUnavailable(f"keyring backend: {backend!r}")
        return keyring

    def get(self, url: str) -> str | None:
        if url in self._session:
            return self._session[url] or None
        try:
            return self._keyring().get_password(self.service, url) or None
        except Exception:  # noqa: BLE001 - no store, or any backend failure: no key
            return None

    def set(self, url: str, key: str) -> None:
        """Keep ``key`` for ``url`` ("" forgets it). Raises KeyringUnavailable when it is
        kept in memory only, although a password store was there to take it."""
        self._session.pop(url, None)
        try:
            keyring = self._keyring()
        except KeyringUnavailable:
            self._session[url] = key        # no store at all: Settings said so beforehand
            return
        try:
            if key:
                keyring.set_password(self.service, url, key)
            elif keyring.get_password(self.service, url) is not None:
                keyring.delete_password(self.service, url)
        except Exception as error:
            self._session[url] = key
            raise KeyringUnavailable(repr(error)) from error


def uses_server(settings: Settings) -> bool:
    return settings.engine_location == "server" and bool(settings.server_url.strip())


def connection_for(settings: Settings, keys: KeyStore) -> ServerConnection | None:
    """None for "This computer". No key kept (or a store that cannot be read): none is sent."""
    if not uses_server(settings):
        return None
    url = settings.server_url.strip()
    return ServerConnection(url, settings.server_model, keys.get(url),
                            settings.server_verify_tls, settings.server_ca_bundle or None)


def receiver_words(address: str | None) -> str:
    """In plain words, exactly where a conversation goes (``address`` from the bridge)."""
    if address is None:
        return tr("Your conversations stay on this computer. Rotary opens no network "
                  "connection.")
    return particles(tr("Your conversations are sent to {address} and answered by the model "
                        "there. Nothing is sent anywhere else.").format(address=address))
