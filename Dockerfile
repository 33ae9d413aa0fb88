# One image for every service of the production-like deployment (docker-compose.yml); the service
# is chosen by the command: node app/dist/<command-api | read-api | projections | processes | main>.js.
# The TypeScript is compiled at build (npm run build:server); the runtime stage holds only that
# JavaScript, the built web app and the production dependencies.

FROM node:24-bookworm-slim AS base
WORKDIR /app

# Every dependency, the development tools included; patch-package applies patches/ (postinstall).
FROM base AS deps
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY eventstore/package.json eventstore/
COPY platform/package.json platform/
COPY command-api/package.json command-api/
COPY projections/package.json projections/
COPY read-api/package.json read-api/
COPY processes/package.json processes/
COPY testing/package.json testing/
COPY app/package.json app/
COPY web/package.json web/
COPY patches patches/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx vite build web && npm run build:server

# The same tree with the development dependencies removed (embedded PostgreSQL among them); the
# patched packages stay as patched.
FROM deps AS production-deps
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM base AS runtime
# tini is PID 1: it passes SIGTERM on to node and reaps what node leaves behind.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000
COPY --from=production-deps /app ./
COPY --from=build /app/app/dist app/dist
COPY --from=build /app/web/dist web/dist
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "app/dist/read-api.js"]
