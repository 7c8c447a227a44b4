/* SPDX-License-Identifier: BSD-2-Clause */
/* The PIN for pamu2fcfg (-N, or a key that asks for one): read from the
 * terminal without echo, as pam-u2f's pamu2fcfg does, or with --pin-stdin
 * from the first line of standard input (for scripts). Never echoed,
 * logged or kept: the caller wipes it. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "tool.h"

/* One line from fd into buf (without the newline); ERR_CANCELLED on
 * end of input before any byte. */
static int
pin_read_line(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t k;
	char ch;

	for (;;) {
		k = read(fd, &ch, 1);
		if (k < 0)
			return ERR_IO;
		if (k == 0 || ch == '\n')
			break;
		if (n + 1 >= cap) {
			util_wipe(buf, cap);
			return ERR_TOO_BIG;
		}
		buf[n++] = ch;
	}
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = '\0';
	return n == 0 && k == 0 ? ERR_CANCELLED : ERR_OK;
}

static int
pin_from_tty(const char *dev, char *pin, size_t cap)
{
	char prompt[512];

	snprintf(prompt, sizeof(prompt), "Enter PIN for %s: ", dev);
	return tool_read_hidden(false, prompt, pin, cap);
}

int
tool_read_hidden(bool from_stdin, const char *prompt, char *buf, size_t cap)
{
	struct termios old, quiet;
	int fd, r;

	if (from_stdin)
		return pin_read_line(STDIN_FILENO, buf, cap);
	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)) < 0) {
		tool_msg("a PIN or password is needed and there is no "
			 "terminal to ask on (use --pin-stdin, "
			 "--secret-stdin)");
		return ERR_CANCELLED;
	}
	dprintf(fd, "%s", prompt);
	if (tcgetattr(fd, &old) != 0) {
		close(fd);
		return ERR_IO;
	}
	quiet = old;
	quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	(void)tcsetattr(fd, TCSAFLUSH, &quiet);
	r = pin_read_line(fd, buf, cap);
	(void)tcsetattr(fd, TCSAFLUSH, &old);
	dprintf(fd, "\n");
	close(fd);
	return r;
}

int
tool_pin_get(void *arg, const char *dev, char *pin, size_t cap)
{
	const struct tool_pin *tp = arg;
	int r;

	if (tp->from_stdin)
		r = pin_read_line(STDIN_FILENO, pin, cap);
	else
		r = pin_from_tty(dev, pin, cap);
	if (r == ERR_OK && tp->then != NULL)
		tool_msg("%s", tp->then);
	return r;
}

void
tool_pin_tell(void *arg, const char *msg)
{
	(void)arg;
	tool_msg("%s", msg);
}
