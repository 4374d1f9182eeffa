#!/bin/sh
# `storeloc` in the Docker image, which has Bun but not Node.js (bin/storeloc.js needs both): the
# Dockerfile links it onto the PATH, so the commands the service's messages name run there.
exec bun "$(dirname "$(readlink -f "$0")")/../src/storeloc.ts" "$@"
