# SPDX-License-Identifier: BSD-2-Clause
# peer_fido2.py's hmac-secret scenarios (CTAP 2.1 12.5, issue 30):
# python3-fido2's own HmacSecretExtension makes the salt's key agreement,
# saltEnc and saltAuth under PIN protocol 1 or 2 and decrypts the output,
# so the software token's side is checked by a client that is not ours.
# Checks: GetInfo lists it (and not with --hmac-secret off); MakeCredential
# returns hmac-secret: true in the signed authData; GetAssertion's output
# is 32 bytes (64 with two salts), the same for the same salt and UV
# state under either protocol, another for another salt, for the other
# UV state, for another credential; a wrong saltAuth is refused; a
# credential made without the extension gives no output.
import os

from fido2.cose import CoseKey
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.ctap2.extensions import HmacSecretExtension
from fido2.ctap2.pin import PinProtocolV1, PinProtocolV2

from peerlib import RP, USER, cdh, pin_token, verify_assertion

ES256 = [{"type": "public-key", "alg": -7}]
PIN = "4321"


def mk(ctap, proto, hmac=True):
    """A credential (id, COSE key) made with a PIN token, with the
    extension asked for or not; raises unless the signed authData says
    hmac-secret: true exactly when asked."""
    h = cdh("make")
    kw = {"extensions": {"hmac-secret": True}} if hmac else {}
    att = ctap.make_credential(
        h, RP, USER, ES256,
        pin_uv_param=proto.authenticate(pin_token(ctap, proto, PIN), h),
        pin_uv_protocol=proto.VERSION, **kw)
    got = att.auth_data.extensions or {}
    if got.get("hmac-secret") is not (True if hmac else None):
        raise RuntimeError("MakeCredential extensions: %r" % (got,))
    cd = att.auth_data.credential_data
    return cd.credential_id, CoseKey.parse(cd.public_key)


def get(ctap, proto, cred, salts, uv=True, auth_fix=None):
    """GetAssertion with hmac-secret for salts (1 or 2), under proto;
    with a PIN token when uv. The assertion is verified; returns the
    decrypted outputs (a tuple), or None when the token gave none."""
    ext = HmacSecretExtension(ctap, proto)
    inp = ext.process_get_input(
        {"hmacGetSecret": dict(zip(("salt1", "salt2"), salts))})
    if auth_fix is not None:
        inp[3] = auth_fix(inp[3])
    h = cdh("get")
    kw = {}
    if uv:
        tok = pin_token(ctap, proto, PIN)
        kw = {"pin_uv_param": proto.authenticate(tok, h),
              "pin_uv_protocol": proto.VERSION}
    cid, pub = cred
    a = ctap.get_assertion(RP["id"], h, [{"type": "public-key", "id": cid}],
                           extensions={"hmac-secret": inp}, **kw)
    verify_assertion(a, h, pub)
    if a.auth_data.is_user_verified() != uv:
        raise RuntimeError("UV flag %s" % a.auth_data.is_user_verified())
    if not (a.auth_data.extensions or {}).get("hmac-secret"):
        return None
    out = ext.process_get_output(a.auth_data)["hmacGetSecret"]
    return tuple(out[k] for k in ("output1", "output2") if k in out)


def protos(version):
    return ([PinProtocolV1()] if version == "2.0"
            else [PinProtocolV1(), PinProtocolV2()])


def hmac_ok(version):
    def run(t, tok):
        label = "hmac-secret %s" % version
        dev = tok.device()
        ctap = Ctap2(dev)
        t.ok("hmac-secret" in ctap.info.extensions,
             label + ": GetInfo lists it", repr(ctap.info.extensions))
        ps = protos(version)
        cred = t.run(label + ": MakeCredential with hmac-secret: true in "
                     "the signed authData", mk, ctap, ps[0])
        other = t.run(label + ": ... a second credential", mk, ctap, ps[0])
        plain = t.run(label + ": MakeCredential without the extension "
                      "(none in authData)", mk, ctap, ps[0], False)
        if cred is None or other is None or plain is None:
            dev.close()
            return
        s1, s2 = os.urandom(32), os.urandom(32)
        outs = {}
        for p in ps:
            v = p.VERSION
            o = t.run(label + ": protocol %d: GetAssertion with a PIN "
                      "token, output verified and decrypted" % v,
                      get, ctap, p, cred, [s1])
            t.ok(o is not None and len(o) == 1 and len(o[0]) == 32,
                 label + ": ... one 32-byte output", repr(o))
            outs[v] = o
            o2 = t.run(label + ": protocol %d: two salts" % v,
                       get, ctap, p, cred, [s1, s2])
            t.ok(o2 is not None and len(o2) == 2 and o is not None and
                 o2[0] == o[0] and o2[1] != o[0],
                 label + ": ... output1 as before, output2 another")
        t.ok(len(set(outs.values())) == 1,
             label + ": the same output under every PIN protocol")
        o = outs[ps[0].VERSION]
        again = get(ctap, ps[-1], cred, [s1])
        t.ok(again == o, label + ": the same salt again, the same output")
        t.ok(get(ctap, ps[-1], cred, [s2])[0] != o[0],
             label + ": another salt, another output")
        t.ok(get(ctap, ps[-1], other, [s1])[0] != o[0],
             label + ": another credential, another output")
        nouv = t.run(label + ": without UV (no PIN token)", get, ctap,
                     ps[-1], cred, [s1], False)
        t.ok(nouv is not None and nouv[0] != o[0],
             label + ": ... another output (CredRandomWithoutUV)")
        t.ok(get(ctap, ps[-1], plain, [s1]) is None,
             label + ": a credential made without it: no output")
        t.raises(label + ": a wrong saltAuth: PIN_AUTH_INVALID",
                 CtapError.ERR.PIN_AUTH_INVALID, get, ctap, ps[-1], cred,
                 [s1], True, lambda a: bytes([a[0] ^ 1]) + a[1:])
        dev.close()
    return run


def hmac_off(t, tok):
    """--hmac-secret off: not listed; asked for, MakeCredential leaves
    it out."""
    dev = tok.device()
    ctap = Ctap2(dev)
    t.ok("hmac-secret" not in ctap.info.extensions,
         "hmac-secret off: GetInfo does not list it",
         repr(ctap.info.extensions))
    h = cdh("make")
    p = PinProtocolV2()
    att = ctap.make_credential(
        h, RP, USER, ES256, extensions={"hmac-secret": True},
        pin_uv_param=p.authenticate(pin_token(ctap, p, PIN), h),
        pin_uv_protocol=2)
    t.ok("hmac-secret" not in (att.auth_data.extensions or {}),
         "hmac-secret off: MakeCredential does not turn it on")
    dev.close()


HMAC_SCENARIOS = [
    ("hmac20", ["--ctap2", "2.0", "--pin", PIN], hmac_ok("2.0")),
    ("hmac21", ["--ctap2", "2.1", "--pin", PIN], hmac_ok("2.1")),
    ("hmacoff", ["--ctap2", "2.1", "--pin", PIN, "--hmac-secret", "off"],
     hmac_off),
]
