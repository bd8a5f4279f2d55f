# One image for every service: SERVICES selects what a container runs (see k8s/).
# Build: docker build -t chatbot-builder:1.0.0 .
# test/integration/image-build.test.ts replays the COPY, RUN, ENV, USER and CMD lines of both
# stages on a clean copy (no container engine there): keep each instruction on one line.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json moleculer.config.ts ./
COPY bin ./bin
COPY config ./config
COPY lib ./lib
COPY middlewares ./middlewares
COPY mixins ./mixins
COPY services ./services
COPY scripts ./scripts
COPY assets ./assets
COPY docs ./docs
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# Chromium renders pages for the crawler; fonts so pages in any script lay out; tini is not needed:
# node runs as PID 1 and handles SIGTERM itself (services/ops/process-ops.ts).
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-core ca-certificates && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production CHROMIUM_PATH=/usr/bin/chromium HOME=/tmp DATA_DIR=/tmp/data PORT=3000 OPS_PORT=9090
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The read-only root file system of the pods is enough: only /tmp is written (DATA_DIR, Chromium's profile).
USER 1000:1000
EXPOSE 3000 9090
CMD ["node", "dist/bin/start.js"]
