#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write tests/crypto/es256_edge.h: ES256 vectors that reach the two last guards
of an ECDSA P-256 verification (SEC 1 section 4.1.4 steps 5 and 6), with
public keys chosen for them, as an attacker may choose a key:

  - x(R) >= n: a curve point R whose x lies in [n, p) (p - n is about
    2^128, so such points exist); r = x(R) - n, any s, and
    Q = r^-1 (s R - e G). The signature is VALID: a verifier must reduce
    x(R) mod n before comparing it with r (Wycheproof's "large x-coordinate"
    cases test the same).
  - R at infinity: any r, s and Q = -(e / r) G, so that
    u1 G + u2 Q = (e/s) G - (e/s) G = O. The signature is INVALID: a
    verifier must refuse the point at infinity (Wycheproof's "point at
    infinity" cases).

e = SHA-256 of the message. The arithmetic is plain Python integers; each
vector is then checked with python3-cryptography (OpenSSL) before it is
written: the valid ones must verify, the others must not.

Run at development time only, from the source tree:
    python3 tests/crypto/es256_edge.py > tests/crypto/es256_edge.h &&
        clang-format -i tests/crypto/es256_edge.h
"""
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import \
    encode_dss_signature

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    if p1 == p2:
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def mul(k, pt):
    out = None
    while k:
        if k & 1:
            out = add(out, pt)
        pt = add(pt, pt)
        k >>= 1
    return out


def neg(pt):
    return (pt[0], (-pt[1]) % P)


def lift(x):
    """A curve point with this x, or None."""
    rhs = (x * x * x + A * x + B) % P
    y = pow(rhs, (P + 1) // 4, P)  # P = 3 mod 4
    return (x, y) if y * y % P == rhs else None


def digest(msg):
    return int.from_bytes(hashlib.sha256(msg).digest(), "big")


def scalar(label):
    return digest(label.encode()) % N or 1


def large_x(i, msg):
    """The (i mod 2)th point up from x = n (i < 2) or down from p - 1."""
    (x, step), found = ((N, 1) if i < 2 else (P - 1, -1)), 0
    while True:
        R = lift(x)
        if R is not None:
            if found == i % 2:
                break
            found += 1
        x += step
    assert N <= R[0] < P
    r, s, e = R[0] - N, scalar("s large-x %d" % i), digest(msg)
    Q = mul(pow(r, -1, N), add(mul(s, R), neg(mul(e, G))))
    return Q, r, s


def infinity(i, msg):
    r, s, e = scalar("r infinity %d" % i), scalar("s infinity %d" % i), \
        digest(msg)
    Q = neg(mul(e * pow(r, -1, N) % N, G))
    w = pow(s, -1, N)
    assert add(mul(e * w % N, G), mul(r * w % N, Q)) is None
    return Q, r, s


def openssl_verifies(Q, r, s, msg):
    key = ec.EllipticCurvePublicNumbers(Q[0], Q[1], ec.SECP256R1()) \
        .public_key()
    try:
        key.verify(encode_dss_signature(r, s), msg, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def main():
    rows = []
    for kind, make, valid, count in (("large-x", large_x, 1, 4),
                                     ("infinity", infinity, 0, 3)):
        for i in range(count):
            msg = ("pam_u2f issue 18, %s %d" % (kind, i)).encode()
            Q, r, s = make(i, msg)
            assert openssl_verifies(Q, r, s, msg) == bool(valid)
            rows.append((kind, msg.decode(), Q, r, s, valid))
    print("/* Written by tests/crypto/es256_edge.py (see there how): do not edit. */")
    print("#ifndef PU_ES256_EDGE_H\n#define PU_ES256_EDGE_H\n")
    print("struct es256_edge {\n\tconst char *kind, *msg, *qx, *qy, *r, *s;"
          "\n\tint valid;\n};\n")
    print("static const struct es256_edge es256_edges[] = {")
    for kind, msg, Q, r, s, valid in rows:
        print('\t{"%s", "%s",' % (kind, msg))
        for v in (Q[0], Q[1], r):
            print('\t    "%064X",' % v)
        print('\t    "%064X", %d},' % (s, valid))
    print("};\n\n#endif")


main()
