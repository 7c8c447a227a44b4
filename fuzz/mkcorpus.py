#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write the seed corpora under fuzz/corpus/<harness>/ (run from anywhere).

Valid cases first: the U2F known-answer vectors of
../shared/reference/u2f-protocol.md section 3, mapping lines in every
format, the sshkey test files, a FIDO report descriptor, complete CTAPHID
exchanges. The corpora are checked in; rerun this only to change them.
"""
import base64
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

REG_REPLY = bytes.fromhex(
    "0504b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c26da51b"
    "657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e60385d2"
    "f6d9402a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8fe2"
    "e3925a6019551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772"
    "d70c253082013c3081e4a003020102020a47901280001155957352300a06082a"
    "8648ce3d0403023017311530130603550403130c476e756262792050696c6f74"
    "301e170d3132303831343138323933325a170d3133303831343138323933325a"
    "3031312f302d0603550403132650696c6f74476e756262792d302e342e312d34"
    "373930313238303030313135353935373335323059301306072a8648ce3d0201"
    "06082a8648ce3d030107034200048d617e65c9508e64bcc5673ac82a6799da3c"
    "1446682c258c463fffdf58dfd2fa3e6c378b53d795c4a4dffb4199edd7862f23"
    "abaf0203b4b8911ba0569994e101300a06082a8648ce3d040302034700304402"
    "2060cdb6061e9c22262d1aac1d96d8c70829b2366531dda268832cb836bcd30d"
    "fa0220631b1459f09e6330055722c8d89b7f48883b9089b88d60d1d9795902b3"
    "0410df304502201471899bcc3987e62e8202c9b39c33c19033f7340352dba80f"
    "cab017db9230e402210082677d673d891933ade6f617e5dbde2e247e70423fd5"
    "ad7804a6d3d3961ef871")
AUTH_REPLY = bytes.fromhex(
    "0100000001304402204b5f0cd17534cedd8c34ee09570ef542a353df4436030c"
    "e43d406de870b847780220267bb998fac9b7266eb60e7cb0b5eabdfd5ba9614f"
    "53c7b22272ec10047a923f")
SW_OK = b"\x90\x00"
PK = REG_REPLY[1:66]
KH = REG_REPLY[67:67 + 64]
ED_PK = bytes([0]) + bytes(range(2, 33))  # a curve point (0x01..0x20 is none)
RS_PK = bytes(range(256))


def b64(b):
    return base64.b64encode(b).decode()


def b64url(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def write(harness, name, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def authfile():
    cur = "%s,%s,es256,+presence" % (b64(KH), b64(PK[1:]))
    old = "%s,%s" % (b64url(KH), PK.hex())
    ed = "%s,%s,eddsa,+presence+verification" % (b64(KH), b64(ED_PK))
    rs = "%s,%s,rs256,+pin" % (b64(KH), b64(RS_PK))
    res = "*,%s,ES256," % b64(PK[1:])
    write("authfile", "current", "alice:%s\n" % cur)
    write("authfile", "old", "alice:%s\n" % old)
    write("authfile", "eddsa", "alice:%s" % ed)
    write("authfile", "rs256", "alice:%s\n" % rs)
    write("authfile", "resident", "alice:%s\n" % res)
    write("authfile", "multi", "alice:%s:%s:%s\n" % (cur, ed, res))
    write("authfile", "mixed_old_current", "alice:%s:%s\n" % (old, cur))
    write("authfile", "file",
          "# pam_u2f mapping file\n\nbob:%s\r\n  \t\n"
          "alice:%s\r\ncarol:\nalice:%s\n" % (cur, old, cur))
    write("authfile", "no_creds", "alice:\n")
    write("authfile", "other_user", "bob:%s\n" % cur)
    write("authfile", "bad_field", "alice:%s,%s,es256,+touch\n"
          % (b64(KH), b64(PK[1:])))


def sshkey():
    for name in ("sshkey_ecdsa_sk", "sshkey_ed25519_sk"):
        path = os.path.join(TOP, "tests", "mapping", "data", name)
        with open(path, "rb") as f:
            text = f.read()
        write("sshkey", name, text)
        # The blob alone: the harness armours every input as well.
        body = b"".join(text.split(b"\n")[1:-2])
        write("sshkey", name + ".blob", base64.b64decode(body))


def ssh_kat():
    """The keys and SSHSIG blobs of tests/ssh/sshsig_kat.h."""
    with open(os.path.join(TOP, "tests", "ssh", "sshsig_kat.h")) as f:
        text = f.read()
    out = {}
    for m in re.finditer(r'#define (\w+)[\s\\]+((?:"[^"]*"[\s\\]*)+)', text):
        out[m.group(1)] = "".join(re.findall(r'"([^"]*)"', m.group(2)))
    return out


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def sshsig_inner(sig):
    """The signature string of an SSHSIG blob (what the agent returns)."""
    p = 6 + 4
    for _ in range(4):  # key, namespace, reserved, hash
        p += 4 + struct.unpack(">I", sig[p:p + 4])[0]
    n = struct.unpack(">I", sig[p:p + 4])[0]
    return sig[p + 4:p + 4 + n]


def sshpub():
    k = ssh_kat()
    for name in ("KEY_ECDSA", "KEY_ED25519"):
        line = k[name]
        low = name.lower()
        write("sshpub", low, line + "\n")
        write("sshpub", low + "_opts",
              "no-touch-required,Verify-Required " + line + "\n")
        write("sshpub", low + ".blob", base64.b64decode(line.split()[1]))


def sshagent():
    """Agent replies, each framed (uint32 length, type, body)."""
    k = ssh_kat()
    ids = b"".join(sshstr(base64.b64decode(k[n].split()[1])) + sshstr(c)
                   for n, c in (("KEY_ECDSA", b"ka"), ("KEY_ED25519", b"kb")))
    frame = lambda body: struct.pack(">I", len(body)) + body
    write("sshagent", "identities", frame(b"\x0c" + struct.pack(">I", 2)
                                          + ids))
    write("sshagent", "identities_none", frame(b"\x0c\0\0\0\0"))
    write("sshagent", "failure", frame(b"\x05"))
    # a sign answer whose signature is empty (found by fuzz_sshagent: the
    # harness compared it with memcmp on a NULL pointer)
    write("sshagent", "sign_empty_signature", frame(b"\x0e" + sshstr(b"")))
    for name in ("SIG_ECDSA", "SIG_ED25519"):
        inner = sshsig_inner(base64.b64decode(k[name]))
        write("sshagent", name.lower() + "_reply",
              frame(b"\x0e" + sshstr(inner)))
        # the blob alone: the harness hands every input to sshsig_verify
        write("sshagent", name.lower(), inner)


def passkey():
    """The SubjectPublicKeyInfos of tests/lib/passkeyfix.h: each as DER (what
    fuzz_passkey wraps into a value), as a passkey: value, and together
    with a mapping line as a command's output."""
    text = open(os.path.join(TOP, "tests", "lib", "passkeyfix.h")).read()
    text = re.sub(r'"\s*\\\n\s*"', "", text)
    spkis = dict(re.findall(r'#define SPKI_(\w+)\s*\\\n\s*"([^"]*)"', text))
    kh = b64(bytes(range(16)))
    for name, spki in sorted(spkis.items()):
        name = name.lower()
        write("passkey", name + ".der", base64.b64decode(spki))
        write("passkey", name, "passkey:%s,%s" % (kh, spki))
    line = "alice:%s,%s,es256,+presence" % (b64(KH), b64(PK[1:]))
    write("passkey", "output",
          "# from a directory\nbob:\npasskey:%s,%s\r\n%s\n\n"
          "passkey:%s,%s\n" % (kh, spkis["ED25519"], line, kh,
                               spkis["RSA2048"]))
    write("passkey", "output_empty", "alice:\n")


