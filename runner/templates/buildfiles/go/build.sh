#!/bin/sh
# Build ./bot from main.go with the Go toolchain (standard library only: nothing to download).
set -eu
cd "$(dirname "$0")"
go build -o bot .
