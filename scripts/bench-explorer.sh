#!/bin/sh
# Times the explorer's answers: starts BIN serve (Connect Four, search past
# the opening book) on PORT, asks GET /api/position for each board read
# from standard input, one a line, again every 10 ms until it answers 200,
# and prints each board's seconds and then the total. Each run starts a
# fresh server, so every position is searched from nothing.
#
#	scripts/bench-explorer.sh BIN PORT < boards
#
# The boards of docs/performance.md's figures are noisy perfect play's,
# PLIES 12-14 and 13-16:
#
#	tateti-lab export --game connect-four --sample 30 --plies PLIES \
#	  --epsilon 0.25 --seed 3 --format csv --out DIR -q
#	cut -d, -f1 DIR/states.csv | tail -n +2
set -eu
bin=$1 port=$2
"$bin" serve --game connect-four --addr "127.0.0.1:$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT INT TERM
url="http://127.0.0.1:$port/api/position"
until curl -sf -o /dev/null "$url?board="; do sleep 0.05; done
since() { awk -v from="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f\n", now - from }'; }
total_start=$(date +%s.%N)
while read -r board; do
	start=$(date +%s.%N)
	until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url?board=$board")" = 200 ]; do
		sleep 0.01
	done
	echo "$board $(since "$start")"
done
echo "total $(since "$total_start")"
