#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2 (Yubico's python-fido2, Debian's 0.9.1) as an independent
# client of the software token: its own CTAPHID, CBOR, Ctap1, Ctap2,
# ClientPin (PIN/UV auth protocols 1 and 2), COSE keys and attestation
# verifiers, so that the token is not vouched for only by our own client.
# The token runs on a unix socket (sockhid.py). TAP on stdout, the plan
# last.
#   peer_fido2.py SOFTTOKEN_BINARY
import hashlib
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fido2.cose import CoseKey  # noqa: E402
from fido2.ctap import CtapError  # noqa: E402
from fido2.ctap1 import Ctap1  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402
from fido2.ctap2.pin import ClientPin, PinProtocolV1, PinProtocolV2  # noqa: E402
from fido2.hid import CAPABILITY, CTAPHID  # noqa: E402

from peerlib import (ALGS, PERM, RP, USER, Tap, Token, assertion,  # noqa: E402
                     catches, cdh, flags_of, make_cred, pin_token,
                     run_scenarios, uv_bit, uv_bit_only, verify_assertion,
                     verify_att)
from peerrk import RK_SCENARIOS  # noqa: E402
from peerhmac import HMAC_SCENARIOS  # noqa: E402


def u2f_register(t, dev, label):
    """Ctap1 (U2F raw messages in CTAPHID_MSG): VERSION, REGISTER with
    its fido-u2f attestation verified, AUTHENTICATE verified with the
    registered key, presence set, counter going up."""
    ctap1 = Ctap1(dev)
    v = t.run(label + ": Ctap1 VERSION", ctap1.get_version)
    t.ok(v == "U2F_V2", label + ": ... is U2F_V2", repr(v))
    app, chal = cdh("app"), cdh("register")
    reg = t.run(label + ": Ctap1 REGISTER", ctap1.register, chal, app)
    if reg is None:
        return
    t.run(label + ": ... RegistrationData.verify (attestation signature)",
          reg.verify, app, chal)
    t.raises(label + ": ... which fails for another challenge", None,
             reg.verify, app, cdh("other"))
    sigs = []
    for i in range(2):
        chal = cdh("auth")
        s = t.run(label + ": Ctap1 AUTHENTICATE %d" % (i + 1),
                  ctap1.authenticate, chal, app, reg.key_handle)
        if s is None:
            return
        t.run(label + ": ... SignatureData.verify with the registered key",
              s.verify, app, chal, reg.public_key)
        sigs.append(s)
    t.ok(all(s.user_presence & 1 for s in sigs) and
         sigs[1].counter > sigs[0].counter,
         label + ": ... presence set, counter goes up",
         "presence %s, counters %s" % ([s.user_presence for s in sigs],
                                        [s.counter for s in sigs]))
    t.raises(label + ": AUTHENTICATE of that key handle for another app "
             "refused (6A80)", None, ctap1.authenticate, cdh("x"), cdh("app2"),
             reg.key_handle)


def u2f_only(t, tok):
    """--ctap2 off: no CBOR capability, no GetInfo, U2F as before."""
    dev = tok.device()
    t.ok(not dev.capabilities & CAPABILITY.CBOR and
         not dev.capabilities & CAPABILITY.NMSG,
         "ctap2 off: CTAPHID_INIT capabilities without CBOR and NMSG",
         "capabilities 0x%02x" % dev.capabilities)
    t.raises("ctap2 off: python-fido2's Ctap2 refuses the device", None,
             Ctap2, dev)
    t.raises("ctap2 off: a raw CTAPHID_CBOR GetInfo gets ERROR "
             "INVALID_COMMAND", CtapError.ERR.INVALID_COMMAND,
             dev.call, CTAPHID.CBOR, b"\x04")
    u2f_register(t, dev, "ctap2 off")
    dev.close()


# What GetInfo must say for each --ctap2 variant.
VERSIONS = {
    "2.0": ["U2F_V2", "FIDO_2_0"],
    "2.1-pre": ["U2F_V2", "FIDO_2_0", "FIDO_2_1_PRE"],
    "2.1": ["U2F_V2", "FIDO_2_0", "FIDO_2_1_PRE", "FIDO_2_1"],
}
PROTOCOLS = {"2.0": [1], "2.1-pre": [2, 1], "2.1": [2, 1]}


