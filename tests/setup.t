#!/bin/sh
# The set-up around the tools: the recipes' download fallback (through
# curl with file:// URLs, so no network is needed) and make install.
. "$(dirname "$0")/lib.sh"

. "$TOP/examples/fetch.sh"
mkdir -p src
printf 'id,title\n1,A\n' > src/x.csv
sum=$(sha256sum src/x.csv | cut -d' ' -f1)
test_ok 'a local file under REC_DATA_DIR is used as it is' \
	'mkdir -p d/set && cp src/x.csv d/set/ &&
	 test "$(REC_DATA_DIR=$T/d data_file set/x.csv file:///nonexistent 0)" = "$T/d/set/x.csv"'
test_ok 'a missing file is downloaded into the cache and checked' \
	'p=$(REC_DATA_DIR= XDG_CACHE_HOME=$T/cache data_file set/x.csv "file://$T/src/x.csv" "$sum") &&
	 test "$p" = "$T/cache/rec/data/set/x.csv" && cmp "$p" src/x.csv'
test_ok 'and found in the cache the next time' \
	'p=$(REC_DATA_DIR= XDG_CACHE_HOME=$T/cache data_file set/x.csv file:///nonexistent 0) &&
	 test "$p" = "$T/cache/rec/data/set/x.csv"'
test_fail 'a download with the wrong sha256 is refused and removed' 1 \
	"sha256 $sum, expected 0000" \
	'REC_DATA_DIR= XDG_CACHE_HOME=$T/c2 data_file set/x.csv "file://$T/src/x.csv" 0000 >/dev/null 2>e
	 st=$?; grep -v "downloading" e >&2; exit $st'
test_ok 'nothing is left of the refused download' '! test -e c2/rec/data/set/x.csv && ! test -e c2/rec/data/set/x.csv.part'
test_fail 'a download that fails says which' 1 "cannot download 'file:///nonexistent/y.csv'" \
	'REC_DATA_DIR= XDG_CACHE_HOME=$T/c3 data_file set/y.csv file:///nonexistent/y.csv 0 >/dev/null 2>e
	 st=$?; grep -v "downloading" e >&2; exit $st'

# REC_MAKE_ARGS (from make test) names the build under test, so that
# install finds it up to date and does not rebuild it with other flags
test_ok 'make install puts tools and pages under DESTDIR' \
	'make -s -C "$TOP" install ${REC_MAKE_ARGS:-O=$(dirname "$REC_BIN")} DESTDIR="$T/root" PREFIX=/usr > /dev/null &&
	 test -x root/usr/bin/rec-cat && test -x root/usr/bin/rec-import &&
	 test -f root/usr/share/man/man7/rec.7 && test -f root/usr/share/man/man5/rec-candidates.5 &&
	 test -f root/usr/share/man/man1/rec-import.1 &&
	 test -x root/usr/share/rec/pipelines/similar && test -f root/usr/share/rec/pipelines/common.sh'
test_ok 'make uninstall removes them' \
	'make -s -C "$TOP" uninstall DESTDIR="$T/root" PREFIX=/usr > /dev/null &&
	 test -z "$(find root -type f)"'

done_testing
