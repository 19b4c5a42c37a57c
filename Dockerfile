# Production image: Node 24, the built app, migrations applied at start. .dockerignore keeps the host's
# node_modules, build/, data/ (secrets.json) and .env out of the build context.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# pg_dump/pg_restore for `docker compose exec app npm run db:backup` (docs/operations.md, Backups): they must be at
# least the server's major version (compose.yaml runs postgres:17), and Debian bookworm has only
# postgresql-client-15, so the client comes from the PostgreSQL project's own repository (PGDG) for bookworm.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && install -d /usr/share/postgresql-common/pgdg \
 && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
 && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-17 \
 && apt-get purge -y --auto-remove curl \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production APP_ENV=production PORT=3000
WORKDIR /app
# db:backup's default folder, writable by the app's user (compose keeps it on the `backups` volume).
RUN mkdir -p /app/backups && chown node:node /app/backups
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/package.json /app/server.js ./
# `npm run db:seed`, `api-key`, `db:backup`, `db:restore` and `audit:verify` (docker compose exec app npm run …) run
# from the image too.
COPY --from=build /app/scripts ./scripts
# DATA_DIR (./data): the audit chain's signed head; a volume mounted here starts owned by node.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server.js"]
