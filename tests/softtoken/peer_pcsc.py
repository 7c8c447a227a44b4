#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# python3-fido2's CtapPcscDevice (fido2.pcsc over pyscard) as an
# independent client of the software token as an NFC card (--vpcd), in
# the private pcscd that peer_pcsc.sh started (tests/pcsc.lib): the
# reader list, SELECT, U2F through Ctap1 (raw APDUs, 61xx + GET
# RESPONSE), CTAP2 through Ctap2 and ClientPin (NFCCTAP_MSG, chaining of
# long requests, NFCCTAP_GETRESPONSE while the tap is awaited), every
# signature and attestation verified by python-fido2. TAP on stdout, the
# plan last.
#   peer_pcsc.py SOFTTOKEN_BINARY   (env: PCSC_DIR, PCSC_PORT, PCSC_READER,
#                                    PCSCLITE_CSOCK_NAME)
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fido2.cose import CoseKey  # noqa: E402
from fido2.ctap import STATUS  # noqa: E402
from fido2.ctap1 import Ctap1  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402
from fido2.hid import CAPABILITY  # noqa: E402
from fido2.pcsc import CtapPcscDevice  # noqa: E402

from peer_fido2 import check_info, creds, pin_protocols, u2f_register  # noqa: E402
from peerlib import (RP, USER, Tap, catches, cdh, run_scenarios,  # noqa: E402
                     verify_assertion)

AID = bytes.fromhex("a0000006472f0001")
WAIT_TENTHS = 150


class Card:
    """softtoken --vpcd, started as a daemon; up once pcscd logged one
    more card insertion into our reader (polled, 15 s deadline)."""

    def __init__(self, binary, name, opts):
        self.dir = os.environ["PCSC_DIR"]
        self.log = os.path.join(self.dir, name + ".log")
        pidfile = os.path.join(self.dir, name + ".pid")
        before = inserted()
        with open(os.path.join(self.dir, name + ".err"), "w") as err:
            rc = subprocess.run(
                [binary, "--vpcd", "127.0.0.1:" + os.environ["PCSC_PORT"],
                 "--daemon", "--pidfile", pidfile, "--log", self.log] + opts,
                stdin=subprocess.DEVNULL, stderr=err, timeout=60).returncode
        if rc != 0:
            raise RuntimeError("softtoken --vpcd %s exited %d" % (opts, rc))
        with open(pidfile) as f:
            self.pid = int(f.read())
        if not poll(lambda: inserted() > before):
            raise RuntimeError("pcscd did not see the card")

    def lines(self, needle):
        with open(self.log) as f:
            return sum(1 for ln in f if needle in ln)

    def gone(self):
        return not os.path.exists("/proc/%d" % self.pid) or \
            open("/proc/%d/stat" % self.pid).read().split()[2] == "Z"

    def stop(self):
        if not self.gone():
            os.kill(self.pid, 15)
            poll(self.gone)


def poll(cond):
    for _ in range(WAIT_TENTHS):
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def inserted():
    with open(os.path.join(os.environ["PCSC_DIR"], "pcscd.log")) as f:
        return sum(1 for ln in f if "Card inserted into " +
                   os.environ["PCSC_READER"] in ln)


def device(t, label):
    """The one CtapPcscDevice of our reader, or None."""
    devs = [d for d in CtapPcscDevice.list_devices()
            if os.environ["PCSC_READER"] in repr(d)]
    t.ok(len(devs) == 1, label + ": list_devices finds the card in "
         + os.environ["PCSC_READER"], repr(devs))
    return devs[0] if devs else None


def select(dev):
    resp, sw1, sw2 = dev.apdu_exchange(b"\x00\xa4\x04\x00\x08" + AID)
    return resp, sw1 << 8 | sw2


def u2f_card(t, card):
    """--ctap2 off: a U2F-only card."""
    dev = device(t, "u2f")
    if dev is None:
        return
    t.ok(not dev.capabilities & CAPABILITY.CBOR,
         "u2f: GetInfo probe failed: no CBOR capability",
         "capabilities 0x%02x" % dev.capabilities)
    t.ok(select(dev) == (b"U2F_V2", 0x9000), "u2f: SELECT answers U2F_V2 9000",
         repr(select(dev)))
    resp, sw1, sw2 = dev.apdu_exchange(b"\x00\xa4\x04\x00\x08" + bytes(8))
    t.ok((sw1, sw2) == (0x6A, 0x82), "u2f: SELECT of another AID: 6A82",
         "%02x%02x" % (sw1, sw2))
    select(dev)
    u2f_register(t, dev, "u2f")
    t.ok(card.lines("nfc 00 c0 -> 9000") >= 1,
         "u2f: the REGISTER reply came in parts (61xx, GET RESPONSE)")
    dev.close()


def ctap2_card(t, card):
    """--ctap2 2.1 --pin 1234: GetInfo, every algorithm, the PIN through
    both protocols, U2F beside it."""
    label = "ctap2 2.1 pin"
    dev = device(t, label)
    if dev is None:
        return
    t.ok(dev.capabilities & CAPABILITY.CBOR, label + ": CBOR capability "
         "(GetInfo probe over NFCCTAP_MSG)", "0x%02x" % dev.capabilities)
    ctap = Ctap2(dev)
    check_info(t, ctap, "2.1", label, pin=True)
    cs = creds(t, ctap, label, "packed")
    t.ok(card.lines("nfc 90 10 -> 9000") >= 1,
         label + ": a long request came chained (CLA 90)")
    t.ok(card.lines("nfc 00 c0") >= 1,
         label + ": a long reply came in parts (61xx, GET RESPONSE)")
    pin_protocols(t, ctap, "2.1", label, cs.get("ES256"), "1234")
    u2f_register(t, dev, label)
    dev.close()


