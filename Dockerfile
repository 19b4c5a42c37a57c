# Production image: Node 24, the built app, migrations applied at start. .dockerignore keeps the host's
# node_modules, build/, data/ (secrets.json) and .env out of the build context.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production APP_ENV=production PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/package.json /app/server.js ./
# `npm run db:seed` and `npm run api-key` (docker compose exec app npm run …) run from the image too.
COPY --from=build /app/scripts ./scripts
# DATA_DIR (./data): the audit chain's signed head; a volume mounted here starts owned by node.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server.js"]
