/*
 * english.c: the words of the language, from the system's word list
 * ($REC_WORDS, else /usr/share/dict/words: Debian's wamerican).  A word
 * spelt as the language spells it ("choice", "trumpet", "sounded") is
 * no misspelt name, and a name that is only such a word ("Choice",
 * "Timmy Trumpet" called "trumpet") needs a capital or a cue before
 * the linker takes it for the name.  Without a list every word is
 * unknown, and the linker reads names by the catalog alone.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "converse.h"

#define WORDS "/usr/share/dict/words"

/* the list's words of three letters or more, without marks, folded:
 * 1 for a word in lower case, 2 for a name only ("Jamaica"); "choice's"
 * (a form of one) is left out */
void
rec_kb_load_english(struct rec_kb *kb)
{
	const char *path = getenv("REC_WORDS");
	char line[128];
	FILE *f;

	kb->english.vsize = 1;
	if (!path)
		path = WORDS;
	if (!*path || !(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\r\n"), i, k;
		int c, name = isupper((unsigned char)line[0]);
		if (!line[n] && !feof(f)) {
			/* a line too long for a word: skipped whole */
			while ((c = getc(f)) != EOF && c != '\n')
				;
			continue;
		}
		for (i = name; i < n && islower((unsigned char)line[i]); i++)
			;
		if (i < n || n < 3)
			continue;
		line[0] = (char)tolower((unsigned char)line[0]);
		k = rec_hash_put(&kb->english, line, n, NULL);
		if (!name || !((char *)kb->english.val)[k])
			((char *)kb->english.val)[k] = (char)(name ? 2 : 1);
	}
	fclose(f);
}

int
rec_kb_english(const struct rec_kb *kb, const char *w, int names)
{
	size_t k = rec_hash_get(&kb->english, w, strlen(w));

	return k != (size_t)-1 && (names || ((char *)kb->english.val)[k] == 1);
}