def check_info(t, ctap, variant, label, u2f=True, pin=False, uv=None):
    info = ctap.info
    want = [v for v in VERSIONS[variant] if u2f or v != "U2F_V2"]
    t.ok(sorted(info.versions) == sorted(want), label + ": GetInfo versions",
         "got %s, wanted %s" % (info.versions, want))
    t.ok(info.pin_uv_protocols == PROTOCOLS[variant],
         label + ": GetInfo pinUvAuthProtocols",
         "got %s, wanted %s" % (info.pin_uv_protocols, PROTOCOLS[variant]))
    o = info.options
    ok = (o.get("clientPin") is pin and o.get("up", True) is True and
          o.get("rk") is True and o.get("plat", False) is False and
          o.get("uv") is uv)
    if variant == "2.1":
        ok = ok and o.get("pinUvAuthToken") is True
    else:
        ok = ok and "pinUvAuthToken" not in o
    t.ok(ok, label + ": GetInfo options (clientPin %s, uv %s)" % (pin, uv),
         repr(o))
    t.ok(len(info.aaguid) == 16, label + ": GetInfo aaguid of 16 bytes")
    t.ok(info.extensions == ["credProtect", "hmac-secret"],
         label + ": GetInfo extensions [credProtect, hmac-secret]",
         repr(info.extensions))


# The attestation statement's keys per softtoken --attest.
STMT = {"packed": {"alg", "sig", "x5c"}, "self": {"alg", "sig"},
        "fido-u2f": {"sig", "x5c"}, "none": set()}
FMT = {"packed": "packed", "self": "packed", "fido-u2f": "fido-u2f",
       "none": "none"}


def creds(t, ctap, label, attest="packed", algs=ALGS):
    """MakeCredential per algorithm, the attestation statement verified
    (python-fido2's verifier of the format), then GetAssertion verified
    with the credential's public key; {alg name: (cred id, key)}."""
    out = {}
    for name, alg in algs.items():
        att = t.run(label + ": MakeCredential " + name, make_cred, ctap, alg)
        if att is None:
            continue
        att, pub, h = att
        cd = att.auth_data.credential_data
        fmt = FMT[attest]
        t.ok(att.fmt == fmt and set(att.att_statement) == STMT[attest] and
             pub.ALGORITHM == alg and
             att.auth_data.rp_id_hash == hashlib.sha256(RP["id"].encode()).digest(),
             label + ": ... %s statement (%s), %s key, rpIdHash" %
             (fmt, ", ".join(sorted(STMT[attest])) or "empty", name),
             "fmt %s, statement %s, key %s, %r" % (
                 att.fmt, sorted(att.att_statement), type(pub).__name__,
                 att.auth_data))
        t.run(label + ": ... attestation verified by python-fido2 (%s)" % fmt,
              verify_att, att, h)
        a = t.run(label + ": GetAssertion " + name, assertion, ctap,
                  cd.credential_id)
        if a is None:
            continue
        a, h = a
        t.run(label + ": ... signature verified with the %s key" % name,
              verify_assertion, a, h, pub)
        ad = a.auth_data
        t.ok(ad.is_user_present() and not ad.is_user_verified(),
             label + ": ... UP set, UV clear without PIN or UV", flags_of(ad))
        out[name] = (cd.credential_id, pub)
    if out:
        cid = next(iter(out.values()))[0]
        t.raises(label + ": GetAssertion for another rp: NO_CREDENTIALS",
                 CtapError.ERR.NO_CREDENTIALS, ctap.get_assertion,
                 "other.example", cdh("x"), [{"type": "public-key", "id": cid}])
    return out


