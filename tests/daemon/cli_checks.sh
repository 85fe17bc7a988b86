# Sourced by the CLI contract tests: a scratch folder removed on exit, a failure counter,
# and the checks they share. Each test calls `finish NAME` last.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# rate_json METHOD INPUT CHECK [ARGS...]: `$ratingctl rate --method METHOD --input INPUT
# ARGS...` exits 0 and prints JSON for which the Python expression CHECK holds, over `d`
# (the document) and `m` (METHOD). Leaves the document in $tmp/out.json, stderr in $tmp/err.
rate_json() {
  local method=$1 input=$2 check=$3
  shift 3
  if ! "$ratingctl" rate --method "$method" --input "$input" "$@" >"$tmp/out.json" 2>"$tmp/err"; then
    fail "$method on $input exited non-zero: $(cat "$tmp/err")"
    return 1
  fi
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=sys.argv[2]; assert $check, d" \
    "$tmp/out.json" "$method" || { fail "$method on $input: bad JSON"; return 1; }
}

# expect_error WORDS ARGS...: `$ratingctl ARGS...` exits non-zero, prints nothing on stdout,
# and WORDS (a fixed string) on stderr.
expect_error() {
  local words=$1
  shift
  if "$ratingctl" "$@" >"$tmp/out" 2>"$tmp/err"; then
    fail "'$*' should fail"
  elif [ -s "$tmp/out" ]; then
    fail "'$*' printed on stdout: $(head -c 200 "$tmp/out")"
  elif ! grep -qF -- "$words" "$tmp/err"; then
    fail "'$*': stderr lacks '$words': $(cat "$tmp/err")"
  fi
}

# finish NAME: the summary line and the exit status.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)"
    exit 1
  fi
  echo "$1: all checks passed"
}
