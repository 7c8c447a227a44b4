#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A hostile ssh-agent for tests/ssh/hostile.sh: it holds a software
sk-ecdsa-sha2-nistp256@openssh.com key (application "ssh:") and answers
sign requests the way MODE says. Usage: hostile_agent.py SOCKET KEYFILE
MODE; writes the key's public line to KEYFILE once it listens. With
HOSTILE_AGENT_LOG set, appends each request's type (11 list, 13 sign) to
that file, a line each. A MODE of @FILE reads the mode from FILE at
each connection, so that one agent (one key) serves every case in turn.

Modes: good (flags 0x01, counter 42), uv (flags 0x05), flags0 (0x00),
wrongkey (signed by another key), badsig (a byte of r flipped), otherdata
(a valid signature over other data), wrongtype (the ed25519 type name),
trailing (a byte after the signature), oversized (a reply length of
1 MiB), failure (SSH_AGENT_FAILURE), silent (never answers a sign
request), killed (half a reply, then the process dies), hugelist (sign
requests refused, so that a client with one key lists the identities to
tell why: an identities answer of 70000 bytes)."""
import base64
import hashlib
import os
import socket
import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature)
from cryptography.hazmat.primitives.serialization import (
    Encoding, PublicFormat)

ECDSA = b"sk-ecdsa-sha2-nistp256@openssh.com"
APP = b"ssh:"


def sstr(b):
    return struct.pack(">I", len(b)) + b


def mpint(v):
    b = v.to_bytes((v.bit_length() + 8) // 8, "big")
    return sstr(b)


def blob_of(key):
    q = key.public_key().public_bytes(Encoding.X962,
                                      PublicFormat.UncompressedPoint)
    return sstr(ECDSA) + sstr(b"nistp256") + sstr(q) + sstr(APP)


def sign(key, data, flags, counter, mode):
    if mode == "otherdata":
        data = data + b"x"
    signer = ec.generate_private_key(ec.SECP256R1()) \
        if mode == "wrongkey" else key
    msg = (hashlib.sha256(APP).digest() + bytes([flags]) +
           struct.pack(">I", counter) + hashlib.sha256(data).digest())
    r, s = decode_dss_signature(signer.sign(msg, ec.ECDSA(hashes.SHA256())))
    if mode == "badsig":
        r ^= 1 << 100
    name = b"sk-ssh-ed25519@openssh.com" if mode == "wrongtype" else ECDSA
    sig = sstr(name) + sstr(mpint(r) + mpint(s)) + bytes([flags]) + \
        struct.pack(">I", counter)
    if mode == "trailing":
        sig += b"\0"  # inside the signature string, after the counter
    return sig


def recv_exact(c, n):
    buf = b""
    while len(buf) < n:
        b = c.recv(n - len(buf))
        if not b:
            raise EOFError
        buf += b
    return buf


def answer(c, key, mode, msg):
    t = msg[0]
    if t == 11:
        if mode == "hugelist":
            body = bytes([12]) + struct.pack(">I", 1) + sstr(blob_of(key)) \
                + sstr(b"c" * 70000)
        else:
            body = bytes([12]) + struct.pack(">I", 1) + sstr(blob_of(key)) \
                + sstr(b"hostile")
        return body
    if t != 13:
        return bytes([5])
    n = struct.unpack(">I", msg[1:5])[0]
    rest = msg[5 + n:]
    m = struct.unpack(">I", rest[:4])[0]
    data = rest[4:4 + m]
    flags = {"uv": 0x05, "flags0": 0x00}.get(mode, 0x01)
    if mode in ("failure", "hugelist"):
        return bytes([5])
    sig = sign(key, data, flags, 42, mode)
    return bytes([14]) + sstr(sig)


def serve(c, key, mode):
    log = os.environ.get("HOSTILE_AGENT_LOG")
    while True:
        n = struct.unpack(">I", recv_exact(c, 4))[0]
        msg = recv_exact(c, n)
        if log:
            with open(log, "a") as f:
                f.write("%d\n" % msg[0])
        if msg[0] == 13 and mode == "silent":
            recv_exact(c, 1)  # waits until the client hangs up
        if msg[0] == 13 and mode == "oversized":
            c.sendall(struct.pack(">I", 1 << 20) + bytes([14]))
            continue
        body = answer(c, key, mode, msg)
        if msg[0] == 13 and mode == "killed":
            c.sendall(struct.pack(">I", len(body)) + body[:8])
            os._exit(0)
        c.sendall(struct.pack(">I", len(body)) + body)


def main():
    path, keyfile, mode = sys.argv[1:4]
    key = ec.generate_private_key(ec.SECP256R1())
    s = socket.socket(socket.AF_UNIX)
    s.bind(path + ".tmp")
    s.listen(4)
    os.rename(path + ".tmp", path)
    line = ECDSA.decode() + " " + \
        base64.b64encode(blob_of(key)).decode() + " hostile\n"
    with open(keyfile + ".tmp", "w") as f:
        f.write(line)
    os.rename(keyfile + ".tmp", keyfile)
    while True:
        c, _ = s.accept()
        if mode.startswith("@"):
            with open(mode[1:]) as f:
                now = f.read().strip()
        else:
            now = mode
        try:
            serve(c, key, now)
        except (EOFError, ConnectionError):
            pass
        c.close()


if __name__ == "__main__":
    main()