def pin_protocols(t, ctap, variant, label, cred, pin):
    """For each PIN/UV auth protocol the variant offers: a PIN token,
    MakeCredential with pinUvAuthParam (UV set, attestation verified),
    and the UV-bit check on GetAssertion."""
    for v in PROTOCOLS[variant]:
        proto = PinProtocolV2() if v == 2 else PinProtocolV1()
        lab = "%s: protocol %d" % (label, v)
        tok = t.run(lab + ": getPinToken (ClientPin)", pin_token, ctap, proto, pin)
        if tok is None:
            continue
        h = cdh("make")
        att = t.run(lab + ": MakeCredential with pinUvAuthParam",
                    ctap.make_credential, h, RP, USER,
                    [{"type": "public-key", "alg": -7}], None, None, None,
                    proto.authenticate(tok, h), v)
        if att is not None:
            t.ok(att.auth_data.is_user_present() and att.auth_data.is_user_verified(),
                 lab + ": ... UP and UV set", flags_of(att.auth_data))
            t.run(lab + ": ... attestation verified", verify_att, att, h)
        tok = t.run(lab + ": a second PIN token", pin_token, ctap, proto, pin)
        if tok is not None and cred is not None:
            t.run(lab + ": GetAssertion: UV set with pinUvAuthParam, clear "
                  "without", uv_bit, ctap, proto, tok, cred)
        t.raises(lab + ": a pinUvAuthParam made with a wrong token: "
                 "PIN_AUTH_INVALID", CtapError.ERR.PIN_AUTH_INVALID,
                 ctap.get_assertion, RP["id"], h,
                 [{"type": "public-key", "id": cred[0]}] if cred else None,
                 None, None, proto.authenticate(os.urandom(32), h), v)


def ctap2_full(variant):
    """--ctap2 VARIANT, no PIN: GetInfo, every algorithm with packed
    attestation, U2F beside it, then a PIN set, used and changed."""
    def run(t, tok):
        label = "ctap2 " + variant
        dev = tok.device()
        t.ok(dev.capabilities & CAPABILITY.CBOR and
             not dev.capabilities & CAPABILITY.NMSG,
             label + ": CTAPHID_INIT capabilities CBOR, not NMSG",
             "capabilities 0x%02x" % dev.capabilities)
        ctap = Ctap2(dev)
        check_info(t, ctap, variant, label)
        cs = creds(t, ctap, label, "packed")
        u2f_register(t, dev, label)
        t.run(label + ": ClientPin setPIN (protocol 1)",
              ClientPin(ctap, PinProtocolV1()).set_pin, "1234")
        t.raises(label + ": setPIN again: NOT_ALLOWED",
                 CtapError.ERR.NOT_ALLOWED,
                 ClientPin(ctap, PinProtocolV1()).set_pin, "9999")
        ctap = Ctap2(dev)  # GetInfo again
        t.ok(ctap.info.options.get("clientPin") is True,
             label + ": GetInfo then says clientPin true", repr(ctap.info.options))
        if variant == "2.1":
            t.run(label + ": MakeCredential without pinUvAuthParam allowed "
                  "(makeCredUvNotRqd)", make_cred, ctap, -7)
        else:
            t.raises(label + ": MakeCredential without pinUvAuthParam: "
                     "PIN_REQUIRED", CtapError.ERR.PIN_REQUIRED, make_cred, ctap, -7)
        r = t.run(label + ": getPINRetries", ClientPin(ctap).get_pin_retries)
        t.ok(r is not None and r[0] == 8, label + ": ... 8 retries", repr(r))
        pin_protocols(t, ctap, variant, label, cs.get("ES256"), "1234")
        t.run(label + ": ClientPin changePIN", ClientPin(ctap).change_pin,
              "1234", "56789")
        t.raises(label + ": the old PIN: PIN_INVALID", CtapError.ERR.PIN_INVALID,
                 pin_token, ctap, PinProtocolV1(), "1234")
        t.run(label + ": the new PIN gives a token", pin_token, ctap,
              PinProtocolV1(), "56789")
        dev.close()
    return run


def pin_blocking(variant, retries):
    """--pin and --pin-retries: wrong PINs count down and block."""
    def run(t, tok):
        label = "ctap2 %s --pin-retries %d" % (variant, retries)
        dev = tok.device()
        ctap = Ctap2(dev)
        check_info(t, ctap, variant, label, pin=True)
        cp = ClientPin(ctap, PinProtocolV1())
        left = cp.get_pin_retries()[0]
        t.ok(left == retries, label + ": getPINRetries", "%d" % left)
        for i in range(retries):
            code = None if i == retries - 1 else CtapError.ERR.PIN_INVALID
            t.raises(label + ": wrong PIN %d refused" % (i + 1), code,
                     pin_token, ctap, PinProtocolV1(), "0000")
            left = cp.get_pin_retries()[0]
            t.ok(left == retries - i - 1, label + ": ... retries down to %d" %
                 (retries - i - 1), "%d" % left)
        t.raises(label + ": then the right PIN: PIN_BLOCKED",
                 CtapError.ERR.PIN_BLOCKED, pin_token, ctap, PinProtocolV1(), "4321")
        dev.close()
    return run


