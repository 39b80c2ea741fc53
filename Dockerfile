# KYC Desk as a team deploys it: build on the current LTS, run as a non-root user.
# Not built on the development machines (no Docker there); see docs/deployment.md.
FROM node:26-bookworm-slim AS build
# better-sqlite3 compiles against this Node's headers.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:26-bookworm-slim
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/data MALLOC_MMAP_THRESHOLD_=1048576
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s \
  CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The arguments of `npm start` (server/launch.ts; server/launch.test.ts keeps them equal).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=4", "--no-memory-reducer", "--heap-growing-percent=100", "dist-server/main.mjs"]
