#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# ptyrun.py PINFILE CMD...: run CMD with a fresh pseudo-terminal as its
# controlling terminal and answer its PIN prompts from PINFILE, one line
# per prompt. libfido2's tools read PINs with readpassphrase(3), which
# prompts and reads on /dev/tty, not on stdin. CMD's stdin is that
# terminal (so that the terminal lives exactly as long as CMD), its stdout
# and stderr are ours; what it wrote on the terminal (the prompts) goes to
# our stderr. Exits with CMD's status; 125 if a prompt came with no PIN
# left to answer it (the command is killed), 126 if CMD cannot run. No
# deadline here: the caller's timeout(1) is the deadline (when it kills
# us, the terminal hangs up and CMD gets SIGHUP).
import fcntl
import os
import select
import subprocess
import sys
import termios


def spawn(cmd, slave):
    def ctty():
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    return subprocess.Popen(cmd, stdin=slave, start_new_session=True,
                            preexec_fn=ctty)


def converse(proc, master, pins):
    """Answer each new "...PIN...: " on the terminal with the next PIN.
    Sleeps in select() until the terminal has output or hangs up (read
    gives EIO once CMD, its last user, has exited)."""
    seen = b""
    while True:
        select.select([master], [], [])
        try:
            data = os.read(master, 1024)
        except OSError:  # EIO: every writer of the terminal has gone
            return proc.wait()
        if not data:
            return proc.wait()
        sys.stderr.buffer.write(data)
        sys.stderr.flush()
        seen += data
        if b"PIN" in seen and seen.rstrip().endswith(b":"):
            if not pins:
                sys.stderr.write("ptyrun: a prompt, but no PIN left\n")
                proc.kill()
                proc.wait()
                return 125
            os.write(master, pins.pop(0) + b"\n")
            seen = b""


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: ptyrun.py PINFILE CMD...\n")
        return 2
    with open(sys.argv[1], "rb") as f:
        pins = f.read().splitlines()
    master, slave = os.openpty()
    try:
        proc = spawn(sys.argv[2:], slave)
    except OSError as e:
        sys.stderr.write("ptyrun: %s: %s\n" % (sys.argv[2], e))
        return 126
    os.close(slave)
    rc = converse(proc, master, pins)
    os.close(master)
    return rc if rc >= 0 else 128 - rc


if __name__ == "__main__":
    sys.exit(main())
