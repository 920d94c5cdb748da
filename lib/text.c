/*
 * text.c: UTF-8 validation, what a message must be (rec-plan's and
 * rec-chat's), and the text folding used wherever rec compares names
 * typed by a person with names in a catalog: case, diacritics
 * ('Beyoncé' = 'beyonce') and punctuation do not count.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

/* Decodes one code point from s[0..n); returns its length, or 0 when
 * the bytes there are not valid UTF-8 (overlong, surrogate, > U+10FFFF
 * or cut short). */
static size_t
utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		if (n < 2 || (s[1] & 0xc0) != 0x80)
			return 0;
		*cp = (c & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		*cp = (c & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		if (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		*cp = (c & 0x07) << 18 | (s[1] & 0x3f) << 12 |
		    (s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		if (*cp < 0x10000 || *cp > 0x10ffff)
			return 0;
		return 4;
	}
	return 0;
}

size_t
rec_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	unsigned cp;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		k = utf8_decode(p + i, n - i, &cp);
		if (!k)
			return i;
		i += k;
	}
	return n;
}

size_t
rec_max_request(void)
{
	static size_t max;

	if (!max)
		max = rec_env_size("REC_MAX_REQUEST", (size_t)64 << 10, 16,
		    (size_t)64 << 20);
	return max;
}

const char *
rec_message_bad(const char *msg, size_t n)
{
	static char why[80];

	if (n > rec_max_request()) {
		snprintf(why, sizeof why, "the message is longer than %zu "
		    "bytes (REC_MAX_REQUEST)", rec_max_request());
		return why;
	}
	if (memchr(msg, 0, n))
		return "the message has a NUL byte";
	if (rec_utf8_valid(msg, n) != n)
		return "the message is not valid UTF-8";
	return NULL;
}

/* Base letters of U+00C0..U+00FF; '-' marks a separator, and the
 * ligatures get their own cases below. */
static const char latin1_base[64] =
    "aaaaaaaceeeeiiiidnooooo-ouuuuyts"
    "aaaaaaaceeeeiiiidnooooo-ouuuuyty";
/* Base letters of Latin Extended-A, U+0100..U+017F. */
static const char latin_ext_a[128] =
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkklllllll"
    "lllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

static void
put_cp(struct rec_buf *out, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	rec_buf_add(out, b, n);
}

void
rec_song_key(struct rec_buf *out, const char *s, int first_name)
{
	static const char *const joins[] = { ",", " feat.", " feat ",
	    " ft.", " featuring ", " & ", NULL };
	struct rec_buf b = {0};
	size_t i, n = strlen(s), j;
	int depth = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == '[') {
			depth++;
			continue;
		}
		if ((s[i] == ')' || s[i] == ']') && depth) {
			depth--;
			continue;
		}
		if (depth)
			continue;
		if (!strncmp(s + i, " - ", 3) && b.len)
			break;
		if (first_name && b.len) {
			for (j = 0; joins[j]; j++)
				if (!strncasecmp(s + i, joins[j],
				    strlen(joins[j])))
					break;
			if (joins[j])
				break;
		}
		rec_buf_addc(&b, s[i]);
	}
	{
		size_t start = out->len;
		rec_norm(out, b.data ? b.data : "", b.len);
		if (out->len == start)	/* all of it in brackets: keep it */
			rec_norm(out, s, n);
	}
	rec_buf_free(&b);
}