def b64corpus():
    write("b64", "std", b64(KH))
    write("b64", "std_pad1", b64(b"ab"))
    write("b64", "std_pad2", b64(b"a"))
    write("b64", "url", b64url(KH))
    write("b64", "hex", PK.hex())
    write("b64", "hex_upper", PK.hex().upper())
    write("b64", "empty", "")


def u2f():
    write("u2f", "register_kat", REG_REPLY)
    write("u2f", "register_kat_sw", REG_REPLY + SW_OK)
    write("u2f", "auth_kat", AUTH_REPLY)
    write("u2f", "auth_kat_sw", AUTH_REPLY + SW_OK)
    write("u2f", "auth_no_presence_sw", b"\x00" + AUTH_REPLY[1:] + SW_OK)
    write("u2f", "version_sw", b"U2F_V2" + SW_OK)
    for sw in (0x6985, 0x6a80, 0x6984, 0x6700, 0x6d00, 0x6f00):
        write("u2f", "sw_%04x" % sw, struct.pack(">H", sw))


# FIDO HID descriptor as sent by U2F keys (usage page F1D0, usage 01,
# 64-byte input and output reports).
FIDO_RDESC = bytes.fromhex(
    "06d0f1" "0901" "a101"
    "0920" "1500" "26ff00" "7508" "9540" "8102"
    "0921" "1500" "26ff00" "7508" "9540" "9102"
    "c0")
