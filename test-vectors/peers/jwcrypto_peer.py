#!/usr/bin/python3
"""Interop peer backed by Debian's python3-jwcrypto.

Run as:  /usr/bin/python3 jwcrypto_peer.py encrypt|decrypt  < request.json

encrypt  in:  {"key": str, "plaintext_b64": str, "kid"?: str, "count"?: int}
         out: {"envelopes": [<flattened JWE JSON object>, ...]}
decrypt  in:  {"key": str, "envelopes": [<flattened JWE object> | <compact str>, ...]}
         out: {"results": [{"ok": true, "plaintext_b64": str}
                           | {"ok": false, "error": <exception class>, "detail": str}]}

Key: the 16-char shared key string concatenated with itself, UTF-8 (32 bytes).
"""
import base64
import json
import sys

from jwcrypto import jwe, jwk
from jwcrypto.common import json_encode

PROTECTED = {"alg": "dir", "enc": "A128CBC-HS256"}


def make_key(key_string):
    raw = (key_string * 2).encode("utf-8")
    k = base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")
    return jwk.JWK(kty="oct", k=k)


def encrypt(req):
    key = make_key(req["key"])
    plaintext = base64.b64decode(req["plaintext_b64"], validate=True)
    kid = req.get("kid")
    count = int(req.get("count", 1))
    protected = json_encode(PROTECTED)  # compact: {"alg":"dir","enc":"A128CBC-HS256"}
    envelopes = []
    for _ in range(count):
        token = jwe.JWE(plaintext, protected=protected)
        token.add_recipient(key)
        env = json.loads(token.serialize(compact=False))
        if kid is not None:
            # The service puts kid as a top-level member of the flattened
            # JSON (not in the protected header).
            env["kid"] = kid
        envelopes.append(env)
    return {"envelopes": envelopes}


def decrypt_one(key, envelope):
    raw = envelope if isinstance(envelope, str) else json.dumps(envelope)
    token = jwe.JWE()
    try:
        # Unknown top-level members (e.g. "kid") are ignored by jwcrypto
        # 1.1.0's deserialize(), so the envelope is passed as is.
        token.deserialize(raw, key=key)
    except jwe.InvalidJWEData:
        # jwcrypto 1.1.0 bug: decrypt() uses `if not self.plaintext` as its
        # success check, so a successfully authenticated EMPTY plaintext is
        # reported as "No recipient matched". plaintext is only assigned
        # after MAC verification + unpadding succeed, so b"" means success.
        if token.plaintext == b"":
            return {"ok": True, "plaintext_b64": ""}
        raise
    return {"ok": True,
            "plaintext_b64": base64.b64encode(token.plaintext).decode("ascii")}


def decrypt(req):
    key = make_key(req["key"])
    if not isinstance(req["envelopes"], list):
        raise TypeError("envelopes must be a list")
    results = []
    for envelope in req["envelopes"]:
        try:
            results.append(decrypt_one(key, envelope))
        except Exception as e:  # pylint: disable=broad-except
            results.append({"ok": False, "error": type(e).__name__,
                            "detail": str(e)})
    return {"results": results}


COMMANDS = {"encrypt": encrypt, "decrypt": decrypt}


def main(argv):
    if len(argv) != 2 or argv[1] not in COMMANDS:
        sys.stderr.write("usage: jwcrypto_peer.py encrypt|decrypt < request.json\n")
        return 2
    req = json.load(sys.stdin)
    out = COMMANDS[argv[1]](req)
    sys.stdout.write(json.dumps(out, separators=(",", ":")))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
