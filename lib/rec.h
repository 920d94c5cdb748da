/*
 * rec.h: every layer of the library at once, for programs outside it
 * (benchmarks, fuzz harnesses, test helpers).  The library and the
 * tools include only the layers they use: core.h says which there are.
 */
#ifndef REC_H
#define REC_H

#include "core.h"
#include "proc.h"
#include "stream.h"
#include "catalog.h"
#include "retrieve.h"
#include "converse.h"
#include "batch.h"

#endif
