#!/bin/sh
# Build ./bot from bot.go with the Go standard toolchain (no modules to download).
set -eu
cd "$(dirname "$0")"
go build -o bot .
