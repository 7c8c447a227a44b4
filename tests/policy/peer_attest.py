#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2 (Debian's 0.9.1) as an independent peer of the
# attestation policy: its Ctap2 client and its verifiers of "packed" and
# "fido-u2f" statements check what the software token says when it
# attests with the test CA (tests/policy/mkca.sh), the trust path it
# returns is walked to the test root with its verify_x509_chain, and the
# evidence pamu2fcfg stored on a mapping line is read with its CBOR
# decoder and checked by the same verifiers. TAP on stdout, plan last.
#   peer_attest.py SOFTTOKEN CA_DIR [EVIDENCE_BASE64...]
import base64
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "softtoken"))

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives.serialization import Encoding  # noqa: E402
from fido2 import cbor  # noqa: E402
from fido2.attestation import Attestation, verify_x509_chain  # noqa: E402
from fido2.ctap2 import AuthenticatorData, Ctap2  # noqa: E402

from peerlib import Tap, Token, make_cred  # noqa: E402

AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")
AAGUID = bytes.fromhex("70616d5f75326620736f6674746f6b01")


def der_of(path):
    with open(path, "rb") as f:
        return x509.load_pem_x509_certificate(f.read()).public_bytes(
            Encoding.DER)


def cert_aaguid(der):
    c = x509.load_der_x509_certificate(der)
    try:
        ext = c.extensions.get_extension_for_oid(AAGUID_OID)
    except x509.ExtensionNotFound:
        return None
    return ext.value.value[2:]  # OCTET STRING header, then 16 bytes


def check_stmt(t, label, fmt, stmt, auth_data, h, root, want_aaguid):
    """The statement verified by fido2's verifier of its format, its trust
    path walked to root, and the AAGUID of the certificate compared."""
    res = t.run(label + ": " + fmt + " statement verified by python-fido2",
                Attestation.for_type(fmt)().verify, stmt, auth_data, h)
    if res is None:
        return
    path = list(res.trust_path)
    t.run(label + ": its trust path (%d) chains to the test root" % len(path),
          verify_x509_chain, path + [root])
    got = cert_aaguid(path[0])
    t.ok(got == want_aaguid, label + ": the certificate's AAGUID extension",
         "got %r" % got)


def tokens(t, st, ca, work):
    root = der_of(os.path.join(ca, "root.pem"))
    for name, leaf, fmt, aaguid in (
            ("packed", "aaguid", "packed", AAGUID),
            ("u2f", "noext", "fido-u2f", None)):
        opts = ["--ctap2", "2.0", "--attest",
                "packed" if fmt == "packed" else "fido-u2f",
                "--attest-key", os.path.join(ca, "leaf-%s.key" % leaf),
                "--attest-chain", os.path.join(ca, "chain-%s.pem" % leaf)]
        tok = Token(st, work, name, opts)
        try:
            dev = tok.device()
            att, _, h = make_cred(Ctap2(dev), -7)
            t.ok(att.fmt == fmt, name + ": the token attests as " + fmt,
                 att.fmt)
            if fmt == "fido-u2f":  # one certificate: int is the anchor
                root_u2f = der_of(os.path.join(ca, "int.pem"))
                check_stmt(t, name, att.fmt, att.att_statement, att.auth_data,
                           h, root_u2f, aaguid)
            else:
                check_stmt(t, name, att.fmt, att.att_statement, att.auth_data,
                           h, root, aaguid)
            dev.close()
        finally:
            tok.stop()
    forged = Token(st, work, "forged", [
        "--ctap2", "2.0", "--attest-key", os.path.join(ca, "leaf-aaguid.key"),
        "--attest-chain", os.path.join(ca, "chain-aaguid.pem"),
        "--forge-aaguid", "00112233445566778899aabbccddeeff"])
    try:
        dev = forged.device()
        att, _, h = make_cred(Ctap2(dev), -7)
        t.raises("forged: python-fido2 refuses authData's AAGUID that is not "
                 "the certificate's", None, Attestation.for_type(att.fmt)().verify,
                 att.att_statement, att.auth_data, h)
        dev.close()
    finally:
        forged.stop()


def evidence(t, ca, b64, i):
    """A mapping line's evidence (proto/evidence.h): {1 fmt, 2 attStmt
    (bytes of a CBOR map), 3 authData, 4 clientDataHash, 5 time}."""
    root = der_of(os.path.join(ca, "root.pem"))
    ev = cbor.decode(base64.b64decode(b64))
    t.ok(sorted(ev) == [1, 2, 3, 4, 5] and isinstance(ev[5], int),
         "evidence %d: the map's keys are 1..5" % i, repr(sorted(ev)))
    check_stmt(t, "evidence %d" % i, ev[1], cbor.decode(ev[2]),
               AuthenticatorData(ev[3]), ev[4], root, AAGUID)


def main():
    t = Tap()
    st, ca = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="pu-peeratt.") as work:
        if len(sys.argv) == 3:
            tokens(t, st, ca, work)
        for i, b64 in enumerate(sys.argv[3:]):
            evidence(t, ca, b64, i + 1)
    print("1..%d" % t.n)
    return 0 if t.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
