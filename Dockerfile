# One image for every service of the production-like deployment (docker-compose.yml); the
# service is chosen by the command: npm run serve:command-api | serve:read-api | projections | processes.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY eventstore/package.json eventstore/
COPY platform/package.json platform/
COPY command-api/package.json command-api/
COPY projections/package.json projections/
COPY read-api/package.json read-api/
COPY processes/package.json processes/
COPY app/package.json app/
COPY web/package.json web/
# Fixes to dependencies, applied by the install (postinstall: patch-package).
COPY patches patches/
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx vite build web

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/domain domain
COPY --from=build /app/eventstore eventstore
COPY --from=build /app/platform platform
COPY --from=build /app/command-api command-api
COPY --from=build /app/projections projections
COPY --from=build /app/read-api read-api
COPY --from=build /app/processes processes
COPY --from=build /app/app app
COPY --from=build /app/web/package.json web/package.json
COPY --from=build /app/web/dist web/dist
USER node
EXPOSE 3000
CMD ["npm", "run", "serve:read-api"]
