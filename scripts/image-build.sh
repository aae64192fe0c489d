#!/usr/bin/env bash
# Build the platform's container image (deploy/Containerfile) with podman, without a container
# runtime: `podman build --isolation chroot`. The Debian base is made locally with mmdebstrap and
# imported as localhost/debian:bookworm (its tar cached under IMAGE_CACHE_DIR, default .data/image).
#   scripts/image-build.sh            → localhost/supergraph-platform:<version> (and :latest)
#   scripts/image-build.sh --ai       → also :<version>-ai (Apertium pairs, CG3, Tesseract)
# Needs: podman, mmdebstrap (Debian packages), the project's node_modules installed (npm ci).
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE="${IMAGE:-localhost/supergraph-platform}"
CACHE="${IMAGE_CACHE_DIR:-.data/image}"
VERSION="$(node -p 'require("./package.json").version')"
for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed (apt-get install -y podman mmdebstrap)"; exit 1; }
done
[ -x node_modules/node/bin/node ] || { echo "error: node_modules/node/bin/node missing: run npm ci first"; exit 1; }
mkdir -p "$CACHE"
started=$(date +%s)

if ! podman image exists localhost/debian:bookworm; then
  # a cache left by an interrupted or older run (a directory, or an empty file) is made again
  if [ ! -f "$CACHE/base.tar" ] || [ ! -s "$CACHE/base.tar" ]; then
    rm -rf "$CACHE/base.tar" "$CACHE/base.tar.part" "$CACHE/base.part.tar"
    echo "== base: mmdebstrap --variant=minbase bookworm → $CACHE/base.tar"
    # --format=tar: mmdebstrap picks the output format from the file name otherwise, and a name it
    # does not know (base.tar.part) makes a directory
    mmdebstrap --quiet --format=tar --variant=minbase --include=ca-certificates bookworm "$CACHE/base.part.tar"
    mv "$CACHE/base.part.tar" "$CACHE/base.tar"
  fi
  podman import --quiet "$CACHE/base.tar" localhost/debian:bookworm >/dev/null
fi

build() { # target tag
  echo "== podman build --target $1 → $IMAGE:$2"
  # docker format keeps HEALTHCHECK (OCI image configs have no such field)
  podman build --quiet --isolation chroot --format docker --file deploy/Containerfile \
    --target "$1" --tag "$IMAGE:$2" . >/dev/null
}
build runtime "$VERSION"
podman tag "$IMAGE:$VERSION" "$IMAGE:latest"
if [ "${1:-}" = --ai ]; then build runtime-ai "$VERSION-ai"; fi
# the previous build's layers, now untagged
podman image prune --force >/dev/null 2>&1 || true
podman images --filter "reference=$IMAGE" --format '{{.Repository}}:{{.Tag}} {{.Size}}'
echo "image built in $(( $(date +%s) - started )) s"
