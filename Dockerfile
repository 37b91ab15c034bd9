# Piaffe's container image: `docker build -t piaffe .`, then `docker run -d -p 3000:3000 -v piaffe-data:/data piaffe`
# (README.md, "Run it in a container"; the choices: docs/decisions/0060-a-container-to-run-it.md).

# The build: native modules (better-sqlite3) compile here, with the headers of this image's Node.
FROM node:22-bookworm AS build
WORKDIR /app
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
# Behind a proxy that re-signs TLS, its CA is a build secret: `--secret id=ca,src=/etc/ssl/certs/ca-certificates.crt`
# (nothing of it stays in the image); without one, npm trusts the usual CAs.
RUN --mount=type=secret,id=ca,target=/run/secrets/ca \
  if [ -f /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
  && npm ci --no-audit --no-fund
COPY . .
# The client into dist/, the server and its command lines into dist-server/; then the development dependencies
# go, with those npm keeps as a production package's optional peer (`devOptional` in the lock file: Vitest and Vite,
# as Better Auth's) and what a compiled module keeps of its build (objects, sources).
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && node -e "const fs = require('node:fs'); for (const [path, p] of Object.entries(require('./package-lock.json').packages)) if (p.devOptional) fs.rmSync(path, { recursive: true, force: true })" \
  && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/build/Release/obj node_modules/better-sqlite3/build/Release/obj.target \
    node_modules/better-sqlite3/build/Release/.deps node_modules/better-sqlite3/build/deps

# The run: the built app and its production dependencies on the slim image, owned by root and run by `node`.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
  PORT=3000 \
  DATABASE_URL=file:/data/shop.db
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
COPY --from=build /app/scripts/cli.mjs /app/scripts/build.mjs /app/scripts/healthcheck.mjs ./scripts/
# /data holds all that is the shop's own: the SQLite database (pictures are in it), its generated AUTH_SECRET, its
# lock file, and backups (`npm run backup -- /data/backups/FILE`). A new named volume takes this owner from the image.
RUN mkdir -p /data/backups && chown -R node:node /data && chmod 700 /data /data/backups
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# Node is PID 1 and handles SIGTERM itself (src/server/main.ts): no new requests, those under way finish, the
# database closes, exit 0. `docker stop` waits 10 s by default before SIGKILL; the server's own grace is 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist-server/main.js"]