KEYBOARD_RDESC = bytes.fromhex(
    "05010906a101050719e029e71500250175019508810295017508810395057501"
    "05081901290591029501750391039506750815002565050719002965810"
    "0c0")


def hidraw():
    write("hidraw", "fido", FIDO_RDESC)
    write("hidraw", "keyboard", KEYBOARD_RDESC)
    write("hidraw", "keyboard_then_fido", KEYBOARD_RDESC + FIDO_RDESC)
    ids = bytes.fromhex("06d0f10901a1018501") + FIDO_RDESC[7:]
    write("hidraw", "fido_report_id", ids)
    ext = bytes.fromhex("0b0100d0f1a101") + FIDO_RDESC[7:]
    write("hidraw", "fido_extended_usage", ext)
    push = bytes.fromhex("a4") + FIDO_RDESC + bytes.fromhex("b4")
    write("hidraw", "push_pop", push)


CID = bytes.fromhex("c571f801")
BCAST = b"\xff" * 4


def frames(cid, cmd, data, report=64):
    """Init + continuation frames of report bytes, zero padded."""
    out = []
    first = data[:report - 7]
    out.append((cid + bytes([cmd]) + struct.pack(">H", len(data)) +
                first).ljust(report, b"\0"))
    rest = data[report - 7:]
    seq = 0
    while rest:
        chunk = rest[:report - 5]
        out.append((cid + bytes([seq]) + chunk).ljust(report, b"\0"))
        rest = rest[report - 5:]
        seq += 1
    return b"".join(out)


def init_reply(report=64):
    # nonce (patched in by the harness) | CID | proto 2 | 5.5.4 | caps 05
    body = b"\0" * 8 + CID + bytes([2, 5, 5, 4, 5])
    return frames(BCAST, 0x86, body, report)