def pin_auth_blocked(t, tok):
    """Three wrong PINs in a row: PIN_AUTH_BLOCKED until power cycle;
    a right PIN before that resets the count of retries."""
    label = "ctap2 2.1 --pin"
    dev = tok.device()
    ctap = Ctap2(dev)
    check_info(t, ctap, "2.1", label, pin=True)
    t.raises(label + ": wrong PIN (protocol 2): PIN_INVALID",
             CtapError.ERR.PIN_INVALID, pin_token, ctap, PinProtocolV2(), "0000")
    t.run(label + ": right PIN (protocol 2) gives a token", pin_token, ctap,
          PinProtocolV2(), "4321")
    r = ClientPin(ctap).get_pin_retries()[0]
    t.ok(r == 8, label + ": ... and retries are back at 8", "%d" % r)
    codes = []
    for _ in range(3):
        try:
            pin_token(ctap, PinProtocolV2(), "0000")
            codes.append(0)
        except CtapError as e:
            codes.append(e.code)
    want = [CtapError.ERR.PIN_INVALID] * 2 + [CtapError.ERR.PIN_AUTH_BLOCKED]
    t.ok(codes == want, label + ": three wrong PINs: INVALID, INVALID, "
         "AUTH_BLOCKED", "codes %s" % ["0x%02x" % c for c in codes])
    t.raises(label + ": then the right PIN: PIN_AUTH_BLOCKED",
             CtapError.ERR.PIN_AUTH_BLOCKED, pin_token, ctap, PinProtocolV2(), "4321")
    dev.close()


def uv_ok(variant):
    """--uv ok: built-in UV through the uv option and (2.1) through
    getPinUvAuthTokenUsingUvWithPermissions."""
    def run(t, tok):
        label = "ctap2 %s --uv ok" % variant
        dev = tok.device()
        ctap = Ctap2(dev)
        check_info(t, ctap, variant, label, uv=True)
        r = t.run(label + ": MakeCredential with option uv", make_cred, ctap, -7,
                  options={"uv": True})
        if r is None:
            return
        att, pub, h = r
        t.ok(att.auth_data.is_user_present() and att.auth_data.is_user_verified(),
             label + ": ... UP and UV set", flags_of(att.auth_data))
        t.run(label + ": ... attestation verified", verify_att, att, h)
        cid = att.auth_data.credential_data.credential_id
        a = t.run(label + ": GetAssertion with option uv", assertion, ctap, cid,
                  options={"uv": True})
        if a is not None:
            t.run(label + ": ... signature verified", verify_assertion, a[0], a[1], pub)
            t.ok(a[0].auth_data.is_user_verified(), label + ": ... UV set",
                 flags_of(a[0].auth_data))
        if variant == "2.1":
            cp = ClientPin(ctap, PinProtocolV2())
            tok2 = t.run(label + ": getPinUvAuthTokenUsingUvWithPermissions",
                         cp.get_uv_token, PERM, RP["id"])
            if tok2 is not None:
                t.run(label + ": GetAssertion with that token: UV set, "
                      "clear without", uv_bit, ctap, PinProtocolV2(), tok2,
                      (cid, pub))
            r = t.run(label + ": getUVRetries", cp.get_uv_retries)
            t.ok(r is not None and r[0] == 8, label + ": ... 8", repr(r))
        dev.close()
    return run


