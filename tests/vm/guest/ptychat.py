#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# ptychat.py STEP... -- CMD...: run CMD with a fresh pseudo-terminal as
# its controlling terminal (its stdin, stdout and stderr), copy what it
# writes there to our stdout, and play a script against it, one STEP at a
# time:
#   =REGEX  wait until the output since the last match matches REGEX
#   >TEXT   type TEXT and Enter, once a process of the terminal's
#           foreground group waits for input (read of fd 0, select,
#           poll): typed earlier, it may be flushed by the program's own
#           tcsetattr(TCSAFLUSH) or tcflush after its prompt (vlock,
#           readpassphrase(3))
#   ^       CMD must still be running: kill its session, exit 0
# After the last step, wait for CMD to exit and exit with its status.
# Exit 3 (and a line on stderr naming the step) if CMD ends, or stops
# writing and hangs up, before a REGEX matched; 126 if CMD cannot run.
# For programs that talk to the terminal and not to stdin: pkttyagent
# (polkit's text agent), vlock. No deadline here: the caller's timeout(1)
# is the deadline (when it kills us, the terminal hangs up and CMD gets
# SIGHUP). Sleeps in select() until the terminal has output.
import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios


def spawn(cmd, slave):
    def ctty():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    return subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True, preexec_fn=ctty)


class Term:
    """The master side: what CMD wrote, read as it comes."""

    def __init__(self, master):
        self.master = master
        self.buf = b""
        self.open = True

    def read(self):
        """Wait for output; False once the terminal hung up."""
        select.select([self.master], [], [])
        try:
            data = os.read(self.master, 4096)
        except OSError:  # EIO: every user of the terminal has gone
            data = b""
        if not data:
            self.open = False
            return False
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        self.buf += data
        return True

    def reader(self):
        """A process of the terminal's foreground group is in read(0, ...),
        select, pselect6, poll or ppoll (/proc/PID/syscall, x86_64)."""
        fg = os.tcgetpgrp(self.master)
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/stat" % pid) as f:
                    stat = f.read()
                if int(stat[stat.rindex(")") + 2:].split()[2]) != fg:
                    continue
                with open("/proc/%s/syscall" % pid) as f:
                    call = f.read().split()
            except (OSError, ValueError, IndexError):
                continue
            if not call or not call[0].isdigit():
                continue
            nr = int(call[0])
            if (nr == 0 and int(call[1], 16) == 0) or nr in (7, 23, 270,
                                                             271):
                return True
        return False

    def wait_reader(self):
        """Wait until reader(), looking again whenever the terminal has
        output and every 20 ms (going to sleep in read makes no output to
        wait for)."""
        while not self.reader():
            if not self.open:
                return False
            r, _, _ = select.select([self.master], [], [], 0.02)
            if r and not self.read():
                return False
        return True

    def expect(self, regex):
        pat = re.compile(regex.encode())
        while True:
            m = pat.search(self.buf)
            if m:
                self.buf = self.buf[m.end():]
                return True
            if not self.open or not self.read():
                return False


def play(proc, term, steps):
    for step in steps:
        kind, arg = step[0], step[1:]
        if kind == "=":
            if not term.expect(arg):
                sys.stderr.write("ptychat: ended before /%s/\n" % arg)
                proc.kill()
                proc.wait()
                return 3
        elif kind == ">":
            if not term.wait_reader():
                sys.stderr.write("ptychat: ended before reading input\n")
                proc.kill()
                proc.wait()
                return 3
            os.write(term.master, arg.encode() + b"\n")
        elif kind == "^":
            if proc.poll() is not None:
                sys.stderr.write("ptychat: exited (%d), wanted it running\n"
                                 % proc.returncode)
                return 3
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return 0
    while term.open and term.read():
        pass
    return proc.wait()


def main():
    if "--" not in sys.argv[1:]:
        sys.stderr.write("usage: ptychat.py STEP... -- CMD...\n")
        return 2
    i = sys.argv.index("--")
    steps, cmd = sys.argv[1:i], sys.argv[i + 1:]
    for s in steps:
        if s[:1] not in ("=", ">", "^"):
            sys.stderr.write("ptychat: bad step %r\n" % s)
            return 2
    master, slave = os.openpty()
    try:
        proc = spawn(cmd, slave)
    except OSError as e:
        sys.stderr.write("ptychat: %s: %s\n" % (cmd[0], e))
        return 126
    os.close(slave)
    rc = play(proc, Term(master), steps)
    os.close(master)
    return rc if rc >= 0 else 128 - rc


if __name__ == "__main__":
    sys.exit(main())