def hid():
    patch = 0x08
    keepalive = (CID + b"\xbb\x00\x01\x02").ljust(64, b"\0")
    other = (b"\x01\x02\x03\x04\x83\x00\x02\x90\x00").ljust(64, b"\0")
    write("hid", "recv_msg", bytes([0 | patch, 0]) + init_reply() +
          frames(CID, 0x83, REG_REPLY + SW_OK))
    write("hid", "recv_msg_keepalive", bytes([0 | patch, 0]) +
          init_reply() + keepalive + other + frames(CID, 0x83, SW_OK))
    write("hid", "recv_small_cap", bytes([1 | patch, 0]) + init_reply() +
          frames(CID, 0x83, b"\x11" * 40))
    write("hid", "ping", bytes([2 | patch, 0]) + init_reply() +
          frames(CID, 0x81, b"fuzz ping data!\0"))
    write("hid", "version", bytes([3 | patch, 0]) + init_reply() +
          frames(CID, 0x83, b"U2F_V2" + SW_OK))
    # U2F operations open a device first: VERSION, then the operation
    version = frames(CID, 0x83, b"U2F_V2" + SW_OK)
    write("hid", "register", bytes([4 | patch, 0]) + init_reply() +
          version + frames(CID, 0x83, REG_REPLY + SW_OK))
    write("hid", "authenticate", bytes([5 | patch, 0]) + init_reply() +
          version + keepalive + frames(CID, 0x83, AUTH_REPLY + SW_OK))
    write("hid", "authenticate_probe", bytes([5 | patch | 0x60, 0]) +
          init_reply() + version + frames(CID, 0x83, b"\x69\x85") +
          frames(CID, 0x83, AUTH_REPLY + SW_OK))
    write("hid", "auth_presence_needed", bytes([5 | patch, 0]) +
          init_reply() + version + frames(CID, 0x83, b"\x69\x85"))
    write("hid", "wink", bytes([6 | patch, 0]) + init_reply() +
          frames(CID, 0x88, b""))
    write("hid", "two_messages", bytes([7 | patch, 0]) + init_reply() +
          frames(CID, 0x83, SW_OK) + frames(CID, 0x83, AUTH_REPLY + SW_OK))
    busy = frames(CID, 0xbf, b"\x06")
    write("hid", "ping_busy_retry", bytes([2 | patch, 0]) + init_reply() +
          busy + busy + frames(CID, 0x81, b"fuzz ping data!\0"))
    write("hid", "error_frame", bytes([0 | patch, 0]) + init_reply() +
          frames(CID, 0xbf, b"\x06"))
    write("hid", "report32_register", bytes([4 | patch, 32 - 8]) +
          init_reply(32) + frames(CID, 0x83, b"U2F_V2" + SW_OK, 32) +
          frames(CID, 0x83, REG_REPLY + SW_OK, 32))
    write("hid", "nodev", bytes([0 | patch | 0x10, 0]) + init_reply())
    write("hid", "init_unpatched", bytes([0, 0]) + init_reply())


def args():
    write("args", "empty", "")
    write("args", "typical", "debug\ncue\norigin=pam://host\n"
          "appid=pam://host\nauthfile=/etc/u2f_mappings")
    write("args", "all_flags", "debug\nexpand\nnouserok\nopenasuser\n"
          "alwaysok\ninteractive\nmanual\ncue\nnodetect\nsshformat")
    write("args", "values", "debug_file=/var/log/u2f.log\nmax_devices=8\n"
          "timeout=60\nuserpresence=1\nuserverification=0\n"
          "pinverification=-1\nauthpending_file=\n"
          "devices=/dev/hidraw0,unix:/run/tok.sock")
    write("args", "brackets", "[prompt=Touch it [now\\]]\n"
          "[cue_prompt=Please touch]")
    write("args", "ssh", "sshformat\norigin=ssh:\nauthfile=.ssh/id_sk")
    write("args", "conf", "conf=/etc/pam_u2f.conf")
    write("args", "bad", "unknown\ntimeout=0\nmax_devices=-1\ndebug=1")
    write("args", "ctap2", "userpresence=0\nuserverification=1\n"
          "pinverification=1")


