#!/bin/sh
# Build ./bot with cargo. No crates: the bot needs nothing beyond the standard library, so this works offline.
set -eu
cd "$(dirname "$0")"
cargo build --release --offline --quiet
cp target/release/bot bot