void
rec_name_parts(const char *s, int amp, struct rec_strs *out)
{
	static const char *const joins[] = { ", ", " feat. ", " feat ",
	    " ft. ", " featuring ", " & ", " x ", " with ", " / ", "; ",
	    " vs. ", " vs ", NULL };
	struct rec_buf b = {0};
	size_t i, n = strlen(s), j, from = 0, start = out->n;

	for (i = 0; i <= n;) {
		size_t skip = 0;
		if (i < n) {
			for (j = 0; joins[j]; j++)
				if (!strncasecmp(s + i, joins[j],
				    strlen(joins[j])) && (amp ||
				    strcmp(joins[j], " & ")))
					break;
			if (!joins[j]) {
				i++;
				continue;
			}
			skip = strlen(joins[j]);
		}
		rec_buf_reset(&b);
		rec_norm(&b, s + from, i - from);
		if (b.len) {
			size_t a = from, z = i;
			while (a < z && isspace((unsigned char)s[a]))
				a++;
			while (z > a && isspace((unsigned char)s[z - 1]))
				z--;
			rec_strs_push(out, s + a, z - a);
		}
		if (i == n)
			break;
		i += skip;
		from = i;
	}
	/* one name: none of its parts */
	if (out->n == start + 1) {
		free(out->v[start]);
		out->n = start;
	}
	rec_buf_free(&b);
}

void
rec_norm(struct rec_buf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k, start = out->len;
	int sep = 0;
	unsigned cp;

	while (i < n) {
		k = utf8_decode(p + i, n - i, &cp);
		if (!k) {
			k = 1;
			cp = ' ';
		}
		i += k;
		if (cp == '\'' || cp == 0x2019 ||
		    (cp >= 0x300 && cp <= 0x36f))
			continue;	/* "don't" = "dont"; combining marks */
		if (cp >= 'A' && cp <= 'Z')
			cp += 32;
		else if (cp >= 0xc0 && cp <= 0xff) {
			if (cp == 0xc6 || cp == 0xe6) {
				if (sep && out->len > start)
					rec_buf_addc(out, ' ');
				rec_buf_adds(out, "ae");
				sep = 0;
				continue;
			}
			if (cp == 0xdf) {
				if (sep && out->len > start)
					rec_buf_addc(out, ' ');
				rec_buf_adds(out, "ss");
				sep = 0;
				continue;
			}
			cp = (unsigned char)latin1_base[cp - 0xc0];
			if (cp == '-')
				cp = ' ';
		} else if (cp >= 0x100 && cp <= 0x17f)
			cp = (unsigned char)latin_ext_a[cp - 0x100];
		else if (cp >= 0x391 && cp <= 0x3a9)
			cp += 0x20;	/* Greek capitals */
		else if (cp >= 0x410 && cp <= 0x42f)
			cp += 0x20;	/* Cyrillic capitals */
		else if (cp >= 0x400 && cp <= 0x40f)
			cp += 0x50;
		if (cp < 0x80 && !((cp >= 'a' && cp <= 'z') ||
		    (cp >= '0' && cp <= '9'))) {
			sep = 1;
			continue;
		}
		if (sep && out->len > start)
			rec_buf_addc(out, ' ');
		sep = 0;
		put_cp(out, cp);
	}
}

void
rec_latin1_to_utf8(struct rec_buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put_cp(out, (unsigned char)s[i]);
}

int
rec_edit_distance(const char *a, size_t an, const char *b, size_t bn,
    int max)
{
	/* three rows: two letters swapped ("khelani") are one edit */
	int rows[3][257], *r2, *r1, *r0, *t, i, j, best, v;

	if (an > 256 || bn > 256)
		return (an == bn && !memcmp(a, b, an)) ? 0 : max + 1;
	if ((int)(an > bn ? an - bn : bn - an) > max)
		return max + 1;
	r2 = rows[0];
	r1 = rows[1];
	r0 = rows[2];
	for (j = 0; j <= (int)bn; j++)
		r1[j] = j;
	for (i = 1; i <= (int)an; i++) {
		r0[0] = i;
		best = i;
		for (j = 1; j <= (int)bn; j++) {
			v = r1[j - 1] + (a[i - 1] != b[j - 1]);
			if (r1[j] + 1 < v)
				v = r1[j] + 1;
			if (r0[j - 1] + 1 < v)
				v = r0[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && r2[j - 2] + 1 < v)
				v = r2[j - 2] + 1;
			r0[j] = v;
			if (v < best)
				best = v;
		}
		if (best > max)
			return max + 1;
		t = r2;
		r2 = r1;
		r1 = r0;
		r0 = t;
	}
	return r1[bn] > max ? max + 1 : r1[bn];
}
