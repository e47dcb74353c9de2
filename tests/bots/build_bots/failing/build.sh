#!/bin/sh
# A build that prints 30 lines and fails, like a compiler with errors.
for n in $(seq 1 30); do echo "compiling part $n"; done
echo "bot.cpp:3: error: expected ';'" >&2
exit 3