def conf():
    write("conf", "full",
          "# pam_u2f.conf\n"
          "debug = true\n"
          "debug_file = \"/var/log/pam_u2f.log\"\n"
          "origin = \"pam://example.org\"\n"
          "appid = \"https://example.org/appid\"\n"
          "authfile = \"/etc/u2f_mappings\"\n"
          "expand = yes\n"
          "authpending_file = \"/run/user/pending\"\n"
          "nouserok = on\n"
          "openasuser = true\n"
          "alwaysok = false\n"
          "max_devices = 7\n"
          "interactive = true\n"
          "prompt = \"Insert it, then press ENTER\"\n"
          "manual = true\n"
          "cue = true\n"
          "cue_prompt = 'Touch it now'\n"
          "nodetect = true\n"
          "userpresence = 0\n"
          "userverification = -1\n"
          "pinverification = 0\n"
          "sshformat = false\n"
          "timeout = 30\n"
          "devices = { \"/dev/hidraw3\", \"unix:/run/token.sock\" }\n")
    write("conf", "empty", "")
    write("conf", "comments", "# nothing\n/* block */\n// line\n")
    write("conf", "ssh", "sshformat = true\norigin = \"ssh:\"\n")
    write("conf", "bad_key", "debgu = true\n")
    write("conf", "env", "authfile = \"${HOME}/x\"\n")
    write("conf", "ldap",
          "authcmd = \"/usr/libexec/pam_u2f/pam_u2f_ldap %u\"\n"
          "authcmd_user = \"nobody\"\n"
          "ldap {\n"
          "  uri = {\"ldaps://a.example\", \"ldap://b.example:389\"}\n"
          "  base = \"ou=people,dc=example,dc=org\"\n"
          "  filter = \"(&(objectClass=passkeyUser)(uid=%s))\"\n"
          "  attribute = passkey\n"
          "  lines_attribute = \"pamU2fLine\"\n"
          "  ca_file = \"/etc/ssl/ca.pem\"\n"
          "  bind = \"external\"\n"
          "  cert_file = \"/etc/ssl/c.pem\"\n"
          "  key_file = \"/etc/ssl/c.key\"\n"
          "  network_timeout = 3\n"
          "  search_timeout = 60\n"
          "}\n")


def authscan():
    """Whole mapping files over 300 bytes (the AVX2 scan works on 128-byte
    blocks), many users, alice on various lines; the first two bytes seed
    the harness's cut into pieces."""
    cur = "%s,%s,es256,+presence" % (b64(KH), b64(PK[1:]))
    old = "%s,%s" % (b64url(KH), PK.hex())
    ed = "%s,%s,eddsa,+presence+verification" % (b64(KH), b64(ED_PK))
    rs = "%s,%s,rs256,+pin" % (b64(KH), b64(RS_PK))
    res = "*,%s,ES256," % b64(PK[1:])
    others = ["bob:%s" % cur, "carol:%s" % old, "alicx:%s" % ed,
              "alic:%s" % res, "dave:", "alicealice:%s" % cur,
              "e:%s" % rs, "mallory:%s:%s" % (cur, ed)]

    def users(k):
        return [others[(i + k) % len(others)] for i in range(len(others))]

    lines = ["alice:%s" % cur] + users(0)
    write("authscan", "first", "\n".join(lines) + "\n")
    lines = users(1) + ["alice:%s:%s" % (ed, res)]
    write("authscan", "last_no_newline", "\n".join(lines))
    lines = users(2)[:4] + ["alice:%s" % old] + users(2)[4:]
    write("authscan", "middle", "\n".join(lines) + "\n")
    lines = (["# pam_u2f mapping file", "", "  \t", "#alice:x"] + users(3)
             + ["alice:%s" % cur, "   # alice:%s" % cur] + users(4)
             + ["alice:%s:%s" % (rs, cur)])
    write("authscan", "comments_crlf", "\r\n".join(lines) + "\r\n")
    lines = users(5) + ["alice:"] + users(6)
    write("authscan", "no_creds", "\n".join(lines) + "\n")
    lines = users(7) + ["carol:%s" % ("A" * 3000), "alice:%s" % rs] + users(0)
    write("authscan", "long_line", "\n".join(lines) + "\n")
    lines = users(1) + ["alice:%s" % ed] + users(2) + ["alice:%s" % cur]
    write("authscan", "two_alices", "\n".join(lines) + "\n")
    lines = users(3) + ["bob:%s\0" % cur, "alice:%s" % cur]
    write("authscan", "nul", "\n".join(lines) + "\n")
    lines = users(4) + [" alice:%s" % cur] + users(5)
    write("authscan", "blank_name", "\n".join(lines) + "\n")
    lines = (users(6) + ["alice:%s,%s,es256,+touch" % (b64(KH), b64(PK[1:]))]
             + users(7))
    write("authscan", "bad_cred", "\n".join(lines) + "\n")
    write("authscan", "other_users", "\n".join(users(0) + users(3)) + "\n")


