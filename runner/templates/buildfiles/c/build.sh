#!/bin/sh
# Build ./bot from bot.c with the system C compiler (standard C only: nothing to download).
set -eu
cd "$(dirname "$0")"
cc -std=c11 -O2 -Wall -Wextra -o bot bot.c
