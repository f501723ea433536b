"""Only one Rotary per user: a second start asks the first to come to the front.

The first instance listens on a QLocalServer; a later one connects, sends "show",
and exits. A server left behind by a crash is removed before listening again.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

CONNECT_TIMEOUT_MS = 500


class SingleInstance(QObject):
    activation_requested = Signal()

    def __init__(self, key: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.server: QLocalServer | None = None

    def notify_running_instance(self) -> bool:
        """True when another instance answered (and was asked to show itself)."""
        socket = QLocalSocket()
        socket.connectToServer(self.key)
        if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
            return False
        socket.write(b"show\n")
        socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
        socket.disconnectFromServer()
        return True

    def listen(self) -> bool:
        QLocalServer.removeServer(self.key)      # a stale one from a crash
        self.server = QLocalServer(self)
        self.server.newConnection.connect(self._on_connection)
        return self.server.listen(self.key)

    def _on_connection(self) -> None:
        while self.server is not None and self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            # The other instance writes one short line right after connecting, so a
            # brief wait here is enough and keeps the socket's lifetime simple.
            if socket.bytesAvailable() or socket.waitForReadyRead(CONNECT_TIMEOUT_MS):
                if bytes(socket.readAll().data()).strip().startswith(b"show"):
                    self.activation_requested.emit()
            socket.abort()
            socket.deleteLater()

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server.deleteLater()
            self.server = None
