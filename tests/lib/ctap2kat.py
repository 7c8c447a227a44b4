#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes tests/lib/ctap2kat.h: known answers for crypto/cosesig, crypto/pinproto,
proto/cose, proto/authdata and proto/attest. Run once; the header is checked
in (RSA and ECDSA keys below are random, so a new run gives other, equally
valid vectors).

Sources, each named again in the header:
  - RFC 8032 7.1 TEST 1-3 (Ed25519): the first three lines of
    python3-cryptography-vectors' asymmetric/Ed25519/sign.input, which are
    the same vectors; checked here with python3-cryptography.
  - RS256, ES256 (fresh keys), fido-u2f and packed statements made here
    with python3-cryptography (Debian 12: 38.0.4).
  - PIN protocols 1 and 2: fido2.ctap2.pin.PinProtocolV1/V2 (python3-fido2
    0.9.1) kdf/encrypt/decrypt/authenticate, with fixed P-256 keys.
  - libfido2 (github.com/Yubico/libfido2 @ 8ee8e5a, BSD-2-Clause):
    fuzz/wiredata_fido2.h WIREDATA_CTAP_CBOR_CRED (a real key's
    MakeCredential reply, packed with x5c) and WIREDATA_CTAP_CBOR_ASSERT
    (a real GetAssertion reply), both reassembled from their CTAPHID frames;
    regress/cred.c cdh (the clientDataHash that CRED's signature is over)
    and authdata_tpm_rs256/pubkey_tpm_rs256 (a real RS256 COSE key);
    regress/assert.c es256_pk, cdh, authdata, sig (a real ES256 assertion).

Usage: tests/lib/ctap2kat.py LIBFIDO2_CHECKOUT > tests/lib/ctap2kat.h &&
  clang-format -i tests/lib/ctap2kat.h
"""
import datetime
import hashlib
import os
import re
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.x509.oid import NameOID
from fido2 import cbor
from fido2.ctap2.pin import PinProtocolV1, PinProtocolV2

LF = sys.argv[1]
OUT = []


def emit(name, data, comment=None):
    if comment:
        OUT.append("/* %s */" % comment)
    h = data.hex()
    lines = [h[i:i + 64] for i in range(0, len(h), 64)] or [""]
    OUT.append("#define %s \\" % name)
    OUT.append(" \\\n".join('\t"%s"' % l for l in lines))


def c_array(path, name):
    src = open(os.path.join(LF, path)).read()
    m = re.search(r"unsigned char " + name + r"\[\d*\]\s*=\s*\{(.*?)\};", src, re.S)
    return bytes(int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{2})", m.group(1)))


def wiredata(name):
    src = open(os.path.join(LF, "fuzz/wiredata_fido2.h")).read()
    m = re.search(r"#define " + name + r"\s*\\\n(.*?)(?:\n\n|\n#)", src, re.S)
    b = bytes(int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{2})", m.group(1)))
    frames = [b[i:i + 64] for i in range(0, len(b), 64)]
    n = frames[0][5] << 8 | frames[0][6]
    data = frames[0][7:] + b"".join(f[5:] for f in frames[1:])
    return data[:n]


def unwrap_bstr(b):
    v, rest = cbor.decode_from(b)
    assert rest == b""
    return v


def ed25519_vectors():
    path = "/usr/lib/python3/dist-packages/cryptography_vectors/asymmetric/Ed25519/sign.input"
    for i, line in enumerate(open(path).read().splitlines()[:3]):
        sk, pk, msg, sig, _ = line.split(":")
        pk, msg, sig = bytes.fromhex(pk), bytes.fromhex(msg), bytes.fromhex(sig)[:64]
        ed25519.Ed25519PublicKey.from_public_bytes(pk).verify(sig, msg)
        emit("ED_PK%d" % (i + 1), pk, "RFC 8032 7.1 TEST %d" % (i + 1))
        emit("ED_MSG%d" % (i + 1), msg)
        emit("ED_SIG%d" % (i + 1), sig)


def rs256_raw(pub):
    n = pub.public_numbers()
    return n.n.to_bytes(256, "big") + n.e.to_bytes(3, "big")


def rs256_vectors():
    k = rsa.generate_private_key(65537, 2048)
    msg = b"pam_u2f rs256 known answer"
    sig = k.sign(msg, padding.PKCS1v15(), hashes.SHA256())
    emit("RS_PK", rs256_raw(k.public_key()), "RS256: a key made with python3-cryptography, n || e")
    emit("RS_MSG", msg)
    emit("RS_SIG", sig)


def es256_vectors():
    k = ec.generate_private_key(ec.SECP256R1())
    msg = b"pam_u2f es256 known answer"
    sig = k.sign(msg, ec.ECDSA(hashes.SHA256()))
    pub = k.public_key().public_bytes(serialization.Encoding.X962,
                                      serialization.PublicFormat.UncompressedPoint)
    emit("ES_PK", pub, "ES256: a key made with python3-cryptography")
    emit("ES_MSG", msg)
    emit("ES_SIG", sig)
    ad = unwrap_bstr(c_array("regress/assert.c", "authdata"))
    emit("LF_ASSERT_PK", c_array("regress/assert.c", "es256_pk"),
         "libfido2 regress/assert.c: a real ES256 assertion (x || y, cdh, authData, sig)")
    emit("LF_ASSERT_CDH", c_array("regress/assert.c", "cdh"))
    emit("LF_ASSERT_AUTHDATA", ad)
    emit("LF_ASSERT_SIG", c_array("regress/assert.c", "sig"))


def p256_priv(d):
    return ec.derive_private_key(d, ec.SECP256R1())


def xy(pub):
    n = pub.public_numbers()
    return n.x.to_bytes(32, "big"), n.y.to_bytes(32, "big")


def pin_vectors():
    plat = p256_priv(0x1f2e3d4c5b6a79880102030405060708090a0b0c0d0e0f101112131415161718)
    auth = p256_priv(0x7a6b5c4d3e2f1a0b99887766554433221100ffeeddccbbaa0123456789abcdef)
    z = plat.exchange(ec.ECDH(), auth.public_key())
    emit("PIN_PLAT_PRIV", plat.private_numbers().private_value.to_bytes(32, "big"),
         "PIN protocols: fixed P-256 keys (platform, authenticator)")
    px, py = xy(plat.public_key())
    ax, ay = xy(auth.public_key())
    emit("PIN_PLAT_X", px)
    emit("PIN_PLAT_Y", py)
    emit("PIN_AUTH_PRIV", auth.private_numbers().private_value.to_bytes(32, "big"))
    emit("PIN_AUTH_X", ax)
    emit("PIN_AUTH_Y", ay)
    pin_hash = hashlib.sha256(b"1234").digest()[:16]
    cdh = hashlib.sha256(b"pam_u2f client data").digest()
    token = bytes(range(0x40, 0x60))
    emit("PIN_HASH16", pin_hash, "LEFT(SHA-256(\"1234\"), 16); a clientDataHash; a 32-byte token")
    emit("PIN_CDH", cdh)
    emit("PIN_TOKEN", token)
    iv = bytes(range(0xa0, 0xb0))
    for proto in (PinProtocolV1(), PinProtocolV2()):
        v = proto.VERSION
        shared = proto.kdf(z)
        emit("PIN%d_SHARED" % v, shared, "protocol %d, fido2.ctap2.pin.PinProtocolV%d" % (v, v))
        if v == 1:
            ct = proto.encrypt(shared, pin_hash)
        else:
            c = Cipher(algorithms.AES(shared[32:]), modes.CBC(iv)).encryptor()
            ct = iv + c.update(pin_hash) + c.finalize()
        assert proto.decrypt(shared, ct) == pin_hash
        emit("PIN%d_PINHASHENC" % v, ct)
        emit("PIN%d_AUTH_SHARED" % v, proto.authenticate(shared, cdh))
        emit("PIN%d_AUTH_TOKEN" % v, proto.authenticate(token, cdh))


def cert_for(key, name, ca=False, aaguid=None, version3=True):
    now = datetime.datetime(2026, 1, 1)
    b = (x509.CertificateBuilder()
         .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
         .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
         .public_key(key.public_key()).serial_number(1)
         .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=36500))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if aaguid is not None:
        der = b"\x04\x10" + aaguid
        b = b.add_extension(x509.UnrecognizedExtension(
            x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4"), der), critical=False)
    alg = None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    return b.sign(key, alg).public_bytes(serialization.Encoding.DER)


def cose_ec2(pub):
    x, y = xy(pub)
    return cbor.encode({1: 2, 3: -7, -1: 1, -2: x, -3: y})


def attested_authdata(rp, cred_id, cose_key, aaguid=bytes(16), flags=0x41):
    return (hashlib.sha256(rp).digest() + bytes([flags]) + b"\0\0\0\x05" + aaguid +
            len(cred_id).to_bytes(2, "big") + cred_id + cose_key)


def attestation_vectors():
    cdh = hashlib.sha256(b"pam_u2f attestation").digest()
    emit("AT_CDH", cdh, "Attestation statements made with python3-cryptography / python3-fido2's CBOR")
    # fido-u2f: an ES256 credential, a P-256 attestation certificate.
    cred = ec.generate_private_key(ec.SECP256R1())
    att = ec.generate_private_key(ec.SECP256R1())
    cert = cert_for(att, "u2f attestation")
    cid = os.urandom(64)
    ad = attested_authdata(b"pam://host", cid, cose_ec2(cred.public_key()))
    pt = cred.public_key().public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    sig = att.sign(b"\0" + ad[:32] + cdh + cid + pt, ec.ECDSA(hashes.SHA256()))
    emit("U2F_AUTHDATA", ad)
    emit("U2F_ATTSTMT", cbor.encode({"sig": sig, "x5c": [cert]}))
    # packed self attestation with an EdDSA credential.
    ek = ed25519.Ed25519PrivateKey.generate()
    epk = ek.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    ad = attested_authdata(b"pam://host", os.urandom(32),
                           cbor.encode({1: 1, 3: -8, -1: 6, -2: epk}), flags=0x45)
    emit("SELF_ED_AUTHDATA", ad, "packed self attestation, EdDSA")
    emit("SELF_ED_ATTSTMT", cbor.encode({"alg": -8, "sig": ek.sign(ad + cdh)}))
    ga = ad[:32] + b"\x05\0\0\0\x07"
    emit("GA_ED_AUTHDATA", ga, "assertions (authData, signature over authData | AT_CDH)")
    emit("GA_ED_SIG", ek.sign(ga + cdh))
    # packed self attestation with an RS256 credential.
    rk = rsa.generate_private_key(65537, 2048)
    raw = rs256_raw(rk.public_key())
    ad = attested_authdata(b"pam://host", os.urandom(32),
                           cbor.encode({1: 3, 3: -257, -1: raw[:256], -2: raw[256:]}))
    emit("SELF_RS_AUTHDATA", ad, "packed self attestation, RS256")
    emit("SELF_RS_ATTSTMT", cbor.encode({"alg": -257, "sig": rk.sign(
        ad + cdh, padding.PKCS1v15(), hashes.SHA256())}))
    emit("GA_RS_SIG", rk.sign(ga + cdh, padding.PKCS1v15(), hashes.SHA256()))
    # packed x5c whose certificate is a CA, or names another aaguid.
    aag = bytes(range(0x10, 0x20))
    ad = attested_authdata(b"pam://host", os.urandom(16), cose_ec2(cred.public_key()), aaguid=aag)
    emit("PK_AUTHDATA", ad, "packed x5c: good; CA certificate; wrong aaguid extension")
    for name, c in (("PK_ATTSTMT_OK", cert_for(att, "packed", aaguid=aag)),
                    ("PK_ATTSTMT_CA", cert_for(att, "packed", ca=True)),
                    ("PK_ATTSTMT_AAGUID", cert_for(att, "packed", aaguid=bytes(16)))):
        emit(name, cbor.encode({"alg": -7, "sig": att.sign(ad + cdh, ec.ECDSA(hashes.SHA256())),
                                "x5c": [c]}))


def libfido2_vectors():
    r = wiredata("WIREDATA_CTAP_CBOR_CRED")
    assert r[0] == 0
    body = r[1:]
    m, rest = cbor.decode_from(body[1:])  # 1
    fmt, rest = cbor.decode_from(rest)
    _, rest = cbor.decode_from(rest)      # 2
    ad, rest = cbor.decode_from(rest)
    _, rest = cbor.decode_from(rest)      # 3
    stmt_raw = rest
    assert body[0] == 0xa3 and fmt == "packed" and cbor.decode(stmt_raw)["alg"] == -7
    emit("LF_CRED_REPLY", r, "libfido2 fuzz/wiredata_fido2.h WIREDATA_CTAP_CBOR_CRED, "
         "reassembled: status | {1: fmt, 2: authData, 3: attStmt}")
    emit("LF_CRED_AUTHDATA", ad)
    emit("LF_CRED_ATTSTMT", stmt_raw)
    emit("LF_CRED_CDH", c_array("regress/cred.c", "cdh"), "libfido2 regress/cred.c cdh")
    emit("LF_CRED_X509_V1", c_array("regress/cred.c", "x509"),
         "libfido2 regress/cred.c x509: a version 1 certificate")
    a = cbor.decode(wiredata("WIREDATA_CTAP_CBOR_ASSERT")[1:])
    emit("LF_GA_AUTHDATA", a[2], "libfido2 WIREDATA_CTAP_CBOR_ASSERT authData")
    emit("LF_TPM_RS_AUTHDATA", unwrap_bstr(c_array("regress/cred.c", "authdata_tpm_rs256")),
         "libfido2 regress/cred.c authdata_tpm_rs256 / pubkey_tpm_rs256")
    emit("LF_TPM_RS_PK", c_array("regress/cred.c", "pubkey_tpm_rs256"))


ed25519_vectors()
rs256_vectors()
es256_vectors()
pin_vectors()
attestation_vectors()
libfido2_vectors()
print("/* Made by tests/lib/ctap2kat.py (see there for every source), then
 * clang-format; do not edit. */")
print("#ifndef PU_CTAP2KAT_H\n#define PU_CTAP2KAT_H\n")
print("\n".join(OUT))
print("\n#endif")
