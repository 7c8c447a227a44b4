/* SPDX-License-Identifier: BSD-2-Clause */
/* Editing mapping-file text in memory. Only the user's last line changes;
 * every other byte (other users, comments, blank lines, line endings)
 * is copied as it was. The caller validates the result with
 * authfile_find before writing it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "tool.h"

struct seg {
	const char *p;
	size_t n;
};

struct span {
	size_t start; /* first byte of the line */
	size_t end;   /* its content end (before CR LF / LF) */
	size_t next;  /* first byte of the next line */
};

static int
join(const struct seg *s, size_t nseg, char **out, size_t *out_len)
{
	size_t i, total = 0, off = 0;
	char *b;

	for (i = 0; i < nseg; i++)
		total += s[i].n;
	if ((b = malloc(total + 1)) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < nseg; i++) {
		if (s[i].n > 0)
			memcpy(b + off, s[i].p, s[i].n);
		off += s[i].n;
	}
	b[total] = '\0';
	*out = b;
	*out_len = total;
	return ERR_OK;
}

/* Is the line buf[pos..end) the user's ("user:..." not a comment)? */
static bool
is_users(const char *buf, size_t pos, size_t end, const char *user, size_t ulen)
{
	return end - pos > ulen && memcmp(buf + pos, user, ulen) == 0 &&
	    buf[pos + ulen] == ':' && buf[pos] != '#';
}

/* Walk the user's lines: *sp gets the last, *count their number, and
 * *before (if not NULL) the line number, from 1, of the one before the
 * last (0 for none). */
static bool
walk_users(const char *buf, size_t len, const char *user, struct span *sp,
    size_t *count, size_t *before)
{
	size_t ulen = strlen(user), pos = 0, end, next, no = 0, last = 0;
	const char *nl;

	*count = 0;
	if (before != NULL)
		*before = 0;
	while (pos < len) {
		no++;
		nl = memchr(buf + pos, '\n', len - pos);
		end = nl != NULL ? (size_t)(nl - buf) : len;
		next = nl != NULL ? end + 1 : len;
		if (is_users(buf, pos, end, user, ulen)) {
			sp->start = pos;
			sp->end =
			    end > pos && buf[end - 1] == '\r' ? end - 1 : end;
			sp->next = next;
			if (before != NULL)
				*before = last;
			last = no;
			(*count)++;
		}
		pos = next;
	}
	return *count > 0;
}

/* The user's last line "user:...", if any. */
static bool
find_last(const char *buf, size_t len, const char *user, struct span *sp)
{
	size_t count;

	return walk_users(buf, len, user, sp, &count, NULL);
}

size_t
lines_user_lines(
    const char *buf, size_t len, const char *user, size_t *before_last)
{
	struct span sp;
	size_t count;

	(void)walk_users(buf, len, user, &sp, &count, before_last);
	return count;
}

/* Append ":cred" to the user's last line, or add "user:cred\n". */
int
lines_add_cred(const char *buf, size_t len, const char *user, const char *cred,
    char **out, size_t *out_len)
{
	struct span sp;
	struct seg s[6];
	bool bare;

	if (find_last(buf, len, user, &sp)) {
		bare = buf[sp.end - 1] == ':';
		s[0] = (struct seg){buf, sp.end};
		s[1] = (struct seg){":", bare ? 0 : 1};
		s[2] = (struct seg){cred, strlen(cred)};
		s[3] = (struct seg){buf + sp.end, len - sp.end};
		return join(s, 4, out, out_len);
	}
	s[0] = (struct seg){buf, len};
	s[1] = (struct seg){"\n", len > 0 && buf[len - 1] != '\n' ? 1 : 0};
	s[2] = (struct seg){user, strlen(user)};
	s[3] = (struct seg){":", 1};
	s[4] = (struct seg){cred, strlen(cred)};
	s[5] = (struct seg){"\n", 1};
	return join(s, 6, out, out_len);
}

/* The index-th (1-based) non-empty ':'-separated field of the line. */
static bool
find_field(const char *buf, const struct span *sp, size_t first, size_t index,
    size_t *fs, size_t *fe, size_t *count)
{
	size_t pos = first, e, k = 0;
	const char *c;
	bool found = false;

	while (pos <= sp->end) {
		c = memchr(buf + pos, ':', sp->end - pos);
		e = c != NULL ? (size_t)(c - buf) : sp->end;
		if (e > pos && ++k == index) {
			*fs = pos;
			*fe = e;
			found = true;
		}
		pos = e + 1;
	}
	*count = k;
	return found;
}

/* Remove the user's index-th credential; the last one takes the line
 * with it. */
int
lines_remove_cred(const char *buf, size_t len, const char *user, size_t index,
    char **out, size_t *out_len)
{
	struct span sp;
	struct seg s[2];
	size_t first, fs = 0, fe = 0, count = 0;

	if (!find_last(buf, len, user, &sp))
		return ERR_NOT_FOUND;
	first = sp.start + strlen(user) + 1;
	if (!find_field(buf, &sp, first, index, &fs, &fe, &count))
		return ERR_NOT_FOUND;
	if (count == 1) {
		fs = sp.start;
		fe = sp.next;
	} else if (fs > first)
		fs--; /* the ':' before it */
	else
		fe++; /* the ':' after it */
	s[0] = (struct seg){buf, fs};
	s[1] = (struct seg){buf + fe, len - fe};
	return join(s, 2, out, out_len);
}
