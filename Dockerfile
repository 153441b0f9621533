# syntax=docker/dockerfile:1
# HelpDesk System image: one server process serving the API, Socket.IO and the built web client.
# Debian (glibc) rather than alpine: argon2 ships prebuilt glibc binaries, so nothing is compiled here.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. The workspace manifests alone, so the install layers below are reused until dependencies change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY protocol/package.json protocol/
COPY server/package.json server/
COPY client/package.json client/

# 2. Build: every workspace with its dev dependencies, then client (Vite) and server (esbuild) bundles.
FROM manifests AS build
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 3. Runtime dependencies: the server workspace's production packages only (no client, no dev tools).
FROM manifests AS deps
# npm links the workspaces into node_modules/@helpdesk; the bundle inlines protocol and nothing
# imports the server by name, so the links would only dangle in the runtime image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace server --no-audit --no-fund \
 && rm -rf node_modules/@helpdesk

# 4. Runtime: the bundles, migrations and production node_modules, owned by root and run as `node`.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    PORT=3000
# WORKDIR keeps the defaults working: DATA_DIR ./data → /app/data, CLIENT_DIR → /app/client/dist,
# migrations at server/dist/../migrations.
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# server/package.json carries "type": "module" for dist/main.js.
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/server/migrations ./server/migrations
COPY --from=build /app/client/dist ./client/dist
# The only place the process writes (mail outbox without SMTP_URL; PGlite when DATABASE_URL is unset).
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/dist/main.js"]