def manual():
    """Manual mode: the U2F authentication example is a valid answer for
    rp id RP (its app id) and cdh its challenge (fuzz/fuzz_manual.c)."""
    rp = "https://gstatic.com/securitykey/a/example.com"
    app = bytes.fromhex(
        "4b0be934baebb5d12d26011b69227fa5e86df94e7d94aa2949a89f2d493992ca")
    chal = bytes.fromhex(
        "ccd6ee2e47baef244d49a222db496bad0ef5b6f93aa7cc4d30c4821b3b9dbc57")
    sig = AUTH_REPLY[5:]
    cbor = b"\x58\x25" + app + b"\x01\x00\x00\x00\x01"
    lines = [b64(chal), rp, b64(cbor), b64(sig)]
    write("manual", "valid", "\n".join(lines) + "\n")
    write("manual", "valid_blanks", "\n".join(" %s\r" % l for l in lines))
    no_presence = b"\x58\x25" + app + b"\x00\x00\x00\x00\x01"
    write("manual", "no_presence",
          "\n".join([lines[0], rp, b64(no_presence), lines[3]]) + "\n")
    write("manual", "other_rp",
          "\n".join([lines[0], "pam://other", lines[2], lines[3]]) + "\n")
    # raw pass: first byte % length = where the CBOR ends
    raw = cbor + sig
    write("manual", "raw_valid", bytes([len(cbor)]) + raw)


