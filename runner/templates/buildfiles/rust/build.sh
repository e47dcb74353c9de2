#!/bin/sh
# Build ./bot from src/main.rs with cargo (no crates: works offline).
set -eu
cd "$(dirname "$0")"
cargo build --release --offline --quiet
cp target/release/bot bot
