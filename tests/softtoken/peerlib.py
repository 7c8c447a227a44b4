# SPDX-License-Identifier: BSD-2-Clause
# Helpers of the python clients of the software token: a raw CTAPHID
# client over its socket front (socket.sh, ctap2sock.sh: frames byte for
# byte, keepalives, several clients; the standard library only), and for
# peer_fido2.py TAP lines, software tokens on sockets, and the checks
# python3-fido2 makes (attestation, signatures, the UV bit).
import hashlib
import os
import signal
import socket
import struct
import subprocess
import sys
import time

try:
    from fido2.attestation import Attestation
    from fido2.cose import CoseKey
    from fido2.ctap import CtapError
    from fido2.ctap2.pin import ClientPin

    import sockhid

    PERM = (ClientPin.PERMISSION.MAKE_CREDENTIAL |
            ClientPin.PERMISSION.GET_ASSERTION)
except ImportError:
    # The raw client below needs no python3-fido2 (socket.sh and
    # ctap2sock.sh run without it); peer_fido2.sh checks that it is there.
    pass

RP = {"id": "peer.example", "name": "peer"}
USER = {"id": b"user-1", "name": "alice"}
ALGS = {"ES256": -7, "EdDSA": -8, "RS256": -257}

# ---- The raw CTAPHID client: 64-byte reports, one per SOCK_SEQPACKET
# message (tests/softtoken/front_socket.c). ----
BCAST = b"\xff" * 4
KEEPALIVE = 0xbb


