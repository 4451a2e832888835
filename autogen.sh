#!/bin/sh
# Generate ./configure from configure.ac (a git checkout has none).
set -e
cd "$(dirname "$0")"
autoreconf --force --install --warnings=all