def es256():
    """fuzz/fuzz_es256.c: point || message length || message || DER
    signature; the U2F authentication example and variants of it."""
    app = bytes.fromhex(
        "4b0be934baebb5d12d26011b69227fa5e86df94e7d94aa2949a89f2d493992ca")
    chal = bytes.fromhex(
        "ccd6ee2e47baef244d49a222db496bad0ef5b6f93aa7cc4d30c4821b3b9dbc57")
    point = bytes.fromhex(
        "04d368f1b665bade3c33a20f1e429c7750d5033660c019119d29aa4ba7abc04a"
        "a7c80a46bbe11ca8cb5674d74f31f8a903f6bad105fb6ab74aefef4db8b0025e1d")
    msg = app + b"\x01\x00\x00\x00\x01" + chal
    sig = AUTH_REPLY[5:]
    n = int("FFFFFFFF00000000FFFFFFFFFFFFFFFF"
            "BCE6FAADA7179E84F3B9CAC2FC632551", 16)
    r = int.from_bytes(sig[4:36], "big")
    s = int.from_bytes(sig[38:70], "big")

    def der(r, s):
        def i(x):
            b = x.to_bytes((x.bit_length() + 8) // 8 or 1, "big")
            return b"\x02" + bytes([len(b)]) + b
        body = i(r) + i(s)
        return b"\x30" + bytes([len(body)]) + body

    def case(name, sig, m=msg, p=point):
        write("es256", name, p + bytes([len(m)]) + m + sig)
    case("valid", sig)
    case("high_s", der(r, n - s))
    case("s_plus_n", der(r, s + n))
    case("r_zero", der(0, s))
    case("trailing", sig + b"\x00")
    case("other_msg", sig, m=msg[:-1] + b"\x00")
    case("no_msg", der(r, s), m=b"")
    case("off_curve", sig, p=point[:-1] + b"\x1c")


def cbor():
    # canonical CTAP2 messages (as python3-fido2's encoder writes them) and
    # near misses
    ga = bytes.fromhex(
        "a8016b6578616d706c652e636f6d0258200101010101010101010101010101"
        "0101010101010101010101010101010101010381a262696442aabb64747970"
        "656a7075626c69632d6b657905a2627570f4627576f5070220617862757001"
        "69636c69656e7450696ef5")
    write("cbor", "getassertion", ga)
    write("cbor", "ints", bytes.fromhex(
        "8e0017181818ff19010019ffff1a000100001affffffff1b000000010000"
        "00002037381838ff390100"))
    write("cbor", "info", bytes.fromhex(
        "a40182665532465f5632684649444f5f325f30035010000000000000000000"
        "00000000000004a362726bf5627570f569636c69656e7450696ef4068101"))
    write("cbor", "unsorted", bytes.fromhex("a202010101"))
    write("cbor", "deep", bytes.fromhex("8181818181818181818100"))
    write("cbor", "utf8", bytes.fromhex("64f0908d88"))


def kat(name):
    """A vector of tests/lib/ctap2kat.h (made by tests/lib/ctap2kat.py)."""
    src = open(os.path.join(TOP, "tests", "lib", "ctap2kat.h")).read()
    m = re.search(r"#define " + name + r"\b((?:[^\n]*\\\n)*[^\n]*)", src)
    return bytes.fromhex("".join(re.findall(r'"([0-9a-f]*)"', m.group(1))))


def attest():
    """fuzz/fuzz_attest.c: flags | authData length | authData | cdh |
    attStmt; flags bit 0 MakeCredential, bits 1-2 the format (packed,
    fido-u2f, none, tpm). A real key's packed reply (libfido2), the
    statements made by tests/lib/ctap2kat.py, a real GetAssertion authData."""
    def case(name, flags, ad, cdh, stmt):
        ad, cdh, stmt = kat(ad), kat(cdh) if cdh else bytes(32), \
            kat(stmt) if stmt else b"\xa0"
        write("attest", name, bytes([flags]) + struct.pack(">H", len(ad)) +
              ad + cdh + stmt)
    case("packed_real", 1, "LF_CRED_AUTHDATA", "LF_CRED_CDH", "LF_CRED_ATTSTMT")
    case("fido_u2f", 3, "U2F_AUTHDATA", "AT_CDH", "U2F_ATTSTMT")
    case("self_eddsa", 1, "SELF_ED_AUTHDATA", "AT_CDH", "SELF_ED_ATTSTMT")
    case("self_rs256", 1, "SELF_RS_AUTHDATA", "AT_CDH", "SELF_RS_ATTSTMT")
    case("packed_x5c", 1, "PK_AUTHDATA", "AT_CDH", "PK_ATTSTMT_OK")
    case("none", 5, "LF_TPM_RS_AUTHDATA", None, None)
    case("tpm", 7, "U2F_AUTHDATA", None, None)
    case("assertion", 0, "LF_GA_AUTHDATA", None, None)
    ga_ext = kat("LF_GA_AUTHDATA")
    ga_ext = ga_ext[:32] + bytes([ga_ext[32] | 0x80]) + ga_ext[33:] + \
        bytes.fromhex("a16b6372656450726f7465637402")
    write("attest", "assertion_ext",
          b"\0" + struct.pack(">H", len(ga_ext)) + ga_ext)


def ctap2():
    # the first byte picks the parser: 0 GetInfo, 1 GetAssertion,
    # 2 MakeCredential, 3 ClientPIN (replies encoded by python3-fido2),
    # 4 authData extensions
    info = bytes.fromhex(
        "ab0184665532465f5632684649444f5f325f306c4649444f5f325f315f5052"
        "45684649444f5f325f3102826b6372656450726f746563746b686d61632d73"
        "65637265740350ee882879721c491397753dfcce97072a04a862726bf56275"
        "70f5627576f464706c6174f468616c776179735576f569636c69656e745069"
        "6ef56e70696e557641757468546f6b656ef5706d616b654372656455764e6f"
        "74527164f5051904b00682020107080818800981637573620a82a263616c67"
        "2664747970656a7075626c69632d6b6579a263616c672764747970656a7075"
        "626c69632d6b65790e1a00050403")
    write("ctap2", "info", b"\x00" + info)
    ga = bytes.fromhex(
        "a401a262696450aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa64747970656a7075"
        "626c69632d6b657902582542424242424242424242424242424242424242424"
        "2424242424242424242424242424242424242034330010204a16269644201"
        "02")
    write("ctap2", "ga", b"\x01" + ga)
    mc = bytes.fromhex("a301646e6f6e65025825" + "42" * 37 + "03a0")
    write("ctap2", "mc", b"\x02" + mc)
    cp = bytes.fromhex("a201a501020338182001215820" + "01" * 32 + "225820" +
                       "02" * 32 + "0307")
    write("ctap2", "cp", b"\x03" + cp)
    ext = bytes.fromhex("a26b6372656450726f74656374016b686d61632d736563726574f5")
    write("ctap2", "ext", b"\x04" + ext)
    ga5 = bytes.fromhex(
        "a501a262696450" + "aa" * 16 + "64747970656a7075626c69632d6b6579"
        "025825" + "42" * 37 + "034330010204a16269644201020503")
    write("ctap2", "ga_rk", b"\x01" + ga5)


def rsp(data, sw):
    """One scripted response APDU for fuzz_apdu: length byte, data, SW."""
    r = data + struct.pack(">H", sw)
    return bytes([len(r)]) + r


def apdu():
    # op 0: SELECT
    write("apdu", "select_u2f", b"\x00" + rsp(b"U2F_V2", 0x9000))
    write("apdu", "select_fido2", b"\x00" + rsp(b"FIDO_2_0", 0x9000))
    write("apdu", "select_absent", b"\x00" + rsp(b"", 0x6a82))
    # op 1: a CTAP2 request, polled through 9100, a reply in two parts
    write("apdu", "cbor_poll", b"\x01" + rsp(b"\x01", 0x9100) +
          rsp(b"\x02", 0x9100) + rsp(b"\x00\xa1", 0x9000))
    write("apdu", "cbor_61xx", b"\x01" + rsp(b"\x00" + b"\x55" * 200, 0x6105)
          + rsp(b"\x66" * 5, 0x9000))
    for sw in (0x6700, 0x6985, 0x6d00, 0x6e00, 0x6a82, 0x6f00):
        write("apdu", "cbor_sw_%04x" % sw, b"\x01" + rsp(b"", sw))
    # op 2: U2F, touch needed then a reply
    write("apdu", "u2f_presence", b"\x02" + rsp(b"", 0x6985))
    write("apdu", "u2f_reply", b"\x02" + rsp(b"\x01" * 60, 0x9000))
    # op 3: a chained request
    write("apdu", "chained", b"\x03" + rsp(b"", 0x9000) + rsp(b"", 0x9000)
          + rsp(b"\x00", 0x9000))
    # op 4: the command parser
    write("apdu", "cmd_short", b"\x04" + b"\x00\x01\x02\x03\x02\xaa\xbb\x00")
    write("apdu", "cmd_ext", b"\x04" + b"\x00\x02\x03\x00\x00\x00\x02"
          b"\xaa\xbb\x00\x00")


def main():
    apdu()
    ctap2()
    cbor()
    attest()
    es256()
    manual()
    conf()
    authfile()
    authscan()
    sshkey()
    sshpub()
    sshagent()
    passkey()
    b64corpus()
    u2f()
    hidraw()
    hid()
    args()
    return 0


if __name__ == "__main__":
    sys.exit(main())