def hid_connect(path, timeout=5):
    """A connection to the token's socket; every read has a deadline."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(timeout)
    s.connect(path)
    return s


def hid_send(s, cid, cmd, data):
    """One CTAPHID message: an init frame, then continuation frames."""
    f = cid + bytes([0x80 | cmd]) + struct.pack(">H", len(data)) + data[:57]
    s.send(f + bytes(64 - len(f)))
    off, seq = 57, 0
    while off < len(data):
        f = cid + bytes([seq]) + data[off:off + 59]
        s.send(f + bytes(64 - len(f)))
        off, seq = off + 59, seq + 1


def hid_frame(s, cid):
    """The next report, which must be 64 bytes on channel cid."""
    r = s.recv(100)
    if len(r) != 64 or r[:4] != cid:
        raise Exception("unexpected frame " + r.hex())
    return r


def hid_recv(s, cid, keepalives):
    """The next message on cid: (command, data). KEEPALIVE reports before
    it are appended (their status byte) to keepalives; any report on
    another channel, a continuation out of sequence or a continuation
    where an init frame belongs raises."""
    r = hid_frame(s, cid)
    while r[4] == KEEPALIVE:
        keepalives.append(r[7])
        r = hid_frame(s, cid)
    if not r[4] & 0x80:
        raise Exception("not an init frame " + r.hex())
    n = struct.unpack(">H", r[5:7])[0]
    data, seq = r[7:7 + n], 0
    while len(data) < n:
        c = hid_frame(s, cid)
        if c[4] != seq:
            raise Exception("bad continuation " + c.hex())
        data, seq = data + c[5:5 + n - len(data)], seq + 1
    return r[4] & 0x7f, data


def hid_xfer(s, cid, cmd, data, keepalives=None):
    hid_send(s, cid, cmd, data)
    return hid_recv(s, cid, keepalives if keepalives is not None else [])


def hid_init(s):
    """CTAPHID_INIT on the broadcast channel: (nonce sent, command, reply)."""
    nonce = os.urandom(8)
    hid_send(s, BCAST, 0x06, nonce)
    cmd, r = hid_recv(s, BCAST, [])
    return nonce, cmd, r


def check_line(name, ok):
    """The line the shell side greps for: "<check> ok" or "<check> bad"."""
    print("%s %s" % (name, "ok" if ok else "bad"))
    sys.stdout.flush()


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, why=""):
        self.n += 1
        if cond:
            print("ok %d - %s" % (self.n, name))
        else:
            self.failed += 1
            print("not ok %d - %s" % (self.n, name))
            for line in str(why).splitlines():
                print("#   " + line)
        sys.stdout.flush()
        return cond

    def run(self, name, fn, *args, **kw):
        """ok if fn(*args) returns without raising; its value, or None."""
        try:
            r = fn(*args, **kw)
        except Exception as e:  # any failure is this check's failure
            self.ok(False, name, "%s: %s" % (type(e).__name__, e))
            return None
        self.ok(True, name)
        return r

    def raises(self, name, code, fn, *args, **kw):
        """ok if fn(*args) fails with CTAP status code (an int) or, code
        None, with any exception."""
        try:
            fn(*args, **kw)
        except CtapError as e:
            return self.ok(code is None or e.code == code, name,
                           "status 0x%02x, wanted %s" % (e.code, code))
        except Exception as e:
            return self.ok(code is None, name, "%s: %s" % (type(e).__name__, e))
        return self.ok(False, name, "succeeded, wanted a failure")


class Token:
    """A softtoken on a socket, started as a daemon, stopped by SIGTERM."""

    def __init__(self, binary, workdir, name, opts):
        self.sock = os.path.join(workdir, name + ".sock")
        self.pidfile = os.path.join(workdir, name + ".pid")
        self.err = os.path.join(workdir, name + ".err")
        self.pid = None
        with open(self.err, "w") as err:
            rc = subprocess.run([binary, "--socket", self.sock, "--daemon",
                                 "--pidfile", self.pidfile] + opts,
                                stdin=subprocess.DEVNULL, stderr=err,
                                timeout=60).returncode
        if rc != 0:
            with open(self.err) as f:
                raise RuntimeError("softtoken %s exited %d: %s" %
                                   (" ".join(opts), rc, f.read().strip()))
        with open(self.pidfile) as f:
            self.pid = int(f.read())

    def device(self, max_keepalives=600):
        return sockhid.open_device(self.sock, max_keepalives=max_keepalives)

    def stop(self):
        """SIGTERM, then wait (up to 5 s) until the token has removed its
        socket: it does so on its way out. (Not kill -0: the daemon is
        not our child, and kill -0 succeeds on a zombie until init reaps
        it.)"""
        if self.pid is None:
            return
        os.kill(self.pid, signal.SIGTERM)
        self.pid = None
        for _ in range(100):
            if not os.path.exists(self.sock):
                return
            time.sleep(0.05)


def run_scenarios(t, scenarios, start, what):
    """Each (name, opts, fn) of scenarios (those in $PEER_ONLY if set):
    fn(t, start(name, opts)), then stop() what start gave."""
    only = os.environ.get("PEER_ONLY", "").split()
    for name, opts, fn in scenarios:
        if only and name not in only:
            continue
        try:
            tok = start(name, opts)
        except Exception as e:
            t.ok(False, "%s %s starts" % (what, " ".join(opts)), e)
            continue
        try:
            fn(t, tok)
        except Exception as e:
            t.ok(False, "%s: the checks ran to the end" % name,
                 "%s: %s" % (type(e).__name__, e))
        finally:
            tok.stop()


def cdh(tag):
    return hashlib.sha256(os.urandom(16) + tag.encode()).digest()


def make_cred(ctap, alg, **kw):
    """MakeCredential for RP; (attestation object, COSE public key, cdh)."""
    h = cdh("make")
    att = ctap.make_credential(h, RP, USER, [{"type": "public-key", "alg": alg}], **kw)
    pub = CoseKey.parse(att.auth_data.credential_data.public_key)
    return att, pub, h


def verify_att(att, h):
    """Verify the attestation statement with python-fido2's verifier of
    its format; a wrong client data hash must then fail."""
    verifier = Attestation.for_type(att.fmt)()
    verifier.verify(att.att_statement, att.auth_data, h)
    try:
        verifier.verify(att.att_statement, att.auth_data, cdh("other"))
    except Exception:
        if att.fmt == "none":
            raise RuntimeError("none verified over another hash?")
        return
    if att.fmt != "none":
        raise RuntimeError("the statement also verifies over another hash")


def assertion(ctap, cred_id, **kw):
    h = cdh("get")
    a = ctap.get_assertion(RP["id"], h, [{"type": "public-key", "id": cred_id}], **kw)
    return a, h


def verify_assertion(a, h, pub):
    """Signature over authData || cdh with the credential's key; the same
    signature over another hash must fail."""
    a.verify(h, pub)
    try:
        a.verify(cdh("other"), pub)
    except Exception:
        return
    raise RuntimeError("the signature also verifies over another hash")


def flags_of(ad):
    return "UP=%d UV=%d" % (ad.is_user_present(), ad.is_user_verified())


def uv_bit(ctap, proto, token, cred):
    """The UV-bit check: GetAssertion with a pinUvAuthParam from token
    must be signed with UV set, one without it with UV clear. Raises
    naming what is wrong."""
    uv_bit_only(ctap, proto, token, cred)
    cid, pub = cred
    a, h = assertion(ctap, cid)
    verify_assertion(a, h, pub)
    if a.auth_data.is_user_verified():
        raise RuntimeError("without pinUvAuthParam: " + flags_of(a.auth_data))


def pin_token(ctap, proto, pin):
    return ClientPin(ctap, proto).get_pin_token(pin, PERM, RP["id"])


def uv_bit_only(ctap, proto, token, cred):
    """uv_bit's first half (alwaysUv allows no assertion without UV)."""
    cid, pub = cred
    h = cdh("pin")
    a = ctap.get_assertion(RP["id"], h, [{"type": "public-key", "id": cid}],
                           pin_uv_param=proto.authenticate(token, h),
                           pin_uv_protocol=proto.VERSION)
    verify_assertion(a, h, pub)
    if not (a.auth_data.is_user_present() and a.auth_data.is_user_verified()):
        raise RuntimeError("with pinUvAuthParam: " + flags_of(a.auth_data))


def catches(t, name, fn, *args):
    """ok if fn(*args) raises: a check that must fail on a broken token;
    what python-fido2 or our checks said is shown."""
    try:
        fn(*args)
    except Exception as e:
        t.ok(True, name)
        print("#   caught: %s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:150]))
        return
    t.ok(False, name, "the broken token passed")
