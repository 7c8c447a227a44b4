#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes tests/proto/hmackat.h: known answers of the hmac-secret
extension (CTAP 2.1 12.5) for tests/proto/test_ctap2hmac.c, made with
python3-fido2 0.9.1 (fido2.cbor.encode of fido2.ctap2.base.args, the way
its Ctap2 builds each command; fido2.ctap2.pin.PinProtocolV1/V2 for the
shared secrets, saltEnc, saltAuth and the encrypted output) and
python3-cryptography. The P-256 keys are ctap2kat.py's (PIN_PLAT_PRIV,
PIN_AUTH_*, in tests/lib/ctap2kat.h). Deterministic: run again, same
header.

Usage: tests/proto/hmackat.py > tests/proto/hmackat.h &&
  clang-format -i tests/proto/hmackat.h
"""
import hashlib

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from fido2 import cbor
from fido2.ctap2.base import args
from fido2.ctap2.pin import PinProtocolV1, PinProtocolV2

OUT = []


def emit(name, data, comment=None):
    if comment:
        OUT.append("/* %s */" % comment)
    h = data.hex()
    lines = [h[i:i + 64] for i in range(0, len(h), 64)] or [""]
    OUT.append("#define %s \\" % name)
    OUT.append(" \\\n".join('\t"%s"' % ln for ln in lines))


def xy(pub):
    n = pub.public_numbers()
    return n.x.to_bytes(32, "big"), n.y.to_bytes(32, "big")


plat = ec.derive_private_key(
    0x1f2e3d4c5b6a79880102030405060708090a0b0c0d0e0f101112131415161718,
    ec.SECP256R1())
auth = ec.derive_private_key(
    0x7a6b5c4d3e2f1a0b99887766554433221100ffeeddccbbaa0123456789abcdef,
    ec.SECP256R1())
z = plat.exchange(ec.ECDH(), auth.public_key())
px, py = xy(plat.public_key())
cdh = bytes(range(32))
kh = b"\xaa" * 16
salt = hashlib.sha256(b"pam_u2f hmac-secret salt").digest()
output = hashlib.sha256(b"pam_u2f hmac-secret output").digest()
iv = bytes(range(0xb0, 0xc0))
cose = {1: 2, 3: -25, -1: 1, -2: px, -3: py}
allow = [{"id": kh, "type": "public-key"}]
rp = {"id": "example.org", "name": "example.org"}
user = {"id": b"\x01" * 32, "name": "alice", "displayName": "alice"}
params = [{"alg": -7, "type": "public-key"}]

emit("HK_SALT", salt, "a salt, an output (SHA-256 of fixed texts)")
emit("HK_OUTPUT", output)
emit("HK_MC", b"\x01" + cbor.encode(args(
    cdh, rp, user, params, None, {"hmac-secret": True})),
    "MakeCredential: cdh 00..1f, rp example.org, user 01 x 32 alice, "
    "ES256, extensions {hmac-secret: true}")
emit("HK_MC_PROT", b"\x01" + cbor.encode(args(
    cdh, rp, user, params, None, {"credProtect": 2, "hmac-secret": True})),
    "... with credProtect 2 as well")
for proto in (PinProtocolV1(), PinProtocolV2()):
    v = proto.VERSION
    shared = proto.kdf(z)
    if v == 1:
        enc = proto.encrypt(shared, salt)
    else:
        c = Cipher(algorithms.AES(shared[32:]), modes.CBC(iv)).encryptor()
        enc = iv + c.update(salt) + c.finalize()
    assert proto.decrypt(shared, enc) == salt
    sauth = proto.authenticate(shared, enc)
    inp = {1: cose, 2: enc, 3: sauth}
    if v != 1:
        inp[4] = v  # libfido2 and CTAP 2.1: only when not 1
    emit("HK%d_SALT_ENC" % v, enc,
         "protocol %d: saltEnc (protocol 2: IV b0..bf), saltAuth" % v)
    emit("HK%d_SALT_AUTH" % v, sauth)
    emit("HK%d_GA" % v, b"\x02" + cbor.encode(args(
        "example.org", cdh, allow, {"hmac-secret": inp}, None,
        b"\x55" * (16 if v == 1 else 32), v)),
        "protocol %d: GetAssertion with the hmac-secret input and a "
        "pinUvAuthParam 55 x 16 / 32" % v)
    if v == 1:
        oenc = proto.encrypt(shared, output)
    else:
        c = Cipher(algorithms.AES(shared[32:]), modes.CBC(iv)).encryptor()
        oenc = iv + c.update(output) + c.finalize()
    emit("HK%d_EXT_OUT" % v, cbor.encode({"hmac-secret": oenc}),
         "protocol %d: authData extensions with the encrypted output" % v)
    two = proto.encrypt(shared, output + salt)
    emit("HK%d_EXT_TWO" % v, cbor.encode({"hmac-secret": two}),
         "... with two outputs (we ask for one: refused)")
emit("HK_EXT_MC", cbor.encode({"credProtect": 2, "hmac-secret": True}),
     "MakeCredential authData extensions")

print("/* SPDX-License-Identifier: BSD-2-Clause */")
print("/* Made by tests/proto/hmackat.py (see there for every source). */")
print("#ifndef PU_HMACKAT_H\n#define PU_HMACKAT_H\n")
print("\n".join(OUT))
print("\n#endif")
