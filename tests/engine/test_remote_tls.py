"""TLS: verification is on by default; an office CA bundle makes its own certificate trusted."""

from __future__ import annotations

import datetime
import ipaddress

import pytest

pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
x509 = pytest.importorskip("cryptography.x509")

from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

from engine.api import LoadRequest, ServerModelLoaded  # noqa: E402
from engine.errors import ServerCertificateError, ServerProtocolError  # noqa: E402
from engine.demo.demo_model import write_demo_model  # noqa: E402
from engine.remote.config import ServerConfig  # noqa: E402
from tests.support.fixture_server import FixtureServer  # noqa: E402
from engine.remote.service import RemoteEngineService  # noqa: E402
from tests.support.remote_recorder import Recorder  # noqa: E402


def _name(common_name: str):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _certificate(subject, issuer, public_key, signing_key, *, ca: bool):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(public_key).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(hours=1))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
    return builder.sign(signing_key, hashes.SHA256())


@pytest.fixture(scope="module")
def office_pki(tmp_path_factory):
    """An office CA and a server certificate for 127.0.0.1 that it signed."""
    folder = tmp_path_factory.mktemp("pki")
    ca_key, server_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = _certificate(_name("Office CA"), _name("Office CA"), ca_key.public_key(), ca_key, ca=True)
    server = _certificate(_name("127.0.0.1"), ca.subject, server_key.public_key(), ca_key, ca=False)
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "server.pem").write_bytes(server.public_bytes(pem))
    (folder / "server.key").write_bytes(server_key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return folder


@pytest.fixture(scope="module")
def tls_server(office_pki, tmp_path_factory):
    model = write_demo_model(tmp_path_factory.mktemp("tls") / "demo.gguf")
    extra = ("--ssl_keyfile", str(office_pki / "server.key"),
             "--ssl_certfile", str(office_pki / "server.pem"))
    with FixtureServer(model, extra=extra, scheme="https", verify=str(office_pki / "ca.pem")) as server:
        yield server


def _load(config: ServerConfig):
    recorder = Recorder()
    engine = RemoteEngineService(recorder, config)
    try:
        return recorder.until(engine.load(LoadRequest("")))
    finally:
        engine.shutdown()


def test_an_untrusted_certificate_is_refused_by_default(tls_server):
    failed = _load(ServerConfig(tls_server.url))
    assert isinstance(failed.error, ServerCertificateError), failed
    assert "certificate" in failed.error.message


def test_the_office_ca_bundle_makes_it_trusted(tls_server, office_pki):
    loaded = _load(ServerConfig(tls_server.url, ca_bundle=str(office_pki / "ca.pem")))
    assert isinstance(loaded, ServerModelLoaded), loaded
    assert loaded.server.address.startswith("https://127.0.0.1:")


def test_a_missing_ca_bundle_file_is_a_plain_error(tls_server, tmp_path):
    failed = _load(ServerConfig(tls_server.url, ca_bundle=str(tmp_path / "nope.pem")))
    assert isinstance(failed.error, ServerProtocolError)
    assert "certificate file" in failed.error.message
