/*
 * demos.h: demonstrations for a model (demos.c), apart from converse.h
 * for the few files that read or record them.
 */
#ifndef REC_DEMOS_H
#define REC_DEMOS_H

#include "converse.h"

/* demos.c: demonstrations (InteRecAgent's dynamic few-shot), a JSONL
 * file of {"request": "...", "plan": [calls]} or {"request", "intent"}
 * lines.  The k whose requests are most like message by BM25 (of
 * those with key) are appended to b as "Examples: ..." text; nothing
 * when none shares a word. */
void rec_demos_prompt(const char *path, const char *message,
    const char *key, size_t k, struct rec_buf *b);
/* the lines (with key) whose "request" is most like message by BM25,
 * best first, none that shares no word, at most k, into lines (room
 * for k; the caller frees each); returns how many.  A missing file has
 * none; a line that is not JSON is left out with a warning. */
size_t rec_demos_best(const char *path, const char *message,
    const char *key, size_t k, char **lines);
/* the part of an intent a demonstration shows a model: what was
 * liked, disliked and asked for, the constraints, popularity and k */
void rec_demos_intent(const struct rec_intent *in, struct rec_buf *b);
/* appends {"request": request, key: value (JSON)} to path, one line
 * written whole (O_APPEND); a warning, not an end, when it cannot */
void rec_demos_record(const char *path, const char *request,
    const char *key, const char *value);

#endif
