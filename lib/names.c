/*
 * names.c: the keys a creator is found by in a message: the name
 * folded, without "the", with "and" for "&", an initial joined, its
 * words without their marks ("N.W.A." said "nwa"), each of several
 * names, a band's leader, and one or two words of a longer name.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "converse.h"

/* room in the arrays beside the creator keys for every key */
static void
grow(struct rec_kb *kb)
{
	kb->cname = xrealloc(kb->cname, kb->creator.cap * sizeof *kb->cname);
	kb->ccount = xrealloc(kb->ccount, kb->creator.cap *
	    sizeof *kb->ccount);
	kb->cexact = xrealloc(kb->cexact, kb->creator.cap *
	    sizeof *kb->cexact);
}

/* the name with its words' inner marks dropped, "!" read as "i" and
 * "$" as "s", into n; 0 when no word has such a mark */
static int
compact(const char *v, struct rec_buf *n)
{
	struct rec_buf w = {0};
	const char *p = v;
	int marked = 0;

	while (*p) {
		size_t len = strcspn(p, " "), i, alnum = 0;
		rec_buf_reset(&w);
		for (i = 0; i < len; i++) {
			unsigned char c = (unsigned char)p[i];
			if (isalnum(c) || c >= 0x80) {
				rec_buf_addc(&w, (char)c);
				alnum++;
			} else if ((c == '!' || c == '$') && i && i + 1 < len &&
			    isalpha((unsigned char)p[i + 1])) {
				rec_buf_addc(&w, c == '!' ? 'i' : 's');
				marked = 1;
			} else if (c == '.' && i && i + 1 < len &&
			    isalnum((unsigned char)p[i + 1]))
				marked = 1;
		}
		if (alnum) {
			if (n->len)
				rec_buf_addc(n, ' ');
			rec_norm(n, w.data, w.len);
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	rec_buf_free(&w);
	return marked && n->len >= 3;
}

/* a name catalogs give when there is none ("Various Artists", "Unknown
 * Artist"): no one a person asks for ("a mix of various artists") */
static int
placeholder(const char *key, size_t len)
{
	static const char *const l[] = { "various artists", "various",
	    "unknown artist", "unknown", "anonymous", NULL };
	size_t i;

	for (i = 0; l[i]; i++)
		if (strlen(l[i]) == len && !memcmp(l[i], key, len))
			return 1;
	return 0;
}

/* a creator's name as a key, without a leading "the" ("rolling
 * stones"), with "and" for "&", and an initial joined to the rest
 * ("rkelly"); items counted for the name */
static void
add_creator(struct rec_kb *kb, const char *v, unsigned count,
    struct rec_buf *n)
{
	int pass;

	for (pass = 0; pass < 5; pass++) {
		const char *key;
		size_t len, k;
		int added;
		rec_buf_reset(n);
		if (pass == 4) {
			/* "N.W.A.", "P!nk", "Ke$ha": a word written with
			 * marks inside, said without them ("nwa", "pink",
			 * "kesha") */
			if (!compact(v, n))
				continue;
		} else if (pass == 2) {
			/* "Brooks & Dunn" said "brooks and dunn" */
			const char *amp = strstr(v, " & ");
			if (!amp)
				continue;
			rec_norm(n, v, (size_t)(amp - v));
			rec_buf_adds(n, " and ");
			rec_norm(n, amp + 3, strlen(amp + 3));
		} else
			rec_norm(n, v, strlen(v));
		key = n->data ? n->data : "";
		len = n->len;
		/* "rkelly" for R. Kelly: an initial joined to the name */
		if (pass == 3) {
			if (len < 4 || key[1] != ' ' || strchr(key + 2, ' '))
				continue;
			memmove(n->data + 1, n->data + 2, len - 1);
			len--;
			n->len = len;
		}
		if (pass == 1) {
			if (len < 8 || strncmp(key, "the ", 4))
				continue;
			key += 4;
			len -= 4;
		}
		if (len < 2 || placeholder(key, len))
			continue;
		k = rec_hash_put(&kb->creator, key, len, &added);
		if (added) {
			grow(kb);
			kb->cname[k] = xstrdup(v);
			kb->ccount[k] = 0;
			kb->cexact[k] = pass == 0 ? 1 : pass == 4 ? 2 : 0;
		} else if (pass == 0 && kb->cexact[k] != 1) {
			/* the name itself over one made from another
			 * ("Silo" over "S-Ilo" made "silo" by pass 3) */
			free(kb->cname[k]);
			kb->cname[k] = xstrdup(v);
			kb->cexact[k] = 1;
		}
		kb->ccount[k] += count;
	}
}

/* "Bob Marley & The Wailers", "Tom Petty and the Heartbreakers": a
 * leader and their band, the leader said alone too */
static void
leader(struct rec_kb *kb, const char *v, unsigned count, struct rec_buf *n)
{
	static const char *const joins[] = { " & the ", " and the ",
	    " + the ", NULL };
	const char *j = NULL;
	size_t k;
	char *name;

	for (k = 0; joins[k] && !j; k++)
		j = strcasestr(v, joins[k]);
	if (!j || j == v)
		return;
	name = xstrndup(v, (size_t)(j - v));
	add_creator(kb, name, count, n);
	free(name);
}

/* A creator called by one word of their name ("kanye", "oakenfold",
 * "bach"), or the first two of a longer one ("wu tang", "bone thugs"):
 * the first or last word of a creator's name alone, the first only of
 * a name of two words (a person's first name: nobody says "taking"
 * for Taking Back Sunday), of four letters or more (the linker asks a
 * capital or a cue of a word under five), with at least three items,
 * where no name is that word.  Where other names have the word too, a
 * last name is the one with three times their items together
 * ("mozart": Wolfgang Amadeus Mozart, not the one song of Mozart La
 * Para); a first word shared is nobody's ("yellow": Yellow Claw and
 * Yellow Magic Orchestra) unless it is no word of the language and one
 * has ten times the others' items ("kendrick": Kendrick Lamar's 37,
 * Houston Kendrick's one).  The linker still asks a rare word of it. */
void
rec_kb_one_word_names(struct rec_kb *kb)
{
	/* per word: the best creator + 1, its items, the others' items,
	 * whether the best has it last */
	struct rec_hash w = { .vsize = 4 * sizeof(size_t) };
	size_t i, n = kb->creator.n, k;

	for (i = 0; i < n; i++) {
		const char *key = kb->creator.key[i], *sp, *sp2;
		size_t len = kb->creator.keylen[i];
		int e;
		const char *cn = kb->cname[i];
		/* names of one creator only ("Kanye West", not "Kanye
		 * West, T-Pain") */
		if (!(sp = memchr(key, ' ', len)) || strchr(cn, ',') ||
		    strstr(cn, " & ") || strstr(cn, " feat") ||
		    strstr(cn, " x ") || strstr(cn, " vs"))
			continue;
		sp2 = memchr(sp + 1, ' ', len - (size_t)(sp + 1 - key));
		for (e = 0; e < 3; e++) {
			/* e 2: the first two words of a longer name ("wu
			 * tang" for Wu-Tang Clan) */
			const char *wd = e == 1 ? strrchr(key, ' ') + 1 : key,
			    *end = e == 1 ? key + len : e == 2 ? sp2 : sp;
			size_t wl, *v, c = kb->ccount[i];
			if (!end || (wl = (size_t)(end - wd)) < 4)
				continue;
			k = rec_hash_put(&w, wd, wl, NULL);
			v = (size_t *)w.val + 4 * k;
			/* the same creator's other key ("the x") counts
			 * once; the first word of a longer name is no
			 * alias, only a rival */
			if (v[0] && !strcmp(kb->cname[v[0] - 1], cn))
				continue;
			if (!e && sp2)
				v[2] += c;
			else if (c > v[1]) {
				v[2] += v[1];
				v[0] = i + 1;
				v[1] = c;
				v[3] = e == 1;
			} else
				v[2] += c;
		}
	}
	for (k = 0; k < w.n; k++) {
		size_t *v = (size_t *)w.val + 4 * k, c;
		int added;
		if (!v[0] || v[1] < 3 || v[1] < 3 * v[2] ||
		    (v[2] && !v[3] && (v[1] < 10 * v[2] ||
		    rec_kb_english(kb, w.key[k], 0))) ||
		    rec_hash_get(&kb->creator, w.key[k], w.keylen[k]) !=
		    (size_t)-1)
			continue;
		c = v[0] - 1;
		i = rec_hash_put(&kb->creator, w.key[k], w.keylen[k], &added);
		grow(kb);
		kb->cname[i] = xstrdup(kb->cname[c]);
		kb->ccount[i] = kb->ccount[c];
		kb->cexact[i] = 0;
	}
	rec_hash_free(&w);
}

/* every key of the creator value v (of count items): the name, each of
 * several names in it ("A feat. B"), and a band's leader */
void
rec_kb_add_names(struct rec_kb *kb, const char *v, unsigned count,
    struct rec_buf *n)
{
	struct rec_strs parts = {0};
	size_t i;

	add_creator(kb, v, count, n);
	rec_name_parts(v, 0, &parts);
	for (i = 0; i < parts.n; i++)
		add_creator(kb, parts.v[i], count, n);
	rec_strs_free(&parts);
	leader(kb, v, count, n);
}

/* the words of a tag value, the catalog's vocabulary, and each two side
 * by side with the items they are on (phrase.c reads them) */
void
rec_kb_tag_words(struct rec_kb *kb, const char *v, unsigned c)
{
	struct rec_buf bi = {0};
	const char *p = v, *prev = NULL;
	size_t plen = 0, len, k;

	for (; *p; p += len + (p[len] == ' ')) {
		len = strcspn(p, " ");
		if (!len)
			continue;
		rec_hash_put(&kb->tagtok, p, len, NULL);
		if (prev) {
			rec_buf_reset(&bi);
			rec_buf_add(&bi, prev, plen);
			rec_buf_addc(&bi, ' ');
			rec_buf_add(&bi, p, len);
			k = rec_hash_put(&kb->tagbi, bi.data, bi.len, NULL);
			((unsigned *)kb->tagbi.val)[k] += c;
		}
		prev = p;
		plen = len;
	}
	rec_buf_free(&bi);
}
