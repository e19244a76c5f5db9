# winnow in a container, for Kubernetes (winnow launch k8s --image) and any node without Node.js.
#   docker build -t REGISTRY/winnow:0.1.0 .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" REGISTRY/winnow:0.1.0 \
#     clean /data/crawl.warc.gz -o /data/out.jsonl.gz
# Three stages: build the workspace and pack it (scripts/pack-cli.js: one tarball with the
# private @winnow/* packages bundled, the models inside), install that tarball with production
# dependencies only, and copy the installed tree into a slim image that runs as a user of its own.

FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.base.json README.md ./
COPY packages ./packages
COPY pipelines ./pipelines
COPY scripts/pack-cli.js ./scripts/
# .npmrc keeps onnxruntime-node from downloading CUDA libraries: winnow runs on the CPU binaries it ships.
RUN npm ci --no-audit --no-fund
# @winnow/features' build writes its function-word table (dist/function-words.bin) after tsc.
RUN npx tsc -b pipelines/cli && npm run build -w @winnow/features && node scripts/pack-cli.js /pack

FROM node:20-bookworm AS install
WORKDIR /opt/winnow
COPY --from=build /pack/ /pack/
# The full image has python3, make and g++ for zstd-napi when no prebuilt binary can be fetched.
RUN echo '{ "private": true }' > package.json \
 && npm_config_onnxruntime_node_install=skip npm install --omit=dev --no-audit --no-fund /pack/winnow-corpus-*.tgz \
 && npm cache clean --force

FROM node:20-bookworm-slim
COPY --from=install /opt/winnow /opt/winnow
# A user of its own with a home: ONNX Runtime keeps a small cache under $HOME/.cache (without a
# writable home it leaves a ":memory:.ses" file in the working folder instead).
RUN ln -s /opt/winnow/node_modules/.bin/winnow /usr/local/bin/winnow \
 && groupadd --gid 10001 winnow \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/winnow winnow \
 && winnow --version
# Numeric, so that Kubernetes can check runAsNonRoot (the Job manifests ask for it).
USER 10001:10001
ENV HOME=/home/winnow
WORKDIR /home/winnow
ENTRYPOINT ["winnow"]
CMD ["--help"]
