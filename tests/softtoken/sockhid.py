# SPDX-License-Identifier: BSD-2-Clause
# A python-fido2 (0.9.1) HID connection over the software token's socket
# front (tests/softtoken/front_socket.c): a SOCK_SEQPACKET unix socket on
# which one message is one 64-byte report, without report id. So that
# python-fido2's own CtapHidDevice, Ctap1, Ctap2 and ClientPin talk to the
# token exactly as they talk to a key on /dev/hidraw.
import socket

from fido2.hid import CTAPHID, CtapHidDevice
from fido2.hid.base import CtapHidConnection, HidDescriptor

REPORT = 64


class SockCtapHidConnection(CtapHidConnection):
    """Reports over the token's socket. Every read has a deadline (the
    socket's timeout), so a silent token raises instead of hanging, and
    more than max_keepalives KEEPALIVE reports in a row raise too (a
    count: python-fido2 itself waits for a reply for ever)."""

    def __init__(self, path, timeout=10.0, max_keepalives=600):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.max_keepalives = max_keepalives
        self.keepalives = 0

    def write_packet(self, packet):
        if len(packet) != REPORT:
            raise ValueError("report of %d bytes, not %d" % (len(packet), REPORT))
        if self.sock.send(packet) != REPORT:
            raise OSError("short write on the token's socket")

    def read_packet(self):
        r = self.sock.recv(REPORT + 1)
        if len(r) != REPORT:
            raise OSError("report of %d bytes from the token, not %d" % (len(r), REPORT))
        if r[4] == 0x80 | CTAPHID.KEEPALIVE:
            self.keepalives += 1
            if self.keepalives > self.max_keepalives:
                raise OSError("more than %d KEEPALIVE reports in a row" %
                              self.max_keepalives)
        else:
            self.keepalives = 0
        return r

    def close(self):
        self.sock.close()


def open_device(path, timeout=10.0, max_keepalives=600):
    """A CtapHidDevice on the token listening at path (CTAPHID_INIT done)."""
    desc = HidDescriptor(path, 0x1209, 0x000F, REPORT, REPORT)
    conn = SockCtapHidConnection(path, timeout, max_keepalives)
    return CtapHidDevice(desc, conn)
