"""The server's Ed25519 signing key: it signs what a reader of a record relies on.

A hash chain shows a log was not changed after export, but anyone can build a
new valid chain; a signature shows *this server* stands behind a record. The
key is an Ed25519 private key in a PEM file (``DELVE_SIGNING_KEY``; ``delve
serve`` makes ``<data dir>/signing/current.pem`` on first start). Retired keys'
public halves stay in ``retired/`` beside it, so records signed before a
rotation keep verifying; ``GET /v1/audit/keys`` lists current and retired keys.

A signature is over the canonical JSON of a *statement* that names the server
and the key id (``application.attestation`` says what each statement holds).
Ed25519 is deterministic: the same statement signed twice gives the same bytes.
"""
from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.core import canonical_json

ALG = "Ed25519"


def key_id(public: Ed25519PublicKey) -> str:
    """A short, stable name of a public key: ``ed25519:`` and the first 16 hex of its SHA-256."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


def public_text(public: Ed25519PublicKey) -> str:
    """The raw 32-byte public key, base64 (what /v1/audit/keys publishes)."""
    return base64.b64encode(public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)).decode()


def public_from_text(text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))


def check(public: Ed25519PublicKey, statement: dict, signature: str) -> bool:
    """Whether ``signature`` (base64) is ``public``'s signature of ``statement``."""
    try:
        public.verify(base64.b64decode(signature, validate=True), canonical_json(statement).encode())
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass
class Signer:
    """The current private key, the server name it signs as, and the retired public keys."""

    private: Ed25519PrivateKey
    server: str
    retired: list[Ed25519PublicKey] = field(default_factory=list)

    @property
    def key_id(self) -> str:
        return key_id(self.private.public_key())

    def sign(self, statement: dict) -> dict:
        """``{"statement": ... + server + key_id, "alg", "signature"}``: the server and key are signed too."""
        body = {**statement, "server": self.server, "key_id": self.key_id}
        signature = base64.b64encode(self.private.sign(canonical_json(body).encode())).decode()
        return {"statement": body, "alg": ALG, "signature": signature}

    def keys(self) -> dict:
        """The public keys document (``GET /v1/audit/keys``; ``delve verify --keys`` reads it)."""
        lines = [{"key_id": self.key_id, "alg": ALG, "public_key": public_text(self.private.public_key()),
                  "status": "current"}]
        lines += [{"key_id": key_id(k), "alg": ALG, "public_key": public_text(k), "status": "retired"}
                  for k in self.retired]
        return {"server": self.server, "keys": lines}


def load(path: Path, server: str) -> Signer:
    """The signer of the PEM key at ``path``, with the retired public keys in ``retired/`` beside it."""
    private = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(private, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key (make one with `delve keys rotate`)")
    retired = []
    for pem in sorted((path.parent / "retired").glob("*.pem")):
        public = serialization.load_pem_public_key(pem.read_bytes())
        if isinstance(public, Ed25519PublicKey):
            retired.append(public)
    return Signer(private, server, retired)


def ensure(path: Path, server: str) -> tuple[Signer, bool]:
    """The signer at ``path``, made (mode 0600) when the file does not exist yet; and whether it was made."""
    made = not path.exists()
    if made:
        _write_private(path, Ed25519PrivateKey.generate())
    return load(path, server), made


def rotate(path: Path, server: str) -> tuple[str, str]:
    """Retire the key at ``path`` (its public half goes to ``retired/<key id>.pem``) and make a new one.
    Returns (retired key id, new key id). Records signed by the old key keep verifying."""
    old = load(path, server)
    retired = path.parent / "retired"
    retired.mkdir(parents=True, exist_ok=True)
    public = old.private.public_key()
    (retired / f"{key_id(public).replace(':', '-')}.pem").write_bytes(public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    _write_private(path, Ed25519PrivateKey.generate())
    return old.key_id, load(path, server).key_id


def _write_private(path: Path, private: Ed25519PrivateKey) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    tmp.chmod(0o600)
    tmp.replace(path)
