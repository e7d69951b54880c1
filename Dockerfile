# The reference service as an image (docs/deploy.md). The build stage installs the repository's tools and builds;
# the runtime stage gets only /app: the package as `npm pack` makes it and the service's runtime at the lockfile's
# versions (scripts/service-image.mjs). No compiler, no dev tools, no sources; it runs as the unprivileged `node` user.
# `compose.yaml` runs two of these on PostgreSQL behind Caddy.

FROM node:20-bookworm-slim AS build
WORKDIR /src
# The dependencies first, in their own layer: a source change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/service-image.mjs /app

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    CONFIG=/config/service.config.json
# Owned by root and read-only to the service; /data is the one folder it writes (the embedded database, when no
# DATABASE_URL is given). The base image's package managers go: the service installs nothing at run time.
COPY --from=build /app /app
RUN mkdir /data && chown node:node /data \
  && rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
    /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
USER node
WORKDIR /data
EXPOSE 8787
# /healthz answers while the process serves; readiness (/readyz) is the load balancer's business (deploy/Caddyfile).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/service-widget.js"]
CMD ["serve", "--data-dir", "/data/db"]
