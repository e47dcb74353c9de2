#!/bin/sh
# Build ./bot from bot.cpp with g++ (C++17, standard library only).
set -eu
cd "$(dirname "$0")"
g++ -std=c++17 -O2 -Wall -Wextra -o bot bot.cpp
