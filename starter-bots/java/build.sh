#!/bin/sh
# Build bot.jar from src/ with the plain JDK (javac + jar; no Maven, no third-party jars).
set -eu
cd "$(dirname "$0")"
rm -rf build bot.jar
javac -encoding UTF-8 -d build src/*.java
jar --create --file bot.jar --main-class Bot -C build .
rm -rf build
