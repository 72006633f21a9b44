# syntax=docker/dockerfile:1
# Entreno: one image, one Node process per container (docs/deploy.md). compose.yaml runs two of
# them behind nginx; tests/integration/load-balancer.test.ts runs the same command
# (`node dist/server/main.js`) behind the same nginx configuration.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build the PWA (dist/client) and the server bundle (dist/server) with every dependency.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only: no Vite, TypeScript, Playwright or test tools in the image.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The runtime: the bundle, the migrations it applies at start, production node_modules.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    CLIENT_DIR=/app/dist/client
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Migrations are read from the sources' path (src/server/paths.ts) at every start.
COPY src/server/db/migrations ./src/server/db/migrations
# DATA_DIR: only embedded installs keep anything there (a volume then); scaled nodes need nothing.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Readiness: PostgreSQL, Redis and the migrations answer, and the node is not draining.
HEALTHCHECK --interval=10s --timeout=4s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful drain (main.ts); give it stop_grace_period ≥ 20 s.
STOPSIGNAL SIGTERM
# The young generation's semi-space as `npm start` sets it (docs/decisions/0062).
CMD ["node", "--max-semi-space-size=64", "dist/server/main.js"]
