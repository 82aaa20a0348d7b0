#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# mcastsim latency: figures that follow from the model's closed form, and
# the error contract.  TAP output.
#
# MCASTSIM names the binary (default: build/mcastsim in the repository).

# shellcheck source=tests/cli/simlib.sh
. "$(dirname "$0")/simlib.sh"

# A broadcast on 4x4 by S-torus is one worm over the Hamiltonian circuit:
# the i-th destination is i hops away, so with L = 8 flits it arrives at
# tau_s + (i + 8) tau_n + tau_r; the last (i = 15) at 181.5 us and the
# mean over i = 1..15 at 178 us, whatever the source.
run latency -t torus:4x4 -a s-torus -m 15 -L 8 -n 5 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && [ "$line" = "16,15,8,s-torus,5,178.000,181.500,0.000,0.000,0.000" ]
ok $? "s-torus broadcast on 4x4: mean 178 us, last 181.5 us, no waiting (got: $line)"

# The same with tau_n = 1000: (i + 8) flit times of 1 us.
run latency -t torus:4x4 -a s-torus -m 15 -L 8 -n 2 --tau-n 1000 --csv
line=$(sed -n 2p <<<"$OUT")
[ "$RC" = 0 ] && [ "$line" = "16,15,8,s-torus,2,186.000,193.000,0.000,0.000,0.000" ]
ok $? "tau_n 1000 ns: mean 186 us, last 193 us (got: $line)"

# Every path-based algorithm alone on the fabric: no worm ever waits (Thm 6.1).
run latency -t torus:8x8 -a s-torus,md-torus,mu-torus:2,mu-torus:4,mu-torus:8 \
	-m 5,20,63 -L 8,300 -n 10 --buffer 1 --csv
[ "$RC" = 0 ] && [ "$(grep -c . <<<"$OUT")" = 31 ] &&
	! cut -d, -f8 <<<"$OUT" | tail -n +2 | grep -qv '^0.000$'
ok $? "path-based algorithms on 8x8, 30 points: every one completes, no worm waited"

# Threads share the trials out, not the results: one thread or three
# print the same figures.
run latency -t torus:6x6 -a s-torus,md-torus,mu-torus:4 -m 7,30 -L 8,100 -n 9 --csv -j 1
one=$OUT
run latency -t torus:6x6 -a s-torus,md-torus,mu-torus:4 -m 7,30 -L 8,100 -n 9 --csv -j 3
[ "$RC" = 0 ] && [ -n "$one" ] && [ "$OUT" = "$one" ]
ok $? "-j 1 and -j 3 print the same figures"

# The error contract: exit 2 and a message that names the problem.
bad "a bidirectional torus" "unidirectional" latency -t torus:4x4:bi -m 3
bad "an unknown algorithm" "--algorithms" latency -a x-torus
bad "separate addressing" "not simulated" latency -a separate
bad "more destinations than nodes" "need more than" latency -t torus:4x4 -m 16
bad "zero flits" "--flits" latency -L 0
bad "no command" "usage" --csv
bad "zero trials" "--trials" latency -n 0
bad "zero threads" "--jobs" latency -j 0
bad "a flit time of 0" "tau_n" latency --tau-n 0
bad "a buffer of 0 flits" "buffer_flits" latency --buffer 0
bad "a buffer of 65536 flits" "--buffer" latency --buffer 65536

# The 95 % confidence interval of a mean over random sets: positive, and
# narrower with four times the trials (by about half).
run latency -t torus:8x8 -a md-torus -m 10 -L 8 -n 30 --model worm --csv
ci30=$(sed -n 2p <<<"$OUT" | cut -d, -f9)
run latency -t torus:8x8 -a md-torus -m 10 -L 8 -n 120 --model worm --csv
ci120=$(sed -n 2p <<<"$OUT" | cut -d, -f9)
awk -v a="$ci30" -v b="$ci120" 'BEGIN { exit !(a > 0 && b > 0 && b < 0.75 * a) }'
ok $? "the mean's 95 % confidence interval: +-$ci30 us over 30 trials, +-$ci120 us over 120"

done_testing
tap_exit