def uv_fail(t, tok):
    """--uv fail: the built-in UV refuses and counts down."""
    label = "ctap2 2.1 --uv fail"
    dev = tok.device()
    ctap = Ctap2(dev)
    check_info(t, ctap, "2.1", label, uv=True)
    t.raises(label + ": MakeCredential with option uv: UV_INVALID",
             CtapError.ERR.UV_INVALID, make_cred, ctap, -7, options={"uv": True})
    r = ClientPin(ctap, PinProtocolV2()).get_uv_retries()[0]
    t.ok(r == 7, label + ": ... getUVRetries 7", "%d" % r)
    t.raises(label + ": getPinUvAuthTokenUsingUv: UV_INVALID",
             CtapError.ERR.UV_INVALID, ClientPin(ctap, PinProtocolV2()).get_uv_token,
             PERM, RP["id"])
    dev.close()


def no_u2f(always_uv):
    """--u2f off, or --always-uv (which implies it): NMSG, no U2F_V2 in
    GetInfo, CTAPHID_MSG refused; alwaysUv: UV needed for everything."""
    def run(t, tok):
        label = "ctap2 2.1 " + ("--always-uv --pin" if always_uv else "--u2f off")
        dev = tok.device()
        t.ok(dev.capabilities & CAPABILITY.CBOR and
             dev.capabilities & CAPABILITY.NMSG,
             label + ": CTAPHID_INIT capabilities CBOR and NMSG",
             "capabilities 0x%02x" % dev.capabilities)
        t.raises(label + ": Ctap1 VERSION refused (ERROR INVALID_COMMAND)",
                 CtapError.ERR.INVALID_COMMAND, Ctap1(dev).get_version)
        ctap = Ctap2(dev)
        check_info(t, ctap, "2.1", label, u2f=False, pin=always_uv)
        au = ctap.info.options.get("alwaysUv", False)
        t.ok(au is always_uv, label + ": GetInfo option alwaysUv %s" % always_uv,
             repr(au))
        if not always_uv:
            creds(t, ctap, label, "packed", {"ES256": -7})
            dev.close()
            return
        t.raises(label + ": MakeCredential without PIN: PIN_REQUIRED",
                 CtapError.ERR.PIN_REQUIRED, make_cred, ctap, -7)
        proto = PinProtocolV2()
        tok2 = pin_token(ctap, proto, "4321")
        h = cdh("make")
        att = t.run(label + ": MakeCredential with pinUvAuthParam",
                    ctap.make_credential, h, RP, USER,
                    [{"type": "public-key", "alg": -8}], None, None, None,
                    proto.authenticate(tok2, h), 2)
        if att is not None:
            cid = att.auth_data.credential_data.credential_id
            t.raises(label + ": GetAssertion without PIN: PIN_REQUIRED",
                     CtapError.ERR.PIN_REQUIRED, assertion, ctap, cid)
            pub = CoseKey.parse(att.auth_data.credential_data.public_key)
            t.run(label + ": GetAssertion with a PIN token: UV set",
                  uv_bit_only, ctap, proto, pin_token(ctap, proto, "4321"), (cid, pub))
        dev.close()
    return run


def attest(opt, algs):
    def run(t, tok):
        dev = tok.device()
        creds(t, Ctap2(dev), "ctap2 2.0 --attest " + opt, opt, algs)
        dev.close()
    return run


def everything(tok, max_keepalives=600):
    """The plain path a client takes: GetInfo, MakeCredential, the
    attestation, GetAssertion, the signature. Raises at the first fault."""
    dev = tok.device(max_keepalives)
    try:
        ctap = Ctap2(dev)
        att, pub, h = make_cred(ctap, -7)
        verify_att(att, h)
        a, h = assertion(ctap, att.auth_data.credential_data.credential_id)
        verify_assertion(a, h, pub)
    finally:
        dev.close()


def u2f_wrong_signature(t, tok):
    """--fault wrong-signature (U2F): the signature checks must fail."""
    dev = tok.device()
    ctap1 = Ctap1(dev)
    app, chal = cdh("app"), cdh("register")
    reg = ctap1.register(chal, app)
    catches(t, "u2f --fault wrong-signature: RegistrationData.verify fails",
            reg.verify, app, chal)
    chal = cdh("auth")
    s = ctap1.authenticate(chal, app, reg.key_handle)
    catches(t, "u2f --fault wrong-signature: SignatureData.verify fails",
            s.verify, app, chal, reg.public_key)
    dev.close()


def fault(name):
    def run(t, tok):
        catches(t, "--fault %s: python-fido2's client with our checks "
                "refuses the token" % name, everything, tok, 10)
    return run