def fido2_only(t, card):
    """--ctap2 2.1 --u2f off: SELECT says FIDO_2_0, no U2F."""
    label = "u2f off"
    dev = device(t, label)
    if dev is None:
        return
    t.ok(select(dev) == (b"FIDO_2_0", 0x9000),
         label + ": SELECT answers FIDO_2_0 9000", repr(select(dev)))
    ctap = Ctap2(dev)
    check_info(t, ctap, "2.1", label, u2f=False)
    creds(t, ctap, label, "packed", {"ES256": -7})
    t.raises(label + ": Ctap1 REGISTER refused (6D00)", None,
             Ctap1(dev).register, cdh("c"), cdh("a"))
    dev.close()


def slow_tap(t, card):
    """--presence after:700: MakeCredential and GetAssertion wait for the
    tap: 9100 with status UPNEEDED, NFCCTAP_GETRESPONSE until done."""
    label = "slow tap"
    dev = device(t, label)
    if dev is None:
        return
    ctap = Ctap2(dev)
    seen = []
    h = cdh("make")
    att = t.run(label + ": MakeCredential answered after the tap",
                ctap.make_credential, h, RP, USER,
                [{"type": "public-key", "alg": -7}],
                on_keepalive=seen.append)
    t.ok(seen == [STATUS.UPNEEDED], label + ": ... keepalive UPNEEDED "
         "(9100) while waiting", repr(seen))
    n = card.lines("nfc 80 11 -> 9100")
    t.ok(n >= 1, label + ": ... NFCCTAP_GETRESPONSE answered 9100 %d "
         "times" % n)
    if att is None:
        return
    cd = att.auth_data.credential_data
    pub = CoseKey.parse(cd.public_key)
    h = cdh("get")
    a = t.run(label + ": GetAssertion answered after the tap",
              ctap.get_assertion, RP["id"], h,
              [{"type": "public-key", "id": cd.credential_id}])
    if a is not None:
        t.run(label + ": ... verified", verify_assertion, a, h, pub)
    dev.close()


def wrong_select(t, card):
    """--ctap2 off --fault card-wrong-select (U2F_V3): python-fido2
    must not take the card."""
    devs = [d for d in CtapPcscDevice.list_devices()
            if os.environ["PCSC_READER"] in repr(d)]
    t.ok(devs == [], "card-wrong-select: python-fido2 refuses a U2F-only "
         "card whose SELECT says U2F_V3", repr(devs))


def bad_sw(t, card):
    """--ctap2 2.1 --fault card-bad-sw (6F00 for 9000): no CTAP2."""
    dev = device(t, "card-bad-sw")
    if dev is None:
        return
    catches(t, "card-bad-sw: Ctap2 refuses the card", Ctap2, dev)
    catches(t, "card-bad-sw: Ctap1 VERSION fails", Ctap1(dev).get_version)


def removed(t, card):
    """--fault card-remove: REGISTER takes the card away."""
    dev = device(t, "card-remove")
    if dev is None:
        return
    catches(t, "card-remove: Ctap1 REGISTER fails", Ctap1(dev).register,
            cdh("c"), cdh("a"))
    t.ok(poll(card.gone), "card-remove: the card process ended")
    t.ok(card.lines("nfc remove") == 1, "card-remove: the card logged it")


SCENARIOS = [
    ("u2f", ["--ctap2", "off"], u2f_card),
    ("ctap2", ["--ctap2", "2.1", "--pin", "1234"], ctap2_card),
    ("fido2", ["--ctap2", "2.1", "--u2f", "off"], fido2_only),
    ("slow", ["--ctap2", "2.1", "--presence", "after:700"], slow_tap),
    ("wrongsel", ["--fault", "card-wrong-select"], wrong_select),
    ("badsw", ["--ctap2", "2.1", "--fault", "card-bad-sw"], bad_sw),
    ("remove", ["--fault", "card-remove"], removed),
]


def private_pcscd(t):
    """tests/pcsc.lib's pcscd: our reader.conf.d only, no USB drivers, its
    socket in the test's directory."""
    d = os.environ["PCSC_DIR"]
    with open(os.path.join(d, "pcscd.log")) as f:
        log = f.read()
    t.ok("using new config directory: %s/reader.conf.d" % d in log and
         "/etc/reader.conf.d" not in log,
         "pcscd read our reader.conf.d, not /etc/reader.conf.d", log[:600])
    t.ok("Disabling USB support" in log, "pcscd loaded no USB reader driver")
    t.ok(os.environ["PCSCLITE_CSOCK_NAME"] == d + "/run/pcscd/pcscd.comm"
         and os.path.exists(os.environ["PCSCLITE_CSOCK_NAME"]),
         "pcscd's socket is in the test's directory",
         os.environ["PCSCLITE_CSOCK_NAME"])


def main():
    if len(sys.argv) != 2:
        print("usage: peer_pcsc.py SOFTTOKEN", file=sys.stderr)
        return 2
    t = Tap()
    private_pcscd(t)
    run_scenarios(t, SCENARIOS,
                  lambda name, opts: Card(sys.argv[1], name, opts),
                  "softtoken --vpcd")
    print("1..%d" % t.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
