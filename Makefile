# rec: conversational recommendation as Unix pipelines.  GNU make.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBEXECDIR ?= $(PREFIX)/lib/rec
CC ?= cc
CFLAGS ?= -O2 -g
PKGS = sqlite3 msgpack libcurl

override CFLAGS += -std=c11 -Wall -Wextra -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wvla
override CPPFLAGS += -D_GNU_SOURCE -Ilib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
override CPPFLAGS += $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -ljq -lm -lpthread
# a tool loads only the libraries it calls: libcurl and its thirty
# dependencies cost a process that never talks to a model about 5 ms
# of dynamic linking, and a turn runs ten processes
override LDFLAGS += -Wl,--as-needed

# SANITIZE=address,undefined,float-cast-overflow builds into its own directory
ifdef SANITIZE
O ?= build/san
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
override LDFLAGS += -fsanitize=$(SANITIZE)
else
O ?= build
endif

TOOLS = rec-cat rec-batch rec-eval rec-import rec-sql rec-bm25 rec-rank rec-semid rec-train rec-cf rec-chat rec-plan rec-respond rec-dense
LIBSRC = $(wildcard lib/*.c)
LIBOBJ = $(LIBSRC:lib/%.c=$(O)/lib/%.o)
BINS = $(TOOLS:%=$(O)/bin/%)
MAN1 = $(TOOLS:%=man/%.1)
MAN5 = man/rec-candidates.5 man/rec-bench.5 man/rec-session.5
MAN7 = man/rec.7 man/rec-pipelines.7
PIPELINES = similar for-user new-for-user cold-start continue
BENCHBIN = $(O)/bench/mpbare $(O)/bench/gen $(O)/bench/bm25 $(O)/bench/cfeval $(O)/bench/dense

REC_DATA_DIR ?= $(if $(wildcard ../shared/data),$(abspath ../shared/data))
export REC_DATA_DIR

.DELETE_ON_ERROR:
.PHONY: all check test demo bench install uninstall clean lint fuzz deps

# each object depends on the headers it includes (-MMD writes the list)
DEPFLAGS = -MMD -MP -MF $(O)/dep/$(subst /,-,$@).d

TESTBIN = $(O)/tests/stub-llm $(O)/tests/spd-inverse $(O)/tests/proc \
	$(O)/tests/units

all: $(BINS) $(BENCHBIN) $(TESTBIN)

$(O)/tests/%: tests/%.c $(O)/librec.a
	@mkdir -p $(@D) $(O)/dep
	$(CC) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/librec.a $(LDLIBS)


$(O)/lib/%.o: lib/%.c
	@mkdir -p $(@D) $(O)/dep
	$(CC) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/librec.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/bin/%: cmd/%.c $(O)/librec.a
	@mkdir -p $(@D) $(O)/dep
	$(CC) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/librec.a $(LDLIBS)

$(O)/bench/%: bench/%.c bench/bench.h $(O)/librec.a
	@mkdir -p $(@D) $(O)/dep
	$(CC) $(DEPFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/librec.a $(LDLIBS)

-include $(wildcard $(O)/dep/*.d)

deps:
	@sh scripts/deps

test: all
	REC_BIN=$(abspath $(O)/bin) REC_TOP=$(CURDIR) \
		REC_TESTBIN=$(abspath $(O)/tests) \
		REC_MAKE_ARGS="O=$(O) $(if $(SANITIZE),SANITIZE=$(SANITIZE))" \
		prove -f tests/*.t

check: deps
	$(MAKE) test

demo: deps
	$(MAKE) all
	REC_BIN=$(abspath $(O)/bin) sh examples/demo

bench: deps
	$(MAKE) all
	REC_BIN=$(abspath $(O)/bin) sh bench/run

install: $(BINS)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(BINS) $(DESTDIR)$(BINDIR)/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/
	mkdir -p $(DESTDIR)$(PREFIX)/share/rec/pipelines
	cp pipelines/common.sh $(PIPELINES:%=pipelines/%) \
		$(DESTDIR)$(PREFIX)/share/rec/pipelines/

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%) \
		$(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) \
		$(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%) \
		$(MAN7:man/%=$(DESTDIR)$(MANDIR)/man7/%)
	rm -rf $(DESTDIR)$(PREFIX)/share/rec/pipelines

lint:
	mandoc -Tlint -W warning $(MAN1) $(MAN5) $(MAN7)
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--inline-suppr -D_GNU_SOURCE -Ilib --suppress=missingIncludeSystem \
		lib cmd

FUZZTIME ?= 60
FUZZCC ?= clang
# the harnesses make fuzz runs, one after the other (FUZZERS=table runs
# one); each corpus starts from fuzz/seeds and the kept crash inputs in
# fuzz/regress, which tests/regress.t also reads
FUZZERS ?= jsonl msgpack table plan
FUZZFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined,float-cast-overflow \
	-fno-sanitize-recover=all -D_GNU_SOURCE -Ilib $(PKG_CFLAGS)
fuzz: $(BINS)
	@command -v $(FUZZCC) >/dev/null || { echo "make fuzz needs clang" \
	    "and libFuzzer (Debian: clang libclang-rt-14-dev)" >&2; exit 1; }
	@mkdir -p build/fuzz && rm -f build/fuzz/plan.db && \
	    $(O)/bin/rec-import -d build/fuzz/plan.db items -i id \
	    -r title=title -r artist=creator -r album=collection -l genre \
	    -t year=integer -r year=date tests/data/tunes.csv 2>/dev/null
	@for f in $(FUZZERS); do \
		mkdir -p build/fuzz/corpus-$$f || exit 1; \
		echo "$(FUZZCC) ... -o build/fuzz/$$f fuzz/$$f.c"; \
		$(FUZZCC) $(FUZZFLAGS) -o build/fuzz/$$f fuzz/$$f.c $(LIBSRC) \
		    $(PKG_LIBS) -ljq -lm -lpthread || exit 1; \
	done
	@for f in $(FUZZERS); do \
		case $$f in jsonl) ext=jsonl;; msgpack) ext=mp;; *) ext=$$f;; esac; \
		for s in fuzz/seeds/*.$$ext fuzz/regress/*.$$ext; do \
			[ -f "$$s" ] && cp "$$s" build/fuzz/corpus-$$f/; \
		done; \
		echo "build/fuzz/$$f -max_total_time=$(FUZZTIME)"; \
		build/fuzz/$$f -max_total_time=$(FUZZTIME) -rss_limit_mb=2048 \
		    -close_fd_mask=2 -artifact_prefix=build/fuzz/$$f- \
		    build/fuzz/corpus-$$f || exit 1; \
	done

clean:
	rm -rf build