def uv_fault(name):
    """--fault uv-lie (UV bit always set) or uv-skip (pinUvAuthParam
    not checked, UV clear) with a PIN: the UV-bit check must fail."""
    return lambda t, tok: uv_fault_run(t, tok, "ctap2 2.1 --pin --fault " + name)


def uv_fault_run(t, tok, label):
    dev = tok.device()
    ctap = Ctap2(dev)
    proto = PinProtocolV2()
    h = cdh("make")
    att = ctap.make_credential(h, RP, USER, [{"type": "public-key", "alg": -7}],
                               pin_uv_param=proto.authenticate(
                                   pin_token(ctap, proto, "4321"), h),
                               pin_uv_protocol=2)
    cred = (att.auth_data.credential_data.credential_id,
            CoseKey.parse(att.auth_data.credential_data.public_key))
    catches(t, label + ": the UV-bit check fails", uv_bit, ctap, proto,
            pin_token(ctap, proto, "4321"), cred)
    dev.close()


PIN = ["--pin", "4321"]
U2F_SCENARIOS = [
    ("u2f", [], u2f_only),
    ("u2f-wrongsig", ["--fault", "wrong-signature"], u2f_wrong_signature),
]
CTAP2_SCENARIOS = [
    ("u2f-explicit", ["--ctap2", "off", "--u2f", "on"], u2f_only),
    ("c20", ["--ctap2", "2.0"], ctap2_full("2.0")),
    ("c21pre", ["--ctap2", "2.1-pre"], ctap2_full("2.1-pre")),
    ("c21", ["--ctap2", "2.1"], ctap2_full("2.1")),
    ("c20block", ["--ctap2", "2.0", "--pin-retries", "2"] + PIN,
     pin_blocking("2.0", 2)),
    ("c21block", ["--ctap2", "2.1", "--pin-retries", "3"] + PIN,
     pin_blocking("2.1", 3)),
    ("c21authblock", ["--ctap2", "2.1"] + PIN, pin_auth_blocked),
    ("c20uv", ["--ctap2", "2.0", "--uv", "ok"], uv_ok("2.0")),
    ("c21uv", ["--ctap2", "2.1", "--uv", "ok"], uv_ok("2.1")),
    ("c21uvfail", ["--ctap2", "2.1", "--uv", "fail"], uv_fail),
    ("c21nou2f", ["--ctap2", "2.1", "--u2f", "off"], no_u2f(False)),
    ("c21always", ["--ctap2", "2.1", "--always-uv"] + PIN, no_u2f(True)),
    ("self", ["--ctap2", "2.0", "--attest", "self"], attest("self", ALGS)),
    ("u2fatt", ["--ctap2", "2.0", "--attest", "fido-u2f"],
     attest("fido-u2f", {"ES256": -7})),
    ("none", ["--ctap2", "2.0", "--attest", "none"],
     attest("none", {"ES256": -7, "EdDSA": -8})),
]
# Broken tokens: the checks above must fail on them.
FAULT_SCENARIOS = [
    ("uvlie", ["--ctap2", "2.1", "--fault", "uv-lie"] + PIN, uv_fault("uv-lie")),
    ("uvskip", ["--ctap2", "2.1", "--fault", "uv-skip"] + PIN,
     uv_fault("uv-skip")),
] + [("f-" + f, ["--ctap2", "2.1", "--fault", f], fault(f)) for f in (
    "cbor-garbage", "cbor-noncanonical", "cbor-wrong-status",
    "cbor-oversized", "endless-processing", "getinfo-garbage")]
SCENARIOS = (U2F_SCENARIOS + CTAP2_SCENARIOS + RK_SCENARIOS + HMAC_SCENARIOS +
             FAULT_SCENARIOS)


def main():
    if len(sys.argv) != 2:
        print("usage: peer_fido2.py SOFTTOKEN", file=sys.stderr)
        return 2
    t = Tap()
    with tempfile.TemporaryDirectory(prefix="peer-fido2.") as d:
        run_scenarios(t, SCENARIOS,
                      lambda name, opts: Token(sys.argv[1], d, name, opts),
                      "softtoken")
    print("1..%d" % t.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
