# SPDX-License-Identifier: BSD-2-Clause
# peer_fido2.py's resident-credential scenarios: python3-fido2 makes
# discoverable credentials (rk), finds them with an empty allow list
# through its own get_assertions (GetAssertion + GetNextAssertion),
# verifies every assertion with the credential's COSE key, asks for
# credProtect with its CredProtectExtension, and calls Selection.
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.ctap2.extensions import CredProtectExtension
from fido2.ctap2.pin import PinProtocolV2

from peerlib import RP, cdh, pin_token

ES256 = [{"type": "public-key", "alg": -7}]
REQUIRED = CredProtectExtension.POLICY.REQUIRED


def mk_rk(ctap, user, proto=None, tok=None, prot=None):
    """A resident credential for user; (id, COSE key, authData)."""
    from fido2.cose import CoseKey
    h = cdh("rk")
    kw = {}
    if tok is not None:
        kw = {"pin_uv_param": proto.authenticate(tok, h),
              "pin_uv_protocol": proto.VERSION}
    if prot is not None:
        kw["extensions"] = {"credProtect": prot}
    att = ctap.make_credential(
        h, RP, {"id": user, "name": user.decode(), "displayName": "D"},
        ES256, options={"rk": True}, **kw)
    cd = att.auth_data.credential_data
    return cd.credential_id, CoseKey.parse(cd.public_key), att.auth_data


def discover(ctap, keys, proto=None, tok=None):
    """get_assertions with no allow list; each verified with its key;
    the user ids in the order the token gave them."""
    h = cdh("discover")
    kw = {}
    if tok is not None:
        kw = {"pin_uv_param": proto.authenticate(tok, h),
              "pin_uv_protocol": proto.VERSION}
    got = ctap.get_assertions(RP["id"], h, None, **kw)
    out = []
    for a in got:
        a.verify(h, keys[a.credential["id"]])
        out.append((a.user["id"], "name" in a.user, a.number_of_credentials))
    return out


def rk21(t, tok):
    """--ctap2 2.1 --pin --rk-slots 3: rk with the PIN, credProtect 3,
    KEY_STORE_FULL, discovery with and without UV, Selection."""
    label = "rk 2.1"
    dev = tok.device()
    ctap = Ctap2(dev)
    t.ok(ctap.info.options.get("rk") is True and
         ctap.info.remaining_disc_creds == 3,
         label + ": GetInfo rk true, remainingDiscoverableCredentials 3",
         "%r %r" % (ctap.info.options, ctap.info.remaining_disc_creds))
    proto = PinProtocolV2()
    ptok = t.run(label + ": PIN token", pin_token, ctap, proto, "4321")
    t.raises(label + ": rk without UV on a PIN key: PUAT_REQUIRED (36)",
             CtapError.ERR.PIN_REQUIRED, mk_rk, ctap, b"u0")
    keys = {}
    for u in (b"u1", b"u2"):
        r = t.run(label + ": MakeCredential rk " + u.decode(), mk_rk, ctap,
                  u, proto, ptok)
        if r:
            keys[r[0]] = r[1]
    prot = CredProtectExtension(ctap).process_create_input(
        {"credentialProtectionPolicy": REQUIRED})
    r = t.run(label + ": MakeCredential rk u3 with CredProtectExtension "
              "(userVerificationRequired)", mk_rk, ctap, b"u3", proto, ptok,
              prot)
    if r:
        keys[r[0]] = r[1]
        t.ok(prot == 3 and r[2].extensions == {"credProtect": 3} and
             r[2].flags & 0x80, label + ": ... credProtect 3 echoed (ED)",
             "%r %r" % (prot, r[2].extensions))
    t.raises(label + ": a 4th user: KEY_STORE_FULL",
             CtapError.ERR.KEY_STORE_FULL, mk_rk, ctap, b"u4", proto, ptok)
    got = t.run(label + ": get_assertions, no allow list, no UV", discover,
                ctap, keys)
    t.ok(got is not None and [g[0] for g in got] == [b"u2", b"u1"] and
         got[0][2] == 2 and not any(g[1] for g in got),
         label + ": ... u2, u1 (newest first; u3 needs UV), ids only",
         repr(got))
    got = t.run(label + ": get_assertions with the PIN token", discover,
                ctap, keys, proto, ptok)
    t.ok(got is not None and [g[0] for g in got] == [b"u3", b"u2", b"u1"]
         and all(g[1] for g in got),
         label + ": ... u3, u2, u1, with names", repr(got))
    t.raises(label + ": GetNextAssertion after the last: NOT_ALLOWED",
             CtapError.ERR.NOT_ALLOWED, ctap.get_next_assertion)
    t.run(label + ": Ctap2.selection", ctap.selection)
    t.ok(Ctap2(dev).info.remaining_disc_creds == 0,
         label + ": GetInfo remainingDiscoverableCredentials 0", "")
    dev.close()


def rk20(t, tok):
    """--ctap2 2.0: rk without a PIN, two found, Selection refused."""
    label = "rk 2.0"
    dev = tok.device()
    ctap = Ctap2(dev)
    keys = {}
    for u in (b"a", b"b"):
        r = t.run(label + ": MakeCredential rk " + u.decode(), mk_rk, ctap,
                  u)
        if r:
            keys[r[0]] = r[1]
    got = t.run(label + ": get_assertions, no allow list", discover, ctap,
                keys)
    t.ok(got is not None and [g[0] for g in got] == [b"b", b"a"],
         label + ": ... b, a (newest first)", repr(got))
    t.raises(label + ": Ctap2.selection: INVALID_COMMAND",
             CtapError.ERR.INVALID_COMMAND, ctap.selection)
    dev.close()


RK_SCENARIOS = [
    ("rk21", ["--ctap2", "2.1", "--pin", "4321", "--rk-slots", "3"], rk21),
    ("rk20", ["--ctap2", "2.0"], rk20),
]
