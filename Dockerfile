# syntax=docker/dockerfile:1
# Atende: one Node.js process (API, Socket.IO, SFU, web app). See docs/operations.md.
#   docker build -t atende .
#   docker compose -f docker/compose.yml up -d --build

FROM node:20-bookworm-slim AS build
WORKDIR /app
# What scripts/mediasoup-worker/build-worker.sh needs; installed here so the script finds them and
# this layer is cached independently of the sources.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ meson ninja-build pkg-config libssl-dev libuv1-dev libsrtp2-dev libabsl-dev \
      libflatbuffers-dev flatbuffers-compiler libusrsctp-dev \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
# .npmrc keeps ignore-scripts on, so mediasoup does not download its worker from GitHub: the image
# uses the same from-source worker build as offline installs (below).
# npm install, not npm ci: see .ci/run and docs/decisions.md (lockfile without other platforms).
RUN npm install --no-audit --no-fund
# The worker build (~4 min on 2 cores) needs only the installed mediasoup package and the script:
# copying the sources afterwards keeps this layer cached when they change.
COPY scripts/mediasoup-worker scripts/mediasoup-worker
RUN sh scripts/mediasoup-worker/build-worker.sh node_modules/mediasoup /opt/mediasoup-worker/mediasoup-worker
COPY . .
# Patches the Prisma adapter, links embedded PostgreSQL's libraries, generates the Prisma client
# builds the web app into dist/client and bundles the server into dist/server (scripts/setup.mjs).
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
# ffmpeg for recordings; the lib* packages are the worker's runtime libraries (the -dev packages
# of the build stage minus the headers); tini reaps the worker and ffmpeg child processes.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ffmpeg ca-certificates tini libuv1 libssl3 libsrtp2-1 libabsl20220623 libusrsctp2 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /home/app --shell /usr/sbin/nologin app \
 && mkdir -p /data \
 && chown app:app /data
WORKDIR /app
# Owned by root: the app only reads its code; everything it writes goes to /data.
COPY --from=build /opt/mediasoup-worker /opt/mediasoup-worker
COPY --from=build /app /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    MEDIASOUP_WORKER_BIN=/opt/mediasoup-worker/mediasoup-worker \
    RTC_PORT=40000 \
    RTC_MIN_PORT=40000 \
    RTC_MAX_PORT=40100
VOLUME /data
EXPOSE 3000 40000-40100/udp 40000-40100/tcp
USER app
# The first start initialises the embedded PostgreSQL (when DATABASE_URL is unset; initdb --no-sync,
# then a background sync) and applies the migrations' SQL (src/server/db/migrate.ts, no Prisma
# engine): a few seconds, more on a slow disk or a busy host: hence the start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
ENTRYPOINT ["tini", "--"]
# Not `npm start`: its setup step (patches, client and server builds) already ran at build time,
# and npm would sit between tini and node. The compiled server (dist/server/main.js, bundled by
# `npm run build`) runs without a TypeScript loader; it applies pending migrations itself before
# listening. Source maps keep stack traces pointing at src/server.
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
